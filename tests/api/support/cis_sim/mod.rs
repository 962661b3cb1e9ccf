//! A CIS (Croatian tax administration) simulator: HTTPS on loopback with a test CA,
//! requiring the company's client certificate. For every `RacunZahtjev` it checks the
//! SOAPAction, the shape against the official XSD, the enveloped XML signature (exclusive
//! C14N recomputed from the parsed document, SHA-1 digest, RSA-SHA1 over `SignedInfo`, with
//! the certificate in `KeyInfo`, which must be the TLS client certificate), and recomputes
//! the ZKI with the company key. It answers with a JIR, or the errors, and on demand
//! injects a timeout, HTTP 500, `s004`, a duplicate, a lost answer after recording, or an
//! outage (connections dropped before TLS).

pub mod c14n;
pub mod change;
pub mod pki;
mod signature;
use innkeep::compliance::xsd;

use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rsa::pkcs8::DecodePrivateKey;
use sha1::Sha1;

pub const TNS: &str = "http://www.apis-it.hr/fin/2012/types/f73";
pub const DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";
const SOAP: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const ACTION: &str =
    "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/racuni";
const CHANGE_ACTION: &str = "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/promijeniNacPlac";
const ECHO_ACTION: &str =
    "http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/echo";
const SCHEMA: &str = include_str!("../../../fixtures/hr-cis/FiskalizacijaSchema.xsd");

/// The JIR of a receipt the authority held before innkeep sent it ([`Fault::Duplicate`]).
pub const HELD_JIR: &str = "0d0e1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";

/// A fault for the next request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Record the receipt, then answer only after this long (past the client's timeout).
    Timeout(Duration),
    /// HTTP 500 with a SOAP fault; nothing recorded.
    Http500,
    /// `s004`: invalid signature; nothing recorded.
    S004,
    /// The authority already holds this receipt (say, from another channel) under
    /// [`HELD_JIR`]: it answers with that JIR.
    Duplicate,
    /// Record the receipt, then close the connection without answering.
    LoseAnswer,
}

/// What the authority received.
#[derive(Debug, Clone)]
pub struct Received {
    pub message_id: String,
    pub late: bool,
    pub number: String,
    pub total: String,
    pub zki: String,
    pub payment: String,
    pub vat: Vec<(String, String, String)>,
    pub jir: Option<String>,
    /// `OibPrimateljaRacuna`, when sent.
    pub buyer_oib: Option<String>,
    /// `OibOper`.
    pub operator_oib: String,
}

#[derive(Default)]
struct State {
    faults: Mutex<VecDeque<Fault>>,
    /// Receipts recorded, by (OIB, number, premises, device, date): the JIR given.
    recorded: Mutex<HashMap<String, String>>,
    received: Mutex<Vec<Received>>,
    violations: Mutex<Vec<String>>,
    offline: AtomicBool,
    /// Changes of payment method registered.
    changes: Mutex<Vec<change::Changed>>,
    /// The authority's today (default: Zagreb's).
    today: Mutex<Option<chrono::NaiveDate>>,
}

impl State {
    fn today(&self) -> chrono::NaiveDate {
        self.today.lock().unwrap().unwrap_or_else(|| {
            chrono::Utc::now()
                .with_timezone(&chrono_tz::Europe::Zagreb)
                .date_naive()
        })
    }
}

pub struct Sim {
    pub addr: SocketAddr,
    pub pki: pki::Pki,
    state: Arc<State>,
}

impl Sim {
    pub fn start() -> Sim {
        let pki = pki::generate();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State::default());
        let config = Arc::new(tls_config(&pki));
        let company_key = rsa::RsaPrivateKey::from_pkcs8_pem(pki::COMPANY_KEY).unwrap();
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (s, config, key) = (s.clone(), config.clone(), company_key.clone());
                std::thread::spawn(move || serve(stream, config, s, key));
            }
        });
        Sim { addr, pki, state }
    }

    pub fn url(&self) -> String {
        format!("https://{}/FiskalizacijaService", self.addr)
    }

    pub fn inject(&self, fault: Fault) {
        self.state.faults.lock().unwrap().push_back(fault);
    }

    /// While offline, every connection is dropped before the TLS handshake.
    pub fn set_offline(&self, offline: bool) {
        self.state.offline.store(offline, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }

    /// The changes of payment method registered.
    pub fn changes(&self) -> Vec<change::Changed> {
        self.state.changes.lock().unwrap().clone()
    }

    /// Sets the authority's today (the day a change of payment method must be made on).
    pub fn set_today(&self, day: chrono::NaiveDate) {
        *self.state.today.lock().unwrap() = Some(day);
    }

    /// Everything the simulator found wrong in innkeep's requests.
    pub fn violations(&self) -> Vec<String> {
        self.state.violations.lock().unwrap().clone()
    }
}

fn tls_config(pki: &pki::Pki) -> rustls::ServerConfig {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(pki.ca_der.clone())).unwrap();
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
        Arc::new(roots),
        provider.clone(),
    )
    .build()
    .unwrap();
    rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(
            vec![CertificateDer::from(pki.server_der.clone())],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(pki.server_key_der.clone())),
        )
        .unwrap()
}

fn serve(
    tcp: TcpStream,
    config: Arc<rustls::ServerConfig>,
    state: Arc<State>,
    key: rsa::RsaPrivateKey,
) {
    if state.offline.load(Ordering::SeqCst) {
        return;
    }
    let conn = rustls::ServerConnection::new(config).unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let Some((headers, body)) = read_request(&mut tls) else {
        return;
    };
    let client_cert = tls
        .conn
        .peer_certificates()
        .and_then(|c| c.first())
        .map(|c| c.to_vec())
        .unwrap_or_default();
    let fault = state.faults.lock().unwrap().pop_front();
    let (status, answer) = match fault {
        Some(Fault::Http500) => (500, fault_envelope("Internal error (simulated)")),
        Some(Fault::S004) => (
            200,
            odgovor("", None, &[("s004", "Neispravan digitalni potpis.")]),
        ),
        _ => handle(&state, &headers, &body, &client_cert, &key, fault),
    };
    match fault {
        Some(Fault::LoseAnswer) => return,
        Some(Fault::Timeout(d)) => std::thread::sleep(d),
        _ => {}
    }
    let reply = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        if status == 200 {
            "OK"
        } else {
            "Internal Server Error"
        },
        answer.len()
    );
    let _ = tls.write_all(reply.as_bytes());
    let _ = tls.flush();
    tls.conn.send_close_notify();
    let _ = tls.flush();
}

fn read_request(s: &mut impl Read) -> Option<(String, String)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = s.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let headers = text[..end].to_string();
            let len: usize = headers
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                let body = String::from_utf8(buf[end + 4..end + 4 + len].to_vec()).ok()?;
                return Some((headers, body));
            }
        }
    }
}

fn fault_envelope(why: &str) -> String {
    format!(
        "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode>\
         <faultstring>{why}</faultstring></soap:Fault></soap:Body></soap:Envelope>"
    )
}

fn odgovor(message_id: &str, jir: Option<&str>, errors: &[(&str, &str)]) -> String {
    let now = chrono::Utc::now().format("%d.%m.%YT%H:%M:%S");
    let mut inner = format!(
        "<tns:Zaglavlje><tns:IdPoruke>{message_id}</tns:IdPoruke><tns:DatumVrijeme>{now}</tns:DatumVrijeme></tns:Zaglavlje>"
    );
    if let Some(j) = jir {
        inner.push_str(&format!("<tns:Jir>{j}</tns:Jir>"));
    }
    if !errors.is_empty() {
        inner.push_str("<tns:Greske>");
        for (c, m) in errors {
            inner.push_str(&format!(
                "<tns:Greska><tns:SifraGreske>{c}</tns:SifraGreske><tns:PorukaGreske>{m}</tns:PorukaGreske></tns:Greska>"
            ));
        }
        inner.push_str("</tns:Greske>");
    }
    format!(
        "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:RacunOdgovor xmlns:tns=\"{TNS}\">{inner}</tns:RacunOdgovor></soap:Body></soap:Envelope>"
    )
}

fn handle(
    state: &State,
    headers: &str,
    body: &str,
    client_cert: &[u8],
    key: &rsa::RsaPrivateKey,
    fault: Option<Fault>,
) -> (u16, String) {
    let mut problems = Vec::new();
    let action = headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("soapaction")
            .then(|| v.trim().trim_matches('"').to_string())
    });
    if action.as_deref() == Some(ECHO_ACTION) {
        let doc = roxmltree::Document::parse(body).unwrap();
        let text = doc
            .descendants()
            .find(|n| n.tag_name().name() == "EchoRequest")
            .and_then(|n| n.text())
            .unwrap_or("");
        let at = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
        return (
            200,
            format!(
                "<soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body><tns:EchoResponse xmlns:tns=\"{TNS}\">\
                 Request: '{text}'. Response: '{at}'</tns:EchoResponse></soap:Body></soap:Envelope>"
            ),
        );
    }
    if action.as_deref() == Some(CHANGE_ACTION) {
        return change::handle(state, body, client_cert, &|input| zki_of(key, input));
    }
    if action.as_deref() != Some(ACTION) {
        problems.push(format!("SOAPAction {action:?}"));
    }
    let doc = match roxmltree::Document::parse(body) {
        Ok(d) => d,
        Err(e) => return reject(state, "", "s001", &format!("not XML: {e}")),
    };
    let Some(req) = doc
        .descendants()
        .find(|n| n.tag_name().name() == "RacunZahtjev" && n.tag_name().namespace() == Some(TNS))
    else {
        return reject(state, "", "s001", "no RacunZahtjev");
    };
    let schema_doc = roxmltree::Document::parse(SCHEMA).unwrap();
    problems.extend(xsd::Schema::new(&schema_doc).validate("RacunZahtjev", req));
    let field = |path: &[&str]| {
        let mut n = req;
        for p in path {
            n = n.children().find(|c| c.tag_name().name() == *p)?;
        }
        Some(n.text().unwrap_or("").to_string())
    };
    let message_id = field(&["Zaglavlje", "IdPoruke"]).unwrap_or_default();
    if !problems.is_empty() {
        return reject(state, &message_id, "s001", &problems.join("; "));
    }
    if let Err(why) = signature::verify(req, client_cert) {
        return reject(state, &message_id, "s004", &why);
    }
    let get = |p: &[&str]| field(p).unwrap_or_default();
    let dat = get(&["Racun", "DatVrijeme"]);
    let number = get(&["Racun", "BrRac", "BrOznRac"]);
    let (premises, device) = (
        get(&["Racun", "BrRac", "OznPosPr"]),
        get(&["Racun", "BrRac", "OznNapUr"]),
    );
    let total = get(&["Racun", "IznosUkupno"]);
    let oib = get(&["Racun", "Oib"]);
    let input = format!(
        "{oib}{}{number}{premises}{device}{total}",
        dat.replace('T', " ")
    );
    let zki = get(&["Racun", "ZastKod"]);
    let expected = zki_of(key, &input);
    if zki != expected {
        return reject(
            state,
            &message_id,
            "s001",
            &format!("ZastKod {zki} is not the ZKI of {input:?}"),
        );
    }
    let vat = req
        .descendants()
        .filter(|n| n.tag_name().name() == "Porez")
        .map(|p| {
            let t = |name: &str| {
                p.children()
                    .find(|c| c.tag_name().name() == name)
                    .and_then(|c| c.text())
                    .unwrap_or("")
                    .to_string()
            };
            (t("Stopa"), t("Osnovica"), t("Iznos"))
        })
        .collect();
    let receipt_key = format!(
        "{oib}|{number}|{premises}|{device}|{}",
        &dat[..10.min(dat.len())]
    );
    let jir = {
        let mut rec = state.recorded.lock().unwrap();
        if fault == Some(Fault::Duplicate) {
            rec.insert(receipt_key.clone(), HELD_JIR.to_string());
        }
        rec.entry(receipt_key)
            .or_insert_with(|| uuid::Uuid::new_v4().to_string())
            .clone()
    };
    state.received.lock().unwrap().push(Received {
        message_id: message_id.clone(),
        late: get(&["Racun", "NakDost"]) == "true",
        number: format!("{number}/{premises}/{device}"),
        total,
        zki,
        payment: get(&["Racun", "NacinPlac"]),
        vat,
        jir: Some(jir.clone()),
        buyer_oib: field(&["Racun", "OibPrimateljaRacuna"]),
        operator_oib: get(&["Racun", "OibOper"]),
    });
    (200, odgovor(&message_id, Some(&jir), &[]))
}

fn reject(state: &State, message_id: &str, code: &str, why: &str) -> (u16, String) {
    reject_with(state, code, why);
    (200, odgovor(message_id, None, &[(code, why)]))
}

/// Notes a refusal among the violations.
fn reject_with(state: &State, code: &str, why: &str) {
    state
        .violations
        .lock()
        .unwrap()
        .push(format!("{code}: {why}"));
}

/// The ZKI of a receipt's chapter-12 input, with the company key.
fn zki_of(key: &rsa::RsaPrivateKey, input: &str) -> String {
    use md5::Digest as _;
    use rsa::signature::{SignatureEncoding, Signer};
    let sig = rsa::pkcs1v15::SigningKey::<Sha1>::new(key.clone()).sign(input.as_bytes());
    md5::Md5::digest(sig.to_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}
