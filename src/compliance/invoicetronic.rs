//! Invoicetronic, an Italian SdI intermediary with a public REST API (v1, OpenAPI 1.13.6), as
//! the first [`Intermediary`] for `it-sdi`: JSON over HTTPS, the API key as the HTTP Basic
//! user name (an `ik_test_` key selects its sandbox on the same host).
//!
//! - `POST /send?validate=true` takes the FatturaPA with innkeep's file name
//!   (`{file_name, payload, encoding: "Xml"}`) and answers the `Send` (201: its `id`), or a
//!   problem (422) when its own pre-flight check refuses the document;
//! - `GET /update?send_id=` lists what SdI said of it (`state`: `Inviato`, `Consegnato`,
//!   `Scartato` with `errors[{code, description, hint}]`, `ImpossibilitaDiRecapito`, ...);
//!   reading updates is free;
//! - `GET /send?file_name=` finds a document after a send whose answer was lost;
//! - `GET /status` proves the key.
//!
//! SdI's outcomes: a delivery receipt (RC) and "impossible to deliver" (MC: the invoice is
//! issued and waits in the buyer's reserved area of the Agenzia delle Entrate) both mean the
//! invoice exists, so both end as `fiscalized`; a discard (NS) is `rejected` with every error
//! and what to fix. Italy has no payment reports.

mod answer;

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::einvoice::{Intermediary, PaymentReport, Tracked};
use super::transport::{self, Reply, Transport, TransportError};
use super::{Exchange, Outcome};

/// The intermediary's name.
pub const NAME: &str = "invoicetronic";

/// Invoicetronic through a transport.
pub struct Invoicetronic {
    root: String,
    key: String,
    transport: Arc<dyn Transport>,
}

impl Invoicetronic {
    /// The adapter at `root` (such as `https://api.invoicetronic.com/v1`) with `key`.
    pub fn new(root: String, key: String, transport: Arc<dyn Transport>) -> Invoicetronic {
        Invoicetronic {
            root,
            key,
            transport,
        }
    }

    fn authorization(&self) -> String {
        use base64::Engine;
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{}:", self.key));
        format!("Basic {basic}")
    }

    /// One call (a POST when `body` is given): its exchange and its result.
    fn call(
        &self,
        operation: &str,
        path: &str,
        body: Option<(&Json, String)>,
    ) -> (Exchange, Result<Reply, TransportError>) {
        let url = format!("{}{path}", self.root);
        let auth = self.authorization();
        let (started_at, clock) = (chrono::Utc::now(), std::time::Instant::now());
        let (result, logged) = match body {
            Some((json, logged)) => (
                self.transport.post(
                    &url,
                    &[
                        ("Authorization", &auth),
                        ("Content-Type", "application/json"),
                        ("Accept-Language", "en"),
                    ],
                    &json.to_string(),
                ),
                logged,
            ),
            None => (
                self.transport
                    .get(&url, &[("Authorization", &auth), ("Accept-Language", "en")]),
                format!("GET {path}"),
            ),
        };
        let key = self.key.clone();
        let redact = move |s: &str| {
            if key.is_empty() {
                s.to_string()
            } else {
                s.replace(&key, "[redacted]")
            }
        };
        let ex = transport::exchange(operation, logged, &result, started_at, clock, redact);
        (ex, result)
    }

    /// Where the document sent as `id` stands, from its updates.
    fn updates(&self, id: &str, log: &mut Vec<Exchange>) -> Tracked {
        let (ex, result) = self.call(
            "update",
            &format!("/update?send_id={}&page_size=200", query(id)),
            None,
        );
        log.push(ex);
        match answer::read(&result) {
            Err(o) => Tracked::Failed(o),
            Ok(json) => answer::latest(id, &json),
        }
    }
}

/// A query value, percent-encoded.
fn query(v: &str) -> String {
    serde_urlencoded::to_string([("v", v)])
        .map(|s| s.trim_start_matches("v=").to_string())
        .unwrap_or_default()
}

/// The file name the document carries: its transmitter and `ProgressivoInvio`.
pub fn file_name_of(document: &str) -> Option<String> {
    let doc = roxmltree::Document::parse(document).ok()?;
    let text = |name: &str| {
        doc.descendants()
            .find(|n| n.has_tag_name(name))
            .and_then(|n| n.text())
            .map(str::trim)
    };
    let trasmittente = doc
        .descendants()
        .find(|n| n.has_tag_name("IdTrasmittente"))?;
    let field = |name: &str| {
        trasmittente
            .children()
            .find(|n| n.has_tag_name(name))
            .and_then(|n| n.text())
    };
    Some(format!(
        "{}{}_{}.xml",
        field("IdPaese")?,
        field("IdCodice")?,
        text("ProgressivoInvio")?
    ))
}

impl Intermediary for Invoicetronic {
    fn name(&self) -> &'static str {
        NAME
    }

    fn send(&self, number: &str, document: &str) -> (Vec<Exchange>, Tracked) {
        let Some(file) = file_name_of(document) else {
            return (
                Vec::new(),
                Tracked::Failed(Outcome::Rejected {
                    reason: "the stored FatturaPA has no transmitter or ProgressivoInvio".into(),
                    rows: Vec::new(),
                }),
            );
        };
        let body = json!({
            "file_name": file,
            "payload": document,
            "encoding": "Xml",
            "meta_data": {"invoice_number": number},
        });
        let logged = format!(
            "POST /send?validate=true {{\"file_name\": {file:?}, \"payload\": \"[the FatturaPA, {} bytes]\"}}",
            document.len()
        );
        let (ex, result) = self.call("send", "/send?validate=true", Some((&body, logged)));
        let tracked = match answer::read(&result) {
            Err(o) => Tracked::Failed(o),
            Ok(json) => answer::sent(&json),
        };
        (vec![ex], tracked)
    }

    fn track(&self, reference: &str) -> (Vec<Exchange>, Tracked) {
        let mut log = Vec::new();
        let tracked = self.updates(reference, &mut log);
        (log, tracked)
    }

    fn find(&self, number: &str, year: i32) -> (Vec<Exchange>, Tracked) {
        let path = format!(
            "/send?document_number={}&document_date_from={year}-01-01T00:00:00Z&document_date_to={year}-12-31T23:59:59Z",
            query(number)
        );
        let (ex, result) = self.call("send (look-up)", &path, None);
        let mut log = vec![ex];
        let found = match answer::read(&result) {
            Err(o) => return (log, Tracked::Failed(o)),
            Ok(json) => answer::find(&json, number),
        };
        let tracked = match found {
            None => Tracked::Missing,
            Some(id) => self.updates(&id, &mut log),
        };
        (log, tracked)
    }

    fn report_payment(&self, _reference: &str, _p: &PaymentReport) -> (Vec<Exchange>, Outcome) {
        (
            Vec::new(),
            Outcome::Rejected {
                reason: "Italy has no e-invoice payment reports".into(),
                rows: Vec::new(),
            },
        )
    }

    fn payments_taken(&self, _reference: &str) -> (Vec<Exchange>, Result<usize, Outcome>) {
        (Vec::new(), Ok(0))
    }

    fn check(&self) -> Result<String, String> {
        let (_, result) = self.call("status", "/status", None);
        match answer::read(&result) {
            Ok(json) => Ok(format!(
                "Invoicetronic at {} took the API key ({} operations left)",
                self.root,
                json.get("operation_left")
                    .map_or("?".to_string(), Json::to_string)
            )),
            Err(o) => Err(o.reason().to_string()),
        }
    }
}
