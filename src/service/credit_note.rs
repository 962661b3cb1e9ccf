//! Credit notes (`POST /v1/invoices` with `corrects_invoice_id`): an issued invoice reversed
//! line by line under a new number, the invoice cancelled, both in one transaction.

use crate::compliance::Compliance;
use crate::db::Tx;
use crate::domain::enums::{InvoiceKind, InvoiceStatus};
use crate::domain::history::Note;
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Instant, Invoice, snapshot};
use crate::refusal::Refusal;
use crate::service::invoicing::{Draft, DraftLine, issue};
use crate::store;

/// Reverses invoice `id` (inside the caller's transaction): the credit note.
pub(super) fn issue_for(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    id: &str,
    reason: Option<String>,
) -> AppResult<Invoice> {
    let mut original = store::invoices::get(tx, id)?.ok_or_else(|| {
        AppError::invalid_field("corrects_invoice_id", "not_found", "no invoice has this id")
    })?;
    if original.kind == InvoiceKind::CreditNote {
        return Err(Refusal::CreditNoteReversed.into());
    }
    if original.status == InvoiceStatus::Cancelled {
        return Err(Refusal::AlreadyReversed {
            number: original.number,
        }
        .into());
    }
    let lines = original
        .lines
        .iter()
        .map(|l| DraftLine {
            description: l.description.clone(),
            quantity: l.quantity,
            unit_price: -l.unit_price,
            tax_rate: l.tax_rate,
            service_date: l.service_date,
            charge_id: None,
            kind: l.kind,
            kpd_code: l.kpd_code.clone(),
        })
        .collect();
    let credit = issue(
        tx,
        actor,
        c,
        Draft {
            kind: InvoiceKind::CreditNote,
            reservation_id: original.reservation_id.clone(),
            guest_id: original.guest_id.clone(),
            bill_to: original.bill_to.clone(),
            currency: original.currency.clone(),
            payment_method: original.payment_method,
            lines,
            corrects_invoice_id: Some(original.id.clone()),
            reissues_invoice_id: None,
            reason,
            period: None,
            prepaid: 0,
            paid_by: Vec::new(),
            receipt: false,
        },
    )?;
    original.status = InvoiceStatus::Cancelled;
    original.version += 1;
    original.updated_at = Instant(tx.now_text());
    store::invoices::update_state(tx, &original)?;
    let kind = Note::InvoiceCancelled.as_str();
    store::history::record(tx, actor, kind, &original.id, &snapshot(&original), None)?;
    Ok(credit)
}
