//! An SdI intermediary simulator, speaking Invoicetronic's public REST API (OpenAPI 1.13.6):
//! `POST /send` (JSON `Send` with `file_name` and `payload`, `?validate=true`), `GET /update`
//! (`send_id`), `GET /send` (`document_number`) and `GET /status`, behind HTTP Basic with the
//! API key as the user name.
//!
//! Strict where SdI is: a file name sent twice is refused (00002), an invoice number the
//! seller already had accepted that year is discarded (00404); every file is checked
//! against the official schema and SdI's arithmetic ([`checks`]); with `validate=true` a
//! failing file is refused at once (422), otherwise SdI discards it (`Scartato`) with the
//! codes. SdI's verdict comes the first time the updates are read: `Consegnato` for a buyer
//! with a recipient code or a PEC, `ImpossibilitaDiRecapito` for `0000000` alone (the buyer's
//! reserved area), `Scartato` on demand with a given code. Faults on demand: an outage and an
//! answer lost after the file was taken. Every file taken is also written to
//! `target/fatturapa/` for the independent checks CI runs on them (`tests/tools/fatturapa`).

pub mod checks;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::http::{HeaderMap, StatusCode};
use poem::web::{Data, Query};
use poem::{EndpointExt, Response, Route, handler};
use serde_json::{Value, json};

/// The simulator's API key.
pub const KEY: &str = "ik_test_innkeep0123456789";

/// A fault for the next send, or the next verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The next send is taken, and its answer comes after this long.
    LoseAnswer(Duration),
    /// SdI discards the next file with this code and description.
    Discard(&'static str, &'static str),
}

/// A file as the simulator holds it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub id: i64,
    pub file_name: String,
    pub number: String,
    pub date: String,
    /// `TipoDocumento`.
    pub kind: String,
    pub xml: String,
    pub errors: Vec<checks::Error>,
    pub updates: Vec<Value>,
    /// A discard asked for: code and description.
    pub discard: Option<(String, String)>,
    /// SdI's state when it does not discard it.
    pub delivered: &'static str,
}

#[derive(Default)]
struct State {
    sent: Mutex<Vec<Sent>>,
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
            .at("/v1/send", poem::get(list).post(send))
            .at("/v1/update", poem::get(updates))
            .at("/v1/status", poem::get(account_status))
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
        format!("http://{}/v1", self.addr)
    }

    pub fn fault(&self, f: Fault) {
        self.state.faults.lock().unwrap().push_back(f);
    }

    /// While down, every call answers 503.
    #[allow(dead_code)]
    pub fn set_down(&self, down: bool) {
        *self.state.down.lock().unwrap() = down;
    }

    /// Every file taken, in order.
    pub fn sent(&self) -> Vec<Sent> {
        self.state.sent.lock().unwrap().clone()
    }

    /// The calls, in order.
    pub fn calls(&self) -> Vec<String> {
        self.state.calls.lock().unwrap().clone()
    }
}

fn answer(status: StatusCode, v: Value) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .body(v.to_string())
}

/// The call, after the key and the line are checked; or the refusal.
fn gate(state: &State, op: &str, headers: &HeaderMap) -> Result<(), Box<Response>> {
    state.calls.lock().unwrap().push(op.to_string());
    if *state.down.lock().unwrap() {
        return Err(Box::new(
            Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .body("Service Unavailable"),
        ));
    }
    use base64::Engine;
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{KEY}:"))
    );
    let given = headers.get("authorization").and_then(|v| v.to_str().ok());
    if given != Some(expected.as_str()) {
        return Err(Box::new(answer(
            StatusCode::UNAUTHORIZED,
            json!({"title": "Unauthorized", "status": 401}),
        )));
    }
    Ok(())
}

fn field<'a>(doc: &'a roxmltree::Document, name: &str) -> Option<&'a str> {
    doc.descendants()
        .find(|n| n.has_tag_name(name))
        .and_then(|n| n.text())
}

fn send_json(s: &Sent) -> Value {
    let state = s.updates.last().and_then(|u| u.get("state").cloned());
    json!({"id": s.id, "file_name": s.file_name, "format": "FPR12",
           "documents": [{"number": s.number, "date": format!("{}T00:00:00Z", s.date)}],
           "identifier": if s.updates.len() > 1 { json!(format!("{}", 900_000 + s.id)) } else { Value::Null },
           "latest_state": state, "encoding": "Xml"})
}

#[derive(serde::Deserialize)]
struct SendQuery {
    validate: Option<bool>,
}

#[handler]
async fn send(
    state: Data<&Arc<State>>,
    headers: &HeaderMap,
    q: Query<SendQuery>,
    body: String,
) -> Response {
    let state = state.0.clone();
    if let Err(r) = gate(&state, "send", headers) {
        return *r;
    }
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let file_name = body["file_name"].as_str().unwrap_or("").to_string();
    let xml = body["payload"].as_str().unwrap_or("").to_string();
    let Ok(doc) = roxmltree::Document::parse(&xml) else {
        return answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"title": "Invalid payload", "detail": "the payload is not XML"}),
        );
    };
    let number = field(&doc, "Numero").unwrap_or("").to_string();
    let date = field(&doc, "Data").unwrap_or("").to_string();
    let kind = field(&doc, "TipoDocumento").unwrap_or("").to_string();
    let recipient = field(&doc, "CodiceDestinatario").unwrap_or("").to_string();
    let pec = field(&doc, "PECDestinatario").is_some();
    drop(doc);
    if state
        .sent
        .lock()
        .unwrap()
        .iter()
        .any(|s| s.file_name == file_name)
    {
        return answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"title": "Duplicate file name", "detail": format!("00002 Nome file duplicato: {file_name}")}),
        );
    }
    let mut errors = checks::check(&xml);
    // SdI discards a second invoice of the same seller, type, year and number (00404).
    let taken = state.sent.lock().unwrap().iter().any(|s| {
        s.number == number
            && s.kind == kind
            && s.date.get(..4) == date.get(..4)
            && s.errors.is_empty()
            && s.discard.is_none()
    });
    if q.validate == Some(true) && !errors.is_empty() {
        let detail: Vec<String> = errors.iter().map(|(c, d)| format!("{c} {d}")).collect();
        return answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"title": "Validation failed", "detail": detail.join("; ")}),
        );
    }
    // (The intermediary's own pre-flight cannot know that: SdI says it, after taking it.)
    if taken {
        errors.push((
            "00404".into(),
            format!("Fattura duplicata: {kind} n. {number}"),
        ));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fatturapa");
    std::fs::create_dir_all(&dir).unwrap();
    static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = FILES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dump = format!("{}-{n}-{file_name}", std::process::id());
    std::fs::write(dir.join(dump), &xml).unwrap();
    let (lost, discard) = {
        let mut faults = state.faults.lock().unwrap();
        let lost = faults
            .iter()
            .position(|f| matches!(f, Fault::LoseAnswer(_)))
            .and_then(|i| match faults.remove(i) {
                Some(Fault::LoseAnswer(d)) => Some(d),
                _ => None,
            });
        let discard = faults
            .iter()
            .position(|f| matches!(f, Fault::Discard(..)))
            .and_then(|i| match faults.remove(i) {
                Some(Fault::Discard(c, d)) => Some((c.to_string(), d.to_string())),
                _ => None,
            });
        (lost, discard)
    };
    let sent = {
        let mut all = state.sent.lock().unwrap();
        let id = 4100 + all.len() as i64;
        let delivered = if recipient != "0000000" || pec {
            "Consegnato"
        } else {
            "ImpossibilitaDiRecapito"
        };
        let s = Sent {
            id,
            file_name,
            number,
            date,
            kind,
            xml,
            errors,
            updates: vec![
                json!({"id": id * 10, "send_id": id, "state": "Inviato", "last_update": "2026-01-01T00:00:00Z", "errors": null}),
            ],
            discard,
            delivered,
        };
        all.push(s.clone());
        s
    };
    if let Some(d) = lost {
        tokio::time::sleep(d).await;
    }
    answer(StatusCode::CREATED, send_json(&sent))
}

#[derive(serde::Deserialize)]
struct UpdateQuery {
    send_id: Option<i64>,
}

#[handler]
fn updates(state: Data<&Arc<State>>, headers: &HeaderMap, q: Query<UpdateQuery>) -> Response {
    if let Err(r) = gate(&state, "update", headers) {
        return *r;
    }
    let mut all = state.sent.lock().unwrap();
    let Some(s) = all.iter_mut().find(|s| Some(s.id) == q.send_id) else {
        return answer(StatusCode::OK, json!([]));
    };
    if s.updates.len() == 1 {
        // SdI's verdict, the first time anyone looks.
        let verdict = if !s.errors.is_empty() {
            let errors: Vec<Value> = s
                .errors
                .iter()
                .map(|(c, d)| json!({"code": c, "description": d, "hint": null}))
                .collect();
            json!({"state": "Scartato", "errors": errors})
        } else {
            match s.discard.clone() {
                Some((code, d)) => {
                    json!({"state": "Scartato", "errors": [{"code": code, "description": d, "hint": null}]})
                }
                None => json!({"state": s.delivered, "errors": null}),
            }
        };
        let mut u = verdict;
        u["id"] = json!(s.id * 10 + 1);
        u["send_id"] = json!(s.id);
        u["last_update"] = json!("2026-01-01T00:05:00Z");
        u["send"] = json!({"identifier": format!("{}", 900_000 + s.id)});
        s.updates.push(u);
    }
    answer(StatusCode::OK, Value::Array(s.updates.clone()))
}

#[derive(serde::Deserialize)]
struct ListQuery {
    document_number: Option<String>,
}

#[handler]
fn list(state: Data<&Arc<State>>, headers: &HeaderMap, q: Query<ListQuery>) -> Response {
    if let Err(r) = gate(&state, "send (list)", headers) {
        return *r;
    }
    let all = state.sent.lock().unwrap();
    let found: Vec<Value> = all
        .iter()
        .filter(|s| q.document_number.as_deref().is_none_or(|n| n == s.number))
        .map(send_json)
        .collect();
    answer(StatusCode::OK, Value::Array(found))
}

#[handler]
fn account_status(state: Data<&Arc<State>>, headers: &HeaderMap) -> Response {
    if let Err(r) = gate(&state, "status", headers) {
        return *r;
    }
    answer(
        StatusCode::OK,
        json!({"operation_left": 1000, "signature_left": 0, "has_active_seat": true, "is_sub_key": false}),
    )
}
