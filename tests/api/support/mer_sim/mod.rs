//! A moj-eRačun simulator, built from its public API v2 (manual and clients that talk to
//! the real service; see `docs/research/hr-eracun.md`): `send`, `queryOutbox`,
//! `fiscalization/statusOutbox`, `fiscalization/markPaid` and `Ping`. Strict where the real
//! one is: every body carries the account (a wrong one is refused with the field-keyed
//! message, HTTP 200), an invoice number already sent is refused, and every document is
//! checked with the independent validator (`tests/tools/eracun/validate.mjs`, the
//! publishers' EN 16931 and CIUS-HR rules) before it is taken; a document the rules refuse
//! is refused with their messages, as moj-eRačun does since 2026.
//!
//! A document goes `30` (sent) when taken, `40` (delivered) the first time it is looked at,
//! and is fiscalized the next time (or refused, on demand). Faults on demand: an outage,
//! an answer lost after the work was done, a fiscalization refused with an error code.

mod validator;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{EndpointExt, Response, Route, handler, post};
use serde_json::{Value, json};

pub use validator::Checked;

pub const USER: &str = "hotel-adriatic@example.hr";
pub const PASSWORD: &str = "mer-Tajna$lozinka";
pub const COMPANY: &str = "69435151530";
pub const SOFTWARE: &str = "innkeep-test-001";

/// A fault for the next call of its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The next send or payment report is done, and its answer comes after this long.
    LoseAnswer(Duration),
    /// The next fiscalization is refused with this error code and text.
    RefuseFiscalization(&'static str, &'static str),
}

/// A document as the simulator holds it.
#[derive(Debug, Clone)]
pub struct Doc {
    pub id: i64,
    pub number: String,
    pub xml: String,
    pub status: i64,
    /// `None` not yet, `Some(Ok)` fiscalized, `Some(Err(code))` refused.
    pub fiscal: Option<Result<(), (String, String)>>,
    pub looked: usize,
    pub payments: Vec<Value>,
    pub checked: Checked,
}

#[derive(Default)]
struct State {
    docs: Mutex<Vec<Doc>>,
    calls: Mutex<Vec<String>>,
    faults: Mutex<VecDeque<Fault>>,
    down: Mutex<bool>,
}

pub struct Sim {
    pub addr: SocketAddr,
    state: Arc<State>,
    _server: crate::support::sim_server::Served,
}

impl Sim {
    pub async fn start() -> Sim {
        let state = Arc::new(State::default());
        let app = Route::new()
            .at("/apis/v2/Ping/", poem::get(ping))
            .at("/apis/v2/send", post(send))
            .at("/apis/v2/queryOutbox", post(query_outbox))
            .at("/api/fiscalization/statusOutbox", post(status_outbox))
            .at("/api/fiscalization/markPaid", post(mark_paid))
            .data(state.clone());
        let server = crate::support::sim_server::serve(app).await;
        Sim {
            addr: server.addr,
            state,
            _server: server,
        }
    }

    /// The base URL to configure.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn fault(&self, f: Fault) {
        self.state.faults.lock().unwrap().push_back(f);
    }

    /// While down, every call answers 503 and nothing is processed.
    pub fn set_down(&self, down: bool) {
        *self.state.down.lock().unwrap() = down;
    }

    /// Every document taken, in order.
    pub fn docs(&self) -> Vec<Doc> {
        self.state.docs.lock().unwrap().clone()
    }

    /// The operations called, in order.
    pub fn calls(&self) -> Vec<String> {
        self.state.calls.lock().unwrap().clone()
    }
}

fn answer(v: Value) -> Response {
    Response::builder()
        .content_type("application/json; charset=utf-8")
        .body(v.to_string())
}

/// moj-eRačun's refusal: the field at fault with its messages, HTTP 200.
fn refusal(field: &str, value: &Value, messages: Vec<String>) -> Response {
    answer(json!({ field: {"Value": value, "Messages": messages} }))
}

fn unavailable() -> Response {
    Response::builder()
        .status(StatusCode::SERVICE_UNAVAILABLE)
        .body("Service unavailable")
}

/// The body, after the account is checked; or the refusal.
fn account(state: &State, op: &str, body: &str) -> Result<Value, Box<Response>> {
    state.calls.lock().unwrap().push(op.to_string());
    if *state.down.lock().unwrap() {
        return Err(Box::new(unavailable()));
    }
    let body: Value = serde_json::from_str(body)
        .map_err(|_| refusal("Request", &Value::Null, vec!["Neispravan JSON.".into()]))?;
    let text = |k: &str| {
        body.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if text("Username") != USER || text("Password") != PASSWORD {
        let trace = "Trace ID: 4f701362-96cc-49c6-a297-854e740ad719.";
        return Err(Box::new(refusal(
            "Username",
            &json!(text("Username")),
            vec![format!("Korisničko ime i lozinka nisu ispravni.. {trace}")],
        )));
    }
    if text("CompanyId") != COMPANY {
        return Err(Box::new(refusal(
            "CompanyId",
            &json!(text("CompanyId")),
            vec!["Tvrtka nije registrirana na servisu.".into()],
        )));
    }
    if text("SoftwareId").is_empty() {
        return Err(Box::new(refusal(
            "SoftwareId",
            &Value::Null,
            vec!["SoftwareId je obavezan.".into()],
        )));
    }
    Ok(body)
}

fn lost(state: &State) -> Option<Duration> {
    let mut faults = state.faults.lock().unwrap();
    let at = faults
        .iter()
        .position(|f| matches!(f, Fault::LoseAnswer(_)))?;
    match faults.remove(at) {
        Some(Fault::LoseAnswer(d)) => Some(d),
        _ => None,
    }
}

#[handler]
fn ping() -> Response {
    answer(json!({"Status": "ok", "Message": "Service is up"}))
}

fn document_number(xml: &str) -> Option<String> {
    let doc = roxmltree::Document::parse(xml).ok()?;
    doc.root_element()
        .children()
        .find(|n| n.tag_name().name() == "ID")
        .and_then(|n| n.text())
        .map(str::to_string)
}

fn row(d: &Doc) -> Value {
    let name = match d.status {
        40 => "Preuzet",
        _ => "Poslan",
    };
    json!({"ElectronicId": d.id, "DocumentNr": d.number, "DocumentTypeId": 1,
           "DocumentTypeName": "Račun", "StatusId": d.status, "StatusName": name,
           "RecipientBusinessNumber": "HR", "Created": "2026-11-22T10:00:00"})
}

#[handler]
async fn send(state: Data<&Arc<State>>, body: String) -> Response {
    let state = state.0.clone();
    let body = match account(&state, "send", &body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let xml = body
        .get("File")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(number) = document_number(&xml) else {
        return refusal(
            "File",
            &Value::Null,
            vec!["Datoteka nije ispravan UBL dokument.".into()],
        );
    };
    if state
        .docs
        .lock()
        .unwrap()
        .iter()
        .any(|d| d.number == number)
    {
        return refusal(
            "File",
            &Value::Null,
            vec![format!(
                "Dokument s brojem {number} je već uspješno poslan."
            )],
        );
    }
    let checked = validator::check(xml.clone()).await;
    if let Checked::Refused(failures) = &checked {
        return refusal("File", &Value::Null, failures.clone());
    }
    let doc = {
        let mut docs = state.docs.lock().unwrap();
        let d = Doc {
            id: 3_120_260 + docs.len() as i64,
            number,
            xml,
            status: 30,
            fiscal: None,
            looked: 0,
            payments: Vec::new(),
            checked,
        };
        docs.push(d.clone());
        d
    };
    if let Some(after) = lost(&state) {
        tokio::time::sleep(after).await;
    }
    answer(row(&doc))
}

#[handler]
fn query_outbox(state: Data<&Arc<State>>, body: String) -> Response {
    let body = match account(&state, "queryOutbox", &body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let by_id = body.get("ElectronicId").and_then(Value::as_i64);
    let by_number = body.get("InvoiceNumber").and_then(Value::as_str);
    let mut docs = state.docs.lock().unwrap();
    let mut rows = Vec::new();
    for d in docs.iter_mut() {
        let hit = by_id.is_some_and(|id| id == d.id) || by_number == Some(d.number.as_str());
        if !hit {
            continue;
        }
        if by_id.is_some() {
            // Looked at: the buyer downloads it.
            d.looked += 1;
            d.status = 40;
        }
        rows.push(row(d));
    }
    answer(Value::Array(rows))
}

#[handler]
fn status_outbox(state: Data<&Arc<State>>, body: String) -> Response {
    let body = match account(&state, "statusOutbox", &body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let id = body.get("ElectronicId").and_then(Value::as_i64);
    let kind = body.get("MessageType").and_then(Value::as_i64).unwrap_or(0);
    let mut docs = state.docs.lock().unwrap();
    let Some(d) = docs.iter_mut().find(|d| Some(d.id) == id) else {
        return answer(json!([]));
    };
    let messages: Vec<Value> = if kind == 3 {
        d.payments
            .iter()
            .map(|p| {
                json!({"status": 0, "statusDescription": "Uspjeh", "messageType": 3,
                            "fiscalizationRequestId": p["id"]})
            })
            .collect()
    } else {
        if d.fiscal.is_none() && d.looked >= 2 {
            let mut faults = state.faults.lock().unwrap();
            let refuse = faults
                .iter()
                .position(|f| matches!(f, Fault::RefuseFiscalization(..)));
            d.fiscal = Some(match refuse.and_then(|i| faults.remove(i)) {
                Some(Fault::RefuseFiscalization(code, text)) => Err((code.into(), text.into())),
                _ => Ok(()),
            });
        }
        match &d.fiscal {
            None => vec![json!({"status": 2, "statusDescription": "Na čekanju", "messageType": 0})],
            Some(Ok(())) => vec![
                json!({"status": 0, "statusDescription": "Uspjeh", "messageType": 0,
                                        "fiscalizationRequestId": format!("f-{}", d.id)}),
            ],
            Some(Err((code, text))) => vec![json!({"status": 1, "statusDescription": "Neuspjeh",
                "messageType": 0, "errorCode": code, "errorCodeDescription": text})],
        }
    };
    answer(json!([{"electronicId": d.id, "channelType": 0, "messages": messages}]))
}

#[handler]
async fn mark_paid(state: Data<&Arc<State>>, body: String) -> Response {
    let state = state.0.clone();
    let body = match account(&state, "markPaid", &body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let id = body.get("ElectronicId").and_then(Value::as_i64);
    let method = body
        .get("PaymentMethod")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !["T", "O", "Z"].contains(&method) {
        return refusal(
            "PaymentMethod",
            &json!(method),
            vec!["Način plaćanja mora biti T, O ili Z.".into()],
        );
    }
    let Some(amount) = body.get("PaymentAmount").and_then(Value::as_f64) else {
        return refusal(
            "PaymentAmount",
            &Value::Null,
            vec!["Iznos je obavezan.".into()],
        );
    };
    let request = {
        let mut docs = state.docs.lock().unwrap();
        let Some(d) = docs.iter_mut().find(|d| Some(d.id) == id) else {
            return refusal(
                "ElectronicId",
                &json!(id),
                vec!["Dokument ne postoji.".into()],
            );
        };
        let request = format!("p-{}-{}", d.id, d.payments.len() + 1);
        d.payments.push(json!({"id": request, "amount": amount,
                               "date": body["PaymentDate"], "method": method}));
        request
    };
    if let Some(after) = lost(&state) {
        tokio::time::sleep(after).await;
    }
    answer(
        json!({"fiscalizationRequestId": request, "electronicId": id,
                  "fiscalizationTimestamp": "2026-12-01T00:05:00"}),
    )
}
