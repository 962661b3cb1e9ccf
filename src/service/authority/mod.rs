//! What the queue learns from a national authority, recorded: the jobs claim a submission,
//! call the adapter on a blocking thread and hand the exchanges and the `Outcome` here. Each
//! call is one write transaction: the log, the submission moved on through the domain's
//! edges, the invoice's fiscal record or the rows, the event (by the system actor) and the job.

mod einvoice;
mod fiscal;
mod registration;

use chrono::Utc;

pub use einvoice::{FOLLOW_UP, einvoice_outcome, payment_outcome};
pub use fiscal::{change_outcome, fiscal_outcome};
pub use registration::registration_outcome;

use crate::compliance::Exchange;
use crate::db::{Db, Tx};
use crate::domain::enums::SubmissionStatus;
use crate::domain::submission::submission_may;
use crate::error::{AppError, AppResult};
use crate::model::Submission;
use crate::store;

/// A note in the exchange log, written by innkeep itself.
pub fn note(text: impl Into<String>) -> Exchange {
    Exchange {
        operation: "note".into(),
        request: None,
        response: None,
        http_status: None,
        error: Some(text.into()),
        started_at: Utc::now(),
        duration_ms: 0,
    }
}

/// Ends a job with nothing (more) to do: its submission is gone or already settled.
pub async fn finish_job(db: &Db, job_id: i64) -> AppResult<()> {
    db.write(move |tx| store::jobs::finish(tx, job_id)).await
}

/// Logs `log` and marks the submission `sending` with its attempt counted, committed before
/// anything leaves, so a crash mid-send is seen as such.
pub async fn mark_sending(
    db: &Db,
    sub: &Submission,
    attempt: i64,
    log: Vec<Exchange>,
) -> AppResult<()> {
    let (id, from) = (sub.id.clone(), sub.status);
    db.write(move |tx| {
        if from != SubmissionStatus::Sending {
            allowed(from, SubmissionStatus::Sending, &id)?;
        }
        store::submissions::append_exchanges(tx, &id, attempt, &log)?;
        store::submissions::mark_sending(tx, &id, attempt)
    })
    .await
}

/// Appends exchanges to a submission's log (an attempt that goes on).
pub async fn log(db: &Db, id: &str, attempt: i64, log: Vec<Exchange>) -> AppResult<()> {
    let id = id.to_string();
    db.write(move |tx| store::submissions::append_exchanges(tx, &id, attempt, &log))
        .await
}

/// Refuses an edge the domain does not have (a bug, never the user's doing).
fn allowed(from: SubmissionStatus, to: SubmissionStatus, id: &str) -> AppResult<()> {
    if submission_may(from, to) {
        Ok(())
    } else {
        Err(AppError::internal(format!(
            "submission {id} cannot go from {from} to {to}"
        )))
    }
}

/// Moves a submission to `to` through the domain's edges.
pub(crate) fn move_to(sub: &mut Submission, to: SubmissionStatus) -> AppResult<()> {
    allowed(sub.status, to, &sub.id)?;
    sub.status = to;
    Ok(())
}

/// Waits between attempts while an authority cannot be reached; the last repeats.
const BACKOFF: [u64; 5] = [60, 300, 900, 1800, 1800];

/// Schedules another attempt (the authority could not take it now).
fn schedule(
    tx: &Tx,
    sub: &mut Submission,
    reason: String,
    after: Option<std::time::Duration>,
    job_id: i64,
) -> AppResult<()> {
    let step = (sub.attempts.max(1) as usize - 1).min(BACKOFF.len() - 1);
    let after = after.unwrap_or(std::time::Duration::from_secs(BACKOFF[step]));
    let now = tx.clock().now();
    let at =
        crate::clock::format_instant(now + chrono::Duration::from_std(after).unwrap_or_default());
    move_to(sub, SubmissionStatus::Retrying)?;
    sub.last_error = Some(reason.clone());
    sub.next_attempt_at = Some(crate::model::Instant(at.clone()));
    store::jobs::retry_at(tx, job_id, &at, &reason)
}
