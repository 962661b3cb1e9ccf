//! Sending guest registrations from the queue.
//!
//! One job per submission. A run: (1) nothing to do unless the submission is `queued` or
//! `retrying`; (2) rows of a day the authority no longer takes go to `manual_required`;
//! (3) authenticate (a cached token is reused); (4) mark the submission `sending` and count
//! the attempt, committed *before* the rows leave; (5) send; (6) record every exchange and
//! the outcome. A run that finds the submission still `sending` knows that a previous
//! process died with the rows in flight: that is an Unknown outcome, never a blind resend.
//! A send refused for an expired token is repeated once with a fresh token (the refusal,
//! logged, shows that nothing was stored).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::{Handler, blocking};
use crate::clock::format_instant;
use crate::compliance::{Exchange, Outcome, RegistrationScheme, RowResult};
use crate::db::{Db, Tx};
use crate::domain::enums::{RowStatus, SubmissionStatus};
use crate::domain::events::EventType;
use crate::error::AppResult;
use crate::model::Actor;
use crate::model::{Instant, Submission, snapshot};
use crate::service::registration::payload_of;
use crate::store::{self, jobs::Job};

/// The `jobs.kind` of registration submissions.
pub const KIND: &str = "registration";
/// Waits between attempts while the authority cannot be reached; the last repeats.
const BACKOFF: [u64; 5] = [60, 300, 900, 1800, 1800];

/// Queues the job that sends a submission, due now.
pub fn enqueue(tx: &Tx, submission_id: &str) -> AppResult<i64> {
    let now = tx.now_text();
    store::jobs::enqueue(tx, KIND, submission_id, "{}", &now)
}

/// The registration handler.
pub struct RegistrationHandler {
    scheme: Arc<dyn RegistrationScheme>,
}

impl RegistrationHandler {
    /// A handler sending through `scheme`.
    pub fn new(scheme: Arc<dyn RegistrationScheme>) -> RegistrationHandler {
        RegistrationHandler { scheme }
    }
}

impl Handler for RegistrationHandler {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.send(db, &job).await {
                tracing::error!(error = %e, submission = %job.subject_id, "recording a registration attempt failed; it will run again");
            }
        })
    }
}

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

impl RegistrationHandler {
    async fn send(&self, db: &Db, job: &Job) -> AppResult<()> {
        let (id, job_id) = (job.subject_id.clone(), job.id);
        let clock = db.clock().clone();
        let found = db
            .read(move |c| {
                let tz = store::settings::get(c)?.time_zone;
                Ok((store::submissions::get(c, &id)?, clock.today_in(&tz)))
            })
            .await?;
        let (Some(sub), today) = found else {
            return finish(db, job_id).await;
        };
        let scheme = self.scheme.clone();
        match sub.status {
            SubmissionStatus::Queued | SubmissionStatus::Retrying => {}
            SubmissionStatus::Sending => {
                let why = "innkeep stopped while these rows were being sent, so whether the authority stored them is unknown";
                return record(
                    db,
                    job_id,
                    &sub,
                    scheme,
                    vec![note(why)],
                    Outcome::Unknown { reason: why.into() },
                )
                .await;
            }
            _ => return finish(db, job_id).await,
        }
        if let Some(day) = sub.record_date
            && let Err(why) = scheme.sendable(day.0, today)
        {
            return record(
                db,
                job_id,
                &sub,
                scheme,
                vec![note(why.clone())],
                Outcome::Unknown { reason: why },
            )
            .await;
        }
        let lines: Vec<String> = sub
            .rows
            .iter()
            .filter(|r| r.status == RowStatus::Pending)
            .map(|r| r.line.clone())
            .collect();
        let mut sent = sub.clone();
        sent.attempts += 1;
        let mut fresh = false;
        loop {
            let s = scheme.clone();
            let log = match blocking(move || s.authenticate(fresh)).await? {
                Ok(log) => log,
                Err((log, outcome)) => return record(db, job_id, &sub, scheme, log, outcome).await,
            };
            let (id, attempt) = (sent.id.clone(), sent.attempts);
            db.write(move |tx| {
                store::submissions::append_exchanges(tx, &id, attempt, &log)?;
                store::submissions::mark_sending(tx, &id, attempt)
            })
            .await?;
            let (s, l) = (scheme.clone(), lines.clone());
            let (mut log, outcome) = blocking(move || s.submit(&l)).await?;
            if matches!(outcome, Outcome::Reauthenticate { .. }) && !fresh {
                log.push(note("the authority refused the token before processing the rows; sending them again with a new token"));
                let (id, attempt) = (sent.id.clone(), sent.attempts);
                db.write(move |tx| store::submissions::append_exchanges(tx, &id, attempt, &log))
                    .await?;
                fresh = true;
                continue;
            }
            return record(db, job_id, &sent, scheme, log, outcome).await;
        }
    }
}

async fn finish(db: &Db, job_id: i64) -> AppResult<()> {
    db.write(move |tx| store::jobs::finish(tx, job_id)).await
}

/// Records the exchanges and the outcome in one transaction, with the event and the job.
async fn record(
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
        let event = apply(&mut sub, outcome, now, job_id, tx)?;
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
    sub: &mut Submission,
    outcome: Outcome,
    now: chrono::DateTime<Utc>,
    job_id: i64,
    tx: &Tx,
) -> AppResult<Option<EventType>> {
    sub.next_attempt_at = None;
    let outcome = match outcome {
        Outcome::Retry { reason, after } => return schedule(sub, reason, after, now, job_id, tx),
        Outcome::Reauthenticate { reason } => return schedule(sub, reason, None, now, job_id, tx),
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
            sub.status = SubmissionStatus::Accepted;
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
            reject(sub, None)
        }
        Outcome::Rejected { reason, rows } => {
            mark_rows(sub, &rows, &reason);
            reject(sub, Some(reason))
        }
        Outcome::Unknown { reason } => {
            sub.status = SubmissionStatus::ManualRequired;
            sub.last_error = Some(format!(
                "{reason}. Check the authority's records for these guests (for Alloggiati Web, the day's receipt on the portal); \
                 if they are missing, retry this submission, or upload the day's export by hand."
            ));
            None
        }
        Outcome::Retry { .. } | Outcome::Reauthenticate { .. } => None,
    };
    store::jobs::finish(tx, job_id)?;
    Ok(event)
}

/// Schedules another attempt (the authority could not take the rows now).
pub(super) fn schedule(
    sub: &mut Submission,
    reason: String,
    after: Option<Duration>,
    now: chrono::DateTime<Utc>,
    job_id: i64,
    tx: &Tx,
) -> AppResult<Option<EventType>> {
    let step = (sub.attempts.max(1) as usize - 1).min(BACKOFF.len() - 1);
    let after = after.unwrap_or(Duration::from_secs(BACKOFF[step]));
    let at = format_instant(now + chrono::Duration::from_std(after).unwrap_or_default());
    sub.status = SubmissionStatus::Retrying;
    sub.last_error = Some(reason.clone());
    sub.next_attempt_at = Some(Instant(at.clone()));
    store::jobs::retry_at(tx, job_id, &at, &reason)?;
    Ok(None)
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

/// Marks a submission rejected with a summary of its refused rows.
fn reject(sub: &mut Submission, reason: Option<String>) -> Option<EventType> {
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
    sub.status = SubmissionStatus::Rejected;
    sub.last_error = Some(match (refused.is_empty(), reason) {
        (true, Some(r)) => r,
        _ => format!(
            "{} of {} rows refused ({}); fix the guests' data, then retry",
            refused.len(),
            sub.rows.len(),
            refused.join("; ")
        ),
    });
    Some(EventType::RegistrationRejected)
}
