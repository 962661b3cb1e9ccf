//! The CIS messages (schema 1.9): `RacunZahtjev` and `PromijeniNacPlacZahtjev` (a change of
//! payment method: the receipt as sent, then `PromijenjeniNacinPlac`) in the element order
//! of the XSD, signed with enveloped XML-DSig (exclusive C14N, RSA-SHA1, SHA-1 digest,
//! X509Data) inside a SOAP 1.1 envelope, and the reading of `RacunOdgovor` (a JIR, or
//! `Greske`), `PromijeniNacPlacOdgovor` (`PorukaOdgovora`, or `Greske`) or a SOAP fault.
//!
//! The signed element is written directly in its exclusive-C14N form (its own namespace
//! declaration first, then `Id`; no whitespace between elements; explicit end tags), so its
//! digest is the SHA-1 of the very bytes sent, without the `Signature`, as the
//! enveloped-signature transform prescribes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chrono::NaiveDateTime;
use rsa::pkcs1v15::SigningKey;
use rsa::signature::{SignatureEncoding, Signer};
use sha1::{Digest, Sha1};

use super::credentials::Credentials;
use super::receipt::{Receipt, amount, cis_time, rate};

/// The CIS types namespace.
pub const NS: &str = "http://www.apis-it.hr/fin/2012/types/f73";
/// The XML-DSig namespace.
pub const DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";
/// The SOAP 1.1 envelope namespace.
pub const SOAP: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// The SOAPAction of the `racuni` operation.
pub const SOAP_ACTION: &str =
    "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/racuni";
/// The SOAPAction of the `promijeniNacPlac` operation (a change of payment method).
pub const CHANGE_ACTION: &str = "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/promijeniNacPlac";
/// The SOAPAction of the `echo` operation (a connection check).
pub const ECHO_ACTION: &str =
    "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/echo";
const EXC_C14N: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";

/// Escapes element text as exclusive C14N writes it.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
    out
}

fn el(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("<tns:{name}>{}</tns:{name}>", escape(value)));
}

/// The children of `RacunZahtjev` (header and receipt), in XSD order; with `changed`, of
/// `PromijeniNacPlacZahtjev` (the receipt ends with `PromijenjeniNacinPlac`).
pub fn body(
    r: &Receipt,
    message_id: &str,
    sent_at: NaiveDateTime,
    late: bool,
    changed: Option<&str>,
) -> String {
    let mut o = String::with_capacity(1024);
    o.push_str("<tns:Zaglavlje>");
    el(&mut o, "IdPoruke", message_id);
    el(&mut o, "DatumVrijeme", &cis_time(sent_at));
    o.push_str("</tns:Zaglavlje><tns:Racun>");
    el(&mut o, "Oib", &r.oib);
    el(
        &mut o,
        "USustPdv",
        if r.in_vat_system { "true" } else { "false" },
    );
    el(&mut o, "DatVrijeme", &cis_time(r.issued_at));
    el(&mut o, "OznSlijed", "P");
    o.push_str("<tns:BrRac>");
    el(&mut o, "BrOznRac", &r.number.to_string());
    el(&mut o, "OznPosPr", &r.premises);
    el(&mut o, "OznNapUr", &r.device);
    o.push_str("</tns:BrRac>");
    if !r.vat.is_empty() {
        o.push_str("<tns:Pdv>");
        for v in &r.vat {
            o.push_str("<tns:Porez>");
            el(&mut o, "Stopa", &rate(v.rate));
            el(&mut o, "Osnovica", &amount(v.base));
            el(&mut o, "Iznos", &amount(v.amount));
            o.push_str("</tns:Porez>");
        }
        o.push_str("</tns:Pdv>");
    }
    el(&mut o, "IznosUkupno", &amount(r.total));
    el(&mut o, "NacinPlac", &r.payment);
    el(&mut o, "OibOper", &r.operator_oib);
    el(&mut o, "ZastKod", &r.zki);
    el(&mut o, "NakDost", if late { "true" } else { "false" });
    if let Some(oib) = &r.buyer_oib {
        el(&mut o, "OibPrimateljaRacuna", oib);
    }
    if let Some(method) = changed {
        el(&mut o, "PromijenjeniNacinPlac", method);
    }
    o.push_str("</tns:Racun>");
    o
}

/// `SignedInfo` for a reference to `#id` with `digest`; `apex` adds the namespace
/// declaration that exclusive C14N renders when it is the signed subset's top.
fn signed_info(id: &str, digest: &str, apex: bool) -> String {
    let ns = if apex {
        format!(" xmlns=\"{DSIG}\"")
    } else {
        String::new()
    };
    format!(
        "<SignedInfo{ns}><CanonicalizationMethod Algorithm=\"{EXC_C14N}\"></CanonicalizationMethod>\
         <SignatureMethod Algorithm=\"{DSIG}rsa-sha1\"></SignatureMethod>\
         <Reference URI=\"#{id}\"><Transforms>\
         <Transform Algorithm=\"{DSIG}enveloped-signature\"></Transform>\
         <Transform Algorithm=\"{EXC_C14N}\"></Transform></Transforms>\
         <DigestMethod Algorithm=\"{DSIG}sha1\"></DigestMethod>\
         <DigestValue>{digest}</DigestValue></Reference></SignedInfo>"
    )
}

/// The whole SOAP request: `RacunZahtjev` for `r`, with a fresh message id, signed.
pub fn request(
    r: &Receipt,
    creds: &Credentials,
    message_id: &str,
    sent_at: NaiveDateTime,
    late: bool,
) -> String {
    let inner = body(r, message_id, sent_at, late, None);
    signed(
        "RacunZahtjev",
        &format!("racun-{message_id}"),
        &inner,
        creds,
    )
}

/// The whole SOAP request: `PromijeniNacPlacZahtjev` for the receipt `r` as CIS has it
/// (`late`: it went with `NakDost`), its payment method now `method`, signed.
pub fn change_request(
    r: &Receipt,
    (method, late): (&str, bool),
    creds: &Credentials,
    message_id: &str,
    sent_at: NaiveDateTime,
) -> String {
    let inner = body(r, message_id, sent_at, late, Some(method));
    let id = format!("promijeniNacPlac-{message_id}");
    signed("PromijeniNacPlacZahtjev", &id, &inner, creds)
}

/// The message `element` (attribute `Id` = `id`) holding `inner`, with its enveloped
/// signature, in a SOAP envelope.
fn signed(element: &str, id: &str, inner: &str, creds: &Credentials) -> String {
    let open = format!("<tns:{element} xmlns:tns=\"{NS}\" Id=\"{id}\">");
    let canonical = format!("{open}{inner}</tns:{element}>");
    let digest = B64.encode(Sha1::digest(canonical.as_bytes()));
    let to_sign = signed_info(id, &digest, true);
    let value = SigningKey::<Sha1>::new(creds.key.clone()).sign(to_sign.as_bytes());
    let signature = format!(
        "<Signature xmlns=\"{DSIG}\">{}<SignatureValue>{}</SignatureValue><KeyInfo><X509Data>\
         <X509Certificate>{}</X509Certificate><X509IssuerSerial>\
         <X509IssuerName>{}</X509IssuerName><X509SerialNumber>{}</X509SerialNumber>\
         </X509IssuerSerial></X509Data></KeyInfo></Signature>",
        signed_info(id, &digest, false),
        B64.encode(value.to_bytes()),
        B64.encode(&creds.chain[0]),
        escape(&creds.issuer),
        creds.serial
    );
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"{SOAP}\">\
         <soapenv:Body>{open}{inner}{signature}</tns:{element}></soapenv:Body></soapenv:Envelope>"
    )
}

/// An `EchoRequest` carrying `text`.
pub fn echo_request(text: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"{SOAP}\">\
         <soapenv:Body><tns:EchoRequest xmlns:tns=\"{NS}\">{}</tns:EchoRequest></soapenv:Body></soapenv:Envelope>",
        escape(text)
    )
}

/// The text of an `EchoResponse`.
pub fn parse_echo(text: &str) -> Result<String, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("unreadable XML: {e}"))?;
    doc.descendants()
        .find(|n| n.is_element() && n.tag_name().name() == "EchoResponse")
        .map(|n| n.text().unwrap_or("").to_string())
        .ok_or_else(|| "no EchoResponse in the answer".into())
}

/// What CIS answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The receipt is registered under this JIR.
    Jir(String),
    /// A change was registered: `PorukaOdgovora`'s `SifraPoruke` (`p001`).
    Done(String),
    /// It was refused: `(SifraGreske, PorukaGreske)` pairs.
    Errors(Vec<(String, String)>),
    /// A SOAP fault.
    Fault(String),
}

/// Reads a `RacunOdgovor`, a `PromijeniNacPlacOdgovor` or a SOAP fault.
pub fn parse_answer(text: &str) -> Result<Answer, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("unreadable XML: {e}"))?;
    let find = |name: &str| {
        doc.descendants()
            .find(|n| n.is_element() && n.tag_name().name() == name)
    };
    let text_of = |n: roxmltree::Node| n.text().unwrap_or("").trim().to_string();
    if let Some(fault) = find("Fault") {
        let why = fault
            .descendants()
            .find(|n| n.tag_name().name() == "faultstring")
            .map(text_of)
            .unwrap_or_else(|| "a SOAP fault without a faultstring".into());
        return Ok(Answer::Fault(why));
    }
    let answer = find("RacunOdgovor")
        .or_else(|| find("PromijeniNacPlacOdgovor"))
        .ok_or("no RacunOdgovor or PromijeniNacPlacOdgovor in the answer")?;
    fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, name: &str) -> Option<roxmltree::Node<'a, 'i>> {
        n.children().find(|c| {
            c.is_element() && c.tag_name().namespace() == Some(NS) && c.tag_name().name() == name
        })
    }
    if let Some(jir) = child(answer, "Jir") {
        return Ok(Answer::Jir(text_of(jir)));
    }
    if let Some(code) = child(answer, "PorukaOdgovora").and_then(|p| child(p, "SifraPoruke")) {
        return Ok(Answer::Done(text_of(code)));
    }
    let errors: Vec<(String, String)> = child(answer, "Greske")
        .map(|g| {
            g.children()
                .filter(|c| c.is_element() && c.tag_name().name() == "Greska")
                .map(|e| {
                    let code = child(e, "SifraGreske").map(text_of).unwrap_or_default();
                    let msg = child(e, "PorukaGreske").map(text_of).unwrap_or_default();
                    (code, msg)
                })
                .collect()
        })
        .unwrap_or_default();
    if errors.is_empty() {
        return Err("the answer holds neither a Jir, a PorukaOdgovora nor Greske".into());
    }
    Ok(Answer::Errors(errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read() {
        let ok = format!(
            "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:RacunOdgovor xmlns:tns=\"{NS}\">\
             <tns:Zaglavlje><tns:IdPoruke>x</tns:IdPoruke></tns:Zaglavlje>\
             <tns:Jir>2cf55235-9470-4b5c-a539-463f52b109d2</tns:Jir></tns:RacunOdgovor></soap:Body></soap:Envelope>"
        );
        assert_eq!(
            parse_answer(&ok).unwrap(),
            Answer::Jir("2cf55235-9470-4b5c-a539-463f52b109d2".into())
        );
        let bad = format!(
            "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:RacunOdgovor xmlns:tns=\"{NS}\">\
             <tns:Greske><tns:Greska><tns:SifraGreske>s004</tns:SifraGreske>\
             <tns:PorukaGreske>Neispravan digitalni potpis.</tns:PorukaGreske></tns:Greska></tns:Greske>\
             </tns:RacunOdgovor></soap:Body></soap:Envelope>"
        );
        assert_eq!(
            parse_answer(&bad).unwrap(),
            Answer::Errors(vec![("s004".into(), "Neispravan digitalni potpis.".into())])
        );
        let fault = format!(
            "<s:Envelope xmlns:s=\"{SOAP}\"><s:Body><s:Fault><faultcode>s:Server</faultcode>\
             <faultstring>down</faultstring></s:Fault></s:Body></s:Envelope>"
        );
        assert_eq!(parse_answer(&fault).unwrap(), Answer::Fault("down".into()));
        let changed = format!(
            "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:PromijeniNacPlacOdgovor xmlns:tns=\"{NS}\">\
             <tns:Zaglavlje><tns:IdPoruke>x</tns:IdPoruke></tns:Zaglavlje><tns:PorukaOdgovora>\
             <tns:SifraPoruke>p001</tns:SifraPoruke><tns:Poruka>Uspješna prijava.</tns:Poruka>\
             </tns:PorukaOdgovora></tns:PromijeniNacPlacOdgovor></soap:Body></soap:Envelope>"
        );
        assert_eq!(parse_answer(&changed).unwrap(), Answer::Done("p001".into()));
        assert!(parse_answer("<html>").is_err());
    }
}
