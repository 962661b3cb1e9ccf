//! Delivering sealed fiscal receipts, and changes of their payment method, from the queue.
//!
//! One job per submission. A change waits until its receipt is accepted (CIS takes a
//! change only of a receipt it has) and gives up when the receipt was refused; a receipt
//! that names another invoice's document (Italy's return of a receipt not yet printed)
//! waits until that document exists and is completed with it. A run: (1) nothing to do
//! unless the submission is `queued`,
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
use crate::domain::enums::{FiscalStatus, JobKind, SubmissionKind, SubmissionStatus};
use crate::error::AppResult;
use crate::service::authority::{self, change_outcome, fiscal_outcome, note};
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
                let (payload, receipt) = if sub.kind == SubmissionKind::FiscalPaymentChange {
                    let receipt = store::submissions::newest_of(
                        c,
                        &sub.subject_id,
                        SubmissionKind::FiscalReceipt,
                    )?;
                    let payload = store::submissions::payload(c, &sub.id)?;
                    (payload, receipt.map(|r| (r.status, r.attempts)))
                } else {
                    (store::fiscal::receipt(c, &sub.subject_id)?, None)
                };
                Ok(Some((sub, payload, receipt)))
            })
            .await?;
        let Some((sub, Some(payload), receipt)) = found else {
            return authority::finish_job(db, job_id).await;
        };
        if !matches!(
            sub.status,
            SubmissionStatus::Queued | SubmissionStatus::Retrying | SubmissionStatus::Sending
        ) {
            return authority::finish_job(db, job_id).await;
        }
        let scheme = self.scheme.clone();
        let change = sub.kind == SubmissionKind::FiscalPaymentChange;
        if sub.scheme != scheme.name() {
            let why = format!(
                "this {} is for {}, which is not configured now; configure it again to deliver it",
                if change {
                    "change of payment method"
                } else {
                    "receipt"
                },
                sub.scheme
            );
            let outcome = Outcome::Unknown {
                reason: why.clone(),
            };
            let log = vec![note(why)];
            if change {
                return change_outcome(db, job_id, sub, payload, log, outcome).await;
            }
            return fiscal_outcome(db, job_id, sub, scheme, payload, log, outcome).await;
        }
        let receipt_accepted = receipt.is_some_and(|(s, _)| s == SubmissionStatus::Accepted);
        if change && !receipt_accepted {
            // CIS takes a change only of a receipt it has: wait for the receipt's answer,
            // until the change's own deadline.
            let due = chrono::DateTime::parse_from_rfc3339(&sub.due_at.0).ok();
            let past = due.is_some_and(|d| d.with_timezone(&chrono::Utc) < db.clock().now());
            let outcome = waiting(past);
            return change_outcome(db, job_id, sub, payload, Vec::new(), outcome).await;
        }
        let payload = match self.completed(db, payload, change).await? {
            Ok(p) => p,
            Err((payload, outcome)) => {
                return fiscal_outcome(db, job_id, sub, scheme, payload, Vec::new(), outcome).await;
            }
        };
        // The change repeats the receipt as CIS has it: late (NakDost) when it went late.
        let receipt_late = receipt.is_some_and(|(_, attempts)| attempts > 1);
        let late = sub.attempts > 0;
        let mut sent = sub.clone();
        sent.attempts += 1;
        authority::mark_sending(db, &sub, sent.attempts, Vec::new()).await?;
        let (s, p) = (scheme.clone(), payload.clone());
        if change {
            let (log, outcome) = blocking(move || s.deliver_change(&p, receipt_late)).await?;
            return change_outcome(db, job_id, sent, payload, log, outcome).await;
        }
        let (log, outcome) = blocking(move || s.deliver(&p, late)).await?;
        fiscal_outcome(db, job_id, sent, scheme, payload, log, outcome).await
    }
}

impl FiscalHandler {
    /// The receipt as it can go now: completed with the document of the invoice it awaits
    /// ([`FiscalScheme::awaits`]), or, while that has none, the payload as it is and the
    /// outcome to record: waiting, or refused when the awaited document never will be.
    async fn completed(
        &self,
        db: &Db,
        payload: String,
        change: bool,
    ) -> AppResult<Result<String, (String, Outcome)>> {
        let Some(original) = self.scheme.awaits(&payload).filter(|_| !change) else {
            return Ok(Ok(payload));
        };
        let id = original.clone();
        let fiscal = db
            .read(move |c| Ok(store::invoices::get(c, &id)?.map(|i| (i.number, i.fiscal))))
            .await?;
        let Some((number, fiscal)) = fiscal else {
            let reason = format!("the invoice {original} this receipt returns is not in the books");
            return Ok(Err((payload, refused(reason))));
        };
        if let Some(done) = fiscal
            .authority_reference
            .as_deref()
            .and_then(|r| self.scheme.complete(&payload, r))
        {
            return Ok(Ok(done));
        }
        if fiscal.status == FiscalStatus::Fiscalized {
            let reason = format!(
                "invoice {number}'s receipt was certified, but its reference names no document of the cash register, so the return cannot name it"
            );
            return Ok(Err((payload, refused(reason))));
        }
        if matches!(
            fiscal.status,
            FiscalStatus::Failed | FiscalStatus::NotRequired
        ) {
            let reason = format!(
                "the cash register never printed invoice {number}'s receipt, so there is nothing to return: settle the original's fault first, then retry this one"
            );
            return Ok(Err((payload, refused(reason))));
        }
        let wait = Outcome::Retry {
            reason: format!(
                "waiting for invoice {number}'s receipt to be certified first: this one returns it"
            ),
            after: Some(std::time::Duration::from_secs(60)),
        };
        Ok(Err((payload, wait)))
    }
}

fn refused(reason: String) -> Outcome {
    Outcome::Rejected {
        reason,
        rows: Vec::new(),
    }
}

/// What a change of payment method does while its receipt is not accepted: waits a minute
/// at a time (a refused receipt may yet be retried and accepted), and gives up once its own
/// deadline (`past`) has gone by, CIS then taking no change of that day.
fn waiting(past: bool) -> Outcome {
    if past {
        return Outcome::Rejected {
            reason: "CIS had not accepted the receipt itself by the end of its day, so it no longer takes a change of its payment method".into(),
            rows: Vec::new(),
        };
    }
    Outcome::Retry {
        reason: "waiting for CIS to accept the receipt before reporting the change of its payment method".into(),
        after: Some(std::time::Duration::from_secs(60)),
    }
}
