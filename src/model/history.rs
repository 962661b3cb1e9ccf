//! The audit trail as the API shows it: one entry per change of a reservation, guest or
//! invoice, with who made it and the fields it changed.

use poem_openapi::Object;

use super::{Actor, Instant};
use crate::domain::history::Change;

/// One changed field.
#[derive(Debug, Clone, PartialEq, Object, serde::Serialize)]
pub struct FieldChange {
    /// Dotted path of the field, such as `status` or `document.number`.
    pub field: String,
    /// The value before; `null` when it had none (and for every field of a new record).
    pub from: serde_json::Value,
    /// The value after; `null` when it was cleared.
    pub to: serde_json::Value,
}

impl From<Change> for FieldChange {
    fn from(c: Change) -> FieldChange {
        FieldChange {
            field: c.field,
            from: c.from,
            to: c.to,
        }
    }
}

/// One entry of a record's history.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct HistoryEntry {
    /// `hst_…`
    pub id: String,
    /// What happened: an event type (such as `reservation.cancelled`), or one of the changes
    /// that have no event of their own: `reservation.charge_added`,
    /// `invoice.payment_recorded` (a part payment), `invoice.cancelled` (reversed by a credit
    /// note), `invoice.fiscalization_delayed` (the authority could not be reached), and on a
    /// guest `guest.exported` (an admin exported all their data) and `guest.erased` (an admin
    /// erased them: every value in their history then reads `"[erased]"`).
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: String,
    /// When.
    pub occurred_at: Instant,
    /// Who: `{type: client|staff|system, id, name}`.
    pub actor: Actor,
    /// The fields it changed (for a new record, every field it was given; for an added
    /// charge, the charge under `charges`).
    pub changes: Vec<FieldChange>,
    /// The event recorded with it (`evt_…`), when there was one. Events are kept for 30
    /// days; history is kept for good.
    pub event_id: Option<String>,
}

/// A page of a record's history, oldest first.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct HistoryPage {
    /// Entries, oldest first.
    pub data: Vec<HistoryEntry>,
    /// Pass as `cursor` for the next page; `null` at the end.
    pub next_cursor: Option<String>,
}
