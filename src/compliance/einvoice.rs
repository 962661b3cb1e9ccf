//! Structured e-invoices to businesses: which invoices are e-invoices, the document, and the
//! intermediary that carries it to the buyer and the tax administration.
//!
//! Two boundaries. An [`EInvoiceScheme`] (Croatia's eRačun) decides which invoices it covers
//! and builds their document, purely, inside the issuing transaction. An [`Intermediary`]
//! (moj-eRačun first) carries documents and payment reports, through the `Transport`, from
//! the queue; a second intermediary is one more implementation of that trait. The scheme
//! holds its intermediary and hands the queue's calls to it.

use std::sync::Arc;

use chrono::{NaiveDate, NaiveDateTime};

use super::{Exchange, Outcome};
use crate::domain::enums::EInvoiceStatus;
use crate::error::AppResult;
use crate::model::outcome::NewSubmission;
use crate::model::{Fiscal, Invoice};

/// What the scheme is given to build an invoice's e-invoice.
#[derive(Debug, Clone, Copy)]
pub struct BuildInput<'a> {
    /// The invoice, numbered, not yet stored.
    pub invoice: &'a Invoice,
    /// For a credit note: the invoice it reverses.
    pub reverses: Option<&'a Invoice>,
    /// Now, in the property's time.
    pub local_time: NaiveDateTime,
    /// Now.
    pub now: chrono::DateTime<chrono::Utc>,
    /// The staff member who issues it, when one does: name and OIB.
    pub operator: Option<(&'a str, &'a str)>,
    /// The stay: arrival and departure.
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// What is paid with the issue itself (minor units).
    pub prepaid: i64,
    /// How many e-invoices the property has issued before this one, plus one: numbers the
    /// transmission where the scheme needs it (Italy's `ProgressivoInvio`).
    pub transmission: u64,
}

/// A built e-invoice: the document, the KPD code each line was classified with, the
/// invoice's fiscal record and the submission that sends it.
#[derive(Debug, Clone)]
pub struct Built {
    /// The UBL document.
    pub document: String,
    /// Its SHA-256, hex.
    pub sha256: String,
    /// Each line's KPD code, in order.
    pub kpd: Vec<String>,
    /// The fiscal record the invoice starts with.
    pub fiscal: Fiscal,
    /// The submission that carries the document; none when the owner sends it by hand.
    pub submission: Option<NewSubmission>,
}

/// Where a document stands at the intermediary, as one call found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tracked {
    /// The intermediary holds it: its id there, how far it got and, when refused, why.
    At {
        /// The intermediary's id of the document.
        reference: String,
        /// Sent, delivered, fiscalized or rejected.
        status: EInvoiceStatus,
        /// The reason of a rejection, or a note on a wait.
        reason: Option<String>,
    },
    /// A search found no such document: it never arrived.
    Missing,
    /// The call did not tell (retry, unknown) or the intermediary refused the document
    /// before taking it.
    Failed(Outcome),
}

/// One payment of an e-invoice, as reported to the tax administration.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PaymentReport {
    /// The invoice.
    pub invoice_id: String,
    /// Its number (BT-1).
    pub number: String,
    /// Its issue date.
    pub issue_date: NaiveDate,
    /// The buyer's OIB.
    pub buyer_oib: String,
    /// When the money came.
    pub paid_on: NaiveDate,
    /// How much, in minor units.
    pub amount: i64,
    /// `T` (bank account), `O` (set-off) or `Z` (other).
    pub method: String,
}

/// Carries documents and payment reports (moj-eRačun, ...). Blocking calls, from the queue.
pub trait Intermediary: Send + Sync {
    /// Its name, such as `moj-eracun`.
    fn name(&self) -> &'static str;
    /// Sends a document numbered `number`.
    fn send(&self, number: &str, document: &str) -> (Vec<Exchange>, Tracked);
    /// How far the document with this id got.
    fn track(&self, reference: &str) -> (Vec<Exchange>, Tracked);
    /// Looks a document up by its number and the year of its issue (after a lost answer).
    fn find(&self, number: &str, year: i32) -> (Vec<Exchange>, Tracked);
    /// Reports one payment of the document with this id.
    fn report_payment(&self, reference: &str, p: &PaymentReport) -> (Vec<Exchange>, Outcome);
    /// How many payment reports of the document the tax administration has taken (after a
    /// report whose answer was lost).
    fn payments_taken(&self, reference: &str) -> (Vec<Exchange>, Result<usize, Outcome>);
    /// Checks the connection and the credentials.
    fn check(&self) -> Result<String, String>;
}

/// Decides which invoices are e-invoices and builds them.
pub trait EInvoiceScheme: Send + Sync {
    /// `none`, `hr-eracun` or `it-sdi`.
    fn name(&self) -> &'static str;

    /// Whether this invoice is an e-invoice (for a credit note: whether the invoice it
    /// reverses was one).
    fn covers(&self, _invoice: &Invoice, _reverses: Option<&Invoice>) -> bool {
        false
    }

    /// Builds the e-invoice, inside the issuing transaction; a refusal names what is
    /// missing.
    fn build(&self, input: BuildInput<'_>) -> AppResult<Built> {
        Err(crate::error::AppError::internal(format!(
            "the e-invoice scheme {} builds nothing (invoice {})",
            self.name(),
            input.invoice.number
        )))
    }

    /// The intermediary that carries the documents.
    fn intermediary(&self) -> Option<&dyn Intermediary> {
        None
    }
}

/// No e-invoices.
#[derive(Debug, Default)]
pub struct NoEInvoice;

impl EInvoiceScheme for NoEInvoice {
    fn name(&self) -> &'static str {
        "none"
    }
}

/// The e-invoice scheme `[compliance.einvoice]` configures, sending through `transport`.
pub fn from_config(
    e: &crate::config::EInvoiceConfig,
    transport: Arc<dyn super::transport::Transport>,
) -> Arc<dyn EInvoiceScheme> {
    use crate::config::EInvoiceSchemeName as Name;
    use crate::config::einvoice::IntermediaryName;
    match e.scheme {
        Name::None => return Arc::new(NoEInvoice),
        Name::HrEracun => {
            let intermediary: Arc<dyn Intermediary> = Arc::new(super::mer::MojEracun::new(
                super::mer::Account {
                    root: e.endpoint(),
                    username: e.username.clone(),
                    password: e.password.expose().to_string(),
                    company_id: e.company_id.clone(),
                    company_bu: e.company_bu.clone(),
                    software_id: e.software_id.clone(),
                },
                transport,
            ));
            return Arc::new(super::eracun::HrEracun::new(
                super::eracun::Settings {
                    iban: e.iban.clone(),
                    operator: (e.operator_name.clone(), e.operator_oib.clone()),
                    kpd_default: e.kpd_default.clone(),
                    due_days: e.due_days,
                },
                intermediary,
            ));
        }
        Name::ItSdi => {}
    }
    let intermediary: Arc<dyn Intermediary> = match e.intermediary {
        IntermediaryName::Invoicetronic => Arc::new(super::invoicetronic::Invoicetronic::new(
            e.endpoint(),
            e.api_key.expose().to_string(),
            transport,
        )),
        _ => Arc::new(super::fatturapa::Manual),
    };
    let t = e.transmitter_id.trim();
    Arc::new(super::fatturapa::ItSdi::new(
        super::fatturapa::Settings {
            transmitter: t
                .get(..2)
                .zip(t.get(2..))
                .filter(|(_, code)| !code.is_empty())
                .map(|(country, code)| (country.to_string(), code.to_string())),
            regime: e.regime_fiscale.clone(),
            city_tax_natura: e.city_tax_natura.clone(),
            zero_natura: e.zero_rate_natura.clone(),
            bollo_on_city_tax: e.bollo_on_city_tax,
            iban: (!e.iban.is_empty()).then(|| e.iban.replace(' ', "")),
            due_days: e.due_days,
        },
        intermediary,
    ))
}
