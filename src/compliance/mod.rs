//! National compliance hooks: what a fiscal scheme does when an invoice is issued, and what
//! a guest-registration scheme needs at check-in.
//!
//! Issuing and check-in call these traits; a national system (Croatia's fiscalization,
//! Italy's Alloggiati Web) plugs in as one more implementation, with no change to the calling
//! code. Both run inside the caller's write transaction, so what they record (a sealed
//! receipt, a queued submission) commits or rolls back with the invoice or the check-in.
//! The `none` implementations are used while no scheme is configured; `from_config` picks
//! the configured ones. The rules every adapter follows are in COMPLIANCE.md: snapshot in,
//! bytes out, outcome back; persist before send; deadlines are data; secrets stay secret.

pub mod alloggiati;
pub mod codes;
pub mod outcome;
pub mod transport;

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::Connection;

pub use outcome::{Exchange, Outcome, Party, Prepared, PreparedRow, Problem, RowResult};

use crate::db::Tx;
use crate::error::AppResult;
use crate::model::{Fiscal, Invoice};

/// Seals invoices for a national fiscal system.
pub trait FiscalScheme: Send + Sync {
    /// The scheme's name, such as `none` or `hr-cis`.
    fn name(&self) -> &'static str;

    /// Called inside the issuing transaction once the invoice has its number, before it is
    /// stored: returns its fiscal record (and may queue a submission). An error rolls the
    /// whole issue back, number included.
    fn seal(&self, tx: &Tx, invoice: &Invoice) -> AppResult<Fiscal>;
}

/// No fiscal system: invoices are `not_required`.
#[derive(Debug, Default)]
pub struct NoFiscal;

impl FiscalScheme for NoFiscal {
    fn name(&self) -> &'static str {
        "none"
    }

    fn seal(&self, _tx: &Tx, _invoice: &Invoice) -> AppResult<Fiscal> {
        Ok(Fiscal {
            scheme: "none".into(),
            status: "not_required".into(),
            local_proof: None,
            authority_reference: None,
            qr_payload: None,
            sent_at: None,
            last_error: None,
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
        conn: &Connection,
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
        _conn: &Connection,
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
}

impl Default for Compliance {
    fn default() -> Self {
        Compliance {
            fiscal: Arc::new(NoFiscal),
            registration: Arc::new(NoRegistration),
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

    /// The schemes `[compliance]` configures, calling authorities through `transport`.
    pub fn from_config(
        config: &crate::config::ComplianceConfig,
        transport: Arc<dyn transport::Transport>,
    ) -> Compliance {
        use crate::config::RegistrationSchemeName as Name;
        let r = &config.registration;
        let registration: Arc<dyn RegistrationScheme> = match r.scheme {
            Name::None => Arc::new(NoRegistration),
            Name::ItAlloggiati => Arc::new(alloggiati::Alloggiati::new(
                alloggiati::Settings {
                    endpoint: r.endpoint.clone(),
                    username: r.username.clone(),
                    password: r.password.expose().to_string(),
                    ws_key: r.ws_key.expose().to_string(),
                    dry_run: r.dry_run,
                },
                transport,
            )),
        };
        Compliance {
            registration,
            ..Compliance::default()
        }
    }

    /// [`Compliance::from_config`] over HTTP with the standard timeout.
    pub fn configured(config: &crate::config::ComplianceConfig) -> Compliance {
        Compliance::from_config(
            config,
            Arc::new(transport::HttpTransport::new(CALL_TIMEOUT)),
        )
    }
}
