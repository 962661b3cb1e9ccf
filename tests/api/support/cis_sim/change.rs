//! The simulator's `promijeniNacPlac`: a change of an issued receipt's payment method. As
//! the specification (2.1.5) and the schema 1.9 say: the request must match the XSD and
//! carry a valid signature; the receipt must be one CIS recorded, with the same data
//! (`s008` otherwise); its date of issue must be today's (`s007`); the answer is
//! `PorukaOdgovora` `p001`.

use super::{SCHEMA, SOAP, State, TNS, reject_with, signature};
use innkeep::compliance::xsd;

/// A change CIS registered: the receipt's number and the new method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    pub number: String,
    pub method: String,
}

fn odgovor(message_id: &str, errors: &[(&str, &str)]) -> String {
    let now = chrono::Utc::now().format("%d.%m.%YT%H:%M:%S");
    let mut inner = format!(
        "<tns:Zaglavlje><tns:IdPoruke>{message_id}</tns:IdPoruke><tns:DatumVrijeme>{now}</tns:DatumVrijeme></tns:Zaglavlje>"
    );
    if errors.is_empty() {
        inner.push_str(
            "<tns:PorukaOdgovora><tns:SifraPoruke>p001</tns:SifraPoruke>\
             <tns:Poruka>Uspješna prijava promjene načina plaćanja.</tns:Poruka></tns:PorukaOdgovora>",
        );
    } else {
        inner.push_str("<tns:Greske>");
        for (c, m) in errors {
            inner.push_str(&format!(
                "<tns:Greska><tns:SifraGreske>{c}</tns:SifraGreske><tns:PorukaGreske>{m}</tns:PorukaGreske></tns:Greska>"
            ));
        }
        inner.push_str("</tns:Greske>");
    }
    format!(
        "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:PromijeniNacPlacOdgovor xmlns:tns=\"{TNS}\">{inner}</tns:PromijeniNacPlacOdgovor></soap:Body></soap:Envelope>"
    )
}

/// Answers a `PromijeniNacPlacZahtjev`; `zki_of` recomputes a receipt's ZKI from its fields.
pub(super) fn handle(
    state: &State,
    body: &str,
    client_cert: &[u8],
    zki_of: &dyn Fn(&str) -> String,
) -> (u16, String) {
    let refuse = |id: &str, code: &str, why: &str| {
        reject_with(state, code, why);
        (200, odgovor(id, &[(code, why)]))
    };
    let Ok(doc) = roxmltree::Document::parse(body) else {
        return refuse("", "s001", "not XML");
    };
    let Some(req) = doc.descendants().find(|n| {
        n.tag_name().name() == "PromijeniNacPlacZahtjev" && n.tag_name().namespace() == Some(TNS)
    }) else {
        return refuse("", "s001", "no PromijeniNacPlacZahtjev");
    };
    let schema_doc = roxmltree::Document::parse(SCHEMA).unwrap();
    let problems = xsd::Schema::new(&schema_doc).validate("PromijeniNacPlacZahtjev", req);
    let field = |path: &[&str]| {
        let mut n = req;
        for p in path {
            n = n.children().find(|c| c.tag_name().name() == *p)?;
        }
        Some(n.text().unwrap_or("").to_string())
    };
    let get = |p: &[&str]| field(p).unwrap_or_default();
    let message_id = get(&["Zaglavlje", "IdPoruke"]);
    if !problems.is_empty() {
        return refuse(&message_id, "s001", &problems.join("; "));
    }
    if let Err(why) = signature::verify(req, client_cert) {
        return refuse(&message_id, "s004", &why);
    }
    let dat = get(&["Racun", "DatVrijeme"]);
    let (number, premises, device) = (
        get(&["Racun", "BrRac", "BrOznRac"]),
        get(&["Racun", "BrRac", "OznPosPr"]),
        get(&["Racun", "BrRac", "OznNapUr"]),
    );
    let oib = get(&["Racun", "Oib"]);
    let input = format!(
        "{oib}{}{number}{premises}{device}{}",
        dat.replace('T', " "),
        get(&["Racun", "IznosUkupno"])
    );
    let key = format!(
        "{oib}|{number}|{premises}|{device}|{}",
        &dat[..10.min(dat.len())]
    );
    let known = state.recorded.lock().unwrap().contains_key(&key);
    if !known || zki_of(&input) != get(&["Racun", "ZastKod"]) {
        let why = "Podaci za račun u poruci promjene načina plaćanja razlikuju se od podataka \
                   fiskaliziranog računa ili račun nije fiskaliziran.";
        return refuse(&message_id, "s008", why);
    }
    let today = state.today().format("%d.%m.%Y").to_string();
    if dat.get(..10) != Some(today.as_str()) {
        let why = "Datum izdavanja računa u poruci promjene načina plaćanja nije jednak trenutnom datumu.";
        return refuse(&message_id, "s007", why);
    }
    state.changes.lock().unwrap().push(Changed {
        number: format!("{number}/{premises}/{device}"),
        method: get(&["Racun", "PromijenjeniNacinPlac"]),
    });
    (200, odgovor(&message_id, &[]))
}
