//! An e-invoice's news from the intermediary, recorded: the submission, the stored
//! e-invoice, the invoice's fiscal record and its event move on together, in one
//! transaction with the job.
//!
//! `sent` and `delivered` keep the submission open and look again later (the intermediary
//! fiscalizes after delivering, within days); `fiscalized` settles it as accepted;
//! `rejected` settles it as rejected and raises `invoice.fiscalization_failed` with the
//! reason. A call that did not tell is tried again, and a send whose answer was lost is
//! looked up by its number before anything is sent again.

use super::{move_to, schedule};
use crate::clock::format_instant;
use crate::compliance::einvoice::Tracked;
use crate::compliance::{Exchange, Outcome};
use crate::db::{Db, Tx};
use crate::domain::enums::{EInvoiceStatus, FiscalStatus, SubmissionStatus};
use crate::domain::events::EventType;
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Instant, Invoice, Submission, snapshot};
use crate::store;

/// How long to wait before looking again at a document on its way.
pub const FOLLOW_UP: std::time::Duration = std::time::Duration::from_secs(600);

/// Logs the exchanges and applies what the intermediary said of an e-invoice.
pub async fn einvoice_outcome(
    db: &Db,
    job_id: i64,
    mut sub: Submission,
    log: Vec<Exchange>,
    tracked: Tracked,
) -> AppResult<()> {
    db.write(move |tx| {
        store::submissions::append_exchanges(tx, &sub.id, sub.attempts.max(1), &log)?;
        let mut inv = store::invoices::get(tx, &sub.subject_id)?
            .ok_or_else(|| AppError::internal(format!("invoice {} vanished", sub.subject_id)))?;
        sub.next_attempt_at = None;
        let event = match tracked {
            Tracked::At {
                reference,
                status,
                reason,
            } => at(tx, job_id, &mut sub, &mut inv, (reference, status, reason))?,
            Tracked::Missing => {
                let reason = "the intermediary does not have it yet; it goes again".to_string();
                schedule(tx, &mut sub, reason, None, job_id)?;
                None
            }
            Tracked::Failed(Outcome::Rejected { reason, .. }) if sub.authority_reference.is_some() => {
                // A look-up refused (the account's settings, say): the document stands.
                schedule(tx, &mut sub, reason, None, job_id)?;
                None
            }
            Tracked::Failed(Outcome::Rejected { reason, .. }) => {
                store::jobs::finish(tx, job_id)?;
                move_to(&mut sub, SubmissionStatus::Rejected)?;
                let said = format!(
                    "{reason}. Fix what it names, then retry this submission (a document the intermediary refused before taking it can go again under the same number)."
                );
                sub.last_error = Some(said.clone());
                refuse(tx, &mut inv, &said)?
            }
            Tracked::Failed(other) => {
                let overdue = sub.due_at.0 < format_instant(tx.clock().now());
                if overdue && matches!(other, Outcome::Unknown { .. }) {
                    store::jobs::finish(tx, job_id)?;
                    move_to(&mut sub, SubmissionStatus::ManualRequired)?;
                    sub.last_error = Some(format!(
                        "{}. innkeep could not tell whether the intermediary has it: look it up there by the invoice number, then retry this submission",
                        other.reason()
                    ));
                } else {
                    let after = match &other {
                        Outcome::Retry { after, .. } => *after,
                        _ => None,
                    };
                    schedule(tx, &mut sub, other.reason().to_string(), after, job_id)?;
                }
                None
            }
        };
        let now = tx.clock().now();
        sub.updated_at = Instant(format_instant(now));
        store::submissions::save_state(tx, &sub)?;
        if let Some(kind) = event {
            inv.version += 1;
            inv.updated_at = Instant(format_instant(now));
            store::invoices::update_state(tx, &inv)?;
            store::events::record(tx, &Actor::queue(), kind, &inv.id, &snapshot(&inv))?;
        }
        Ok(())
    })
    .await
}

/// The document is at the intermediary, at `status`.
fn at(
    tx: &Tx,
    job_id: i64,
    sub: &mut Submission,
    inv: &mut Invoice,
    (reference, status, reason): (String, EInvoiceStatus, Option<String>),
) -> AppResult<Option<EventType>> {
    sub.authority_reference = Some(reference.clone());
    let before = inv.fiscal.einvoice.as_ref().map(|e| e.status);
    if let Some(e) = inv.fiscal.einvoice.as_mut() {
        e.reference = Some(reference.clone());
    }
    match status {
        EInvoiceStatus::Rejected => {
            store::jobs::finish(tx, job_id)?;
            move_to(sub, SubmissionStatus::Rejected)?;
            let why = reason.unwrap_or_else(|| "the intermediary refused it".into());
            sub.last_error = Some(why.clone());
            store::einvoices::set_status(tx, &inv.id, status, Some(&reference), Some(&why))?;
            refuse(tx, inv, &why)
        }
        EInvoiceStatus::Fiscalized => {
            store::jobs::finish(tx, job_id)?;
            move_to(sub, SubmissionStatus::Accepted)?;
            sub.last_error = None;
            store::einvoices::set_status(tx, &inv.id, status, Some(&reference), None)?;
            inv.fiscal.status = FiscalStatus::Fiscalized;
            inv.fiscal.authority_reference = Some(reference);
            inv.fiscal.sent_at = Some(Instant(format_instant(tx.clock().now())));
            inv.fiscal.last_error = None;
            if let Some(e) = inv.fiscal.einvoice.as_mut() {
                e.status = status;
                e.last_error = None;
            }
            Ok(Some(EventType::InvoiceFiscalized))
        }
        _ => {
            // Past its deadline it is still followed, less often.
            let late = sub.due_at.0 < format_instant(tx.clock().now());
            let wait = if late { FOLLOW_UP * 6 } else { FOLLOW_UP };
            let at = format_instant(
                tx.clock().now() + chrono::Duration::from_std(wait).unwrap_or_default(),
            );
            if sub.status != SubmissionStatus::Retrying {
                move_to(sub, SubmissionStatus::Retrying)?;
            }
            let note = reason.clone().unwrap_or_else(|| {
                format!("{status}; waiting for the tax administration to fiscalize it")
            });
            sub.last_error = reason.clone();
            sub.next_attempt_at = Some(Instant(at.clone()));
            store::jobs::retry_at(tx, job_id, &at, &note)?;
            store::einvoices::set_status(tx, &inv.id, status, Some(&reference), reason.as_deref())?;
            if matches!(
                inv.fiscal.status,
                FiscalStatus::Offline | FiscalStatus::Failed
            ) {
                // Sent again after a refusal, or reachable again.
                inv.fiscal.status = FiscalStatus::Pending;
                inv.fiscal.last_error = None;
            }
            if let Some(e) = inv.fiscal.einvoice.as_mut() {
                e.status = status;
                e.last_error = reason;
            }
            Ok((before != Some(status)).then_some(EventType::InvoiceEInvoiceUpdated))
        }
    }
}

/// The invoice's fiscal record and e-invoice say refused, with `why`.
fn refuse(tx: &Tx, inv: &mut Invoice, why: &str) -> AppResult<Option<EventType>> {
    store::einvoices::set_status(tx, &inv.id, EInvoiceStatus::Rejected, None, Some(why))?;
    inv.fiscal.status = FiscalStatus::Failed;
    inv.fiscal.last_error = Some(why.to_string());
    if let Some(e) = inv.fiscal.einvoice.as_mut() {
        e.status = EInvoiceStatus::Rejected;
        e.last_error = Some(why.to_string());
    }
    Ok(Some(EventType::InvoiceFiscalizationFailed))
}

/// Logs the exchanges and applies the answer to a payment report: accepted (also when the
/// intermediary turns out to have it already), tried again while it cannot tell, rejected
/// with the reason.
pub async fn payment_outcome(
    db: &Db,
    job_id: i64,
    mut sub: Submission,
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
            Outcome::Rejected { reason, .. } => {
                store::jobs::finish(tx, job_id)?;
                move_to(&mut sub, SubmissionStatus::Rejected)?;
                sub.last_error = Some(format!(
                    "{reason}. Fix what it names, then retry this submission before the 20th."
                ));
            }
            other => {
                let after = match &other {
                    Outcome::Retry { after, .. } => *after,
                    _ => None,
                };
                schedule(tx, &mut sub, other.reason().to_string(), after, job_id)?;
            }
        }
        sub.updated_at = Instant(format_instant(tx.clock().now()));
        store::submissions::save_state(tx, &sub)
    })
    .await
}
