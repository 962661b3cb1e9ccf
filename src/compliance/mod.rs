//! National compliance hooks: what a fiscal scheme does when an invoice is issued, and what
//! a guest-registration scheme needs at check-in.
//!
//! Issuing and check-in call these traits; a national system (Croatia's fiscalization,
//! Italy's Alloggiati Web) plugs in as one more implementation, with no change to the calling
//! code. Both run inside the caller's write transaction, so what they record (a sealed
//! receipt, a queued submission) commits or rolls back with the invoice or the check-in.
//! The `none` implementations are used while no scheme is configured.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::db::Tx;
use crate::error::AppResult;
use crate::model::{Fiscal, Guest, Invoice};

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

/// Registers guests with a national authority at check-in.
pub trait RegistrationScheme: Send + Sync {
    /// The scheme's name, such as `it-alloggiati`; `none` when disabled.
    fn name(&self) -> &'static str;

    /// Whether check-in must register guests (and so queue a submission).
    fn enabled(&self) -> bool;

    /// The fields `guest` lacks for registration (API field paths); empty when complete.
    fn missing_fields(&self, guest: &Guest) -> Vec<&'static str>;

    /// When the registration of a check-in at `checked_in_at` is due.
    fn due_at(&self, checked_in_at: DateTime<Utc>) -> DateTime<Utc>;
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

    fn missing_fields(&self, _guest: &Guest) -> Vec<&'static str> {
        Vec::new()
    }

    fn due_at(&self, checked_in_at: DateTime<Utc>) -> DateTime<Utc> {
        checked_in_at
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
