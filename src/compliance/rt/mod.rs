//! Italy's telematic cash register (RT): a stay settled without an invoice is certified by
//! a *documento commerciale* the register prints and later transmits, with the day's
//! takings, to the Agenzia delle Entrate. innkeep drives it over the LAN with Epson's
//! fiscal-printer XML ([`epson`]), the most common in Italian hotels; another make is one
//! more implementation of the same few calls.
//!
//! **Sealing** (in the issuing transaction) fixes what the receipt says: each line with the
//! department programmed for its VAT rate (`[compliance.fiscal.departments]`), the payments
//! split as the register needs them (cash; electronic: cards and transfers; the rest *non
//! riscosso*, not collected), the guest's codice fiscale or the company's partita IVA when
//! known (the receipt is then *valido ai fini fiscali*), and for a credit note the return of
//! the original document by its register, closure number, document number and date; when
//! the register has not printed the original yet, the return names the original invoice
//! instead and waits in the queue, which fills the document in once it is printed
//! (`FiscalScheme::awaits` and `complete`).
//! **Delivering** (from the queue) prints it: the register answers its document number and
//! the closure it belongs to, stored as the receipt's reference (`0021-0034 24/11/2026
//! 99SEA004010`) and printed on the desk's copy. A register that is off, out of paper or
//! has its cover open leaves the receipt queued and the desk says which; an answer lost
//! after the register may have printed is reconciled by reading its last document before
//! printing again, so a guest never gets two receipts.

pub mod epson;

use std::sync::Arc;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::transport::{Transport, TransportError};
use super::{Exchange, FiscalScheme, Outcome};
use crate::domain::enums::{FiscalStatus, PaymentMethod, SubmissionKind};
use crate::error::{AppError, AppResult};
use crate::model::outcome::{NewSubmission, ReceiptSeries, SealInput, Sealed, SealedReceipt};
use crate::model::{Fiscal, Instant};

/// The scheme's name.
pub const NAME: &str = "it-rt";

/// A document the register issued: its serial, closure (Z) number, number and day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocId {
    /// The register's serial number (matricola).
    pub serial: String,
    /// The daily closure the document belongs to.
    pub z: u32,
    /// Its number within that closure.
    pub number: u32,
    /// Its day.
    pub date: NaiveDate,
}

impl DocId {
    /// As printed and stored: `0021-0034 24/11/2026 99SEA004010`.
    pub fn text(&self) -> String {
        format!(
            "{:04}-{:04} {} {}",
            self.z,
            self.number,
            self.date.format("%d/%m/%Y"),
            self.serial
        )
    }

    /// Reads [`DocId::text`] back.
    pub fn parse(s: &str) -> Option<DocId> {
        let mut parts = s.split_whitespace();
        let (z, number) = parts.next()?.split_once('-')?;
        let date = NaiveDate::parse_from_str(parts.next()?, "%d/%m/%Y").ok()?;
        Some(DocId {
            z: z.parse().ok()?,
            number: number.parse().ok()?,
            date,
            serial: parts.next()?.to_string(),
        })
    }
}

/// How a part of the receipt is paid, as the register counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Means {
    /// Cash (`paymentType` 0).
    Cash,
    /// Cards and transfers (`paymentType` 2). **Unverified** that a bank transfer belongs
    /// here rather than in a register-specific type; change it in [`means`].
    Electronic,
    /// Not collected now (`paymentType` 5): paid later, on account.
    NotCollected,
}

/// A receipt line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// What it is.
    pub description: String,
    /// How many.
    pub quantity: i64,
    /// Gross price per unit (minor units; negative for an allowance).
    pub unit_price: i64,
    /// The register's department for its VAT rate.
    pub department: u32,
}

/// One payment on the receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    /// How.
    pub means: Means,
    /// How much (minor units).
    pub amount: i64,
}

/// A receipt as sealed: everything the register is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    /// innkeep's invoice number.
    pub invoice: String,
    /// The day of issue.
    pub date: NaiveDate,
    /// The total (minor units, positive).
    pub total: i64,
    /// The lines.
    pub lines: Vec<Line>,
    /// The payments, adding up to the total.
    pub payments: Vec<Payment>,
    /// The buyer's codice fiscale or partita IVA, when known.
    pub customer: Option<String>,
    /// For a return: the document it returns.
    pub refund_of: Option<DocId>,
    /// For a return sealed before the register had printed the original: the original
    /// invoice's id. The queue fills `refund_of` in from that invoice's reference
    /// ([`FiscalScheme::complete`]) once it has one, and prints the return only then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns_invoice: Option<String>,
}

/// The register's means for innkeep's payment method.
pub fn means(m: PaymentMethod) -> Means {
    match m {
        PaymentMethod::Cash => Means::Cash,
        _ => Means::Electronic,
    }
}

/// A return waits while the register has not printed the original: a minute at a time.
pub fn waiting_for_original() -> Outcome {
    Outcome::Retry {
        reason:
            "waiting for the cash register to print the original receipt, which this one returns"
                .into(),
        after: Some(std::time::Duration::from_secs(60)),
    }
}

/// The settings of the register.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Its address on the LAN.
    pub url: String,
    /// Its serial number.
    pub serial: String,
    /// Department per VAT rate (basis points).
    pub departments: Vec<(i64, u32)>,
}

/// The telematic cash register through a transport.
pub struct Rt {
    settings: Settings,
    transport: Arc<dyn Transport>,
}

impl Rt {
    /// The register at `settings.url`.
    pub fn new(settings: Settings, transport: Arc<dyn Transport>) -> Rt {
        Rt {
            settings,
            transport,
        }
    }

    fn department(&self, rate: i64) -> AppResult<u32> {
        self.settings
            .departments
            .iter()
            .find(|(r, _)| *r == rate)
            .map(|(_, d)| *d)
            .ok_or_else(|| {
                AppError::invalid_field(
                    "lines.tax_rate",
                    "no_department",
                    format!(
                        "the cash register has no department for VAT {}%: add it under [compliance.fiscal.departments]",
                        crate::compliance::eracun::xml::percent(rate)
                    ),
                )
            })
    }

    /// One call to the register: its exchange and its answer.
    fn call(&self, operation: &str, body: &str) -> (Exchange, Result<epson::Answer, Outcome>) {
        let url = format!(
            "{}/cgi-bin/fpmate.cgi",
            self.settings.url.trim_end_matches('/')
        );
        let (started_at, clock) = (chrono::Utc::now(), std::time::Instant::now());
        let result =
            self.transport
                .post(&url, &[("Content-Type", "text/xml; charset=utf-8")], body);
        let ex = super::transport::exchange(
            operation,
            body.to_string(),
            &result,
            started_at,
            clock,
            |s| s.to_string(),
        );
        let answer = match result {
            Err(TransportError::NotSent(m)) => Err(Outcome::Retry {
                reason: format!(
                    "the cash register at {} is off or unreachable ({m}); the receipt prints as soon as it answers",
                    self.settings.url
                ),
                after: None,
            }),
            // The register may have printed: the next attempt reads its last document first.
            Err(TransportError::NoAnswer(m)) => Err(Outcome::Retry {
                reason: format!(
                    "the cash register did not answer ({m}); innkeep checks whether it printed before trying again"
                ),
                after: None,
            }),
            Ok(r) => epson::answer(&r.body).ok_or_else(|| Outcome::Retry {
                reason: format!(
                    "the cash register answered HTTP {} with something that is not its XML",
                    r.status
                ),
                after: None,
            }),
        };
        (ex, answer)
    }

    /// Whether the register's last document is this receipt (after a lost answer).
    fn printed_already(&self, r: &Receipt, log: &mut Vec<Exchange>) -> Option<DocId> {
        let (ex, answer) = self.call("last document (directIO 1387)", &epson::last_document());
        log.push(ex);
        let a = answer.ok()?;
        let (id, total) = epson::last_from(a.get("responseData")?, &self.settings.serial)?;
        // A return follows its original, of the same total and often the same day: the
        // original is never taken for its return.
        let its_original = r.refund_of.as_ref() == Some(&id);
        (total == r.total && id.date == r.date && !its_original).then_some(id)
    }
}

/// What a refused print means, in words.
fn refusal(a: &epson::Answer) -> Outcome {
    let paper = a.code == "EPTR_REC_EMPTY" || a.status == "3";
    let busy = [
        "LAN_ERROR",
        "LAN_TIME_OUT",
        "FP_NO_ANSWER",
        "TM_NO_ANSWER/OFF_LINE",
        "NO_RAM",
    ]
    .contains(&a.code.as_str());
    if paper {
        return Outcome::Retry {
            reason: "the cash register is out of paper or its cover is open: put paper in and close it; the receipt prints by itself".into(),
            after: None,
        };
    }
    if busy {
        return Outcome::Retry {
            reason: format!(
                "the cash register is busy or not ready ({}); the receipt goes again shortly",
                a.code
            ),
            after: None,
        };
    }
    let what = match a.status.as_str() {
        "9" | "10" => {
            "its date is wrong or earlier than its last closure: check the register's clock"
        }
        "21" => "the day's total limit is reached: close the day (Z report) first",
        "30" => "the codice fiscale or partita IVA on the receipt failed the register's check",
        "34" => "the register is not activated with the Agenzia delle Entrate",
        "39" | "40" => "the original document was already voided or returned",
        _ => "see the register's code",
    };
    Outcome::Rejected {
        reason: format!(
            "the cash register refused the receipt (code {}, status {}): {what}",
            a.code, a.status
        ),
        rows: Vec::new(),
    }
}

impl FiscalScheme for Rt {
    fn name(&self) -> &'static str {
        NAME
    }

    fn seal(
        &self,
        input: SealInput<'_>,
        numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed> {
        let inv = input.invoice;
        let (returning, refund_of, returns_invoice) = match input.reverses {
            None => (false, None, None),
            Some(f) if f.scheme != NAME => {
                // Reversing an invoice the register never printed (an e-invoice, one SdI
                // discarded): nothing for the register.
                return Ok(Sealed {
                    fiscal: Fiscal::new(NAME, FiscalStatus::NotRequired),
                    receipt: None,
                });
            }
            Some(f) => match f.authority_reference.as_deref().and_then(DocId::parse) {
                Some(d) => (true, Some(d), None),
                // The original is still queued (the register off, out of paper, or simply
                // not reached yet): the return is sealed now and waits for it in the queue,
                // so a cancellation or a correction never waits for the printer.
                // **Unverified**: that every register takes the return of a document of an
                // earlier closure (a return printed after the day's Z); the simulator does.
                None => (true, None, inv.corrects_invoice_id.clone()),
            },
        };
        let lines = inv
            .lines
            .iter()
            .map(|l| {
                Ok(Line {
                    description: l.description.clone(),
                    quantity: l.quantity,
                    unit_price: if returning {
                        l.unit_price.abs()
                    } else {
                        l.unit_price
                    },
                    department: self.department(l.tax_rate)?,
                })
            })
            .collect::<AppResult<Vec<_>>>()?;
        let total = inv.totals.gross.abs();
        let mut payments: Vec<Payment> = Vec::new();
        for (m, amount) in input.paid_by {
            match payments.iter_mut().find(|p| p.means == means(*m)) {
                Some(p) => p.amount += amount,
                None => payments.push(Payment {
                    means: means(*m),
                    amount: *amount,
                }),
            }
        }
        let paid: i64 = payments.iter().map(|p| p.amount).sum();
        if returning {
            // Money given back goes back the way the invoice was paid; what was never
            // collected is returned as not collected.
            let back = input.reverses_paid.clamp(0, total);
            payments = [
                (inv.payment_method.map_or(Means::Cash, means), back),
                (Means::NotCollected, total - back),
            ]
            .into_iter()
            .filter(|(_, a)| *a > 0)
            .map(|(means, amount)| Payment { means, amount })
            .collect();
        } else if paid < total {
            payments.push(Payment {
                means: Means::NotCollected,
                amount: total - paid,
            });
        }
        let customer = inv
            .bill_to
            .vat_id
            .as_ref()
            .and_then(|v| crate::domain::italy::partita_iva(&v.0))
            .or_else(|| {
                inv.bill_to
                    .tax_code
                    .as_ref()
                    .map(|t| crate::domain::italy::normalize(&t.0))
            })
            .filter(|c| c.len() == 11 || c.len() == 16);
        let receipt = Receipt {
            invoice: inv.number.clone(),
            date: inv.issue_date.0,
            total,
            lines,
            payments,
            customer,
            refund_of,
            returns_invoice,
        };
        let payload =
            serde_json::to_string(&receipt).map_err(|e| AppError::internal(e.to_string()))?;
        let series = ReceiptSeries {
            year: chrono::Datelike::year(&inv.issue_date.0),
            premises: "RT".into(),
            device: self.settings.serial.clone(),
        };
        let number = numbers(&series)?;
        let deadline = crate::clock::format_instant(input.now + chrono::Duration::days(12));
        let fiscal = Fiscal {
            deliver_by: Some(Instant(deadline.clone())),
            ..Fiscal::new(NAME, FiscalStatus::Pending)
        };
        let sealed = SealedReceipt {
            invoice_id: inv.id.clone(),
            scheme: NAME,
            series,
            number,
            issued_at: input.local_time.format("%Y-%m-%dT%H:%M:%S").to_string(),
            total: inv.totals.gross,
            zki: String::new(),
            receipt: payload.clone(),
        };
        let submission = NewSubmission {
            kind: SubmissionKind::FiscalReceipt,
            scheme: NAME,
            subject_id: inv.id.clone(),
            due_at: deadline,
            rows: Vec::new(),
            payload,
            record_date: Some(inv.issue_date),
        };
        Ok(Sealed {
            fiscal,
            receipt: Some((sealed, submission)),
        })
    }

    fn deliver(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        let Ok(r) = serde_json::from_str::<Receipt>(payload) else {
            return (
                Vec::new(),
                Outcome::Rejected {
                    reason: "the stored receipt could not be read".into(),
                    rows: Vec::new(),
                },
            );
        };
        if r.refund_of.is_none() && r.returns_invoice.is_some() {
            // Never printed as a sale: the queue completes it first (`complete`).
            return (Vec::new(), waiting_for_original());
        }
        let mut log = Vec::new();
        if late && let Some(id) = self.printed_already(&r, &mut log) {
            return (
                log,
                Outcome::Duplicate {
                    authority_reference: id.text(),
                },
            );
        }
        let (ex, answer) = self.call("print receipt", &epson::receipt(&r));
        log.push(ex);
        let outcome = match answer {
            Err(o) => o,
            Ok(a) if !a.success => refusal(&a),
            Ok(a) => {
                let number = a.get("fiscalReceiptNumber").and_then(|v| v.parse().ok());
                let z = a.get("zRepNumber").and_then(|v| v.parse().ok());
                let date = a
                    .get("fiscalReceiptDate")
                    .and_then(|d| NaiveDate::parse_from_str(d, "%d/%m/%Y").ok())
                    .unwrap_or(r.date);
                match (z, number) {
                    (Some(z), Some(number)) => Outcome::Accepted {
                        authority_reference: DocId {
                            serial: a.get("serialNumber").unwrap_or(&self.settings.serial).to_string(),
                            z,
                            number,
                            date,
                        }
                        .text(),
                    },
                    _ => Outcome::Retry {
                        reason: "the cash register printed without saying the document's number; innkeep reads its last document next".into(),
                        after: None,
                    },
                }
            }
        };
        (log, outcome)
    }

    fn awaits(&self, payload: &str) -> Option<String> {
        let r = serde_json::from_str::<Receipt>(payload).ok()?;
        r.refund_of.is_none().then_some(r.returns_invoice).flatten()
    }

    fn complete(&self, payload: &str, reference: &str) -> Option<String> {
        let mut r = serde_json::from_str::<Receipt>(payload).ok()?;
        r.refund_of = Some(DocId::parse(reference)?);
        r.returns_invoice = None;
        serde_json::to_string(&r).ok()
    }

    fn check_connection(&self) -> Result<String, String> {
        let (_, answer) = self.call("last document (directIO 1387)", &epson::last_document());
        match answer {
            Ok(a) if a.success => Ok(format!(
                "the cash register {} at {} answers",
                self.settings.serial, self.settings.url
            )),
            Ok(a) => Err(refusal(&a).reason().to_string()),
            Err(o) => Err(o.reason().to_string()),
        }
    }

    fn close_day(&self) -> Result<String, String> {
        let (_, answer) = self.call("daily closure (Z report)", &epson::close_day());
        match answer {
            Ok(a) if a.success => Ok(format!(
                "closure {} done; the day's takings {} EUR go to the Agenzia delle Entrate from the register",
                a.get("zRepNumber").unwrap_or("?"),
                a.get("dailyAmount").unwrap_or("?")
            )),
            Ok(a) => Err(refusal(&a).reason().to_string()),
            Err(o) => Err(o.reason().to_string()),
        }
    }
}
