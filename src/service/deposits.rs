//! Deposits: an advance received before arrival, recorded with the document its country asks
//! for an advance; deducted from the stay's bill at check-out (given back when the stay came
//! to less); given back, less the plan's fee, when the booking is cancelled or a no-show.
//!
//! The document (decided here; the national rules read are cited, what stays unverified is
//! said): an advance is taxed when it is received, in Croatia (Zakon o PDV-u, art. 30: VAT
//! is due on advance payments) and in Italy (an *acconto*, art. 6 c.4 DPR 633/72), so it gets
//! an invoice of its own at the accommodation's VAT rate, issued like every invoice: in
//! Croatia fiscalised through the CIS (and an e-invoice to a business), in Italy a FatturaPA
//! TD02 through SdI, or, for a private guest where there is a telematic cash register, the
//! register's *documento commerciale*. The bill of the stay then lists every night and
//! deducts each advance with a negative line at the rate it was invoiced at, so its VAT is
//! what is left. Unverified: whether an Italian hotel may rather treat a deposit as a
//! *caparra confirmatoria* (outside VAT, no fiscal document until the stay), and whether
//! the cash register's deduction should be its "acconto" adjustment rather than a discount;
//! both are choices of this module alone.

use crate::compliance::Compliance;
use crate::db::Tx;
use crate::domain::enums::{LineKind, PaymentMethod};
use crate::domain::events::EventType;
use crate::domain::reservation::Status;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{
    Actor, Advance, CheckOutPayment, Deposit, DepositCreate, Instant, Invoice, Principal,
    Reservation, snapshot,
};
use crate::refusal::RatesRefusal;
use crate::service::Services;
use crate::service::invoices::bill_to_or_guest;
use crate::service::invoicing::DraftLine;
use crate::service::settlement::{HowPaid, bill_stay, receipt_or_invoice};
use crate::store;

/// `POST /v1/reservations/{id}/deposit`: records a deposit received; the advance invoice.
pub async fn record(
    svc: &Services,
    p: &Principal,
    id: String,
    input: DepositCreate,
) -> AppResult<Invoice> {
    p.require(Scope::InvoicesWrite)?;
    let c = svc.compliance().clone();
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| take(tx, &actor, &c, &id, input))
        .await
}

/// Records a deposit for reservation `id` in the caller's transaction.
fn take(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    id: &str,
    input: DepositCreate,
) -> AppResult<Invoice> {
    let mut r =
        store::reservations::get(tx, id)?.ok_or_else(|| AppError::not_found("reservation", id))?;
    if r.status != Status::Confirmed {
        return Err(RatesRefusal::NoDeposit { status: r.status }.into());
    }
    let mut deposit = r.deposit.clone().unwrap_or_default();
    let room = r.nights.iter().map(|n| n.price).sum::<i64>() - deposit.paid;
    let amount = input.amount.0;
    if amount > room {
        let left = crate::domain::money::format_amount(room.max(0));
        return Err(AppError::invalid_field(
            "amount",
            "exceeds_stay",
            format!("must be at most {left}, the stay's price less the advances already paid"),
        )
        .field_said(
            "problem-deposit-exceeds-stay",
            vec![("amount", crate::domain::said::Value::Decimal(left))],
        ));
    }
    let settings = store::settings::get(tx)?;
    let bill_to = bill_to_or_guest(tx, input.bill_to, &r.primary_guest_id)?;
    let receipt = receipt_or_invoice(c, input.receipt, &bill_to)?;
    let today = tx.clock().today_in(&settings.time_zone);
    let line = DraftLine {
        description: crate::domain::stay_lines::advance(
            settings.country.as_deref(),
            &r.code,
            r.arrival.0,
            r.departure.0,
        ),
        quantity: 1,
        unit_price: amount,
        tax_rate: settings.default_tax_rate,
        service_date: Some(crate::model::Date(today)),
        charge_id: None,
        kind: LineKind::Advance,
        kpd_code: None,
    };
    let paid = CheckOutPayment {
        amount: Some(input.amount),
        method: input.payment_method,
        reference: input.reference,
    };
    let how = HowPaid::Now(vec![paid], Some(input.payment_method));
    let invoice = bill_stay(tx, actor, c, &r, (bill_to, receipt), vec![line], how)?;
    deposit.advances.push(Advance {
        invoice_id: invoice.id.clone(),
        number: invoice.number.clone(),
        amount,
        tax_rate: settings.default_tax_rate,
        deducted: 0,
        refunded: 0,
    });
    save(tx, actor, &mut r, deposit)?;
    Ok(invoice)
}

/// Stores `r` with its deposit now `deposit`, with the event that says so.
fn save(tx: &Tx, actor: &Actor, r: &mut Reservation, deposit: Deposit) -> AppResult<()> {
    let old = r.clone();
    r.deposit = Some(deposit.tally());
    r.version += 1;
    r.updated_at = Instant(tx.now_text());
    store::reservations::update(tx, &old, r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationUpdated,
        &r.id,
        &snapshot(&*r),
    )?;
    Ok(())
}

/// The stay's bill `lines` with each advance of `r` not yet deducted taken off; `r`'s
/// deposit notes what was deducted. Nothing is taken off when the advances come to more
/// than the bill (a bill never goes below zero): [`at_check_out`] gives them back instead.
pub(crate) fn deduct(
    r: &mut Reservation,
    mut lines: Vec<DraftLine>,
    country: Option<&str>,
) -> Vec<DraftLine> {
    let Some(mut deposit) = r.deposit.clone() else {
        return lines;
    };
    let mut room: i64 = lines.iter().map(|l| l.quantity * l.unit_price).sum();
    if open(&deposit) > room {
        // More was paid ahead than the stay came to (it was cut short): see `at_check_out`.
        return lines;
    }
    let day = lines.iter().filter_map(|l| l.service_date).max();
    for a in deposit.advances.iter_mut() {
        let take = a.open().min(room);
        if take <= 0 {
            continue;
        }
        lines.push(DraftLine {
            description: crate::domain::stay_lines::advance_deducted(country, &a.number),
            quantity: 1,
            unit_price: -take,
            tax_rate: a.tax_rate,
            service_date: day,
            charge_id: None,
            kind: LineKind::Advance,
            kpd_code: None,
        });
        a.deducted += take;
        room -= take;
    }
    r.deposit = Some(deposit.tally());
    lines
}

/// What of `deposit`'s advances is neither deducted nor given back.
fn open(deposit: &Deposit) -> i64 {
    deposit.advances.iter().map(Advance::open).sum()
}

/// The check-out's bill of `lines` for `r`, in the caller's transaction: the advances
/// deducted ([`deduct`]), or, when they come to more than the bill (a stay cut short), each
/// given back by a credit note with its refund, the bill then charging the whole stay.
pub(crate) fn at_check_out(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    r: &mut Reservation,
    lines: Vec<DraftLine>,
    country: Option<&str>,
) -> AppResult<Vec<DraftLine>> {
    let bill: i64 = lines.iter().map(|l| l.quantity * l.unit_price).sum();
    if r.deposit.as_ref().is_some_and(|d| open(d) > bill) {
        give_back(tx, actor, c, r, country)?;
        return Ok(lines);
    }
    Ok(deduct(r, lines, country))
}

/// What was given back, by the means it came.
type Given = Vec<(PaymentMethod, i64)>;

/// Gives back each open advance of `r` (a credit note of its advance invoice, with a refund
/// by the means it came) and stores `r`; what was given back, by means, and who the advance
/// invoices were addressed to.
fn give_back(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    r: &mut Reservation,
    country: Option<&str>,
) -> AppResult<(Given, Option<crate::model::BillTo>)> {
    let Some(mut deposit) = r.deposit.clone() else {
        return Ok((Vec::new(), None));
    };
    let mut back_by: Vec<(PaymentMethod, i64)> = Vec::new();
    let mut bill_to = None;
    for a in deposit.advances.iter_mut().filter(|a| a.open() > 0) {
        let original = store::invoices::get(tx, &a.invoice_id)?
            .ok_or_else(|| AppError::not_found("invoice", &a.invoice_id))?;
        let method = original.payment_method.unwrap_or(PaymentMethod::Cash);
        let why = crate::domain::stay_lines::advance_returned(country, &r.code);
        let mut credit =
            crate::service::credit_note::issue_for(tx, actor, c, &a.invoice_id, Some(why))?;
        let back = a.open();
        let refund = crate::model::PaymentInput {
            amount: crate::model::fields::Int(back),
            method,
            reference: None,
        };
        crate::service::invoices::record_payment(tx, actor, &mut credit, refund, "amount")?;
        a.refunded += back;
        back_by.push((method, back));
        bill_to.get_or_insert(original.bill_to);
    }
    if !back_by.is_empty() {
        save(tx, actor, r, deposit)?;
    }
    Ok((back_by, bill_to))
}

/// After `r` was cancelled or marked a no-show (and its plan's fee put on its folio), in the
/// same transaction: each advance is given back (a credit note with its refund), and when
/// the deposit covers the fee, the folio (the fee) is billed at once and paid from it; the
/// guest gets back what the fee does not keep. A fee the deposit does not cover stays on
/// the folio, billed like any charge. Nothing when no advance is open.
pub(crate) fn on_cancel(
    tx: &Tx,
    actor: &Actor,
    c: &Compliance,
    r: &mut Reservation,
) -> AppResult<()> {
    let country = store::settings::get(tx)?.country;
    let (kept, bill_to) = give_back(tx, actor, c, r, country.as_deref())?;
    if kept.is_empty() {
        return Ok(());
    }
    let charges = store::charges::uninvoiced(tx, &r.id)?;
    let lines: Vec<DraftLine> = charges.into_iter().map(DraftLine::from).collect();
    let mut owed: i64 = lines.iter().map(|l| l.quantity * l.unit_price).sum();
    let mut payments = Vec::new();
    for (method, amount) in kept {
        let take = amount.min(owed);
        if take > 0 {
            payments.push(CheckOutPayment {
                amount: Some(crate::model::fields::Int(take)),
                method,
                reference: None,
            });
            owed -= take;
        }
    }
    if lines.is_empty() || owed > 0 {
        return Ok(());
    }
    let bill_to = match bill_to {
        Some(b) => b,
        None => bill_to_or_guest(tx, None, &r.primary_guest_id)?,
    };
    let receipt = receipt_or_invoice(c, None, &bill_to)?;
    let method = payments.first().map_or(PaymentMethod::Card, |p| p.method);
    let how = HowPaid::Now(payments, Some(method));
    bill_stay(tx, actor, c, r, (bill_to, receipt), lines, how)?;
    Ok(())
}

/// Today's deposits due: confirmed bookings whose deposit is due by today and not paid in
/// full (the desk's Today).
pub async fn due(svc: &Services, p: &Principal) -> AppResult<Vec<store::desk_views::DueDeposit>> {
    p.require(Scope::FrontDesk)?;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            store::desk_views::deposits_due(c, &today.to_string())
        })
        .await
}
