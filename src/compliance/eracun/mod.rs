//! Croatia's eRačun (Fiskalizacija 2.0): invoices to Croatian businesses are UBL e-invoices
//! under CIUS-HR, carried and fiscalized by an information intermediary.
//!
//! **Which invoices.** An invoice whose bill-to is a business with a valid OIB (in
//! Croatia, or with no country given) is an e-invoice, unless it is paid at the desk by
//! card or cash: the fiscalization law (NN 89/25, art. 39) lets a transaction paid by cash
//! or card be billed with a fiscalized receipt (CIS, with the buyer's OIB) instead, and then
//! no e-invoice may be issued for it. innkeep takes that route at the desk (one document,
//! printed at once, fiscalized in seconds) and sends e-invoices for everything billed to a
//! company to pay later or by transfer. A credit note is an e-invoice when the invoice it
//! reverses was one.
//!
//! The document is built here, purely ([`ubl`]); the intermediary carries it
//! ([`super::einvoice::Intermediary`]).

mod parts;
pub mod ubl;
pub mod xml;

use std::sync::Arc;

use chrono::Days;
use sha2::{Digest, Sha256};

use super::einvoice::{BuildInput, Built, EInvoiceScheme, Intermediary};
use crate::clock::format_instant;
use crate::domain::enums::{
    BuyerKind, EInvoiceStatus, FiscalStatus, InvoiceKind, PaymentMethod, SubmissionKind,
};
use crate::domain::seller::oib_valid;
use crate::error::AppResult;
use crate::model::outcome::NewSubmission;
use crate::model::{Address, BillTo, EInvoice, Fiscal, Instant, Invoice};

/// The scheme's name.
pub const NAME: &str = "hr-eracun";

/// How long the intermediary has to get a document fiscalized (its own figure: up to five
/// days of retries), the submission's deadline.
pub const FISCALIZATION_WINDOW: chrono::Duration = chrono::Duration::days(5);

/// The property's e-invoice settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The account buyers pay into.
    pub iban: String,
    /// The operator named when no staff member issues: name and OIB.
    pub operator: (String, String),
    /// The KPD code of lines that name none.
    pub kpd_default: String,
    /// Days from issue to the due date.
    pub due_days: u32,
}

/// The eRačun scheme with its intermediary.
pub struct HrEracun {
    settings: Settings,
    intermediary: Arc<dyn Intermediary>,
}

impl HrEracun {
    /// The scheme sending through `intermediary`.
    pub fn new(settings: Settings, intermediary: Arc<dyn Intermediary>) -> HrEracun {
        HrEracun {
            settings,
            intermediary,
        }
    }
}

/// The OIB in a VAT number (`HR` prefix allowed), when it is one.
pub fn oib_of(vat_id: &str) -> Option<String> {
    let t = vat_id.trim();
    let digits = t
        .strip_prefix("HR")
        .or_else(|| t.strip_prefix("hr"))
        .unwrap_or(t);
    oib_valid(digits).then(|| digits.to_string())
}

/// The buyer's OIB when the bill-to is a Croatian business.
pub fn business_oib(b: &BillTo) -> Option<String> {
    let business = match b.kind {
        Some(k) => k == BuyerKind::Business,
        None => b.vat_id.is_some() || b.tax_id.is_some(),
    };
    let country = b.address.as_ref().and_then(|a| a.country.as_ref());
    if !business || country.is_some_and(|c| c.0 != "HR") {
        return None;
    }
    let vat = b.vat_id.as_ref().or(b.tax_id.as_ref())?;
    oib_of(&vat.0)
}

fn party(name: &str, oib: String, address: Option<&Address>) -> ubl::Party {
    let text = |f: Option<&crate::model::fields::Line<200>>| f.map(|l| l.0.clone());
    ubl::Party {
        name: name.to_string(),
        oib,
        street: address.and_then(|a| text(a.line1.as_ref())),
        city: address.and_then(|a| a.city.as_ref().map(|c| c.0.clone())),
        postal_code: address.and_then(|a| a.postal_code.as_ref().map(|c| c.0.clone())),
        country: address
            .and_then(|a| a.country.as_ref().map(|c| c.0.clone()))
            .unwrap_or_else(|| "HR".into()),
    }
}

impl EInvoiceScheme for HrEracun {
    fn name(&self) -> &'static str {
        NAME
    }

    fn covers(&self, invoice: &Invoice, reverses: Option<&Invoice>) -> bool {
        if invoice.kind == InvoiceKind::CreditNote {
            return reverses.is_some_and(|r| r.fiscal.einvoice.is_some());
        }
        let at_desk = matches!(
            invoice.payment_method,
            Some(PaymentMethod::Cash | PaymentMethod::Card)
        );
        !at_desk && business_oib(&invoice.bill_to).is_some()
    }

    fn build(&self, input: BuildInput<'_>) -> AppResult<Built> {
        let inv = input.invoice;
        let seller = inv.seller.as_ref().and_then(|s| {
            oib_of(&s.vat_id.0).map(|oib| party(&s.legal_name.0, oib, Some(&s.address)))
        });
        let Some(seller) = seller else {
            if inv.seller.is_none() {
                return Err(crate::refusal::FiscalRefusal::SellerMissing {
                    country: "HR".into(),
                }
                .into());
            }
            return Err(crate::error::AppError::invalid_field(
                "seller.vat_id",
                "invalid_oib",
                "the seller's VAT number in the property settings must be its OIB (11 digits whose last is the check digit, HR in front allowed) for an e-invoice",
            ));
        };
        let buyer_oib = business_oib(&inv.bill_to).ok_or_else(|| {
            crate::error::AppError::invalid_field(
                "bill_to.vat_id",
                "invalid_oib",
                "must be the buyer's OIB for an e-invoice",
            )
        })?;
        let buyer = party(&inv.bill_to.name.0, buyer_oib, inv.bill_to.address.as_ref());
        let kpd: Vec<String> = inv
            .lines
            .iter()
            .map(|l| {
                l.kpd_code
                    .clone()
                    .unwrap_or_else(|| self.settings.kpd_default.clone())
            })
            .collect();
        let operator = match input.operator {
            Some((name, oib)) if oib_valid(oib) => (name.to_string(), oib.to_string()),
            _ => self.settings.operator.clone(),
        };
        let today = input.local_time.date();
        let document = ubl::write(&ubl::Document {
            invoice: inv,
            seller,
            buyer,
            operator,
            // The invoice's own issue date (read once, at numbering), at this time of day.
            issued: chrono::NaiveDateTime::new(inv.issue_date.0, input.local_time.time()),
            due: today + Days::new(u64::from(self.settings.due_days)),
            period: input.period,
            corrects: input.reverses.map(|r| (r.number.clone(), r.issue_date.0)),
            iban: self.settings.iban.clone(),
            kpd: kpd.clone(),
            prepaid: input.prepaid,
        });
        let sha256 = hex(&Sha256::digest(document.as_bytes()));
        let fiscal = Fiscal {
            deliver_by: Some(Instant(format_instant(input.now + FISCALIZATION_WINDOW))),
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
            due_at: format_instant(input.now + FISCALIZATION_WINDOW),
            rows: Vec::new(),
            payload: document.clone(),
            record_date: Some(inv.issue_date),
        };
        Ok(Built {
            document,
            sha256,
            kpd,
            fiscal,
            submission: Some(submission),
        })
    }

    fn intermediary(&self) -> Option<&dyn Intermediary> {
        Some(self.intermediary.as_ref())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
