//! A corrected invoice replacing one a credit note reversed: the same lines under a new
//! number, to the corrected buyer. It is how an invoice the national system refused is put
//! right (a FatturaPA SdI discarded; an eRačun refused after delivery), since issued
//! invoices never change.

use super::invoices::bill_to_or_guest;
use super::invoicing::{Draft, DraftLine, issue};
use crate::compliance::Compliance;
use crate::db::Tx;
use crate::domain::enums::{InvoiceKind, InvoiceStatus, PaymentMethod};
use crate::error::{AppError, AppResult};
use crate::model::{Actor, BillTo, Invoice};
use crate::refusal::FiscalRefusal;
use crate::store;

/// Issues the corrected invoice replacing `id`, to `bill_to` (the original's buyer when
/// none) paid by `payment_method` (the original's when none).
pub fn reissue(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    id: &str,
    bill_to: Option<BillTo>,
    payment_method: Option<PaymentMethod>,
) -> AppResult<Invoice> {
    let original = store::invoices::get(tx, id)?.ok_or_else(|| {
        AppError::invalid_field("reissues_invoice_id", "not_found", "no invoice has this id")
    })?;
    if original.kind == InvoiceKind::CreditNote || original.status != InvoiceStatus::Cancelled {
        return Err(FiscalRefusal::NotReversed {
            number: original.number,
        }
        .into());
    }
    if store::invoices::reissued(tx, &original.id)? {
        return Err(FiscalRefusal::AlreadyReissued {
            number: original.number,
        }
        .into());
    }
    // Left out: the guest's particulars as they are now (corrected on the guest's page) for
    // an invoice to a guest, else the original buyer.
    let to_guest = original.bill_to.kind != Some(crate::domain::enums::BuyerKind::Business);
    let bill_to = match (bill_to, &original.guest_id) {
        (Some(b), Some(guest)) => bill_to_or_guest(tx, Some(b), guest)?,
        (Some(b), None) => b,
        (None, Some(guest)) if to_guest => bill_to_or_guest(tx, None, guest)?,
        (None, _) => original.bill_to.clone(),
    };
    let period = match &original.reservation_id {
        Some(r) => store::reservations::get(tx, r)?.map(|r| (r.arrival.0, r.departure.0)),
        None => None,
    };
    let lines = original
        .lines
        .iter()
        .map(|l| DraftLine {
            description: l.description.clone(),
            quantity: l.quantity,
            unit_price: l.unit_price,
            tax_rate: l.tax_rate,
            service_date: l.service_date,
            charge_id: None,
            kind: l.kind,
            kpd_code: l.kpd_code.clone(),
        })
        .collect();
    issue(
        tx,
        actor,
        c,
        Draft {
            kind: InvoiceKind::Invoice,
            reservation_id: original.reservation_id.clone(),
            guest_id: original.guest_id.clone(),
            bill_to,
            currency: original.currency.clone(),
            payment_method: payment_method.or(original.payment_method),
            lines,
            corrects_invoice_id: None,
            reason: None,
            reissues_invoice_id: Some(original.id.clone()),
            period,
            prepaid: 0,
            paid_by: Vec::new(),
            receipt: false,
        },
    )
}
