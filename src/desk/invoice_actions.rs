//! What the invoice page's forms do: record a payment (`POST /invoices/{id}/payments`, the
//! use case of `POST /v1/invoices/{id}/payments`) and reverse the invoice in full with a
//! credit note (`POST /invoices/{id}/credit-note`, the use case of `POST /v1/invoices` with
//! `corrects_invoice_id`), and change the payment method it was paid by
//! (`POST /invoices/{id}/payment-method`, the use case of
//! `POST /v1/invoices/{id}/payment-method`). A refused form comes back on the invoice page with each error
//! next to its field and what was typed kept.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::invoice::{Typed, render};
use serde::Deserialize;

use super::posted::ticked;
use super::{DeskSession, DeskState, Outcome, Shell, failed_read, open_form, or_answer};
use crate::domain::enums::PaymentKind;
use crate::domain::money::parse_amount;
use crate::error::{AppError, FieldError, Kind};
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{InvoiceCreate, PaymentInput, PaymentMethodChange};
use crate::service::invoices;
use crate::web;

/// The invoice page again, with the refusal of one of its forms.
async fn again(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    typed: Typed,
    outcome: Outcome,
) -> Response {
    let shell = Shell::new(s, t, "invoices");
    render(state, s, shell, id, false, &typed, outcome).await
}

/// The invoice page again with a use case's refusal: the rules broken next to their
/// fields, a conflict in words; anything else as a failed read.
pub(super) async fn refused(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    typed: Typed,
    e: AppError,
) -> Response {
    let outcome = if !e.errors.is_empty() {
        let problem = t.n("form-errors", e.errors.len() as i64);
        Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, e.errors, Some(problem))
    } else if e.kind == Kind::Conflict {
        Outcome::refused(
            StatusCode::CONFLICT,
            Vec::new(),
            Some(super::rules::detail(&t, &e)),
        )
    } else {
        return failed_read(&t, &e, "not-found-invoice", ("/invoices", "nav-invoices"));
    };
    again(state, s, t, id, typed, outcome).await
}

/// The payment form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PaymentForm {
    /// The amount, as people write amounts (a negative one refunds).
    amount: String,
    /// How it was paid.
    method: String,
}

/// The credit-note form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CreditForm {
    /// Why the invoice is reversed.
    reason: String,
    /// "Yes, reverse it" ticked.
    #[serde(deserialize_with = "ticked")]
    confirm: bool,
}

/// `POST /invoices/{id}/payments`: records a payment.
#[handler]
pub async fn pay(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<PaymentForm>(req, body, &state, super::BILLING).await);
    let PaymentForm { amount, method } = posted.fields;
    let amount = amount.trim().to_string();
    let mut errors = Vec::new();
    let minor = parse_amount(&amount);
    if minor.is_none() {
        errors.push(FieldError::new("amount", "invalid", t.t("error-amount")));
    }
    let input = json!({"amount": minor.map_or(Value::Null, |m| json!(m)), "method": method});
    let parsed = PaymentInput::from_json(&input, "", &mut errors);
    let typed = Typed {
        pay: Some((amount, method)),
        ..Typed::default()
    };
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        errors.retain(|e| !(e.field == "amount" && e.code != "invalid"));
        let problem = t.n("form-errors", errors.len() as i64);
        let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, Some(problem));
        return again(&state, &s, t, id, typed, outcome).await;
    };
    match invoices::pay(&state.svc, &s.principal, id.clone(), input).await {
        Ok(r) => {
            let done = match r.payment.kind {
                PaymentKind::Payment => "paid",
                PaymentKind::Refund => "refunded",
            };
            web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/invoices/{id}?done={done}"),
            )
        }
        Err(e) => refused(&state, &s, t, id, typed, e).await,
    }
}

/// `POST /invoices/{id}/credit-note`: reverses the invoice in full, for the reason given,
/// once the "yes, reverse it" box is ticked; then shows the credit note.
#[handler]
pub async fn credit_note(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<CreditForm>(req, body, &state, super::BILLING).await);
    let form = posted.fields;
    let reason = form.reason.trim().to_string();
    let typed = Typed {
        credit: Some(reason.clone()),
        ..Typed::default()
    };
    let mut errors = Vec::new();
    let input = json!({
        "corrects_invoice_id": id,
        "reason": (!reason.is_empty()).then_some(&reason),
    });
    let parsed = InvoiceCreate::from_json(&input, "", &mut errors);
    if reason.is_empty() {
        errors.retain(|e| e.field != "reason");
        errors.push(FieldError::new("reason", "required", t.t("error-reason")));
    }
    if !form.confirm {
        errors.push(FieldError::new("confirm", "required", t.t("error-confirm")));
    }
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        let problem = t.n("form-errors", errors.len() as i64);
        let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, Some(problem));
        return again(&state, &s, t, id, typed, outcome).await;
    };
    match invoices::create(&state.svc, &s.principal, input).await {
        Ok(credit) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/invoices/{}?done=credited", credit.id),
        ),
        Err(e) => refused(&state, &s, t, id, typed, e).await,
    }
}

/// The change-of-payment-method form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct MethodForm {
    /// The method it was really paid by.
    payment_method: String,
}

/// `POST /invoices/{id}/payment-method`: changes the payment method the invoice says.
#[handler]
pub async fn payment_method(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<MethodForm>(req, body, &state, super::BILLING).await);
    let method = posted.fields.payment_method;
    let typed = Typed {
        method: Some(method.clone()),
        ..Typed::default()
    };
    let mut errors = Vec::new();
    let input = json!({ "payment_method": method });
    let Some(input) = PaymentMethodChange::from_json(&input, "", &mut errors) else {
        let problem = t.n("form-errors", errors.len() as i64);
        let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, Some(problem));
        return again(&state, &s, t, id, typed, outcome).await;
    };
    match crate::service::payment_method::change(
        &state.svc,
        &s.principal,
        id.clone(),
        input.payment_method,
    )
    .await
    {
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/invoices/{id}?done=payment-method-changed"),
        ),
        Err(e) => refused(&state, &s, t, id, typed, e).await,
    }
}

/// `GET /invoices/{id}/einvoice.xml`: the invoice's e-invoice as issued, to download (the use
/// case of `GET /v1/invoices/{id}/einvoice.xml`).
#[handler]
pub async fn einvoice(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(super::open(req, &state, super::INVOICES).await);
    match crate::service::einvoices::einvoice(&state.svc, &s.principal, id).await {
        Ok((number, document, _)) => {
            let name = number.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_");
            Response::builder()
                .status(StatusCode::OK)
                .content_type("application/xml; charset=utf-8")
                .header(
                    "content-disposition",
                    format!("attachment; filename=\"{name}.xml\""),
                )
                .header("cache-control", "no-store")
                .body(document)
        }
        Err(e) => failed_read(&t, &e, "einvoice-missing", ("/", "back-to-today")),
    }
}
