//! Delivering sealed fiscal receipts from the queue.
//!
//! One job per receipt. A run: (1) nothing to do unless the submission is `queued`,
//! `retrying` or `sending` (a previous process died mid-send: the receipt simply goes
//! again, which the authority tolerates); (2) mark it `sending` and count the attempt,
//! committed before the receipt leaves; (3) send it, late (`NakDost`) if an earlier attempt
//! did not get through; (4) in one transaction, log the exchange, move the submission on and
//! write the invoice's fiscal record with its event: `fiscalized` with the reference and
//! the QR link that carries it, `failed` when refused, `offline` while unreachable.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::registration::{note, schedule};
use super::{Handler, blocking};
use crate::clock::format_instant;
use crate::compliance::cis::JOB_KIND;
use crate::compliance::{Exchange, FiscalScheme, Outcome};
use crate::db::Db;
use crate::domain::enums::{FiscalStatus, SubmissionStatus};
use crate::domain::events::EventType;
use crate::error::{AppError, AppResult};
use crate::model::Actor;
use crate::model::{Instant, Submission, snapshot};
use crate::store::{self, jobs::Job};

/// The fiscal delivery handler.
pub struct FiscalHandler {
    scheme: Arc<dyn FiscalScheme>,
}

impl FiscalHandler {
    /// A handler delivering through `scheme`.
    pub fn new(scheme: Arc<dyn FiscalScheme>) -> FiscalHandler {
        FiscalHandler { scheme }
    }
}

impl Handler for FiscalHandler {
    fn kind(&self) -> &'static str {
        JOB_KIND
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.send(db, &job).await {
                tracing::error!(error = %e, submission = %job.subject_id, "recording a fiscal delivery failed; it will run again");
            }
        })
    }
}

impl FiscalHandler {
    async fn send(&self, db: &Db, job: &Job) -> AppResult<()> {
        let (id, job_id) = (job.subject_id.clone(), job.id);
        let found = db
            .read(move |c| {
                let Some(sub) = store::submissions::get(c, &id)? else {
                    return Ok(None);
                };
                let payload = store::fiscal::receipt(c, &sub.subject_id)?;
                Ok(Some((sub, payload)))
            })
            .await?;
        let Some((sub, Some(payload))) = found else {
            return db.write(move |tx| store::jobs::finish(tx, job_id)).await;
        };
        if !matches!(
            sub.status,
            SubmissionStatus::Queued | SubmissionStatus::Retrying | SubmissionStatus::Sending
        ) {
            return db.write(move |tx| store::jobs::finish(tx, job_id)).await;
        }
        let scheme = self.scheme.clone();
        if sub.scheme != scheme.name() {
            let why = format!(
                "this receipt is for {}, which is not configured now; configure it again to deliver it",
                sub.scheme
            );
            let outcome = Outcome::Unknown {
                reason: why.clone(),
            };
            return record(db, job_id, sub, scheme, payload, vec![note(why)], outcome).await;
        }
        let late = sub.attempts > 0;
        let mut sent = sub.clone();
        sent.attempts += 1;
        let (sid, attempt) = (sent.id.clone(), sent.attempts);
        db.write(move |tx| store::submissions::mark_sending(tx, &sid, attempt))
            .await?;
        let (s, p) = (scheme.clone(), payload.clone());
        let (log, outcome) = blocking(move || s.deliver(&p, late)).await?;
        record(db, job_id, sent, scheme, payload, log, outcome).await
    }
}

/// Logs the exchanges and applies the outcome to the submission and the invoice, in one
/// transaction with the event and the job.
async fn record(
    db: &Db,
    job_id: i64,
    mut sub: Submission,
    scheme: Arc<dyn FiscalScheme>,
    payload: String,
    log: Vec<Exchange>,
    outcome: Outcome,
) -> AppResult<()> {
    db.write(move |tx| {
        store::submissions::append_exchanges(tx, &sub.id, sub.attempts.max(1), &log)?;
        let now = tx.clock().now();
        let mut inv = store::invoices::get(tx, &sub.subject_id)?
            .ok_or_else(|| AppError::internal(format!("invoice {} vanished", sub.subject_id)))?;
        sub.next_attempt_at = None;
        let event = match outcome {
            Outcome::Accepted {
                authority_reference,
            }
            | Outcome::Duplicate {
                authority_reference,
            } => {
                store::jobs::finish(tx, job_id)?;
                store::fiscal::set_reference(tx, &inv.id, &authority_reference)?;
                sub.status = SubmissionStatus::Accepted;
                sub.last_error = None;
                inv.fiscal.status = FiscalStatus::Fiscalized;
                inv.fiscal.qr_payload = scheme
                    .qr_payload(&payload, &authority_reference)
                    .or(inv.fiscal.qr_payload);
                inv.fiscal.authority_reference = Some(authority_reference.clone());
                inv.fiscal.sent_at = Some(Instant(format_instant(now)));
                inv.fiscal.last_error = None;
                sub.authority_reference = Some(authority_reference);
                Some(EventType::InvoiceFiscalized)
            }
            Outcome::Retry { reason, after } => {
                schedule(&mut sub, reason.clone(), after, now, job_id, tx)?;
                inv.fiscal.status = FiscalStatus::Offline;
                inv.fiscal.last_error = Some(reason);
                None
            }
            other => {
                store::jobs::finish(tx, job_id)?;
                let (status, reason) = match other {
                    Outcome::Rejected { reason, .. } => (SubmissionStatus::Rejected, reason),
                    Outcome::Unknown { reason } => (SubmissionStatus::ManualRequired, reason),
                    o => (
                        SubmissionStatus::ManualRequired,
                        format!("unexpected outcome {o:?}"),
                    ),
                };
                sub.status = status;
                sub.last_error = Some(format!(
                    "{reason}. Fix the cause (certificate, OIB, premises registration), then retry this submission."
                ));
                inv.fiscal.status = FiscalStatus::Failed;
                inv.fiscal.last_error = Some(reason);
                Some(EventType::InvoiceFiscalizationFailed)
            }
        };
        sub.updated_at = Instant(format_instant(now));
        store::submissions::save(tx, &sub, &payload)?;
        inv.version += 1;
        inv.updated_at = Instant(format_instant(now));
        store::invoices::update_state(tx, &inv)?;
        if let Some(kind) = event {
            store::events::record(tx, &Actor::queue(), kind, &inv.id, &snapshot(&inv))?;
        }
        Ok(())
    })
    .await
}
