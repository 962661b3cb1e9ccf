//! The law's change of payment method: an issued invoice recorded as paid one way was paid
//! another (booked as a bank transfer, paid by card at the desk). The invoice's method
//! changes in one transaction with its event and, where the fiscal system must hear of it,
//! the queued report (Croatia: CIS's `PromijeniNacPlac`, only on the day of issue; the
//! scheme decides and refuses). Nothing else about the invoice changes; the sealed receipt
//! never does.

use crate::clock::format_instant;
use crate::compliance::{ChangeInput, PaymentChange};
use crate::db::Tx;
use crate::domain::enums::{
    FiscalStatus, InvoiceStatus, PaymentMethod, SubmissionKind, SubmissionStatus,
};
use crate::domain::events::EventType;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::outcome::NewSubmission;
use crate::model::{Actor, Instant, Invoice, Principal, snapshot};
use crate::refusal::FiscalRefusal;
use crate::service::Services;
use crate::store;

/// Changes invoice `id`'s payment method to `method` (the same method: nothing happens).
pub async fn change(
    svc: &Services,
    p: &Principal,
    id: String,
    method: PaymentMethod,
) -> AppResult<Invoice> {
    p.require(Scope::InvoicesWrite)?;
    let scheme = svc.compliance().fiscal.clone();
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let inv = store::invoices::get(tx, &id)?
                .ok_or_else(|| AppError::not_found("invoice", &id))?;
            if inv.status == InvoiceStatus::Cancelled {
                return Err(FiscalRefusal::InvoiceReversed {
                    number: inv.number,
                    status: inv.status,
                }
                .into());
            }
            if inv.payment_method == Some(method) {
                return Ok(inv);
            }
            // An e-invoice's payments are reported each with its own method (eRačun's
            // payment report); the document itself says only how to pay: nothing to report.
            let einvoice = inv.fiscal.einvoice.is_some();
            if !einvoice
                && inv.fiscal.status != FiscalStatus::NotRequired
                && inv.fiscal.scheme != "none"
            {
                if inv.fiscal.scheme != scheme.name() {
                    return Err(FiscalRefusal::SchemeGone {
                        scheme: inv.fiscal.scheme,
                    }
                    .into());
                }
                let receipt = store::fiscal::receipt(tx, &inv.id)?.ok_or_else(|| {
                    AppError::internal(format!("the receipt of {} vanished", inv.id))
                })?;
                let zone = store::settings::get(tx)?.time_zone;
                let input = ChangeInput {
                    receipt: &receipt,
                    number: &inv.number,
                    method,
                    local_now: tx.clock().local_now_in(&zone),
                    now: tx.clock().now(),
                };
                if let PaymentChange::Report { payload, due_at } = scheme.change_payment(input)? {
                    // A change not sent yet is replaced by this one (each carries the receipt
                    // as first sent and the method now), so CIS hears only the last word.
                    let kind = SubmissionKind::FiscalPaymentChange;
                    let earlier = store::submissions::newest_of(tx, &inv.id, kind)?;
                    if let Some(mut unsent) = earlier.filter(|s| {
                        s.attempts == 0
                            && matches!(
                                s.status,
                                SubmissionStatus::Queued | SubmissionStatus::Retrying
                            )
                    }) {
                        unsent.updated_at = Instant(tx.now_text());
                        store::submissions::save(tx, &unsent, &payload)?;
                        return finish(tx, &actor, inv, method);
                    }
                    let report = NewSubmission {
                        kind: SubmissionKind::FiscalPaymentChange,
                        scheme: scheme.name(),
                        subject_id: inv.id.clone(),
                        due_at: format_instant(due_at),
                        rows: Vec::new(),
                        payload,
                        record_date: Some(inv.issue_date),
                    };
                    crate::service::submissions::open(tx, &report)?;
                }
            }
            finish(tx, &actor, inv, method)
        })
        .await
}

/// Writes the invoice's new method with its event.
fn finish(tx: &Tx, actor: &Actor, mut inv: Invoice, method: PaymentMethod) -> AppResult<Invoice> {
    inv.payment_method = Some(method);
    inv.version += 1;
    inv.updated_at = Instant(tx.now_text());
    store::invoices::update_state(tx, &inv)?;
    let kind = EventType::InvoicePaymentMethodChanged;
    store::events::record(tx, actor, kind, &inv.id, &snapshot(&inv))?;
    Ok(inv)
}
