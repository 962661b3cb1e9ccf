//! National compliance hooks: what a fiscal scheme does when an invoice is issued, and what
//! a guest-registration scheme needs at check-in.
//!
//! Issuing and check-in call these traits; a national system (Croatia's fiscalization,
//! Italy's Alloggiati Web) plugs in as one more implementation, with no change to the calling
//! code. Adapters do no I/O of their own: they are handed what they need (the invoice, the
//! party, a read-only view of the code tables, a receipt counter) and hand back values (a
//! `Sealed` receipt, `Prepared` rows, an `Outcome`); the services store those and queue the
//! submission in the caller's write transaction, the same way for every scheme.
//! The `none` implementations are used while no scheme is configured; `from_config` picks
//! the configured ones. The rules every adapter follows are in COMPLIANCE.md: snapshot in,
//! bytes out, outcome back; persist before send; deadlines are data; secrets stay secret.

pub mod alloggiati;
pub mod cis;
pub mod codes;
pub mod collect;
pub mod einvoice;
pub mod eracun;
pub mod evisitor;
pub mod fatturapa;
pub mod invoicetronic;
pub mod live;
pub mod mer;
pub mod ross1000;
pub mod rt;
pub mod transport;
pub mod xsd;

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};

pub use crate::model::outcome::{
    Exchange, Outcome, Party, Prepared, PreparedRow, Problem, RowResult,
};

use crate::domain::enums::FiscalStatus;
use crate::error::AppResult;
use crate::model::Fiscal;
use crate::model::codes::CodeLookup;
pub use crate::model::outcome::{ReceiptSeries, SealInput, Sealed};

/// Seals invoices for a national fiscal system.
pub trait FiscalScheme: Send + Sync {
    /// The scheme's name, such as `none` or `hr-cis`.
    fn name(&self) -> &'static str;

    /// Called inside the issuing transaction once the invoice has its number, before it is
    /// stored: its fiscal record and, when the authority must hear of it, the receipt and the
    /// submission the service stores and queues. `numbers` hands out the next gapless
    /// receipt number of a series (taken only when a receipt is made). An error rolls the
    /// whole issue back, numbers included.
    fn seal(
        &self,
        input: SealInput<'_>,
        numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed>;

    /// Sends a sealed receipt (the submission's payload) from the queue, on a blocking
    /// thread; `late` when an earlier attempt did not get through. The exchanges made and
    /// how the authority answered.
    fn deliver(&self, _payload: &str, _late: bool) -> (Vec<Exchange>, Outcome) {
        (
            Vec::new(),
            Outcome::Unknown {
                reason: format!("the fiscal scheme {} delivers nothing", self.name()),
            },
        )
    }

    /// The invoice whose own document must exist before this receipt can go (Italy's
    /// return of a receipt the register had not printed when the credit note was issued),
    /// or `None` when it can go as it is.
    fn awaits(&self, _payload: &str) -> Option<String> {
        None
    }

    /// The payload completed with the awaited invoice's `reference`, or `None` when that
    /// reference names no document of this scheme.
    fn complete(&self, payload: &str, _reference: &str) -> Option<String> {
        Some(payload.to_string())
    }

    /// Checks the connection to the authority (certificate, trust, line): its answer, or
    /// what is wrong.
    fn check_connection(&self) -> Result<String, String> {
        Err(format!(
            "the fiscal scheme {} has no authority to call",
            self.name()
        ))
    }

    /// Closes the fiscal day where the scheme has one (Italy's cash register: the Z report,
    /// after which it transmits the day's takings): what it did, or what is wrong.
    fn close_day(&self) -> Result<String, String> {
        Err(format!(
            "the fiscal scheme {} has no day to close",
            self.name()
        ))
    }

    /// The QR link once the authority's reference is known.
    fn qr_payload(&self, _payload: &str, _reference: &str) -> Option<String> {
        None
    }

    /// The certificate the scheme seals and signs with: its subject and when it expires.
    fn certificate(&self) -> Option<(String, chrono::DateTime<chrono::Utc>)> {
        None
    }

    /// Called inside the transaction that changes a sealed invoice's payment method: what
    /// the authority must hear of it, or the refusal (too late for the authority).
    fn change_payment(&self, _input: ChangeInput<'_>) -> AppResult<PaymentChange> {
        Ok(PaymentChange::Silent)
    }

    /// Sends a queued change of payment method (the payload [`PaymentChange::Report`] gave)
    /// from the queue, on a blocking thread; `late` when the receipt itself went late.
    fn deliver_change(&self, _payload: &str, _late: bool) -> (Vec<Exchange>, Outcome) {
        (
            Vec::new(),
            Outcome::Unknown {
                reason: format!("the fiscal scheme {} reports no changes", self.name()),
            },
        )
    }
}

/// A change of payment method on a sealed invoice, as the fiscal scheme is asked about it.
#[derive(Debug, Clone, Copy)]
pub struct ChangeInput<'a> {
    /// The sealed receipt (its stored payload).
    pub receipt: &'a str,
    /// The invoice's number, for a refusal.
    pub number: &'a str,
    /// The new method.
    pub method: crate::domain::enums::PaymentMethod,
    /// Now, in the property's time zone.
    pub local_now: chrono::NaiveDateTime,
    /// Now.
    pub now: DateTime<Utc>,
}

/// What a change of payment method asks of the fiscal system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentChange {
    /// Nothing.
    Silent,
    /// Queue this payload as a `fiscal_payment_change` submission, due by `due_at`.
    Report {
        /// What the queue sends.
        payload: String,
        /// When the authority stops taking it.
        due_at: DateTime<Utc>,
    },
}

/// No fiscal system: invoices are `not_required`.
#[derive(Debug, Default)]
pub struct NoFiscal;

impl FiscalScheme for NoFiscal {
    fn name(&self) -> &'static str {
        "none"
    }

    fn seal(
        &self,
        _input: SealInput<'_>,
        _numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed> {
        Ok(Sealed {
            fiscal: Fiscal::new("none", FiscalStatus::NotRequired),
            receipt: None,
        })
    }
}

/// Registers guests with a national authority at check-in, then sends them from the queue.
///
/// Check-in calls [`RegistrationScheme::prepare`] inside its transaction: either the exact
/// payload (stored with its hash before anything is sent) or every guest's missing or
/// unusable fields (422 `registration_incomplete`). The queue later calls `authenticate`
/// and `submit` on a blocking thread; their raw exchanges are appended to the log.
pub trait RegistrationScheme: Send + Sync {
    /// The scheme's name, such as `it-alloggiati`; `none` when disabled.
    fn name(&self) -> &'static str;

    /// Whether check-in must register guests (and so queue a submission).
    fn enabled(&self) -> bool;

    /// Validates the party and builds its payload rows (a pure step over the party and the
    /// imported code tables), or lists every problem.
    fn prepare(
        &self,
        codes: &dyn CodeLookup,
        party: &Party,
    ) -> AppResult<Result<Prepared, Vec<Problem>>>;

    /// When the registration of a party checked in at `checked_in_at` is due.
    fn due_at(&self, party: &Party, checked_in_at: DateTime<Utc>) -> DateTime<Utc>;

    /// Whether rows recorded for `record_date` may still be sent on `today`; the reason
    /// (for a manual upload) when not.
    fn sendable(&self, record_date: NaiveDate, today: NaiveDate) -> Result<(), String>;

    /// Makes sure the scheme holds valid credentials (`fresh`: discard cached ones first).
    fn authenticate(&self, fresh: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)>;

    /// Sends the rows; the exchanges made and how the authority answered.
    fn submit(&self, lines: &[String]) -> (Vec<Exchange>, Outcome);

    /// The rows as the authority's manual upload file.
    fn export(&self, lines: &[String]) -> String;

    /// How the authority will see each guest of a party, in its order (head of a family,
    /// member, ...), so the desk can say it before check-in; empty when the scheme has no
    /// such notion.
    fn roles(&self, _guests: &[crate::model::Guest]) -> Vec<GuestRole> {
        Vec::new()
    }

    /// The rows telling the authority that the guests of `registered` (the rows that
    /// registered them) left at `at` (property-local); empty when it needs no such message.
    fn departure(
        &self,
        _registered: &[PreparedRow],
        _at: chrono::NaiveDateTime,
    ) -> Vec<PreparedRow> {
        Vec::new()
    }

    /// The rows withdrawing the registration of `registered` (a check-in undone) for
    /// `reason`; empty when the scheme has no such message.
    fn withdrawal(&self, _registered: &[PreparedRow], _reason: &str) -> Vec<PreparedRow> {
        Vec::new()
    }

    /// Whether a registration can be withdrawn (a check-in undone); a scheme that cannot
    /// makes an undo impossible once guests are registered.
    fn withdraws(&self) -> bool {
        false
    }

    /// What an operator does when whether the authority took the rows is unknown.
    fn unknown_advice(&self) -> &'static str {
        "Check the authority's records for these guests (for Alloggiati Web, the day's receipt on the portal); \
         if they are missing, retry this submission, or upload the day's export by hand."
    }

    /// Whether a guest whose registered data changes while in the house is sent again.
    fn resends_changes(&self) -> bool {
        false
    }

    /// The code tables the scheme reads (imported or fetched), by their official names.
    fn table_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the scheme fetches its code tables from the authority.
    fn fetches_tables(&self) -> bool {
        false
    }

    /// Fetches the code tables (on a blocking thread): the exchanges made and every table,
    /// or why they could not be had.
    fn fetch_tables(&self) -> FetchedTables {
        (
            Vec::new(),
            Err(format!("{} tables are imported by hand", self.name())),
        )
    }

    /// Whether the authority gives a receipt of each day's registrations (Italy: Alloggiati
    /// Web's signed PDF, which must be kept five years).
    fn gives_receipts(&self) -> bool {
        false
    }

    /// Fetches the receipt of what the authority stored on `day` (on a blocking thread): the
    /// exchanges made and the document, none when nothing was stored that day, or why not.
    fn fetch_receipt(&self, _day: NaiveDate) -> FetchedReceipt {
        (
            Vec::new(),
            Err(format!("{} gives no receipts", self.name())),
        )
    }
}

/// A day's receipt fetched from an authority: the exchanges made, and the document (none
/// when nothing was stored that day) or why it could not be had.
pub type FetchedReceipt = (Vec<Exchange>, Result<Option<Vec<u8>>, String>);

/// Code tables fetched from an authority: the exchanges made, and every table with its rows
/// or why they could not be had.
pub type FetchedTables = (
    Vec<Exchange>,
    Result<Vec<(&'static str, Vec<crate::model::codes::CodeRow>)>, String>,
);

/// A guest's place in a registered party.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuestRole {
    /// Alone.
    Single,
    /// Heads a family (every guest shares the head's surname).
    FamilyHead,
    /// Leads a group.
    GroupLeader,
    /// A member of the head's family.
    FamilyMember,
    /// A member of the leader's group.
    GroupMember,
}

impl GuestRole {
    /// The role's key in the desk's catalogues (`guest-role-…`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Single => "guest-role-single",
            Self::FamilyHead => "guest-role-family-head",
            Self::GroupLeader => "guest-role-group-leader",
            Self::FamilyMember => "guest-role-family-member",
            Self::GroupMember => "guest-role-group-member",
        }
    }
}

/// No registration: nothing is required, nothing is queued.
#[derive(Debug, Default)]
pub struct NoRegistration;

impl RegistrationScheme for NoRegistration {
    fn name(&self) -> &'static str {
        "none"
    }

    fn enabled(&self) -> bool {
        false
    }

    fn prepare(
        &self,
        _codes: &dyn CodeLookup,
        _party: &Party,
    ) -> AppResult<Result<Prepared, Vec<Problem>>> {
        Ok(Ok(Prepared::default()))
    }

    fn due_at(&self, _party: &Party, checked_in_at: DateTime<Utc>) -> DateTime<Utc> {
        checked_in_at
    }

    fn sendable(&self, _record_date: NaiveDate, _today: NaiveDate) -> Result<(), String> {
        Err("guest registration is not configured".into())
    }

    fn authenticate(&self, _fresh: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)> {
        Err((
            Vec::new(),
            Outcome::Unknown {
                reason: "guest registration is not configured".into(),
            },
        ))
    }

    fn submit(&self, _lines: &[String]) -> (Vec<Exchange>, Outcome) {
        (
            Vec::new(),
            Outcome::Unknown {
                reason: "guest registration is not configured".into(),
            },
        )
    }

    fn export(&self, lines: &[String]) -> String {
        lines.join("\r\n")
    }
}

/// The schemes in force.
#[derive(Clone)]
pub struct Compliance {
    /// Fiscal receipts.
    pub fiscal: Arc<dyn FiscalScheme>,
    /// Guest registration.
    pub registration: Arc<dyn RegistrationScheme>,
    /// E-invoices to businesses.
    pub einvoice: Arc<dyn einvoice::EInvoiceScheme>,
}

impl Default for Compliance {
    fn default() -> Self {
        Compliance {
            fiscal: Arc::new(NoFiscal),
            registration: Arc::new(NoRegistration),
            einvoice: Arc::new(einvoice::NoEInvoice),
        }
    }
}

/// How long one call to an authority may take.
pub const CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

impl Compliance {
    /// The schemes' names, as the settings show them.
    pub fn schemes(&self) -> crate::model::ComplianceSchemes {
        crate::model::ComplianceSchemes {
            registration: self.registration.name().into(),
            fiscal: self.fiscal.name().into(),
        }
    }

    /// The schemes `[compliance]` configures, calling registration authorities through
    /// `transport`. The fiscal scheme reads its certificate here and makes its own
    /// client-certificate TLS connection; an unreadable certificate is an error that says why.
    pub fn from_config(
        config: &crate::config::ComplianceConfig,
        transport: Arc<dyn transport::Transport>,
    ) -> Result<Compliance, String> {
        use crate::config::RegistrationSchemeName as Name;
        let r = &config.registration;
        let registration: Arc<dyn RegistrationScheme> = match r.scheme {
            Name::None => Arc::new(NoRegistration),
            Name::HrEvisitor => Arc::new(evisitor::Evisitor::new(
                evisitor::Settings {
                    root: r.endpoint_in_use().trim_end_matches('/').to_string(),
                    username: r.username.clone(),
                    password: r.password.expose().to_string(),
                    api_key: r.api_key.expose().to_string(),
                    defaults: evisitor::tourist::Defaults {
                        facility: r.facility.trim().to_string(),
                        arrival_organisation: r.arrival_organisation.trim().to_string(),
                        service_type: r.service_type.trim().to_string(),
                        tax_category: r.tax_category.trim().to_string(),
                    },
                },
                transport.clone(),
            )),
            Name::ItAlloggiati => Arc::new(alloggiati::Alloggiati::new(
                alloggiati::Settings {
                    endpoint: r.endpoint.clone(),
                    username: r.username.clone(),
                    password: r.password.expose().to_string(),
                    ws_key: r.ws_key.expose().to_string(),
                    dry_run: r.dry_run,
                },
                transport.clone(),
            )),
        };
        Ok(Compliance {
            registration,
            fiscal: fiscal_scheme(&config.fiscal)?,
            einvoice: einvoice::from_config(&config.einvoice, transport),
        })
    }

    /// [`Compliance::from_config`] over HTTP with the standard timeout.
    pub fn configured(config: &crate::config::ComplianceConfig) -> Result<Compliance, String> {
        Compliance::from_config(
            config,
            Arc::new(transport::HttpTransport::new(CALL_TIMEOUT)),
        )
    }
}

/// The certificate `[compliance.fiscal]` names, read and checked.
pub fn fiscal_credentials(f: &crate::config::FiscalConfig) -> Result<cis::Credentials, String> {
    let path = f
        .certificate
        .as_deref()
        .ok_or("compliance.fiscal.certificate is not set")?;
    cis::credentials::load(
        path,
        f.certificate_password.expose(),
        f.ca_certificate.as_deref(),
    )
}

fn fiscal_scheme(f: &crate::config::FiscalConfig) -> Result<Arc<dyn FiscalScheme>, String> {
    use crate::config::FiscalSchemeName as Name;
    match f.scheme {
        Name::None => Ok(Arc::new(NoFiscal)),
        Name::HrCis => {
            let credentials = Arc::new(fiscal_credentials(f)?);
            let transport =
                transport::HttpTransport::with_client_certificate(CALL_TIMEOUT, &credentials)?;
            Ok(Arc::new(cis::Cis::new(
                cis::Settings::from(f),
                credentials,
                Arc::new(transport),
            )))
        }
        Name::ItRt => Ok(Arc::new(rt::Rt::new(
            rt::Settings {
                url: f.rt_url.trim().to_string(),
                serial: f.rt_serial.trim().to_string(),
                departments: f
                    .departments
                    .iter()
                    .filter_map(|(k, d)| Some((crate::config::fiscal_rate(k)?, *d)))
                    .collect(),
            },
            Arc::new(transport::HttpTransport::new(CALL_TIMEOUT)),
        ))),
    }
}
