//! A guest registration's answer: rows accepted or refused one by one, the submission moved
//! on, and `registration.accepted` or `registration.rejected` recorded.

use std::sync::Arc;

use super::{move_to, schedule};
use crate::clock::format_instant;
use crate::compliance::{Exchange, Outcome, RegistrationScheme, RowResult};
use crate::db::{Db, Tx};
use crate::domain::enums::{RowStatus, SubmissionStatus};
use crate::domain::events::EventType;
use crate::error::AppResult;
use crate::model::{Actor, Instant, Submission, snapshot};
use crate::service::registration::payload_of;
use crate::store;

/// Records the exchanges and the outcome in one transaction, with the event and the job.
pub async fn registration_outcome(
    db: &Db,
    job_id: i64,
    sub: &Submission,
    scheme: Arc<dyn RegistrationScheme>,
    log: Vec<Exchange>,
    outcome: Outcome,
) -> AppResult<()> {
    let mut sub = sub.clone();
    db.write(move |tx| {
        store::submissions::append_exchanges(tx, &sub.id, sub.attempts, &log)?;
        let now = tx.clock().now();
        let event = apply(tx, &mut sub, outcome, job_id, scheme.unknown_advice())?;
        sub.updated_at = Instant(format_instant(now));
        let payload = payload_of(scheme.as_ref(), &sub.rows);
        store::submissions::save(tx, &sub, &payload)?;
        if let Some(kind) = event {
            store::events::record(tx, &Actor::queue(), kind, &sub.id, &snapshot(&sub))?;
        }
        Ok(())
    })
    .await
}

/// Moves the submission (and its job) on; returns the event to record, if any.
fn apply(
    tx: &Tx,
    sub: &mut Submission,
    outcome: Outcome,
    job_id: i64,
    advice: &str,
) -> AppResult<Option<EventType>> {
    sub.next_attempt_at = None;
    let outcome = match outcome {
        Outcome::Progress { rows, then } => {
            mark_first(sub, &rows);
            *then
        }
        other => other,
    };
    let outcome = match outcome {
        Outcome::Retry { reason, after } => {
            return schedule(tx, sub, reason, after, job_id).map(|()| None);
        }
        Outcome::Reauthenticate { reason } => {
            return schedule(tx, sub, reason, None, job_id).map(|()| None);
        }
        other => other,
    };
    let event = match outcome {
        Outcome::Accepted {
            authority_reference,
        }
        | Outcome::Duplicate {
            authority_reference,
        } => {
            for row in sub
                .rows
                .iter_mut()
                .filter(|r| r.status == RowStatus::Pending)
            {
                row.status = RowStatus::Accepted;
            }
            if sub.rows.iter().any(|r| r.status == RowStatus::Rejected) {
                sub.authority_reference = Some(authority_reference);
                let event = reject(sub, None)?;
                store::jobs::finish(tx, job_id)?;
                return Ok(event);
            }
            move_to(sub, SubmissionStatus::Accepted)?;
            sub.authority_reference = Some(authority_reference);
            sub.last_error = None;
            Some(EventType::RegistrationAccepted)
        }
        Outcome::Partial {
            rows,
            authority_reference,
        } => {
            sub.authority_reference = Some(authority_reference);
            mark_rows(sub, &rows, "refused");
            reject(sub, None)?
        }
        Outcome::Rejected { reason, rows } => {
            mark_rows(sub, &rows, &reason);
            reject(sub, Some(reason))?
        }
        Outcome::Unknown { reason } => {
            move_to(sub, SubmissionStatus::ManualRequired)?;
            sub.last_error = Some(format!("{reason}. {advice}"));
            None
        }
        Outcome::Retry { .. } | Outcome::Reauthenticate { .. } | Outcome::Progress { .. } => None,
    };
    store::jobs::finish(tx, job_id)?;
    Ok(event)
}

/// Applies the authority's per-row results to the rows just sent (the pending ones, in
/// order); a row without a result is refused for `reason`.
fn mark_rows(sub: &mut Submission, results: &[RowResult], reason: &str) {
    let sent = sub
        .rows
        .iter_mut()
        .filter(|r| r.status == RowStatus::Pending);
    for (n, row) in sent.enumerate() {
        let (status, error) = match results.get(n) {
            Some(r) if r.accepted => (RowStatus::Accepted, None),
            Some(r) => (RowStatus::Rejected, r.error.clone()),
            None => (RowStatus::Rejected, None),
        };
        row.status = status;
        row.error = error.or_else(|| (status == RowStatus::Rejected).then(|| reason.to_string()));
    }
}

/// Applies the results of the first rows sent (one call each) before a batch stopped; the
/// rest stay pending.
fn mark_first(sub: &mut Submission, results: &[RowResult]) {
    let sent = sub
        .rows
        .iter_mut()
        .filter(|r| r.status == RowStatus::Pending);
    for (row, r) in sent.zip(results) {
        row.status = if r.accepted {
            RowStatus::Accepted
        } else {
            RowStatus::Rejected
        };
        row.error = r.error.clone();
    }
}

/// Marks a submission rejected with a summary of its refused rows.
fn reject(sub: &mut Submission, reason: Option<String>) -> AppResult<Option<EventType>> {
    let refused: Vec<String> = sub
        .rows
        .iter()
        .filter(|r| r.status == RowStatus::Rejected)
        .map(|r| {
            format!(
                "{}: {}",
                r.guest_id,
                r.error.as_deref().unwrap_or("refused")
            )
        })
        .collect();
    move_to(sub, SubmissionStatus::Rejected)?;
    sub.last_error = Some(match (refused.is_empty(), reason) {
        (true, Some(r)) => r,
        _ => format!(
            "{} of {} rows refused ({}); fix the guests' data, then retry",
            refused.len(),
            sub.rows.len(),
            refused.join("; ")
        ),
    });
    Ok(Some(EventType::RegistrationRejected))
}
