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

use super::{Handler, blocking};
use crate::compliance::{FiscalScheme, Outcome};
use crate::db::Db;
use crate::domain::enums::{JobKind, SubmissionStatus};
use crate::error::AppResult;
use crate::service::authority::{self, fiscal_outcome, note};
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
        JobKind::Fiscal.as_str()
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
            return authority::finish_job(db, job_id).await;
        };
        if !matches!(
            sub.status,
            SubmissionStatus::Queued | SubmissionStatus::Retrying | SubmissionStatus::Sending
        ) {
            return authority::finish_job(db, job_id).await;
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
            return fiscal_outcome(db, job_id, sub, scheme, payload, vec![note(why)], outcome)
                .await;
        }
        let late = sub.attempts > 0;
        let mut sent = sub.clone();
        sent.attempts += 1;
        authority::mark_sending(db, &sub, sent.attempts, Vec::new()).await?;
        let (s, p) = (scheme.clone(), payload.clone());
        let (log, outcome) = blocking(move || s.deliver(&p, late)).await?;
        fiscal_outcome(db, job_id, sent, scheme, payload, log, outcome).await
    }
}
