//! What goes into an adapter and what comes back: the party snapshot, the prepared rows,
//! the problems that block a check-in, the raw exchanges, and the classified outcome.

use std::time::Duration;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::enums::SubmissionKind;
use crate::model::{Date, Fiscal, Guest, Invoice, Reservation, SubmissionRow};

/// An immutable snapshot of a party checking in.
#[derive(Debug, Clone)]
pub struct Party {
    /// The reservation (its guests are `guests`, primary first).
    pub reservation: Reservation,
    /// Every guest staying, the head of the party first.
    pub guests: Vec<Guest>,
    /// The property-local day the party actually arrives (the check-in day).
    pub arrival: NaiveDate,
    /// The property-local time they checked in (or check in now).
    pub arrived_at: chrono::NaiveTime,
    /// How many times a check-in of this reservation was undone before (so that a new one
    /// is told apart from the one withdrawn).
    pub undone: usize,
    /// The day they leave.
    pub departure: NaiveDate,
}

impl Party {
    /// Nights from the actual arrival to departure (at least 1).
    pub fn nights(&self) -> i64 {
        (self.departure - self.arrival).num_days().max(1)
    }
}

/// One payload row and the guest it registers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedRow {
    /// `gst_…`
    pub guest_id: String,
    /// The exact bytes of the row.
    pub line: String,
}

/// The rows built at check-in, persisted before anything is sent.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// One row per guest, in the order sent.
    pub rows: Vec<PreparedRow>,
    /// The property-local day the rows are recorded for.
    pub record_date: Option<NaiveDate>,
}

/// A guest's field that stops registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Position of the guest in the party (0 = head).
    pub guest_index: usize,
    /// `gst_…`
    pub guest_id: String,
    /// The guest's field path, such as `birth_place.municipality`.
    pub field: String,
    /// `required`, `not_found`, `ambiguous` or `not_supported`.
    pub rule: &'static str,
    /// What to do, in plain words (English).
    pub message: String,
    /// The same as the catalogues say it (the guest's name is added where it is shown).
    pub said: crate::domain::said::Said,
}

/// One raw exchange with the authority, as it goes into the append-only log.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The operation, such as `GenerateToken` or `Send`.
    pub operation: String,
    /// The request body, secrets redacted.
    pub request: Option<String>,
    /// The response body.
    pub response: Option<String>,
    /// The HTTP status, when an answer came.
    pub http_status: Option<u16>,
    /// What went wrong, if anything.
    pub error: Option<String>,
    /// When it started.
    pub started_at: DateTime<Utc>,
    /// How long it took.
    pub duration_ms: i64,
}

/// The authority's verdict on one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowResult {
    /// Whether the row was stored.
    pub accepted: bool,
    /// The authority's error for a refused row.
    pub error: Option<String>,
}

/// How an answer is classified (COMPLIANCE.md, rule 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every row was stored.
    Accepted {
        /// What identifies the registration at the authority.
        authority_reference: String,
    },
    /// Some rows were stored and some refused, one result per row in input order.
    Partial {
        /// Per-row results.
        rows: Vec<RowResult>,
        /// What identifies the stored rows at the authority.
        authority_reference: String,
    },
    /// Nothing was stored; the data must change.
    Rejected {
        /// Why, in the authority's words.
        reason: String,
        /// Per-row results, when the authority gave them.
        rows: Vec<RowResult>,
    },
    /// Nothing was stored; try again later.
    Retry {
        /// Why.
        reason: String,
        /// How long the authority asked us to wait.
        after: Option<Duration>,
    },
    /// The request went out and no answer came: it may or may not be stored.
    Unknown {
        /// Why.
        reason: String,
    },
    /// The authority already has it: success, with the evidence.
    Duplicate {
        /// What identifies the earlier registration.
        authority_reference: String,
    },
    /// The credentials expired before the call was processed: authenticate afresh and send
    /// again (nothing was stored).
    Reauthenticate {
        /// The authority's words.
        reason: String,
    },
    /// The first rows (one call each) got an answer, then the batch stopped: those rows take
    /// their results and the rest follows `then` (a retry, a fresh sign-in, an unknown).
    Progress {
        /// Results of the first rows sent, in order.
        rows: Vec<RowResult>,
        /// What happened to the rest.
        then: Box<Outcome>,
    },
}

impl Outcome {
    /// Why, in words: the authority's or innkeep's.
    pub fn reason(&self) -> &str {
        match self {
            Outcome::Accepted {
                authority_reference,
            }
            | Outcome::Duplicate {
                authority_reference,
            }
            | Outcome::Partial {
                authority_reference,
                ..
            } => authority_reference,
            Outcome::Rejected { reason, .. }
            | Outcome::Retry { reason, .. }
            | Outcome::Unknown { reason }
            | Outcome::Reauthenticate { reason } => reason,
            Outcome::Progress { then, .. } => then.reason(),
        }
    }
}

/// A new submission, its payload built (and hashed by the store) in the caller's
/// transaction; `service::submissions::open` writes it and queues its job, for every scheme.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    /// What it carries.
    pub kind: SubmissionKind,
    /// Scheme name.
    pub scheme: &'static str,
    /// Reservation or invoice id.
    pub subject_id: String,
    /// Deadline (RFC 3339, UTC).
    pub due_at: String,
    /// Rows (guest registration; empty for a receipt).
    pub rows: Vec<SubmissionRow>,
    /// The payload bytes.
    pub payload: String,
    /// The property-local day the submission is recorded for.
    pub record_date: Option<Date>,
}

/// A numbering series of fiscal receipts: year, premises and device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptSeries {
    /// Year of the number.
    pub year: i32,
    /// Premises mark.
    pub premises: String,
    /// Device mark.
    pub device: String,
}

/// A sealed receipt as the store keeps it.
#[derive(Debug, Clone)]
pub struct SealedReceipt {
    /// The invoice.
    pub invoice_id: String,
    /// The scheme.
    pub scheme: &'static str,
    /// Its series.
    pub series: ReceiptSeries,
    /// Its number in the series.
    pub number: i64,
    /// Local time of issue, as the authority writes it.
    pub issued_at: String,
    /// Total in cents.
    pub total: i64,
    /// The protective code.
    pub zki: String,
    /// The sealed receipt (JSON), sent as it is.
    pub receipt: String,
}

/// What a fiscal scheme's `seal` hands back: the invoice's fiscal record and, when the
/// authority must hear of it, the receipt to store and the submission to queue. The service
/// writes both in the issuing transaction.
#[derive(Debug, Clone)]
pub struct Sealed {
    /// The invoice's fiscal record.
    pub fiscal: Fiscal,
    /// The receipt and its submission, when one is due.
    pub receipt: Option<(SealedReceipt, NewSubmission)>,
}

/// What sealing is handed: the invoice about to be stored, the fiscal record of the invoice
/// a credit note reverses, and the time of issue.
#[derive(Debug, Clone, Copy)]
pub struct SealInput<'a> {
    /// The invoice, numbered, not yet stored.
    pub invoice: &'a Invoice,
    /// The fiscal record of the invoice a credit note reverses.
    pub reverses: Option<&'a Fiscal>,
    /// What was paid on the invoice a credit note reverses (minor units).
    pub reverses_paid: i64,
    /// The time of issue in the property's time zone.
    pub local_time: NaiveDateTime,
    /// The time of issue.
    pub now: DateTime<Utc>,
    /// The OIB of the staff member issuing it, when they have one (Croatia: the receipt's
    /// operator); else the scheme's own.
    pub operator_oib: Option<&'a str>,
    /// What is paid with the issue itself, by method (a check-out's payments; Italy's cash
    /// register splits cash from electronic payments).
    pub paid_by: &'a [(crate::domain::enums::PaymentMethod, i64)],
}

/// A fiscal day closed by the cash register.
#[derive(Debug, Clone, poem_openapi::Object)]
pub struct DayClosed {
    /// What the register did, in words: the closure number and the day's takings.
    pub message: String,
}
