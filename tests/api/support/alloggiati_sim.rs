//! An Alloggiati Web simulator: a loopback HTTP/1.1 server speaking the WSDL's SOAP 1.1
//! envelopes (`GenerateToken`, `Send`, `Test`). It keeps tokens with an expiry, validates
//! every record as COMPLIANCE.md lays it out (length, positions, dates, codes, party order),
//! stores the valid rows of a `Send`, and injects faults on demand: a timeout, HTTP 500, a
//! SOAP fault, a token that expires mid-batch, a per-row reject, and a connection reset
//! after the rows were recorded. Raw TCP, so that a reset really is a reset.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{NaiveDate, Utc};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub const USER: &str = "hotel-test";
pub const PASSWORD: &str = "pw-Very$ecret";
pub const WS_KEY: &str = "wskey-0123456789";
const NS: &str = "AlloggiatiService";
const SOAP: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// Codes the simulated authority knows (those of the shipped sample tables).
const STATES: [&str; 10] = [
    "100000100",
    "100000203",
    "100000215",
    "100000216",
    "100000219",
    "100000239",
    "100000241",
    "100000536",
    "100000605",
    "100000326",
];
const MUNICIPALITIES: [&str; 9] = [
    "412058091",
    "403015146",
    "409048017",
    "415063049",
    "405027042",
    "405028001",
    "401001272",
    "403097042",
    "416072006",
];
const DOCUMENTS: [&str; 4] = ["IDENT", "IDELE", "PASOR", "PATEN"];

/// A fault for the next call of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Process the call, then answer only after this long (past the client's timeout).
    Timeout(Duration),
    /// HTTP 500 with an HTML page; nothing processed.
    Http500,
    /// A `soap:Server` fault; nothing processed.
    Soap,
    /// Every token expires before the call is processed.
    ExpireTokens,
    /// Process and store, then reset the connection without answering.
    ResetAfterRecording,
}

#[derive(Default)]
struct State {
    today: Mutex<Option<NaiveDate>>,
    tokens: Mutex<HashMap<String, chrono::DateTime<Utc>>>,
    stored: Mutex<Vec<String>>,
    calls: Mutex<Vec<String>>,
    faults: Mutex<VecDeque<(String, Fault)>>,
    reject_surnames: Mutex<Vec<String>>,
}

pub struct Sim {
    pub addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Sim {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Sim {
    pub async fn start(today: NaiveDate) -> Sim {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State::default());
        *state.today.lock().unwrap() = Some(today);
        let s = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, s.clone()));
            }
        });
        Sim { addr, state, task }
    }

    pub fn url(&self) -> String {
        format!("http://{}/service/service.asmx", self.addr)
    }

    pub fn set_today(&self, day: NaiveDate) {
        *self.state.today.lock().unwrap() = Some(day);
    }

    /// The next call of `operation` meets `fault`.
    pub fn inject(&self, operation: &str, fault: Fault) {
        self.state
            .faults
            .lock()
            .unwrap()
            .push_back((operation.into(), fault));
    }

    /// Rows with this surname are refused (error 12).
    pub fn reject_surname(&self, surname: &str) {
        self.state
            .reject_surnames
            .lock()
            .unwrap()
            .push(surname.into());
    }

    /// Every row stored by `Send`.
    pub fn stored(&self) -> Vec<String> {
        self.state.stored.lock().unwrap().clone()
    }

    /// The operations called, in order.
    pub fn calls(&self) -> Vec<String> {
        self.state.calls.lock().unwrap().clone()
    }
}

enum Answer {
    Reply(u16, String),
    Late(Duration, u16, String),
    Reset,
}

async fn serve(mut stream: TcpStream, state: Arc<State>) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let (head_end, length) = loop {
        let Ok(n) = stream.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (i + 4, length);
        }
    };
    while buf.len() < head_end + length {
        let Ok(n) = stream.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let body = String::from_utf8_lossy(&buf[head_end..head_end + length]).to_string();
    let action = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("soapaction:")
                .then(|| l[11..].trim().trim_matches('"').to_string())
        })
        .unwrap_or_default();
    let (status, text, delay) = match handle(&state, &action, &body) {
        Answer::Reply(s, t) => (s, t, None),
        Answer::Late(d, s, t) => (s, t, Some(d)),
        Answer::Reset => {
            let _ = stream.set_zero_linger();
            drop(stream);
            return;
        }
    };
    if let Some(d) = delay {
        tokio::time::sleep(d).await;
    }
    let kind = if status == 200 || text.starts_with("<?xml") {
        "text/xml; charset=utf-8"
    } else {
        "text/html"
    };
    let reply = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        if status == 200 {
            "OK"
        } else {
            "Internal Server Error"
        },
        text.len()
    );
    let _ = stream.write_all(reply.as_bytes()).await;
    let _ = stream.shutdown().await;
}

fn envelope(inner: String) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"{SOAP}\"><soap:Body>{inner}</soap:Body></soap:Envelope>"
    )
}

fn esito(ok: bool, code: &str, des: &str) -> String {
    format!(
        "<esito>{ok}</esito><ErroreCod>{code}</ErroreCod><ErroreDes>{des}</ErroreDes><ErroreDettaglio />"
    )
}

fn handle(state: &State, action: &str, body: &str) -> Answer {
    let Some(op) = action.strip_prefix("AlloggiatiService/") else {
        return Answer::Reply(500, "no SOAPAction".into());
    };
    state.calls.lock().unwrap().push(op.to_string());
    let fault = {
        let mut faults = state.faults.lock().unwrap();
        let i = faults.iter().position(|(o, _)| o == op);
        i.and_then(|i| faults.remove(i)).map(|(_, f)| f)
    };
    match fault {
        Some(Fault::Http500) => {
            return Answer::Reply(500, "<html><body>Server Error</body></html>".into());
        }
        Some(Fault::Soap) => {
            return Answer::Reply(500, envelope("<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Servizio temporaneamente non disponibile</faultstring></soap:Fault>".into()));
        }
        Some(Fault::ExpireTokens) => state.tokens.lock().unwrap().clear(),
        _ => {}
    }
    let Ok(doc) = roxmltree::Document::parse(body) else {
        return Answer::Reply(500, "not XML".into());
    };
    let Some(call) = doc.descendants().find(|n| {
        n.is_element() && n.tag_name().name() == op && n.tag_name().namespace() == Some(NS)
    }) else {
        return Answer::Reply(
            500,
            envelope(format!(
                "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>no {op} element</faultstring></soap:Fault>"
            )),
        );
    };
    let field = |name: &str| {
        call.children()
            .find(|c| c.tag_name().name() == name)
            .and_then(|c| c.text())
            .unwrap_or("")
            .to_string()
    };
    let answer = match op {
        "GenerateToken" => {
            if (field("Utente"), field("Password"), field("WsKey"))
                != (USER.into(), PASSWORD.into(), WS_KEY.into())
            {
                envelope(format!(
                    "<GenerateTokenResponse xmlns=\"{NS}\"><result>{}</result></GenerateTokenResponse>",
                    esito(false, "AUTH", "Credenziali non valide")
                ))
            } else {
                let token = format!("tok-{}", uuid::Uuid::now_v7().simple());
                let now = Utc::now();
                let expires = now + chrono::Duration::minutes(30);
                state.tokens.lock().unwrap().insert(token.clone(), expires);
                envelope(format!(
                    "<GenerateTokenResponse xmlns=\"{NS}\"><GenerateTokenResult><issued>{}</issued><expires>{}</expires><token>{token}</token></GenerateTokenResult><result>{}</result></GenerateTokenResponse>",
                    now.to_rfc3339(),
                    expires.to_rfc3339(),
                    esito(true, "", "")
                ))
            }
        }
        "Ricevuta" => {
            let valid = state
                .tokens
                .lock()
                .unwrap()
                .get(&field("token"))
                .is_some_and(|e| *e > Utc::now());
            // The day as the rows write it (`dd/mm/yyyy`), from `Data` (an xsd:dateTime).
            let day = chrono::NaiveDate::parse_from_str(
                field("Data").get(..10).unwrap_or(""),
                "%Y-%m-%d",
            )
            .map(|d| d.format("%d/%m/%Y").to_string())
            .unwrap_or_default();
            let rows = state
                .stored
                .lock()
                .unwrap()
                .iter()
                .filter(|r| r.get(2..12) == Some(day.as_str()))
                .count();
            let (result, pdf) = match (field("Utente") == USER && valid, rows) {
                (false, _) => (
                    esito(false, "TK", "Token scaduto o non valido"),
                    String::new(),
                ),
                (true, 0) => (esito(false, "", "ERRORE_RECUPERO_RICEVUTA"), String::new()),
                (true, n) => {
                    use base64::Engine;
                    let doc = format!("%PDF-1.4\n% Ricevuta {day}: {n} schedine\n%%EOF\n");
                    (
                        esito(true, "", ""),
                        base64::engine::general_purpose::STANDARD.encode(doc),
                    )
                }
            };
            envelope(format!(
                "<RicevutaResponse xmlns=\"{NS}\"><RicevutaResult>{result}</RicevutaResult><PDF>{pdf}</PDF></RicevutaResponse>"
            ))
        }
        "Tabella" => {
            let valid = state
                .tokens
                .lock()
                .unwrap()
                .get(&field("token"))
                .is_some_and(|e| *e > Utc::now());
            let csv = match field("tipo").as_str() {
                "Luoghi" => Some(include_str!(
                    "../../../assets/compliance/it-alloggiati/Luoghi.sample.csv"
                )),
                "Tipi_Documento" => Some(include_str!(
                    "../../../assets/compliance/it-alloggiati/Tipi_Documento.sample.csv"
                )),
                _ => None,
            };
            let result = match (field("Utente") == USER && valid, csv) {
                (false, _) => esito(false, "TK", "Token scaduto o non valido"),
                (true, None) => esito(false, "TIPO", "Tabella non prevista"),
                (true, Some(_)) => esito(true, "", ""),
            };
            envelope(format!(
                "<TabellaResponse xmlns=\"{NS}\"><TabellaResult>{result}</TabellaResult><CSV>{}</CSV></TabellaResponse>",
                csv.filter(|_| valid).map(xml_text).unwrap_or_default()
            ))
        }
        "Send" | "Test" => {
            let valid = state
                .tokens
                .lock()
                .unwrap()
                .get(&field("token"))
                .is_some_and(|e| *e > Utc::now());
            if field("Utente") != USER || !valid {
                envelope(format!(
                    "<{op}Response xmlns=\"{NS}\"><{op}Result>{}</{op}Result></{op}Response>",
                    esito(false, "TK", "Token scaduto o non valido")
                ))
            } else {
                let rows: Vec<String> = call
                    .descendants()
                    .filter(|n| n.tag_name().name() == "string")
                    .map(|n| n.text().unwrap_or("").to_string())
                    .collect();
                let today = state.today.lock().unwrap().unwrap();
                let rejects = state.reject_surnames.lock().unwrap().clone();
                let mut previous = None;
                let mut details = String::new();
                let mut ok_count = 0;
                for row in &rows {
                    match check_row(row, previous, today, &rejects) {
                        Ok(kind) => {
                            ok_count += 1;
                            details.push_str(&format!(
                                "<EsitoOperazioneServizio>{}</EsitoOperazioneServizio>",
                                esito(true, "", "")
                            ));
                            if op == "Send" {
                                state.stored.lock().unwrap().push(row.clone());
                            }
                            previous = Some(kind);
                        }
                        Err((code, why)) => {
                            details.push_str(&format!(
                                "<EsitoOperazioneServizio>{}</EsitoOperazioneServizio>",
                                esito(false, code, &why)
                            ));
                            previous = row.get(0..2).and_then(|k| k.parse().ok());
                        }
                    }
                }
                let all_ok = ok_count == rows.len();
                envelope(format!(
                    "<{op}Response xmlns=\"{NS}\"><{op}Result>{}</{op}Result><result><SchedineValide>{ok_count}</SchedineValide><Dettaglio>{details}</Dettaglio></result></{op}Response>",
                    esito(
                        all_ok,
                        if all_ok { "" } else { "SCHEDINE" },
                        if all_ok {
                            ""
                        } else {
                            "Alcune schedine non sono valide"
                        }
                    )
                ))
            }
        }
        other => envelope(format!(
            "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>{other} is not simulated</faultstring></soap:Fault>"
        )),
    };
    match fault {
        Some(Fault::Timeout(d)) => Answer::Late(d, 200, answer),
        Some(Fault::ResetAfterRecording) => Answer::Reset,
        _ => Answer::Reply(200, answer),
    }
}

/// Validates one record as the authority does; its guest type, or (error code, why).
fn check_row(
    row: &str,
    previous: Option<u8>,
    today: NaiveDate,
    rejects: &[String],
) -> Result<u8, (&'static str, String)> {
    let bad = |why: String| Err(("12", why));
    if row.len() != 168 || !row.is_ascii() {
        return Err((
            "11",
            format!("record length {} is not 168", row.chars().count()),
        ));
    }
    let f = |a: usize, b: usize| row[a..=b].trim_end();
    let date = |a: usize, what: &str| {
        NaiveDate::parse_from_str(&row[a..a + 10], "%d/%m/%Y")
            .map_err(|_| ("12", format!("{what} is not dd/mm/yyyy")))
    };
    let kind: u8 = f(0, 1)
        .parse()
        .map_err(|_| ("12", "guest type".to_string()))?;
    if !(16..=20).contains(&kind) {
        return bad(format!("guest type {kind}"));
    }
    let member = kind == 19 || kind == 20;
    match (kind, previous) {
        (19, Some(17 | 19)) | (20, Some(18 | 20)) | (16..=18, _) => {}
        _ => return bad(format!("guest type {kind} does not follow its head")),
    }
    let arrival = date(2, "arrival")?;
    if arrival != today && arrival + chrono::Days::new(1) != today {
        return bad("arrival must be today or yesterday".into());
    }
    let nights: u8 = f(12, 13)
        .parse()
        .map_err(|_| ("12", "nights".to_string()))?;
    if !(1..=30).contains(&nights) {
        return bad(format!("nights {nights}"));
    }
    for (a, b, what) in [(14, 63, "surname"), (64, 93, "given name")] {
        let v = f(a, b);
        if v.is_empty()
            || !v
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == ' ' || c == '\'')
        {
            return bad(format!("{what} {v:?}"));
        }
    }
    if rejects.iter().any(|s| s == f(14, 63)) {
        return bad("cognome non corrispondente al documento".into());
    }
    if !matches!(&row[94..95], "1" | "2") {
        return bad("sex".into());
    }
    date(95, "birth date")?;
    let (municipality, province, state) = (f(105, 113), f(114, 115), f(116, 124));
    if !STATES.contains(&state) || !STATES.contains(&f(125, 133)) {
        return bad("state code".into());
    }
    let italian = state == "100000100";
    if italian != MUNICIPALITIES.contains(&municipality) || italian == province.is_empty() {
        return bad("birth municipality and province".into());
    }
    let doc = (f(134, 138), f(139, 158), f(159, 167));
    if member {
        if doc != ("", "", "") {
            return bad("members carry no document".into());
        }
    } else if !DOCUMENTS.contains(&doc.0)
        || doc.1.is_empty()
        || !(MUNICIPALITIES.contains(&doc.2) || STATES.contains(&doc.2))
    {
        return bad("document".into());
    }
    Ok(kind)
}

/// `s` as XML text.
fn xml_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
