//! How a check-out or an interim bill is paid (API.md, `POST /check-out`): the invoice's
//! payment method and the payments recorded with it, split between methods and with one
//! taking the balance; and whether it is settled with a receipt from Italy's cash register.

use crate::domain::enums::PaymentMethod;
use crate::domain::money::{SplitError, split_payments};
use crate::error::{AppError, AppResult};
use crate::model::fields::Int;
use crate::model::{CheckOut, CheckOutPayment, PaymentInput};
use crate::service::invoicing::{DraftLine, gross_of};

/// What a check-out request says about payment, checked before anything is written.
pub enum HowPaid {
    /// Payments taken now; the invoice's method if the request names one.
    Now(Vec<CheckOutPayment>, Option<PaymentMethod>),
    /// Nothing taken now (`pay_later`), or the method alone (recorded later, as before
    /// `payments` existed).
    Later(PaymentMethod),
}

impl HowPaid {
    /// Reads `payments`, `pay_later` and `payment_method`: payments with nothing else or with
    /// the invoice's method; `pay_later` (by bank transfer unless a method is named); or a
    /// method alone. Anything else is a 422 naming the field.
    pub fn of(input: &CheckOut) -> AppResult<Self> {
        Self::read(
            input.payments.as_ref(),
            input.pay_later,
            input.payment_method,
        )
    }

    /// [`HowPaid::of`] from the three fields themselves (an interim bill has no `pay_later`).
    pub fn read(
        payments: Option<&Vec<CheckOutPayment>>,
        pay_later: Option<bool>,
        payment_method: Option<PaymentMethod>,
    ) -> AppResult<Self> {
        let later = pay_later == Some(true);
        match (payments, later, payment_method) {
            (Some(_), true, _) => Err(AppError::invalid_field(
                "pay_later",
                "conflict",
                "must not be true together with payments",
            )
            .field_said("problem-pay-later-and-now", vec![])),
            (Some(list), false, _) if list.is_empty() => Err(AppError::invalid_field(
                "payments",
                "required",
                "needs at least one payment, or leave it out",
            )
            .field_said("problem-one-payment", vec![])),
            (Some(list), false, chosen) => Ok(Self::Now(list.clone(), chosen)),
            (None, true, chosen) => Ok(Self::Later(chosen.unwrap_or(PaymentMethod::BankTransfer))),
            (None, false, Some(m)) => Ok(Self::Later(m)),
            (None, false, None) => Err(AppError::invalid_field(
                "payment_method",
                "required",
                "is required (or send payments, or pay_later: true)",
            )
            .field_said("rule-required", vec![])),
        }
    }

    /// The invoice's method and the payments to record against an invoice of `lines`: a
    /// payment without an amount takes the balance; the invoice's method is the one the
    /// request names, else that of the largest payment (the first of equals).
    pub fn settle(self, lines: &[DraftLine]) -> AppResult<(PaymentMethod, Vec<PaymentInput>)> {
        let (list, chosen) = match self {
            Self::Later(m) => return Ok((m, Vec::new())),
            Self::Now(list, chosen) => (list, chosen),
        };
        let given: Vec<Option<i64>> = list.iter().map(|p| p.amount.map(|a| a.0)).collect();
        let amounts = split_payments(gross_of(lines)?, &given).map_err(|e| match e {
            SplitError::SecondBalance(i) => AppError::invalid_field(
                &format!("payments[{i}].amount"),
                "required",
                "is required: only one payment may leave its amount out to take the balance",
            )
            .field_said("problem-one-balance", vec![]),
            SplitError::NothingLeft(i) => AppError::invalid_field(
                &format!("payments[{i}].amount"),
                "nothing_owed",
                "would take the balance, but the other payments already cover the whole invoice",
            )
            .field_said("problem-nothing-owed", vec![]),
        })?;
        let payments: Vec<PaymentInput> = list
            .into_iter()
            .zip(amounts)
            .map(|(p, amount)| PaymentInput {
                amount: Int(amount),
                method: p.method,
                reference: p.reference,
            })
            .collect();
        // `rev` so that of equal payments the first is the largest.
        let largest = payments.iter().rev().max_by_key(|p| p.amount.0);
        let method = chosen.or(largest.map(|p| p.method));
        Ok((method.unwrap_or(PaymentMethod::Cash), payments))
    }
}

/// Whether a check-out or an interim bill is settled with a receipt from the cash register:
/// as asked, else a receipt for a private guest where there is a register (Italy).
pub fn receipt_or_invoice(
    c: &crate::compliance::Compliance,
    asked: Option<bool>,
    bill_to: &crate::model::BillTo,
) -> AppResult<bool> {
    let register = c.fiscal.name() == crate::compliance::rt::NAME;
    match asked {
        Some(true) if !register => Err(AppError::invalid_field(
            "receipt",
            "no_cash_register",
            "a receipt needs a telematic cash register ([compliance.fiscal] scheme = \"it-rt\"); leave it out to issue an invoice",
        )),
        Some(r) => Ok(r),
        None => {
            let business = match bill_to.kind {
                Some(k) => k == crate::domain::enums::BuyerKind::Business,
                None => bill_to.vat_id.is_some(),
            };
            Ok(register && !business)
        }
    }
}

/// Issues reservation `r`'s bill of `lines` to `bill_to` (a receipt from the cash register
/// when `receipt`), paid as `how` says, recording the payments taken with it in the caller's
/// transaction: what a check-out and an interim bill share.
pub(crate) fn bill_stay(
    tx: &crate::db::Tx,
    actor: &crate::model::Actor,
    c: &crate::compliance::Compliance,
    r: &crate::model::Reservation,
    (bill_to, receipt): (crate::model::BillTo, bool),
    lines: Vec<DraftLine>,
    how: HowPaid,
) -> AppResult<crate::model::Invoice> {
    use crate::service::invoicing::{Draft, issue};
    let (method, payments) = how.settle(&lines)?;
    let draft = Draft {
        kind: crate::domain::enums::InvoiceKind::Invoice,
        reservation_id: Some(r.id.clone()),
        guest_id: Some(r.primary_guest_id.clone()),
        bill_to,
        currency: r.currency.clone(),
        payment_method: Some(method),
        lines,
        corrects_invoice_id: None,
        reissues_invoice_id: None,
        reason: None,
        period: Some((r.arrival.0, r.departure.0)),
        prepaid: payments.iter().map(|p| p.amount.0).sum(),
        paid_by: payments.iter().map(|p| (p.method, p.amount.0)).collect(),
        receipt,
    };
    let mut invoice = issue(tx, actor, c, draft)?;
    for (i, p) in payments.into_iter().enumerate() {
        let field = format!("payments[{i}].amount");
        crate::service::invoices::record_payment(tx, actor, &mut invoice, p, &field)?;
    }
    Ok(invoice)
}
