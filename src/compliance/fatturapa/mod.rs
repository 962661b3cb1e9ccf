//! Italy's electronic invoices: every invoice and credit note a property issues is a
//! FatturaPA (format FPR12) carried to the exchange system (SdI) by an intermediary, or
//! handed to the owner to send through their own channel (`manual`).
//!
//! **Which documents.** Under `it-sdi` every invoice is a FatturaPA (in Italy an invoice
//! exists only as one) and a credit note is one (a TD04) when the invoice it reverses was
//! accepted. SdI's discard means the invoice was never issued: innkeep's way to fix it is
//! to reverse it with a credit note that stays inside innkeep and issue a new invoice to
//! the corrected buyer. (The law also lets the same number be sent again within 5 days;
//! innkeep's issued invoices never change, so it takes the new number, which the rules
//! equally allow.) A stay
//! settled with a receipt instead goes to the telematic cash register, not here.
//!
//! The document is built here, purely ([`doc`]), and checked against the official schema
//! ([`schema`]) before it is sealed; a problem names the field to fix. The buyer's rules
//! follow the technical rules as the research notes read them (docs/research/it-sdi.md):
//! an Italian buyer needs a partita IVA or a codice fiscale (SdI code 00417) and an
//! address with its 5-digit CAP; a foreign buyer gets the recipient code `XXXXXXX`, CAP
//! `00000` and, without a VAT number, the identifier `99999999999`.

pub mod doc;
mod parties;
pub mod schema;

use std::sync::Arc;

use chrono::Days;
use sha2::{Digest, Sha256};

use super::einvoice::{BuildInput, Built, EInvoiceScheme, Intermediary, PaymentReport, Tracked};
use super::{Exchange, Outcome};
use crate::clock::format_instant;
use crate::domain::enums::{
    EInvoiceStatus, FiscalStatus, InvoiceKind, PaymentMethod, SubmissionKind,
};
use crate::error::{AppError, AppResult};
use crate::model::outcome::NewSubmission;
use crate::model::{EInvoice, Fiscal, Instant, Invoice};

pub use parties::{buyer, seller};

/// The scheme's name.
pub const NAME: &str = "it-sdi";

/// How long an invoice has to reach SdI: 12 days from the operation (art. 21 c.4 DPR
/// 633/72), the submission's deadline.
pub const TRANSMISSION_WINDOW: chrono::Duration = chrono::Duration::days(12);

/// The property's FatturaPA settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Who transmits: country and tax id (the intermediary's or the hotel's); the seller's
    /// partita IVA when empty.
    pub transmitter: Option<(String, String)>,
    /// The seller's tax regime (`RF01` ordinary).
    pub regime: String,
    /// The `Natura` of the city tax.
    pub city_tax_natura: String,
    /// The `Natura` of other lines at rate 0.
    pub zero_natura: String,
    /// Whether the city tax counts toward the stamp duty's threshold.
    pub bollo_on_city_tax: bool,
    /// Where a buyer pays an invoice not paid at issue.
    pub iban: Option<String>,
    /// Days from issue to the due date of an invoice not paid at issue.
    pub due_days: u32,
}

/// The FatturaPA scheme with its intermediary.
pub struct ItSdi {
    settings: Settings,
    intermediary: Arc<dyn Intermediary>,
}

impl ItSdi {
    /// The scheme sending through `intermediary`.
    pub fn new(settings: Settings, intermediary: Arc<dyn Intermediary>) -> ItSdi {
        ItSdi {
            settings,
            intermediary,
        }
    }
}

/// The transmission number (`ProgressivoInvio`) of the `n`th document sent (from 1): five
/// base-36 characters, which also name the file (`IT01234567890_0000A.xml`, see
/// [`super::invoicetronic::file_name_of`]).
pub fn progressive(n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut v = n;
    let mut out = [b'0'; 5];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(v % 36) as usize];
        v /= 36;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl EInvoiceScheme for ItSdi {
    fn name(&self) -> &'static str {
        NAME
    }

    fn covers(&self, invoice: &Invoice, reverses: Option<&Invoice>) -> bool {
        match invoice.kind {
            // A discarded invoice was, in law, never issued: its reversal stays inside innkeep
            // (a TD04 would credit VAT that was never invoiced).
            InvoiceKind::CreditNote => reverses.is_some_and(|r| {
                r.fiscal
                    .einvoice
                    .as_ref()
                    .is_some_and(|e| e.status != EInvoiceStatus::Rejected)
            }),
            InvoiceKind::Invoice => true,
        }
    }

    fn build(&self, input: BuildInput<'_>) -> AppResult<Built> {
        let inv = input.invoice;
        let (seller_party, seller_vat) = seller(inv)?;
        let (buyer_party, recipient_code, pec) = buyer(&inv.bill_to)?;
        let transmitter = self
            .settings
            .transmitter
            .clone()
            .unwrap_or_else(|| ("IT".into(), seller_vat));
        let progressive = progressive(input.transmission);
        let total = inv.totals.gross;
        // The means the invoice names (a transfer when it names none), for the whole amount;
        // a transfer still to pay carries its due date and the account.
        let payment = (inv.kind == InvoiceKind::Invoice).then(|| {
            let means = match inv.payment_method {
                Some(PaymentMethod::Cash) => "MP01",
                Some(PaymentMethod::Card) => "MP08",
                _ => "MP05",
            };
            let unpaid = input.prepaid < total;
            let transfer = means == "MP05";
            doc::Payment {
                means,
                amount: total,
                due: (transfer && unpaid)
                    .then(|| inv.issue_date.0 + Days::new(u64::from(self.settings.due_days))),
                iban: self.settings.iban.clone().filter(|_| transfer),
            }
        });
        let document = doc::write(&doc::Document {
            invoice: inv,
            transmitter,
            progressive,
            recipient_code,
            pec,
            seller: seller_party,
            regime: self.settings.regime.clone(),
            buyer: buyer_party,
            period: input.period,
            corrects: input.reverses.map(|r| (r.number.clone(), r.issue_date.0)),
            city_tax_natura: self.settings.city_tax_natura.clone(),
            zero_natura: self.settings.zero_natura.clone(),
            bollo_on_city_tax: self.settings.bollo_on_city_tax,
            payment,
        });
        let problems = schema::problems(&document);
        if !problems.is_empty() {
            return Err(AppError::invalid_field(
                "bill_to",
                "fatturapa_invalid",
                format!(
                    "the FatturaPA document for this invoice would not pass the official schema {}: {}",
                    schema::VERSION,
                    problems.join("; ")
                ),
            ));
        }
        let sha256 = hex(&Sha256::digest(document.as_bytes()));
        let deadline = format_instant(input.now + TRANSMISSION_WINDOW);
        if self.intermediary.name() == MANUAL {
            // innkeep makes the file; the owner sends it and innkeep cannot know when.
            let fiscal = Fiscal {
                einvoice: Some(EInvoice {
                    status: EInvoiceStatus::Queued,
                    intermediary: MANUAL.into(),
                    reference: None,
                    sha256: sha256.clone(),
                    last_error: None,
                }),
                ..Fiscal::new(NAME, FiscalStatus::NotRequired)
            };
            return Ok(Built {
                document,
                sha256,
                kpd: Vec::new(),
                fiscal,
                submission: None,
            });
        }
        let fiscal = Fiscal {
            deliver_by: Some(Instant(deadline.clone())),
            einvoice: Some(EInvoice {
                status: EInvoiceStatus::Queued,
                intermediary: self.intermediary.name().into(),
                reference: None,
                sha256: sha256.clone(),
                last_error: None,
            }),
            ..Fiscal::new(NAME, FiscalStatus::Pending)
        };
        let submission = NewSubmission {
            kind: SubmissionKind::EInvoice,
            scheme: NAME,
            subject_id: inv.id.clone(),
            due_at: deadline,
            rows: Vec::new(),
            payload: document.clone(),
            record_date: Some(inv.issue_date),
        };
        Ok(Built {
            document,
            sha256,
            kpd: Vec::new(),
            fiscal,
            submission: Some(submission),
        })
    }

    fn intermediary(&self) -> Option<&dyn Intermediary> {
        Some(self.intermediary.as_ref())
    }
}

/// The name of the manual mode.
pub const MANUAL: &str = "manual";

/// No intermediary: innkeep makes the FatturaPA files and the owner sends them through their
/// own channel (their accountant, the Agenzia delle Entrate's portal). Nothing is queued.
pub struct Manual;

impl Intermediary for Manual {
    fn name(&self) -> &'static str {
        MANUAL
    }

    fn send(&self, _number: &str, _document: &str) -> (Vec<Exchange>, Tracked) {
        (Vec::new(), Tracked::Failed(by_hand()))
    }

    fn track(&self, _reference: &str) -> (Vec<Exchange>, Tracked) {
        (Vec::new(), Tracked::Failed(by_hand()))
    }

    fn find(&self, _number: &str, _year: i32) -> (Vec<Exchange>, Tracked) {
        (Vec::new(), Tracked::Failed(by_hand()))
    }

    fn report_payment(&self, _reference: &str, _p: &PaymentReport) -> (Vec<Exchange>, Outcome) {
        (Vec::new(), by_hand())
    }

    fn payments_taken(&self, _reference: &str) -> (Vec<Exchange>, Result<usize, Outcome>) {
        (Vec::new(), Err(by_hand()))
    }

    fn check(&self) -> Result<String, String> {
        Ok(
            "manual: innkeep makes each FatturaPA file; send them to SdI through your own channel"
                .into(),
        )
    }
}

fn by_hand() -> Outcome {
    Outcome::Rejected {
        reason: "e-invoices are sent by hand (intermediary = \"manual\"): innkeep sends nothing"
            .into(),
        rows: Vec::new(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmissions_count_in_base_36() {
        assert_eq!(progressive(1), "00001");
        assert_eq!(progressive(36), "00010");
        assert_eq!(progressive(36u64.pow(5) - 1), "ZZZZZ");
    }
}
