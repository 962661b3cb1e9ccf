//! A fiscal receipt's answer: the submission and the invoice's fiscal record move on
//! together: `fiscalized` with the reference and the QR link that carries it, `failed` when
//! refused or unclear, `offline` while unreachable.

use std::sync::Arc;

use super::{move_to, schedule};
use crate::clock::format_instant;
use crate::compliance::{Exchange, FiscalScheme, Outcome};
use crate::db::Db;
use crate::domain::enums::{FiscalStatus, SubmissionStatus};
use crate::domain::events::EventType;
use crate::domain::history::Note;
use crate::domain::submission::fiscal_may;
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Fiscal, Instant, Submission, snapshot};
use crate::store;

/// Logs the exchanges and applies the outcome of a change of payment method to its
/// submission, in one transaction with the job. The invoice is not touched: its method
/// changed when the change was made, and its receipt stays fiscalized.
pub async fn change_outcome(
    db: &Db,
    job_id: i64,
    mut sub: Submission,
    payload: String,
    log: Vec<Exchange>,
    outcome: Outcome,
) -> AppResult<()> {
    db.write(move |tx| {
        store::submissions::append_exchanges(tx, &sub.id, sub.attempts.max(1), &log)?;
        sub.next_attempt_at = None;
        match outcome {
            Outcome::Accepted {
                authority_reference,
            }
            | Outcome::Duplicate {
                authority_reference,
            } => {
                store::jobs::finish(tx, job_id)?;
                move_to(&mut sub, SubmissionStatus::Accepted)?;
                sub.last_error = None;
                sub.authority_reference = Some(authority_reference);
            }
            Outcome::Retry { reason, after } => schedule(tx, &mut sub, reason, after, job_id)?,
            other => {
                store::jobs::finish(tx, job_id)?;
                let (status, reason) = settled(other);
                move_to(&mut sub, status)?;
                sub.last_error = Some(format!(
                    "{reason}. CIS takes a change of payment method only on the day of issue: \
                     after midnight, issue a credit note and a new invoice with the right method."
                ));
            }
        }
        sub.updated_at = Instant(format_instant(tx.clock().now()));
        store::submissions::save(tx, &sub, &payload)
    })
    .await
}

/// Where a submission ends for an outcome that is neither accepted nor retried, and why.
fn settled(outcome: Outcome) -> (SubmissionStatus, String) {
    match outcome {
        Outcome::Rejected { reason, .. } => (SubmissionStatus::Rejected, reason),
        Outcome::Unknown { reason } => (SubmissionStatus::ManualRequired, reason),
        o => (
            SubmissionStatus::ManualRequired,
            format!("unexpected outcome {o:?}"),
        ),
    }
}

/// Moves an invoice's fiscal record to `to` through the domain's edges.
fn fiscal_to(f: &mut Fiscal, to: FiscalStatus, invoice: &str) -> AppResult<()> {
    if !fiscal_may(f.status, to) {
        return Err(AppError::internal(format!(
            "the fiscal record of {invoice} cannot go from {} to {to}",
            f.status
        )));
    }
    f.status = to;
    Ok(())
}

/// Logs the exchanges and applies the outcome to the submission and the invoice, in one
/// transaction with the event and the job.
pub async fn fiscal_outcome(
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
        let mut delayed = false;
        let event = match outcome {
            Outcome::Accepted {
                authority_reference,
            }
            | Outcome::Duplicate {
                authority_reference,
            } => {
                store::jobs::finish(tx, job_id)?;
                store::fiscal::set_reference(tx, &inv.id, &authority_reference)?;
                move_to(&mut sub, SubmissionStatus::Accepted)?;
                sub.last_error = None;
                fiscal_to(&mut inv.fiscal, FiscalStatus::Fiscalized, &inv.id)?;
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
                schedule(tx, &mut sub, reason.clone(), after, job_id)?;
                delayed = inv.fiscal.status != FiscalStatus::Offline;
                fiscal_to(&mut inv.fiscal, FiscalStatus::Offline, &inv.id)?;
                inv.fiscal.last_error = Some(reason);
                None
            }
            other => {
                store::jobs::finish(tx, job_id)?;
                let (status, reason) = settled(other);
                move_to(&mut sub, status)?;
                sub.last_error = Some(format!(
                    "{reason}. Fix the cause (certificate, OIB, premises registration), then retry this submission."
                ));
                fiscal_to(&mut inv.fiscal, FiscalStatus::Failed, &inv.id)?;
                inv.fiscal.last_error = Some(reason);
                Some(EventType::InvoiceFiscalizationFailed)
            }
        };
        sub.updated_at = Instant(format_instant(now));
        store::submissions::save(tx, &sub, &payload)?;
        inv.version += 1;
        inv.updated_at = Instant(format_instant(now));
        store::invoices::update_state(tx, &inv)?;
        if inv.fiscal.status != FiscalStatus::Pending {
            // The invoice's e-mail waits for this answer: it goes now.
            for m in store::messages::waiting_on_invoice(tx, &inv.id)? {
                store::jobs::run_now(tx, &m)?;
            }
        }
        if let Some(kind) = event {
            store::events::record(tx, &Actor::queue(), kind, &inv.id, &snapshot(&inv))?;
        } else if delayed {
            let kind = Note::FiscalizationDelayed.as_str();
            store::history::record(tx, &Actor::queue(), kind, &inv.id, &snapshot(&inv), None)?;
        }
        Ok(())
    })
    .await
}
