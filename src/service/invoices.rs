//! Invoices: interim bills, sales, credit notes, payments, reading.

use crate::db::Tx;
use crate::domain::enums::BuyerKind;
use crate::domain::enums::{InvoiceKind, InvoiceStatus, PaymentKind};
use crate::domain::events::EventType;
use crate::domain::history::Note;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::fields::Line;
use crate::model::{
    BillTo, ChargeInput, Date, Instant, Invoice, InvoiceCreate, Payment, PaymentInput,
    PaymentReceipt, snapshot,
};
use crate::refusal::Refusal;
use crate::service::Services;
use crate::service::invoicing::{Draft, DraftLine, issue};
use crate::service::{Page, PageRequest, fail_on, page};
use crate::store::{self, invoices::InvoiceFilter};

/// The addressee given (its kind settled, its VAT number checked by the buyer's country,
/// else the property's; 422 at `bill_to.…`), or else the guest as a person.
pub(crate) fn bill_to_or_guest(
    tx: &Tx,
    given: Option<BillTo>,
    guest_id: &str,
) -> AppResult<BillTo> {
    if let Some(mut b) = given {
        let country = match b.address.as_ref().and_then(|a| a.country.as_ref()) {
            Some(c) => Some(c.0.clone()),
            None => store::settings::get(tx)?.country,
        };
        // The older `tax_id` ("VAT or tax number"): a VAT number where it is one by the
        // buyer's country's rule, else a tax code. It never makes the buyer a business.
        let explicit = b.vat_id.is_some();
        if let (None, Some(t)) = (&b.vat_id, b.tax_id.clone()) {
            let vat = crate::domain::seller::buyer_check(country.as_deref(), true, Some(&t.0));
            if vat.is_empty() {
                b.vat_id = Some(t);
            } else if b.tax_code.is_none() {
                b.tax_code = Some(t);
            }
        }
        if b.vat_id.is_some() {
            b.tax_id = b.vat_id.clone();
        }
        let business = b.kind.map_or(explicit, |k| k == BuyerKind::Business);
        b.kind = Some(if business {
            BuyerKind::Business
        } else {
            BuyerKind::Person
        });
        let vat = b.vat_id.as_ref().map(|v| v.0.as_str());
        let broken = crate::domain::seller::buyer_check(country.as_deref(), business, vat);
        fail_on(
            broken
                .into_iter()
                .map(|(field, rule)| FieldError::of(format!("bill_to.{field}"), rule))
                .collect(),
        )?;
        return Ok(b);
    }
    let g =
        store::guests::get(tx, guest_id)?.ok_or_else(|| AppError::not_found("guest", guest_id))?;
    Ok(BillTo {
        kind: Some(BuyerKind::Person),
        name: Line(format!("{} {}", g.first_name, g.last_name)),
        address: g.address,
        vat_id: None,
        // A private guest is named on an Italian invoice by their codice fiscale.
        tax_code: g.tax_code.map(Line),
        tax_id: None,
        sdi_code: None,
        pec: None,
    })
}

/// Folio-style lines from charge inputs, with the property's defaults.
pub(crate) fn lines_from(
    inputs: &[ChargeInput],
    default_rate: i64,
    today: chrono::NaiveDate,
) -> Vec<DraftLine> {
    inputs
        .iter()
        .map(|c| DraftLine {
            description: c.description.0.clone(),
            quantity: c.quantity.0,
            unit_price: c.unit_price.0,
            tax_rate: c.tax_rate.map_or(default_rate, |r| r.0),
            service_date: Some(c.service_date.unwrap_or(Date(today))),
            charge_id: None,
            kind: crate::domain::enums::LineKind::Charge,
            kpd_code: c.kpd_code.as_ref().map(|k| k.0.clone()),
        })
        .collect()
}

pub(super) fn only(input: &InvoiceCreate, allowed: &[&str]) -> Vec<FieldError> {
    let given = [
        ("reservation_id", input.reservation_id.is_some()),
        ("payment_method", input.payment_method.is_some()),
        ("payments", input.payments.is_some()),
        ("receipt", input.receipt.is_some()),
        ("guest_id", input.guest_id.is_some()),
        ("bill_to", input.bill_to.is_some()),
        ("lines", input.lines.is_some()),
        ("currency", input.currency.is_some()),
        ("corrects_invoice_id", input.corrects_invoice_id.is_some()),
        ("reason", input.reason.is_some()),
        ("reissues_invoice_id", input.reissues_invoice_id.is_some()),
    ];
    given
        .iter()
        .filter(|(name, present)| *present && !allowed.contains(name))
        .map(|(name, _)| {
            FieldError::new(
                *name,
                "not_allowed",
                "does not belong to this kind of invoice request",
            )
        })
        .collect()
}

pub(super) fn required<T>(value: &Option<T>, field: &str, errs: &mut Vec<FieldError>) {
    if value.is_none() {
        errs.push(FieldError::new(field, "required", "is required").said("rule-required", vec![]));
    }
}

/// `POST /v1/invoices`: an interim bill, a sale, or a credit note.
pub async fn create(svc: &Services, p: &Principal, input: InvoiceCreate) -> AppResult<Invoice> {
    p.require(Scope::InvoicesWrite)?;
    let db = svc.db();
    let actor = &p.actor;
    let c = svc.compliance().clone();
    let actor = actor.clone();
    db.write(move |tx| {
        let settings = store::settings::get(tx)?;
        let today = tx.clock().today_in(&settings.time_zone);
        if let Some(original) = &input.corrects_invoice_id {
            let mut errs = only(&input, &["corrects_invoice_id", "reason"]);
            required(&input.reason, "reason", &mut errs);
            fail_on(errs)?;
            return super::credit_note::issue_for(
                tx,
                &actor,
                &c,
                &original.0,
                input.reason.map(|r| r.0),
            );
        }
        if let Some(original) = &input.reissues_invoice_id {
            let errs = only(
                &input,
                &["reissues_invoice_id", "bill_to", "payment_method"],
            );
            fail_on(errs)?;
            let (b, m) = (input.bill_to.clone(), input.payment_method);
            return super::reissue::reissue(tx, &actor, &c, &original.0, b, m);
        }
        if let Some(res_id) = input.reservation_id.clone() {
            return super::interim::bill(tx, &actor, &c, &res_id.0, input);
        }
        let mut errs = only(
            &input,
            &["guest_id", "bill_to", "payment_method", "lines", "currency"],
        );
        required(&input.guest_id, "guest_id", &mut errs);
        required(&input.payment_method, "payment_method", &mut errs);
        match &input.lines {
            None => errs.push(
                FieldError::new(
                    "lines",
                    "required",
                    "is required (or send reservation_id or corrects_invoice_id)",
                )
                .said("rule-required", vec![]),
            ),
            Some(l) if l.is_empty() => errs.push(
                FieldError::new("lines", "required", "needs at least one line")
                    .said("problem-one-line", vec![]),
            ),
            Some(_) => {}
        }
        if let Some(g) = &input.guest_id
            && store::guests::get(tx, &g.0)?.is_none()
        {
            errs.push(FieldError::new(
                "guest_id",
                "not_found",
                "no guest has this id",
            ));
        }
        fail_on(errs)?;
        let guest = input.guest_id.map(|g| g.0).unwrap_or_default();
        let bill_to = bill_to_or_guest(tx, input.bill_to, &guest)?;
        let draft = Draft {
            kind: InvoiceKind::Invoice,
            reservation_id: None,
            guest_id: Some(guest),
            bill_to,
            currency: input.currency.map_or(settings.currency.clone(), |c| c.0),
            payment_method: input.payment_method,
            lines: lines_from(
                input.lines.as_deref().unwrap_or_default(),
                settings.default_tax_rate,
                today,
            ),
            corrects_invoice_id: None,
            reissues_invoice_id: None,
            reason: None,
            period: None,
            prepaid: 0,
            paid_by: Vec::new(),
            receipt: false,
        };
        issue(tx, &actor, &c, draft)
    })
    .await
}

/// Records a payment of `inv` (inside the caller's transaction): at most what is still owed
/// (else 422 on `field`); the invoice becomes `paid` when payments reach its total, with its
/// event, or the payment goes into its history. On a credit note the payment is a refund,
/// money given back: recorded below zero, at most what was paid on the invoice it reverses
/// and not yet given back (409 when nothing was), and the credit note is `paid` once it
/// has given back its whole total.
pub(crate) fn record_payment(
    tx: &crate::db::Tx,
    actor: &crate::model::Actor,
    inv: &mut crate::model::Invoice,
    input: PaymentInput,
    field: &str,
) -> AppResult<Payment> {
    let (amount, kind) = if inv.kind == InvoiceKind::CreditNote {
        let original = inv.corrects_invoice_id.clone().unwrap_or_default();
        let original = store::invoices::get(tx, &original)?
            .ok_or_else(|| AppError::not_found("invoice", &original))?;
        let refundable = crate::domain::money::refundable(
            inv.totals.gross,
            inv.paid_amount,
            original.paid_amount,
        );
        if refundable == 0 {
            return Err(Refusal::NothingToRefund {
                number: original.number,
            }
            .into());
        }
        if input.amount.0 > refundable {
            return Err(AppError::invalid_field(
                field,
                "exceeds_outstanding",
                format!(
                    "must be at most {refundable}, what was paid on invoice {} and not yet given back",
                    original.number
                ),
            ).field_said("problem-refund-exceeds", vec![("amount", crate::domain::said::Value::Decimal(crate::domain::money::format_amount(refundable))), ("invoice", crate::domain::said::Value::Text(original.number.clone()))]));
        }
        (input.amount.0, PaymentKind::Refund)
    } else {
        let outstanding = inv.totals.gross - inv.paid_amount;
        if input.amount.0 > outstanding {
            return Err(AppError::invalid_field(
                field,
                "exceeds_outstanding",
                format!("must be at most {outstanding}, what is still owed"),
            )
            .field_said(
                "problem-exceeds-outstanding",
                vec![(
                    "amount",
                    crate::domain::said::Value::Decimal(crate::domain::money::format_amount(
                        outstanding,
                    )),
                )],
            ));
        }
        (input.amount.0, PaymentKind::Payment)
    };
    let now = Instant(tx.now_text());
    let payment = Payment {
        id: crate::ids::new("pay"),
        invoice_id: inv.id.clone(),
        amount,
        kind,
        method: input.method,
        reference: input.reference.map(|r| r.0),
        paid_at: now.clone(),
    };
    store::invoices::insert_payment(tx, &payment)?;
    crate::service::einvoice_payments::queue(tx, inv, &payment)?;
    // A refund is money given back: a credit note's paid amount goes down to its total.
    inv.paid_amount += match payment.kind {
        PaymentKind::Payment => payment.amount,
        PaymentKind::Refund => -payment.amount,
    };
    inv.version += 1;
    inv.updated_at = now;
    if inv.paid_amount == inv.totals.gross {
        inv.status = InvoiceStatus::Paid;
    }
    store::invoices::update_state(tx, inv)?;
    if inv.status == InvoiceStatus::Paid {
        store::events::record(tx, actor, EventType::InvoicePaid, &inv.id, &snapshot(&*inv))?;
    } else {
        let kind = Note::PaymentRecorded.as_str();
        store::history::record(tx, actor, kind, &inv.id, &snapshot(&*inv), None)?;
    }
    Ok(payment)
}

/// One invoice.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Invoice> {
    p.require(Scope::InvoicesRead)?;
    let db = svc.db();
    db.read(move |c| {
        store::invoices::get(c, &id)?.ok_or_else(|| AppError::not_found("invoice", &id))
    })
    .await
}

/// A page of invoices.
pub async fn list(
    svc: &Services,
    p: &Principal,
    filter: InvoiceFilter,
    req: PageRequest,
) -> AppResult<Page<Invoice>> {
    p.require(Scope::InvoicesRead)?;
    let db = svc.db();
    page(db, req, move |c, after, as_of, limit| {
        store::invoices::list(c, &filter, after, as_of, limit)
    })
    .await
}

/// Records a payment; the invoice is `paid` once payments reach its gross total.
pub async fn pay(
    svc: &Services,
    p: &Principal,
    id: String,
    input: PaymentInput,
) -> AppResult<PaymentReceipt> {
    p.require(Scope::InvoicesWrite)?;
    let db = svc.db();
    let actor = p.actor.clone();
    db.write(move |tx| {
        let mut inv =
            store::invoices::get(tx, &id)?.ok_or_else(|| AppError::not_found("invoice", &id))?;
        if inv.status != InvoiceStatus::Issued {
            return Err(Refusal::NoMorePayments {
                number: inv.number,
                status: inv.status,
            }
            .into());
        }
        let payment = record_payment(tx, &actor, &mut inv, input, "amount")?;
        Ok(PaymentReceipt {
            payment,
            invoice: inv,
        })
    })
    .await
}
