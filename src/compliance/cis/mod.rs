//! Croatia: fiscal receipts registered with the tax administration's CIS (`hr-cis`).
//!
//! Sealing runs inside the issuing transaction: the receipt number (gapless per year,
//! premises and device, handed out by the service), the local time of issue, the amounts,
//! the payment method and the protective code (ZKI, chapter 12 of the specification) are
//! fixed, the QR link is written with the ZKI, and the receipt and its submission go back to
//! the service, which stores and queues them. Nothing leaves the building inside
//! the request: the queue calls [`Cis::send_receipt`], which signs a fresh `RacunZahtjev` (a new
//! `IdPoruke` every time, `NakDost=true` from the second attempt on) and sends it over TLS
//! with the company certificate. Resending is safe: CIS knows a receipt by its number and
//! ZKI, so an answer lost on the way back costs one more attempt, never a second receipt.

pub mod credentials;
pub mod receipt;
pub mod rules;
pub mod xml;

use std::sync::Arc;

use chrono::{Datelike, Timelike};

use super::transport::{Transport, TransportError};
use super::{
    ChangeInput, Exchange, FiscalScheme, Outcome, PaymentChange, ReceiptSeries, SealInput, Sealed,
};
use crate::clock::format_instant;
use crate::domain::enums::{FiscalStatus, SubmissionKind};
use crate::error::{AppError, AppResult};
use crate::model::outcome::{NewSubmission, SealedReceipt};
use crate::model::{Fiscal, Instant};
pub use credentials::Credentials;
pub use receipt::{Receipt, Vat};
pub use rules::{TRANSFERS_FISCALIZED_FROM, change_payment, covered};

/// The scheme's name.
pub const NAME: &str = "hr-cis";
/// How long after issue a receipt may still be delivered (the two-day rule).
pub const DELIVERY_WINDOW: chrono::Duration = chrono::Duration::hours(48);

/// The seller's marks, from `[compliance.fiscal]`.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The service URL.
    pub endpoint: String,
    /// The seller's OIB.
    pub oib: String,
    /// The operator's OIB.
    pub operator_oib: String,
    /// Premises mark.
    pub premises: String,
    /// Device mark.
    pub device: String,
    /// In the VAT system.
    pub in_vat_system: bool,
}

impl From<&crate::config::FiscalConfig> for Settings {
    fn from(f: &crate::config::FiscalConfig) -> Settings {
        Settings {
            endpoint: f.endpoint.clone(),
            oib: f.oib.clone(),
            operator_oib: f.operator_oib.clone(),
            premises: f.premises.clone(),
            device: f.device.clone(),
            in_vat_system: f.in_vat_system,
        }
    }
}

/// The `hr-cis` fiscal scheme.
pub struct Cis {
    settings: Settings,
    credentials: Arc<Credentials>,
    transport: Arc<dyn Transport>,
}

impl Cis {
    /// The scheme, sealing with `credentials` and sending through `transport`.
    pub fn new(
        settings: Settings,
        credentials: Arc<Credentials>,
        transport: Arc<dyn Transport>,
    ) -> Cis {
        Cis {
            settings,
            credentials,
            transport,
        }
    }

    /// Whether CIS covers this invoice (see [`covered`]).
    fn covers(input: &SealInput<'_>) -> bool {
        covered(
            input.reverses,
            input.local_time.date(),
            input.invoice.payment_method,
        )
    }

    /// Signs and sends a sealed receipt; `late` sets `NakDost`.
    pub fn send_receipt(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        match serde_json::from_str::<Receipt>(payload) {
            Ok(r) => self.send(&r, None, late),
            Err(e) => unreadable("receipt", &e),
        }
    }

    /// Signs and sends a queued change of payment method (`PromijeniNacPlacZahtjev`); the
    /// receipt is repeated as CIS has it, `late` when it went late.
    pub fn send_change(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        match serde_json::from_str::<receipt::PaymentChange>(payload) {
            Ok(c) => self.send(&c.receipt, Some(&c.method), late),
            Err(e) => unreadable("change of payment method", &e),
        }
    }

    /// Sends `receipt` (with `changed`, as a change of its payment method).
    fn send(
        &self,
        receipt: &Receipt,
        changed: Option<&str>,
        late: bool,
    ) -> (Vec<Exchange>, Outcome) {
        let started = chrono::Utc::now();
        let message_id = uuid::Uuid::new_v4().to_string();
        let sent_at = started
            .with_timezone(&chrono_tz::Europe::Zagreb)
            .naive_local()
            .with_nanosecond(0)
            .unwrap_or_default();
        let (body, action, operation) = match changed {
            None => (
                xml::request(receipt, &self.credentials, &message_id, sent_at, late),
                xml::SOAP_ACTION,
                "racuni",
            ),
            Some(method) => (
                xml::change_request(
                    receipt,
                    (method, late),
                    &self.credentials,
                    &message_id,
                    sent_at,
                ),
                xml::CHANGE_ACTION,
                "promijeniNacPlac",
            ),
        };
        let headers = [
            ("Content-Type", "text/xml; charset=utf-8"),
            ("SOAPAction", action),
        ];
        let answer = self
            .transport
            .post(&self.settings.endpoint, &headers, &body);
        let ms = (chrono::Utc::now() - started).num_milliseconds().max(0);
        let mut exchange = Exchange {
            operation: operation.into(),
            request: Some(body),
            response: None,
            http_status: None,
            error: None,
            started_at: started,
            duration_ms: ms,
        };
        let outcome = match answer {
            Err(TransportError::NotSent(e)) | Err(TransportError::NoAnswer(e)) => {
                exchange.error = Some(e.clone());
                Outcome::Retry {
                    reason: format!(
                        "CIS could not be reached ({e}); the receipt keeps its ZKI and is delivered late"
                    ),
                    after: None,
                }
            }
            Ok(reply) => {
                exchange.http_status = Some(reply.status);
                exchange.response = Some(reply.body.clone());
                read_answer(
                    reply.status,
                    &reply.body,
                    reply.retry_after,
                    changed.is_some(),
                )
            }
        };
        (vec![exchange], outcome)
    }
}

impl Cis {
    /// Calls `echo` over the client-certificate connection: proves the certificate, the
    /// trust anchors and the line. The answer, or what went wrong in plain words.
    pub fn echo(&self) -> Result<String, String> {
        let text = format!("innkeep {}", env!("CARGO_PKG_VERSION"));
        let headers = [
            ("Content-Type", "text/xml; charset=utf-8"),
            ("SOAPAction", xml::ECHO_ACTION),
        ];
        let reply = self
            .transport
            .post(&self.settings.endpoint, &headers, &xml::echo_request(&text))
            .map_err(|e| match e {
                TransportError::NotSent(e) => format!(
                    "no connection to {} ({e}); check the internet line, the endpoint and, for a TLS error, ca_certificate",
                    self.settings.endpoint
                ),
                TransportError::NoAnswer(e) => format!("CIS did not answer ({e})"),
            })?;
        let echoed = xml::parse_echo(&reply.body)
            .map_err(|why| format!("CIS answered HTTP {} without an echo ({why})", reply.status))?;
        if !echoed.contains(&text) {
            return Err(format!("CIS echoed {echoed:?} instead of {text:?}"));
        }
        Ok(echoed)
    }
}

/// The outcome of a stored payload that cannot be read back.
fn unreadable(what: &str, e: &serde_json::Error) -> (Vec<Exchange>, Outcome) {
    let reason = format!("the stored {what} cannot be read: {e}");
    (Vec::new(), Outcome::Unknown { reason })
}

/// What an HTTP answer from CIS means for the receipt (or, `change`, for a change of its
/// payment method: `p001` is the acknowledgement).
fn read_answer(
    status: u16,
    body: &str,
    after: Option<std::time::Duration>,
    change: bool,
) -> Outcome {
    match xml::parse_answer(body) {
        Ok(xml::Answer::Jir(jir)) if !change => Outcome::Accepted {
            authority_reference: jir,
        },
        Ok(xml::Answer::Done(code)) if change => Outcome::Accepted {
            authority_reference: code,
        },
        Ok(xml::Answer::Jir(_) | xml::Answer::Done(_)) => Outcome::Unknown {
            reason: format!("CIS answered HTTP {status} with an answer to another message"),
        },
        Ok(xml::Answer::Errors(errors)) => {
            let reason = errors
                .iter()
                .map(|(c, m)| format!("{c}: {m}"))
                .collect::<Vec<_>>()
                .join("; ");
            if errors.iter().all(|(c, _)| c == "s006") {
                Outcome::Retry {
                    reason: format!("CIS had a system error ({reason})"),
                    after,
                }
            } else {
                let what = if change {
                    "the change of payment method"
                } else {
                    "the receipt"
                };
                Outcome::Rejected {
                    reason: format!("CIS refused {what}: {reason}"),
                    rows: Vec::new(),
                }
            }
        }
        Ok(xml::Answer::Fault(why)) => Outcome::Retry {
            reason: format!("CIS answered HTTP {status} with a SOAP fault: {why}"),
            after,
        },
        Err(why) => Outcome::Retry {
            reason: format!("CIS answered HTTP {status} without a usable answer ({why})"),
            after,
        },
    }
}

impl FiscalScheme for Cis {
    fn certificate(&self) -> Option<(String, chrono::DateTime<chrono::Utc>)> {
        Some((self.credentials.subject.clone(), self.credentials.not_after))
    }

    fn name(&self) -> &'static str {
        NAME
    }

    fn seal(
        &self,
        input: SealInput<'_>,
        numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed> {
        let inv = input.invoice;
        if !Cis::covers(&input) {
            return Ok(Sealed {
                fiscal: Fiscal::new(NAME, FiscalStatus::NotRequired),
                receipt: None,
            });
        }
        if inv.currency != "EUR" {
            return Err(AppError::invalid_field(
                "currency",
                "fiscal_currency",
                format!(
                    "Croatian fiscal receipts are in euro; this invoice is in {}",
                    inv.currency
                ),
            ));
        }
        let s = &self.settings;
        let issued_at = input.local_time.with_nanosecond(0).unwrap_or_default();
        let series = ReceiptSeries {
            year: issued_at.year(),
            premises: s.premises.clone(),
            device: s.device.clone(),
        };
        let number = numbers(&series)?;
        let vat = if s.in_vat_system {
            inv.tax_breakdown
                .iter()
                .map(|t| Vat {
                    rate: t.tax_rate,
                    base: t.net,
                    amount: t.tax,
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut r = Receipt {
            invoice_id: inv.id.clone(),
            oib: s.oib.clone(),
            in_vat_system: s.in_vat_system,
            issued_at,
            number,
            premises: s.premises.clone(),
            device: s.device.clone(),
            vat,
            total: inv.totals.gross,
            payment: receipt::payment_code(inv.payment_method).into(),
            operator_oib: input
                .operator_oib
                .map_or_else(|| s.operator_oib.clone(), str::to_string),
            zki: String::new(),
            buyer_oib: inv
                .bill_to
                .vat_id
                .as_ref()
                .or(inv.bill_to.tax_id.as_ref())
                .and_then(|t| receipt::buyer_oib(&t.0)),
        };
        r.zki = receipt::zki(&self.credentials.key, &r.zki_input());
        let json = serde_json::to_string(&r).map_err(AppError::internal)?;
        let deliver_by = format_instant(input.now + DELIVERY_WINDOW);
        let fiscal = Fiscal {
            local_proof: Some(r.zki.clone()),
            qr_payload: Some(receipt::qr_payload(None, &r.zki, issued_at, r.total)),
            receipt_number: Some(r.printed_number()),
            deliver_by: Some(Instant(deliver_by.clone())),
            ..Fiscal::new(NAME, FiscalStatus::Pending)
        };
        let sealed = SealedReceipt {
            invoice_id: inv.id.clone(),
            scheme: NAME,
            series,
            number,
            issued_at: receipt::cis_time(issued_at),
            total: r.total,
            zki: r.zki,
            receipt: json.clone(),
        };
        let submission = NewSubmission {
            kind: SubmissionKind::FiscalReceipt,
            scheme: NAME,
            subject_id: inv.id.clone(),
            due_at: deliver_by,
            rows: Vec::new(),
            payload: json,
            record_date: Some(inv.issue_date),
        };
        Ok(Sealed {
            fiscal,
            receipt: Some((sealed, submission)),
        })
    }

    fn deliver(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        self.send_receipt(payload, late)
    }

    fn check_connection(&self) -> Result<String, String> {
        self.echo()
    }

    fn change_payment(&self, input: ChangeInput<'_>) -> AppResult<PaymentChange> {
        change_payment(input)
    }

    fn deliver_change(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        self.send_change(payload, late)
    }

    fn qr_payload(&self, payload: &str, reference: &str) -> Option<String> {
        let r: Receipt = serde_json::from_str(payload).ok()?;
        Some(receipt::qr_payload(
            Some(reference),
            &r.zki,
            r.issued_at,
            r.total,
        ))
    }
}
