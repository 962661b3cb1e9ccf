//! The invoice page (`/invoices/{id}`), where check-out ends: the invoice ready to print
//! (A4, or an 80 mm receipt with `?layout=receipt`), its fiscal data (receipt number, ZKI,
//! JIR when it arrives) and the fiscal QR code as an inline SVG, the document it reverses or
//! that reversed it, and the forms of `invoice_actions`: record a payment, and reverse the
//! invoice with a credit note.

use std::sync::Arc;

use askama::Template;
use poem::web::{Data, Path};
use poem::{Request, Response, handler};

use super::{DeskState, Outcome, Shell, failed_read, open, or_answer, page};
use crate::domain::enums::{InvoiceKind, InvoiceStatus};
use crate::domain::scopes::Scope;
use crate::error::FieldError;
use crate::i18n::{Arg, T};
use crate::service::desk::DeskSession;
use crate::service::desk_views;

#[derive(Template)]
#[template(path = "desk/invoice.html")]
struct InvoicePage {
    shell: Shell,
    title: String,
    id: String,
    receipt: bool,
    property: String,
    /// The seller's particulars as the invoice keeps them, a line each.
    seller: Vec<String>,
    /// (label, value) printed under the title.
    facts: Vec<(String, String)>,
    bill_to: Vec<String>,
    /// (description, quantity, unit price, tax rate, amount).
    lines: Vec<(String, i64, String, String, String)>,
    /// (rate, net, tax).
    taxes: Vec<(String, String, String)>,
    total: String,
    /// (label, value) of the fiscal record.
    fiscal: Vec<(String, String)>,
    /// Whether the invoice is an e-invoice (its XML can be downloaded).
    einvoice: bool,
    qr: Option<String>,
    stay: Option<(String, String)>,
    /// The other document: (id, "Reverses invoice …" or "Reversed by credit note …").
    related: Option<(String, String)>,
    /// The payment form, when something is still owed and the role may record it.
    pay: Option<PayForm>,
    /// The credit-note form, for an issued invoice the role may reverse.
    credit: Option<CreditForm>,
    /// The change-of-payment-method form, for an invoice not reversed.
    method_change: Option<MethodForm>,
    /// The corrected-invoice form, for a reversed invoice not yet replaced.
    reissue: Option<super::invoice_reissue::ReissueForm>,
    /// The corrected invoice replacing this one: (id, "Replaced by invoice …").
    replaced: Option<(String, String)>,
    problem: Option<String>,
}

/// The reverse-with-a-credit-note form.
struct CreditForm {
    /// Open when the form came back refused.
    open: bool,
    reason: String,
    reason_error: Option<String>,
    confirm_label: String,
    confirm_error: Option<String>,
}

/// The change-of-payment-method form.
struct MethodForm {
    /// Open when the form came back refused.
    open: bool,
    methods: Vec<(String, String)>,
    method: String,
    error: Option<String>,
    /// What the fiscal system makes of it, when there is one.
    hint: Option<String>,
}

/// What was typed into the page's forms, when one came back refused.
#[derive(Default)]
pub(super) struct Typed {
    /// The payment form: amount and method.
    pub pay: Option<(String, String)>,
    /// The credit-note form: the reason.
    pub credit: Option<String>,
    /// The change-of-payment-method form: the method.
    pub method: Option<String>,
    /// The corrected-invoice form: its fields.
    pub reissue: Option<std::collections::HashMap<String, String>>,
}

/// The record-a-payment form (on a credit note, record-a-refund).
struct PayForm {
    refund: bool,
    amount: String,
    amount_error: Option<String>,
    methods: Vec<(String, String)>,
    method: String,
    method_error: Option<String>,
}

fn rate(bp: i64) -> String {
    if bp % 100 == 0 {
        format!("{} %", bp / 100)
    } else {
        format!("{}.{:02} %", bp / 100, bp % 100)
    }
}

/// The fiscal QR code as an inline SVG.
fn qr_svg(payload: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(payload, qrcode::EcLevel::M).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build();
    // Inline in HTML, the XML declaration has no place.
    Some(match svg.find("<svg") {
        Some(i) => svg[i..].to_string(),
        None => svg,
    })
}

/// An address as printed: the street lines, then postal code, town and region, then the
/// country.
fn address_lines(a: &crate::model::Address) -> Vec<String> {
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

/// The first error on `field`, in words.
fn error_on(t: &T, errors: &[FieldError], field: &str) -> Option<String> {
    errors
        .iter()
        .find(|e| e.field == field)
        .map(|e| super::rules::say(t, e))
}

/// The invoice page; `outcome` carries a refused form's errors and what was typed.
pub(super) async fn render(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    id: String,
    receipt: bool,
    typed: &Typed,
    outcome: Outcome,
) -> Response {
    let Outcome {
        status,
        errors,
        problem,
    } = outcome;
    let t = shell.t;
    let v = match desk_views::invoice(&state.svc, &s.principal, id.clone()).await {
        Ok(v) => v,
        Err(e) => return failed_read(&t, &e, "not-found-invoice", ("/", "back-to-today")),
    };
    let inv = &v.invoice;
    let cur = &inv.currency;
    let owed = v.due;
    let refund = inv.kind == InvoiceKind::CreditNote;
    let mut facts = vec![(t.t("invoice-date"), t.date(inv.issue_date.0))];
    if let Some((_, time)) = crate::clock::local_time(&inv.issued_at.0, &s.time_zone) {
        facts.push((t.t("invoice-time"), time.format("%H:%M").to_string()));
    }
    if let Some(mark) = &inv.operator_mark {
        facts.push((t.t("invoice-operator"), mark.clone()));
    }
    facts.extend([(
        t.t("field-status"),
        t.t(&format!("invoice-status-{}", inv.status.as_str())),
    )]);
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
        if inv.paid_amount != 0 || owed > 0 {
            facts.push((t.t("invoice-refunded"), t.money(-inv.paid_amount, cur)));
        }
    } else {
        facts.push((t.t("invoice-paid"), t.money(inv.paid_amount, cur)));
    }
    if owed > 0 {
        let key = if refund {
            "invoice-to-refund"
        } else {
            "invoice-owed"
        };
        facts.push((t.t(key), t.money(owed, cur)));
    }
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
    let f = &inv.fiscal;
    let fiscal = super::invoice_fiscal::rows(&t, f);
    let may_write = s.principal.scopes.contains(Scope::InvoicesWrite);
    let payment = (owed > 0 && inv.status == InvoiceStatus::Issued && may_write).then(|| PayForm {
        refund,
        amount: typed.pay.as_ref().map_or_else(
            || format!("{}.{:02}", owed / 100, owed % 100),
            |(a, _)| a.clone(),
        ),
        amount_error: typed.pay.as_ref().and(error_on(&t, &errors, "amount")),
        methods: super::check_out::methods(&t),
        method: typed.pay.as_ref().map_or_else(
            || {
                inv.payment_method
                    .map(|m| m.as_str().to_string())
                    .unwrap_or_default()
            },
            |(_, m)| m.clone(),
        ),
        method_error: typed
            .pay
            .as_ref()
            .and(error_on(&t, &errors, "method"))
            .map(|_| t.t("error-payment-method")),
    });
    let reversible = inv.kind == InvoiceKind::Invoice && inv.status != InvoiceStatus::Cancelled;
    let credit = (reversible && may_write).then(|| CreditForm {
        open: typed.credit.is_some(),
        reason: typed.credit.clone().unwrap_or_default(),
        reason_error: error_on(&t, &errors, "reason"),
        confirm_label: t.with(
            "credit-note-confirm",
            &[("number", Arg::Text(inv.number.clone()))],
        ),
        confirm_error: error_on(&t, &errors, "confirm"),
    });
    let changeable = inv.status != InvoiceStatus::Cancelled && inv.payment_method.is_some();
    let method_change = (changeable && may_write).then(|| MethodForm {
        open: typed.method.is_some(),
        methods: super::check_out::methods(&t),
        method: typed.method.clone().unwrap_or_else(|| {
            inv.payment_method
                .map(|m| m.as_str().to_string())
                .unwrap_or_default()
        }),
        error: typed
            .method
            .as_ref()
            .and(error_on(&t, &errors, "payment_method"))
            .map(|_| t.t("error-payment-method")),
        hint: (f.scheme == "hr-cis" && f.status != crate::domain::enums::FiscalStatus::NotRequired)
            .then(|| t.t("payment-method-change-cis")),
    });
    let replaceable = inv.kind == InvoiceKind::Invoice
        && inv.status == InvoiceStatus::Cancelled
        && v.replaced_by.is_none();
    let reissue = (replaceable && may_write)
        .then(|| super::invoice_reissue::form(&t, &inv.bill_to, typed, &errors));
    let replaced = v.replaced_by.clone().map(|(other, number)| {
        (
            other,
            t.with("invoice-replaced-by", &[("number", Arg::Text(number))]),
        )
    });
    let related = v.related.clone().map(|(other, number)| {
        let key = if inv.kind == InvoiceKind::CreditNote {
            "invoice-reverses"
        } else {
            "invoice-reversed-by"
        };
        (other, t.with(key, &[("number", Arg::Text(number))]))
    });
    let body = InvoicePage {
        // In Italy a stay settled at the cash register is certified by its receipt: the
        // hotel's own copy is a bill, never called an invoice.
        title: t.with(
            &match (f.scheme.as_str(), inv.kind) {
                (crate::compliance::rt::NAME, InvoiceKind::Invoice) => {
                    "invoice-title-bill".to_string()
                }
                (_, kind) => format!("invoice-title-{}", kind.as_str()),
            },
            &[("number", Arg::Text(inv.number.clone()))],
        ),
        id,
        receipt,
        property: v.property.clone(),
        seller,
        facts,
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
        einvoice: inv.fiscal.einvoice.is_some(),
        fiscal,
        qr: f.qr_payload.as_deref().and_then(qr_svg),
        stay: v.stay.clone(),
        related,
        pay: payment,
        credit,
        method_change,
        reissue,
        replaced,
        problem,
        shell,
    };
    page(status, &body)
}

/// `GET /invoices/{id}` (`?layout=receipt` for the 80 mm receipt).
#[handler]
pub async fn invoice(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::INVOICES).await);
    let receipt = req
        .uri()
        .query()
        .is_some_and(|q| q.split('&').any(|kv| kv == "layout=receipt"));
    let shell = Shell::new(&s, t, "invoices").after(req);
    render(
        &state,
        &s,
        shell,
        id,
        receipt,
        &Typed::default(),
        Outcome::fresh(),
    )
    .await
}
