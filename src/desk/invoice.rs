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
    let owed = v.due;
    let refund = inv.kind == InvoiceKind::CreditNote;
    let printed = crate::printed::invoice(&t, inv, &v.property, owed, &s.time_zone);
    let f = &inv.fiscal;
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
        title: printed.title,
        id,
        receipt,
        property: printed.property,
        seller: printed.seller,
        facts: printed.facts,
        bill_to: printed.bill_to,
        lines: printed.lines,
        taxes: printed.taxes,
        total: printed.total,
        einvoice: printed.einvoice,
        fiscal: printed.fiscal,
        qr: printed.qr.as_deref().and_then(qr_svg),
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
