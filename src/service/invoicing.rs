//! Issuing invoices: one path for every kind (check-out, interim bill, sale, credit note).
//!
//! Inside the caller's write transaction: the lines are priced by the money rules, the next
//! number of the series is taken, the fiscal scheme seals the invoice, and the invoice, its
//! lines, its charges' link and its event are written. Any error rolls all of it back,
//! including the number, so the series never has a gap.

use chrono::Datelike;

use crate::compliance::einvoice::BuildInput;
use crate::compliance::{Compliance, SealInput};
use crate::db::Tx;
use crate::domain::enums::FiscalStatus;
use crate::domain::enums::{InvoiceKind, InvoiceStatus, LineKind, PaymentMethod};
use crate::domain::events::EventType;
use crate::domain::money;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Actor;
use crate::model::{
    BillTo, Charge, Date, Fiscal, Instant, Invoice, InvoiceLine, Totals, snapshot, tax_breakdown,
};
use crate::refusal::Refusal;
use crate::service::submissions;
use crate::store;

/// A line to be invoiced.
#[derive(Debug, Clone)]
pub struct DraftLine {
    /// What it is.
    pub description: String,
    /// How many.
    pub quantity: i64,
    /// Gross unit price.
    pub unit_price: i64,
    /// Tax rate in basis points.
    pub tax_rate: i64,
    /// Delivery date.
    pub service_date: Option<Date>,
    /// The folio charge it bills, if any.
    pub charge_id: Option<String>,
    /// What it bills.
    pub kind: LineKind,
    /// Its own KPD 2025 code (a room type's or a charge's), for an e-invoice.
    pub kpd_code: Option<String>,
}

impl From<Charge> for DraftLine {
    /// A folio charge as the invoice line that bills it.
    fn from(ch: Charge) -> DraftLine {
        DraftLine {
            description: ch.description,
            quantity: ch.quantity,
            unit_price: ch.unit_price,
            tax_rate: ch.tax_rate,
            service_date: Some(ch.service_date),
            charge_id: Some(ch.id),
            kind: LineKind::Charge,
            kpd_code: ch.kpd_code,
        }
    }
}

/// An invoice before it has a number.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Invoice or credit note.
    pub kind: InvoiceKind,
    /// The stay.
    pub reservation_id: Option<String>,
    /// The guest.
    pub guest_id: Option<String>,
    /// Addressee.
    pub bill_to: BillTo,
    /// Currency of every amount.
    pub currency: String,
    /// Payment method.
    pub payment_method: Option<PaymentMethod>,
    /// The lines, in order.
    pub lines: Vec<DraftLine>,
    /// For a credit note: what it reverses, and why.
    pub corrects_invoice_id: Option<String>,
    /// For a credit note: why.
    pub reason: Option<String>,
    /// For a corrected invoice: the reversed invoice it replaces.
    pub reissues_invoice_id: Option<String>,
    /// The stay it bills (arrival, departure), for an e-invoice's invoice period.
    pub period: Option<(chrono::NaiveDate, chrono::NaiveDate)>,
    /// What is paid with the issue itself (a check-out's payments), which an e-invoice
    /// states as already paid.
    pub prepaid: i64,
    /// Those payments by method.
    pub paid_by: Vec<(PaymentMethod, i64)>,
    /// Settled with a receipt rather than an invoice (Italy: the cash register's documento
    /// commerciale, never an e-invoice).
    pub receipt: bool,
}

fn too_large() -> AppError {
    AppError::invalid_field(
        "lines",
        "amount_too_large",
        "the amounts are too large to invoice",
    )
    .field_said("problem-amounts-too-large", vec![])
}

/// What `lines` come to, gross, as [`issue`] will total them.
pub fn gross_of(lines: &[DraftLine]) -> AppResult<i64> {
    let mut amounts = Vec::with_capacity(lines.len());
    for l in lines {
        amounts.push(money::line(l.quantity, l.unit_price, l.tax_rate).map_err(|_| too_large())?);
    }
    Ok(money::total(&amounts).map_err(|_| too_large())?.gross)
}

/// The series for an issue date: the property's pattern with `{year}` filled in.
pub fn series_for(pattern: &str, issue_date: chrono::NaiveDate) -> String {
    pattern.replace("{year}", &issue_date.year().to_string())
}

/// Issues a draft (inside the caller's transaction) and records `invoice.created`.
pub fn issue(tx: &Tx, actor: &Actor, c: &Compliance, draft: Draft) -> AppResult<Invoice> {
    let fiscal = c.fiscal.as_ref();
    if draft.lines.is_empty() {
        return Err(AppError::invalid_field(
            "lines",
            "required",
            "an invoice needs at least one line",
        )
        .field_said("problem-one-line", vec![]));
    }
    let mut lines = Vec::with_capacity(draft.lines.len());
    for (i, l) in draft.lines.iter().enumerate() {
        let a = money::line(l.quantity, l.unit_price, l.tax_rate).map_err(|_| too_large())?;
        lines.push(InvoiceLine {
            position: i as i64 + 1,
            description: l.description.clone(),
            quantity: l.quantity,
            unit_price: l.unit_price,
            tax_rate: l.tax_rate,
            net_amount: a.net,
            tax_amount: a.tax,
            gross_amount: a.gross,
            service_date: l.service_date,
            kind: l.kind,
            kpd_code: l.kpd_code.clone(),
        });
    }
    let amounts: Vec<money::Amounts> = lines
        .iter()
        .map(|l| money::Amounts {
            net: l.net_amount,
            tax: l.tax_amount,
            gross: l.gross_amount,
        })
        .collect();
    let total = money::total(&amounts).map_err(|_| too_large())?;
    if draft.kind == InvoiceKind::Invoice && total.gross < 0 {
        // Money going back to a customer is a credit note of what they were invoiced.
        return Err(AppError::invalid_field(
            "lines",
            "negative_total",
            "add up to less than zero, and an invoice cannot be negative: a refund is a credit note of the invoice it corrects (corrects_invoice_id)",
        ).field_said("problem-negative-total", vec![]));
    }
    let tax_lines = tax_breakdown(&lines);
    if let Some((since, _)) = store::numbering::hold(tx)? {
        return Err(crate::service::numbering::unconfirmed(&since));
    }
    let settings = store::settings::get(tx)?;
    // A credit note is never held back: it corrects an invoice already out.
    let correcting = draft.corrects_invoice_id.is_some();
    if !correcting
        && settings.seller.is_none()
        && crate::domain::seller::required_in(settings.country.as_deref())
    {
        let country = settings.country.clone().unwrap_or_default();
        return Err(crate::refusal::FiscalRefusal::SellerMissing { country }.into());
    }
    let today = tx.clock().today_in(&settings.time_zone);
    let series = series_for(&settings.invoice_series, today);
    let seq = store::invoices::next_seq(tx, &series)?;
    let now = Instant(tx.now_text());
    let operator = match actor.kind {
        crate::domain::enums::ActorKind::Staff => store::clients::get_user(tx, &actor.id)?,
        _ => None,
    };
    let (operator_mark, operator_oib, operator_name) = match operator {
        Some(u) => {
            let name = u.operator_mark.clone().unwrap_or(u.username);
            (u.operator_mark, u.oib, Some(name))
        }
        None => (None, None, None),
    };
    let mut invoice = Invoice {
        id: crate::ids::new("inv"),
        number: format!("{series}-{seq:06}"),
        series,
        kind: draft.kind,
        status: InvoiceStatus::Issued,
        reservation_id: draft.reservation_id,
        guest_id: draft.guest_id,
        bill_to: draft.bill_to,
        seller: settings.seller.clone(),
        issue_date: Date(today),
        issued_at: now.clone(),
        operator_mark,
        currency: draft.currency,
        payment_method: draft.payment_method,
        lines,
        totals: Totals {
            net: total.net,
            tax: total.tax,
            gross: total.gross,
        },
        tax_breakdown: tax_lines,
        corrects_invoice_id: draft.corrects_invoice_id,
        reissues_invoice_id: draft.reissues_invoice_id,
        reason: draft.reason,
        paid_amount: 0,
        fiscal: Fiscal::new(fiscal.name(), FiscalStatus::Pending),
        version: 1,
        created_at: now.clone(),
        updated_at: now,
    };
    let charges: Vec<Option<String>> = draft.lines.iter().map(|l| l.charge_id.clone()).collect();
    for charge in charges.iter().flatten() {
        if !store::charges::mark_invoiced(tx, charge, &invoice.id)? {
            return Err(AppError::from(Refusal::ChargeInvoiced {
                charge: charge.clone(),
            })
            .with_errors(vec![
                FieldError::new(
                    "charges",
                    "already_invoiced",
                    format!("{charge} is already invoiced"),
                )
                .said(
                    "problem-charge-invoiced",
                    vec![(
                        "charge",
                        crate::domain::said::Value::Text(charge.to_string()),
                    )],
                ),
            ]));
        }
    }
    let reverses = match &invoice.corrects_invoice_id {
        Some(id) => {
            Some(store::invoices::get(tx, id)?.ok_or_else(|| AppError::not_found("invoice", id))?)
        }
        None => None,
    };
    if !draft.receipt && c.einvoice.covers(&invoice, reverses.as_ref()) {
        let operator = operator_name.as_deref().zip(operator_oib.as_deref());
        let input = BuildInput {
            invoice: &invoice,
            reverses: reverses.as_ref(),
            local_time: tx.clock().local_now_in(&settings.time_zone),
            now: tx.clock().now(),
            operator,
            period: draft.period,
            prepaid: draft.prepaid,
            transmission: store::einvoices::count(tx)? + 1,
        };
        let built = c.einvoice.build(input)?;
        if built.kpd.is_empty() {
            // The scheme classifies no lines (Italy).
            for line in &mut invoice.lines {
                line.kpd_code = None;
            }
        }
        for (line, kpd) in invoice.lines.iter_mut().zip(&built.kpd) {
            // The city tax is a charge outside VAT on the document, with no KPD code.
            let levy = crate::compliance::eracun::ubl::is_levy(line);
            line.kpd_code = (!levy).then(|| kpd.clone());
        }
        invoice.fiscal = built.fiscal;
        store::invoices::insert(tx, &invoice, seq, &charges)?;
        store::einvoices::insert(
            tx,
            &store::einvoices::Stored {
                invoice_id: invoice.id.clone(),
                scheme: c.einvoice.name().into(),
                intermediary: c
                    .einvoice
                    .intermediary()
                    .map_or("none", |i| i.name())
                    .into(),
                document: built.document,
                sha256: built.sha256,
                status: crate::domain::enums::EInvoiceStatus::Queued,
                reference: None,
                last_error: None,
            },
        )?;
        if let Some(s) = &built.submission {
            submissions::open(tx, s)?;
        }
    } else {
        // Only an e-invoice classifies its lines.
        for line in &mut invoice.lines {
            line.kpd_code = None;
        }
        let operator = (&settings.time_zone[..], operator_oib.as_deref());
        invoice.fiscal = seal(
            tx,
            fiscal,
            &invoice,
            reverses.as_ref(),
            operator,
            &draft.paid_by,
        )?;
        store::invoices::insert(tx, &invoice, seq, &charges)?;
    }
    store::events::record(
        tx,
        actor,
        EventType::InvoiceCreated,
        &invoice.id,
        &snapshot(&invoice),
    )?;
    Ok(invoice)
}

/// The fiscal scheme seals the invoice; its receipt is stored and its submission queued
/// here, in the issuing transaction.
/// `(tz, operator_oib)`: the property's time zone and the issuing staff member's OIB.
fn seal(
    tx: &Tx,
    fiscal: &dyn crate::compliance::FiscalScheme,
    invoice: &Invoice,
    reverses: Option<&Invoice>,
    (tz, operator_oib): (&str, Option<&str>),
    paid_by: &[(PaymentMethod, i64)],
) -> AppResult<Fiscal> {
    let input = SealInput {
        invoice,
        reverses: reverses.map(|r| &r.fiscal),
        reverses_paid: reverses.map_or(0, |r| r.paid_amount),
        local_time: tx.clock().local_now_in(tz),
        now: tx.clock().now(),
        operator_oib,
        paid_by,
    };
    let sealed = fiscal.seal(input, &mut |series| store::fiscal::next_number(tx, series))?;
    if let Some((receipt, submission)) = sealed.receipt {
        store::fiscal::insert(tx, &receipt)?;
        submissions::open(tx, &submission)?;
    }
    Ok(sealed.fiscal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_fill_in_the_year() {
        let d = chrono::NaiveDate::from_ymd_opt(2026, 12, 31).unwrap();
        assert_eq!(series_for("{year}", d), "2026");
        assert_eq!(series_for("B-{year}", d), "B-2026");
        assert_eq!(series_for("DESK", d), "DESK");
    }
}
