//! National compliance submissions: what was sent to an authority, row by row, and the log of
//! every raw exchange.

use crate::domain::enums::{RowStatus, SubmissionKind, SubmissionStatus};
use poem_openapi::Object;
use serde::{Deserialize, Serialize};

use super::{Date, Instant};

/// One row of a submission (for guest registration, one guest).
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct SubmissionRow {
    /// The guest registered by this row (`gst_…`).
    pub guest_id: String,
    /// The exact row sent (for Alloggiati Web, the 168-character record).
    pub line: String,
    /// `pending`, `accepted` or `rejected`.
    pub status: RowStatus,
    /// Why the authority refused the row.
    pub error: Option<String>,
}

/// One raw exchange with the authority. The log is append-only; secrets (passwords, keys,
/// tokens) are replaced by `[redacted]`.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct ExchangeRecord {
    /// Order in the log.
    pub sequence: i64,
    /// The submission attempt it belongs to.
    pub attempt: i64,
    /// `GenerateToken`, `Send`, `Test`, or `note` for an entry innkeep wrote itself (an
    /// operator's retry, a lost answer).
    pub operation: String,
    /// The request body.
    pub request: Option<String>,
    /// The response body.
    pub response: Option<String>,
    /// The HTTP status of the answer.
    pub http_status: Option<i64>,
    /// What went wrong.
    pub error: Option<String>,
    /// When it started.
    pub started_at: Instant,
    /// How long it took.
    pub duration_ms: i64,
}

/// A submission to a national authority (guest registration or fiscal receipt).
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Submission {
    /// `sub_…`
    pub id: String,
    /// `guest_registration`, `fiscal_receipt` or `fiscal_payment_change` (a change of an
    /// issued receipt's payment method; `subject_id` is the invoice).
    pub kind: SubmissionKind,
    /// The national scheme, such as `it-alloggiati`.
    pub scheme: String,
    /// What it is about: the reservation (`res_…`) or the invoice (`inv_…`).
    pub subject_id: String,
    /// `queued`, `sending`, `accepted`, `rejected` (the data must change: fix it and retry),
    /// `retrying` (the authority could not be reached; another attempt is scheduled),
    /// `unknown`, or `manual_required` (sent without an answer, or no longer sendable:
    /// check the authority's records, then retry or register by hand).
    pub status: SubmissionStatus,
    /// Sends made so far.
    pub attempts: i64,
    /// The legal deadline.
    pub due_at: Instant,
    /// Whether the deadline has passed without acceptance.
    pub overdue: bool,
    /// Whether the deadline is less than 24 hours away and the authority has not yet
    /// accepted it (for a fiscal receipt delivered late: deliver it now).
    pub due_soon: bool,
    /// When the next automatic attempt is due (while `retrying`).
    pub next_attempt_at: Option<Instant>,
    /// What identifies the submission at the authority.
    pub authority_reference: Option<String>,
    /// The last problem, in plain words.
    pub last_error: Option<String>,
    /// The property-local day the rows are recorded for (the arrival, for registration).
    pub record_date: Option<Date>,
    /// SHA-256 (hex) of the payload: the rows joined as the authority's file.
    pub payload_sha256: String,
    /// The rows, in the order sent.
    pub rows: Vec<SubmissionRow>,
    /// The exchange log, oldest first (in `GET /compliance/submissions/{id}`; null in lists).
    pub exchanges: Option<Vec<ExchangeRecord>>,
    /// When it was queued.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}
