//! Sending e-invoices and reporting their payments through the intermediary, from the queue.
//!
//! One job per submission. For an e-invoice: (1) nothing to do unless the submission is
//! open; (2) once the intermediary has given the document its id, look at how far it got
//! (delivered, fiscalized, rejected) and come back later while it is on its way; (3) before
//! the first send, or after a send whose answer was lost, look it up by its number first,
//! and send only when the intermediary does not have it; the attempt is counted and
//! committed before the document leaves. For a payment report: wait until the e-invoice has
//! its id, reconcile a lost answer by counting the reports the tax administration took,
//! then report.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use chrono::Datelike;

use super::{Handler, blocking};
use crate::compliance::Outcome;
use crate::compliance::einvoice::{EInvoiceScheme, PaymentReport, Tracked};
use crate::db::Db;
use crate::domain::enums::{EInvoiceStatus, JobKind, SubmissionKind, SubmissionStatus};
use crate::error::AppResult;
use crate::model::Submission;
use crate::service::authority::{self, einvoice_outcome, note, payment_outcome};
use crate::store::{self, jobs::Job};

/// The e-invoice handler.
pub struct EInvoiceHandler {
    scheme: Arc<dyn EInvoiceScheme>,
}

impl EInvoiceHandler {
    /// A handler sending through `scheme`'s intermediary.
    pub fn new(scheme: Arc<dyn EInvoiceScheme>) -> EInvoiceHandler {
        EInvoiceHandler { scheme }
    }
}

impl Handler for EInvoiceHandler {
    fn kind(&self) -> &'static str {
        JobKind::EInvoice.as_str()
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.send(db, &job).await {
                tracing::error!(error = %e, submission = %job.subject_id, "recording an e-invoice delivery failed; it will run again");
            }
        })
    }
}

fn open(s: &Submission) -> bool {
    matches!(
        s.status,
        SubmissionStatus::Queued | SubmissionStatus::Retrying | SubmissionStatus::Sending
    )
}

impl EInvoiceHandler {
    async fn send(&self, db: &Db, job: &Job) -> AppResult<()> {
        let (id, job_id) = (job.subject_id.clone(), job.id);
        let found = db
            .read(move |c| {
                let Some(sub) = store::submissions::get(c, &id)? else {
                    return Ok(None);
                };
                // A payment report names its invoice in its payload, read once here.
                let report = match sub.kind {
                    SubmissionKind::EInvoice => None,
                    _ => Some(store::submissions::payload(c, &sub.id)?.unwrap_or_default()),
                };
                let invoice = match &report {
                    None => sub.subject_id.clone(),
                    Some(p) => serde_json::from_str::<PaymentReport>(p)
                        .map(|r| r.invoice_id)
                        .unwrap_or_default(),
                };
                let stored = store::einvoices::get(c, &invoice)?;
                let inv = store::invoices::get(c, &invoice)?;
                let siblings =
                    store::submissions::of_subject(c, &invoice, SubmissionKind::EInvoicePayments)?;
                let taken = siblings
                    .iter()
                    .filter(|s| s.status == SubmissionStatus::Accepted)
                    .count();
                // One payment report of an invoice at a time, oldest first: the count of
                // reports taken reconciles a lost answer only when none runs beside it.
                let before = siblings
                    .iter()
                    .take_while(|s| s.id != sub.id)
                    .any(|s| open(s) && s.kind == sub.kind);
                Ok(Some((sub, stored, inv, (taken, before), report)))
            })
            .await?;
        let Some((sub, Some(stored), Some(inv), (taken, before), report)) = found else {
            return authority::finish_job(db, job_id).await;
        };
        if !open(&sub) {
            return authority::finish_job(db, job_id).await;
        }
        let scheme = self.scheme.clone();
        if sub.scheme != scheme.name() || scheme.intermediary().is_none() {
            let why = format!(
                "this {} is for {}, which is not configured now; configure [compliance.einvoice] again to send it",
                if sub.kind == SubmissionKind::EInvoice {
                    "e-invoice"
                } else {
                    "payment report"
                },
                sub.scheme
            );
            let outcome = Outcome::Unknown {
                reason: why.clone(),
            };
            let log = vec![note(why)];
            if sub.kind == SubmissionKind::EInvoice {
                return einvoice_outcome(db, job_id, sub, log, Tracked::Failed(outcome)).await;
            }
            return payment_outcome(db, job_id, sub, log, outcome).await;
        }
        if sub.kind == SubmissionKind::EInvoicePayments {
            if before {
                let outcome = Outcome::Retry {
                    reason: "waiting for the report of an earlier payment of the same invoice"
                        .into(),
                    after: Some(std::time::Duration::from_secs(60)),
                };
                return payment_outcome(db, job_id, sub, Vec::new(), outcome).await;
            }
            let payload = report.unwrap_or_default();
            return self
                .report(db, job_id, sub, &stored, (taken, &payload))
                .await;
        }
        let (number, year) = (inv.number.clone(), inv.issue_date.0.year());
        if let Some(reference) = stored.reference {
            let s = scheme.clone();
            let (log, tracked) = blocking(move || match s.intermediary() {
                Some(i) => i.track(&reference),
                None => (Vec::new(), Tracked::Missing),
            })
            .await?;
            return einvoice_outcome(db, job_id, sub, log, tracked).await;
        }
        let mut log = Vec::new();
        if sub.attempts > 0 {
            // An earlier send may have arrived without its answer: never send twice.
            let (s, n) = (scheme.clone(), number.clone());
            let (found_log, found) = blocking(move || match s.intermediary() {
                Some(i) => i.find(&n, year),
                None => (Vec::new(), Tracked::Missing),
            })
            .await?;
            log.extend(found_log);
            let found = match found {
                // The look-up was refused, not the document: try again later.
                Tracked::Failed(Outcome::Rejected { reason, .. }) => {
                    Tracked::Failed(Outcome::Retry {
                        reason,
                        after: None,
                    })
                }
                other => other,
            };
            if found != Tracked::Missing {
                return einvoice_outcome(db, job_id, sub, log, found).await;
            }
        }
        let mut sent = sub.clone();
        sent.attempts += 1;
        authority::mark_sending(db, &sub, sent.attempts, log).await?;
        let document = stored.document;
        let resend = sent.attempts > 1;
        let (log, tracked) = blocking(move || {
            let Some(i) = scheme.intermediary() else {
                return (Vec::new(), Tracked::Missing);
            };
            let (mut log, tracked) = i.send(&number, &document);
            if resend && matches!(tracked, Tracked::Failed(Outcome::Rejected { .. })) {
                // A send again refused may be the intermediary refusing a number it has
                // from an attempt whose answer was lost: look once more before concluding.
                let (found_log, found) = i.find(&number, year);
                log.extend(found_log);
                if matches!(found, Tracked::At { .. }) {
                    return (log, found);
                }
            }
            (log, tracked)
        })
        .await?;
        einvoice_outcome(db, job_id, sent, log, tracked).await
    }

    async fn report(
        &self,
        db: &Db,
        job_id: i64,
        sub: Submission,
        stored: &store::einvoices::Stored,
        (taken_here, payload): (usize, &str),
    ) -> AppResult<()> {
        let Some(reference) = stored.reference.clone() else {
            let outcome = if stored.status == EInvoiceStatus::Rejected {
                Outcome::Rejected {
                    reason: "the e-invoice itself was refused before the intermediary took it, so there is nothing to report the payment against: once it is sent again (or issued anew), retry this report".into(),
                    rows: Vec::new(),
                }
            } else {
                Outcome::Retry {
                    reason: "waiting for the e-invoice to reach the intermediary before reporting its payment".into(),
                    after: Some(authority::FOLLOW_UP),
                }
            };
            return payment_outcome(db, job_id, sub, Vec::new(), outcome).await;
        };
        let Ok(report) = serde_json::from_str::<PaymentReport>(payload) else {
            let outcome = Outcome::Rejected {
                reason: "the stored payment report cannot be read".into(),
                rows: Vec::new(),
            };
            return payment_outcome(db, job_id, sub, Vec::new(), outcome).await;
        };
        let mut log = Vec::new();
        if sub.attempts > 0 {
            // A report whose answer was lost: the tax administration may have it already.
            let (s, r) = (self.scheme.clone(), reference.clone());
            let (found_log, taken) = blocking(move || match s.intermediary() {
                Some(i) => i.payments_taken(&r),
                None => (Vec::new(), Ok(0)),
            })
            .await?;
            log.extend(found_log);
            match taken {
                Ok(n) if n > taken_here => {
                    let outcome = Outcome::Duplicate {
                        authority_reference: format!("payment report {} of {reference}", n),
                    };
                    return payment_outcome(db, job_id, sub, log, outcome).await;
                }
                Ok(_) => {}
                Err(o) => return payment_outcome(db, job_id, sub, log, o).await,
            }
        }
        let mut sent = sub.clone();
        sent.attempts += 1;
        authority::mark_sending(db, &sub, sent.attempts, log).await?;
        let s = self.scheme.clone();
        let (log, outcome) = blocking(move || match s.intermediary() {
            Some(i) => i.report_payment(&reference, &report),
            None => (
                Vec::new(),
                Outcome::Unknown {
                    reason: "no intermediary".into(),
                },
            ),
        })
        .await?;
        payment_outcome(db, job_id, sent, log, outcome).await
    }
}
