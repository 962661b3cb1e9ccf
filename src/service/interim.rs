//! Interim bills (`POST /v1/invoices` with `reservation_id`): the folio's charges not yet on
//! an invoice, billed while the guest is still booked or in house; paid now or later, and in
//! Italy settled with a receipt from the cash register as at check-out.

use super::invoices::{bill_to_or_guest, only, required};
use super::invoicing::DraftLine;
use super::settlement::{HowPaid, bill_stay, receipt_or_invoice};
use crate::compliance::Compliance;
use crate::db::Tx;
use crate::domain::reservation::Status;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{Actor, Invoice, InvoiceCreate};
use crate::refusal::Refusal;
use crate::service::fail_on;
use crate::store;

/// Bills reservation `input.reservation_id`'s uninvoiced charges (inside the caller's
/// transaction), recording the payments sent with it.
pub(super) fn bill(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    res_id: &str,
    input: InvoiceCreate,
) -> AppResult<Invoice> {
    let allowed = [
        "reservation_id",
        "payment_method",
        "payments",
        "receipt",
        "bill_to",
    ];
    let mut errs = only(&input, &allowed);
    if input.payments.is_none() {
        required(&input.payment_method, "payment_method", &mut errs);
    }
    let r = store::reservations::get(tx, res_id)?;
    if r.is_none() {
        errs.push(FieldError::new(
            "reservation_id",
            "not_found",
            "no reservation has this id",
        ));
    }
    fail_on(errs)?;
    let r = r.ok_or_else(|| AppError::not_found("reservation", res_id))?;
    let how = HowPaid::read(input.payments.as_ref(), None, input.payment_method)?;
    let charges = store::charges::uninvoiced(tx, &r.id)?;
    // A cancelled or no-show booking is billed what its folio still holds (its plan's fee).
    let ended_with_charges =
        matches!(r.status, Status::Cancelled | Status::NoShow) && !charges.is_empty();
    if !matches!(r.status, Status::Confirmed | Status::CheckedIn) && !ended_with_charges {
        return Err(Refusal::NoInterimBill { status: r.status }.into());
    }
    if charges.is_empty() {
        return Err(Refusal::AllInvoiced.into());
    }
    let bill_to = bill_to_or_guest(tx, input.bill_to, &r.primary_guest_id)?;
    let receipt = receipt_or_invoice(c, input.receipt, &bill_to)?;
    let lines: Vec<DraftLine> = charges.into_iter().map(DraftLine::from).collect();
    bill_stay(tx, actor, c, &r, (bill_to, receipt), lines, how)
}
