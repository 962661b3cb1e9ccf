//! Payments of e-invoices reported to the tax administration (Croatia: eIzvještavanje,
//! `EvidentirajNaplatu`, through the intermediary). The law (NN 89/25, art. 53) wants the
//! payments collected in a month reported by the 20th of the next: each payment recorded
//! against an e-invoice queues its report in the payment's own transaction, to leave on the
//! first day of the next month and due on the 20th, so none is lost or sent twice.

use chrono::{Datelike, NaiveDate, TimeZone};

use crate::clock::format_instant;
use crate::compliance::einvoice::PaymentReport;
use crate::db::Tx;
use crate::domain::enums::{InvoiceKind, PaymentKind, PaymentMethod, SubmissionKind};
use crate::error::{AppError, AppResult};
use crate::model::outcome::NewSubmission;
use crate::model::{Date, Invoice, Payment};
use crate::store;

/// The first day of the month after `d`.
pub fn next_month(d: NaiveDate) -> NaiveDate {
    let (y, m) = if d.month() == 12 {
        (d.year() + 1, 1)
    } else {
        (d.year(), d.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(d)
}

/// The method as the report names it: `T` a bank account, `Z` anything else.
pub fn method_code(m: PaymentMethod) -> &'static str {
    match m {
        PaymentMethod::BankTransfer => "T",
        _ => "Z",
    }
}

fn utc(tz: &str, day: NaiveDate, h: u32, min: u32, s: u32) -> String {
    let zone: chrono_tz::Tz = tz.parse().unwrap_or(chrono_tz::UTC);
    let local = day.and_hms_opt(h, min, s).unwrap_or_default();
    let at = zone
        .from_local_datetime(&local)
        .earliest()
        .map(|t| t.with_timezone(&chrono::Utc))
        .unwrap_or_else(|| chrono::Utc.from_utc_datetime(&local));
    format_instant(at)
}

/// Queues the report of `payment` when `inv` is an e-invoice (inside the payment's
/// transaction).
pub fn queue(tx: &Tx, inv: &Invoice, payment: &Payment) -> AppResult<()> {
    if inv.fiscal.einvoice.is_none() {
        return Ok(());
    }
    if inv.kind != InvoiceKind::Invoice || payment.kind != PaymentKind::Payment {
        return Ok(());
    }
    let settings = store::settings::get(tx)?;
    let today = tx.clock().today_in(&settings.time_zone);
    let report = PaymentReport {
        invoice_id: inv.id.clone(),
        number: inv.number.clone(),
        issue_date: inv.issue_date.0,
        buyer_oib: crate::compliance::eracun::business_oib(&inv.bill_to).unwrap_or_default(),
        paid_on: today,
        amount: payment.amount,
        method: method_code(payment.method).into(),
    };
    let first = next_month(today);
    let due = first.with_day(20).unwrap_or(first);
    let submission = NewSubmission {
        kind: SubmissionKind::EInvoicePayments,
        scheme: crate::compliance::eracun::NAME,
        subject_id: inv.id.clone(),
        due_at: utc(&settings.time_zone, due, 23, 59, 59),
        rows: Vec::new(),
        payload: serde_json::to_string(&report).map_err(AppError::internal)?,
        record_date: Some(Date(today)),
    };
    crate::service::submissions::open_at(
        tx,
        &submission,
        &utc(&settings.time_zone, first, 0, 5, 0),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_month_after() {
        let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(next_month(d(2026, 11, 27)), d(2026, 12, 1));
        assert_eq!(next_month(d(2026, 12, 31)), d(2027, 1, 1));
        assert_eq!(method_code(PaymentMethod::BankTransfer), "T");
        assert_eq!(method_code(PaymentMethod::Card), "Z");
    }

    #[test]
    fn local_times_become_utc() {
        let d = NaiveDate::from_ymd_opt(2026, 12, 20).unwrap();
        assert_eq!(
            utc("Europe/Zagreb", d, 23, 59, 59),
            "2026-12-20T22:59:59.000Z"
        );
    }
}
