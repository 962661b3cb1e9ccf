//! moj-eRačun (MER), a Croatian information intermediary with a public REST API (v2), as
//! the first [`Intermediary`]: JSON over HTTPS, the account's credentials in every body.
//!
//! - `POST /apis/v2/send` sends a document (`File`: the UBL as text) and answers its
//!   `ElectronicId` and exchange `StatusId`;
//! - `POST /apis/v2/queryOutbox` finds documents by `ElectronicId`, or by `InvoiceNumber`
//!   and `InvoiceYear` (how innkeep reconciles a send whose answer was lost);
//! - `POST /api/fiscalization/statusOutbox` tells the fiscalization (`MessageType` 0) and
//!   the payment reports (3) of a document;
//! - `POST /api/fiscalization/markPaid` reports one payment (`PaymentMethod` T, O or Z);
//! - `GET /apis/v2/Ping/` checks the line.
//!
//! **Unverified** (the manual's sections beyond send were not readable; the shapes come from
//! clients that talk to the service): the date-window field names, the exact refusal of a
//! repeated invoice number, and the markPaid answer beyond `fiscalizationRequestId`. The
//! parsing is lenient where they disagree and every answer is kept in the exchange log.

pub mod answer;

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::einvoice::{Intermediary, PaymentReport, Tracked};
use super::transport::{self, Reply, Transport, TransportError};
use super::{Exchange, Outcome};
use crate::domain::enums::EInvoiceStatus;

/// The intermediary's name.
pub const NAME: &str = "moj-eracun";

/// The account (no `Debug`: it holds the password).
#[derive(Clone)]
pub struct Account {
    /// Base URL, such as `https://www.moj-eracun.hr`.
    pub root: String,
    /// User name.
    pub username: String,
    /// Password.
    pub password: String,
    /// The seller's OIB.
    pub company_id: String,
    /// Business unit, or empty.
    pub company_bu: String,
    /// The software id MER issued.
    pub software_id: String,
}

/// moj-eRačun through a transport.
pub struct MojEracun {
    account: Account,
    transport: Arc<dyn Transport>,
}

impl MojEracun {
    /// The adapter for `account`.
    pub fn new(account: Account, transport: Arc<dyn Transport>) -> MojEracun {
        MojEracun { account, transport }
    }

    fn body(&self, more: Json) -> Json {
        let a = &self.account;
        let mut b = json!({
            "Username": a.username,
            "Password": a.password,
            "CompanyId": a.company_id,
            "CompanyBu": a.company_bu,
            "SoftwareId": a.software_id,
        });
        if let (Some(b), Some(m)) = (b.as_object_mut(), more.as_object()) {
            b.extend(m.clone());
        }
        b
    }

    /// The request as logged: the password hidden, a document replaced by its size.
    fn logged(&self, body: &Json) -> String {
        let mut b = body.clone();
        if let Some(o) = b.as_object_mut() {
            o.insert("Password".into(), json!("[redacted]"));
            if let Some(f) = o.get("File").and_then(Json::as_str) {
                let note = format!("[the e-invoice, {} bytes]", f.len());
                o.insert("File".into(), json!(note));
            }
        }
        b.to_string()
    }

    /// One call: its exchange and its result.
    fn call(
        &self,
        operation: &str,
        path: &str,
        body: Json,
    ) -> (Exchange, Result<Reply, TransportError>) {
        let url = format!("{}{path}", self.account.root.trim_end_matches('/'));
        let text = body.to_string();
        let (started_at, clock) = (chrono::Utc::now(), std::time::Instant::now());
        let result = self.transport.post(
            &url,
            &[("Content-Type", "application/json; charset=utf-8")],
            &text,
        );
        let password = self.account.password.clone();
        let redact = move |s: &str| {
            if password.is_empty() {
                s.to_string()
            } else {
                s.replace(&password, "[redacted]")
            }
        };
        let ex = transport::exchange(
            operation,
            self.logged(&body),
            &result,
            started_at,
            clock,
            redact,
        );
        (ex, result)
    }

    /// The fiscalization of a document, added to `log`.
    fn fiscal_state(
        &self,
        reference: &str,
        log: &mut Vec<Exchange>,
    ) -> Result<Option<Result<(), String>>, Outcome> {
        let (ex, result) = self.call(
            "fiscalization/statusOutbox",
            "/api/fiscalization/statusOutbox",
            self.body(json!({"ElectronicId": number(reference), "MessageType": 0})),
        );
        log.push(ex);
        let json = answer::read(&result)?;
        Ok(answer::fiscalization(&json, 0))
    }
}

/// An `ElectronicId` as MER writes it: a number when it is one.
fn number(reference: &str) -> Json {
    reference
        .parse::<i64>()
        .map(Json::from)
        .unwrap_or_else(|_| Json::from(reference))
}

/// Minor units as a JSON decimal with two places.
fn decimal(minor: i64) -> Json {
    serde_json::from_str(&super::eracun::xml::money(minor)).unwrap_or(Json::Null)
}

impl Intermediary for MojEracun {
    fn name(&self) -> &'static str {
        NAME
    }

    fn send(&self, _number: &str, document: &str) -> (Vec<Exchange>, Tracked) {
        let (ex, result) = self.call(
            "send",
            "/apis/v2/send",
            self.body(json!({"File": document})),
        );
        let tracked = match answer::read(&result) {
            Err(o) => Tracked::Failed(o),
            Ok(json) => answer::row(&json).unwrap_or_else(|| {
                Tracked::Failed(Outcome::Unknown {
                    reason: "moj-eRačun answered without the document's ElectronicId".into(),
                })
            }),
        };
        (vec![ex], tracked)
    }

    fn track(&self, reference: &str) -> (Vec<Exchange>, Tracked) {
        let (ex, result) = self.call(
            "queryOutbox",
            "/apis/v2/queryOutbox",
            self.body(json!({"ElectronicId": number(reference)})),
        );
        let mut log = vec![ex];
        let json = match answer::read(&result) {
            Err(o) => return (log, Tracked::Failed(o)),
            Ok(j) => j,
        };
        let Some(Tracked::At { status, reason, .. }) = json
            .as_array()
            .and_then(|rows| rows.first())
            .and_then(answer::row)
        else {
            return (
                log,
                Tracked::Failed(Outcome::Unknown {
                    reason: format!("moj-eRačun no longer lists document {reference}"),
                }),
            );
        };
        if status == EInvoiceStatus::Rejected {
            return (
                log,
                Tracked::At {
                    reference: reference.into(),
                    status,
                    reason,
                },
            );
        }
        let tracked = match self.fiscal_state(reference, &mut log) {
            Err(o) => Tracked::Failed(o),
            Ok(Some(Ok(()))) => Tracked::At {
                reference: reference.into(),
                status: EInvoiceStatus::Fiscalized,
                reason,
            },
            Ok(Some(Err(why))) => Tracked::At {
                reference: reference.into(),
                status: EInvoiceStatus::Rejected,
                reason: Some(why),
            },
            Ok(None) => Tracked::At {
                reference: reference.into(),
                status,
                reason,
            },
        };
        (log, tracked)
    }

    fn find(&self, number: &str, year: i32) -> (Vec<Exchange>, Tracked) {
        let (ex, result) = self.call(
            "queryOutbox",
            "/apis/v2/queryOutbox",
            self.body(json!({"InvoiceNumber": number, "InvoiceYear": year})),
        );
        let tracked = match answer::read(&result) {
            Err(o) => Tracked::Failed(o),
            Ok(json) => json
                .as_array()
                .into_iter()
                .flatten()
                .filter(|r| r.get("DocumentNr").and_then(Json::as_str) == Some(number))
                .find_map(answer::row)
                .unwrap_or(Tracked::Missing),
        };
        (vec![ex], tracked)
    }

    fn report_payment(&self, reference: &str, p: &PaymentReport) -> (Vec<Exchange>, Outcome) {
        let body = self.body(json!({
            "ElectronicId": number(reference),
            "PaymentDate": format!("{}T00:00:00", p.paid_on),
            "PaymentAmount": decimal(p.amount),
            "PaymentMethod": p.method,
        }));
        let (ex, result) = self.call(
            "fiscalization/markPaid",
            "/api/fiscalization/markPaid",
            body,
        );
        let outcome = match answer::read(&result) {
            Err(o) => o,
            Ok(json) => {
                let id = answer::id_text(
                    json.get("fiscalizationRequestId")
                        .or_else(|| json.get("FiscalizationRequestId")),
                );
                match id {
                    Some(id) => Outcome::Accepted {
                        authority_reference: id,
                    },
                    None => Outcome::Unknown {
                        reason: "moj-eRačun answered the payment report without its fiscalization request id".into(),
                    },
                }
            }
        };
        (vec![ex], outcome)
    }

    fn payments_taken(&self, reference: &str) -> (Vec<Exchange>, Result<usize, Outcome>) {
        let (ex, result) = self.call(
            "fiscalization/statusOutbox",
            "/api/fiscalization/statusOutbox",
            self.body(json!({"ElectronicId": number(reference), "MessageType": 3})),
        );
        (
            vec![ex],
            answer::read(&result).map(|j| answer::successes(&j, 3)),
        )
    }

    fn check(&self) -> Result<String, String> {
        let url = format!("{}/apis/v2/Ping/", self.account.root.trim_end_matches('/'));
        let r = self
            .transport
            .get(&url, &[])
            .map_err(|e| format!("{e:?}"))?;
        if r.status != 200 {
            return Err(format!("moj-eRačun answered HTTP {} to a ping", r.status));
        }
        // A query with the account's credentials proves them.
        let (_, result) = self.call(
            "queryOutbox",
            "/apis/v2/queryOutbox",
            self.body(json!({"ElectronicId": 0})),
        );
        match answer::read(&result) {
            Ok(_) => Ok(format!(
                "moj-eRačun at {} took the account's credentials",
                self.account.root
            )),
            Err(o) => Err(o.reason().to_string()),
        }
    }
}
