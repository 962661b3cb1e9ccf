//! An invoice as it is printed, in words, made once for every place that shows it: the
//! desk's invoice page (A4 or the 80 mm receipt) and the PDF sent to the guest by e-mail
//! ([`pdf`]). Pure: it reads nothing but the invoice and says it in the reader's language.

pub mod fiscal;
mod font;
pub mod pdf;

use crate::domain::enums::InvoiceKind;
use crate::i18n::{Arg, T};
use crate::model::{Address, Invoice};

/// The printed content of an invoice.
#[derive(Debug, Clone)]
pub struct Printed {
    /// "Invoice 2026-000042", "Credit note …", "Bill …".
    pub title: String,
    /// The property's name.
    pub property: String,
    /// The seller's particulars, one per line.
    pub seller: Vec<String>,
    /// (label, value): date, time, operator, status, payment method, paid, owed.
    pub facts: Vec<(String, String)>,
    /// The addressee, one per line.
    pub bill_to: Vec<String>,
    /// Description, quantity, unit price, VAT rate, amount.
    pub lines: Vec<(String, i64, String, String, String)>,
    /// VAT rate, net, tax.
    pub taxes: Vec<(String, String, String)>,
    /// The total to pay.
    pub total: String,
    /// (label, value) of the fiscal record (empty when none applies).
    pub fiscal: Vec<(String, String)>,
    /// Whether it is an e-invoice (the fiscal block is headed so).
    pub einvoice: bool,
    /// The fiscal QR code's content, when the law wants one printed.
    pub qr: Option<String>,
}

/// A VAT rate in basis points, as printed: "13 %", "5.50 %".
pub fn rate(bp: i64) -> String {
    if bp % 100 == 0 {
        format!("{} %", bp / 100)
    } else {
        format!("{}.{:02} %", bp / 100, bp % 100)
    }
}

/// An address, one line per part, the postal code, city and region on one.
pub fn address_lines(a: &Address) -> Vec<String> {
    let mut out: Vec<String> = [&a.line1, &a.line2]
        .into_iter()
        .flatten()
        .map(|l| l.0.clone())
        .collect();
    let place: Vec<String> = [
        a.postal_code.as_ref().map(|l| l.0.clone()),
        a.city.as_ref().map(|l| l.0.clone()),
        a.region.as_ref().map(|l| l.0.clone()),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !place.is_empty() {
        out.push(place.join(" "));
    }
    if let Some(c) = &a.country {
        out.push(c.0.clone());
    }
    out
}

/// The facts under the title: issue date and time, operator, status, payment method,
/// reason, what was paid (given back) and what is still owed (`due`).
fn facts(t: &T, inv: &Invoice, due: i64, time_zone: &str) -> Vec<(String, String)> {
    let cur = &inv.currency;
    let refund = inv.kind == InvoiceKind::CreditNote;
    let mut facts = vec![(t.t("invoice-date"), t.date(inv.issue_date.0))];
    if let Some((_, time)) = crate::clock::local_time(&inv.issued_at.0, time_zone) {
        facts.push((t.t("invoice-time"), time.format("%H:%M").to_string()));
    }
    if let Some(mark) = &inv.operator_mark {
        facts.push((t.t("invoice-operator"), mark.clone()));
    }
    facts.push((
        t.t("field-status"),
        t.t(&format!("invoice-status-{}", inv.status.as_str())),
    ));
    if let Some(m) = inv.payment_method {
        facts.push((
            t.t("field-payment-method"),
            t.t(&format!("payment-{}", m.as_str())),
        ));
    }
    if let Some(reason) = &inv.reason {
        facts.push((t.t("invoice-reason"), reason.clone()));
    }
    if refund {
        // Only where there was money to give back: an unpaid invoice's credit note has none.
        if inv.paid_amount != 0 || due > 0 {
            facts.push((t.t("invoice-refunded"), t.money(-inv.paid_amount, cur)));
        }
    } else {
        facts.push((t.t("invoice-paid"), t.money(inv.paid_amount, cur)));
    }
    if due > 0 {
        let key = if refund {
            "invoice-to-refund"
        } else {
            "invoice-owed"
        };
        facts.push((t.t(key), t.money(due, cur)));
    }
    facts
}

/// Who it is addressed to, and who issues it.
fn parties(t: &T, inv: &Invoice) -> (Vec<String>, Vec<String>) {
    let b = &inv.bill_to;
    let mut bill_to = vec![b.name.0.clone()];
    if let Some(a) = &b.address {
        bill_to.extend(address_lines(a));
    }
    if let Some(vat_id) = b.vat_id.as_ref().or(b.tax_id.as_ref()) {
        bill_to.push(t.with(
            "invoice-buyer-vat-id",
            &[("id", Arg::Text(vat_id.0.clone()))],
        ));
    }
    if let Some(code) = &b.tax_code {
        bill_to.push(t.with(
            "invoice-buyer-tax-code",
            &[("id", Arg::Text(code.0.clone()))],
        ));
    }
    let seller = inv.seller.as_ref().map_or_else(Vec::new, |s| {
        let mut lines = vec![s.legal_name.0.clone()];
        lines.extend(address_lines(&s.address));
        lines.push(t.with(
            "invoice-seller-vat-id",
            &[("id", Arg::Text(s.vat_id.0.clone()))],
        ));
        if let Some(code) = &s.tax_code {
            lines.push(t.with(
                "invoice-seller-tax-code",
                &[("code", Arg::Text(code.0.clone()))],
            ));
        }
        lines
    });
    (bill_to, seller)
}

/// Invoice `inv` of `property` as printed in `t`'s language, `due` still owed (or to give
/// back, on a credit note), its time of issue in `time_zone`.
pub fn invoice(t: &T, inv: &Invoice, property: &str, due: i64, time_zone: &str) -> Printed {
    let cur = &inv.currency;
    let f = &inv.fiscal;
    let (bill_to, seller) = parties(t, inv);
    // In Italy a stay settled at the cash register is certified by its receipt: the
    // hotel's own copy is a bill, never called an invoice.
    let title_key = match (f.scheme.as_str(), inv.kind) {
        (crate::compliance::rt::NAME, InvoiceKind::Invoice) => "invoice-title-bill".to_string(),
        (_, kind) => format!("invoice-title-{}", kind.as_str()),
    };
    Printed {
        title: t.with(&title_key, &[("number", Arg::Text(inv.number.clone()))]),
        property: property.to_string(),
        seller,
        facts: facts(t, inv, due, time_zone),
        bill_to,
        lines: inv
            .lines
            .iter()
            .map(|l| {
                (
                    l.description.clone(),
                    l.quantity,
                    t.money(l.unit_price, cur),
                    rate(l.tax_rate),
                    t.money(l.gross_amount, cur),
                )
            })
            .collect(),
        taxes: inv
            .tax_breakdown
            .iter()
            .map(|x| (rate(x.tax_rate), t.money(x.net, cur), t.money(x.tax, cur)))
            .collect(),
        total: t.money(inv.totals.gross, cur),
        fiscal: fiscal::rows(t, f),
        einvoice: f.einvoice.is_some(),
        qr: f.qr_payload.clone(),
    }
}
