//! The desk's deposits: what a reservation's page says of its deposit, the record-a-deposit
//! form and its handler, and Today's list of deposits due.

use std::sync::Arc;

use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler, http::StatusCode};
use serde::Deserialize;

use super::reservation::Refusal;
use super::{DeskState, open_form, or_answer};
use crate::domain::money::{format_amount, parse_amount};
use crate::domain::reservation::Status;
use crate::error::FieldError;
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{DepositCreate, Reservation};

/// The form as typed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DepositForm {
    /// The amount, as people write amounts.
    amount: String,
    /// `cash`, `card`, ...
    payment_method: String,
}

/// What the reservation page shows of the record-a-deposit form.
pub(super) struct DepositFields {
    /// The amount typed, or what is still due.
    pub amount: String,
    /// What is wrong with it, in words.
    pub error: Option<String>,
    /// (value, label) of the payment methods, and the one chosen.
    pub methods: Vec<(String, String)>,
    /// The method chosen.
    pub method: String,
}

/// The deposit in words, for the page's facts: what is due by when, paid, outstanding,
/// and the advance invoices; none when the reservation has no deposit.
pub fn fact(t: &T, r: &Reservation) -> Option<(String, String)> {
    let d = r.deposit.as_ref()?;
    let money = |m: i64| t.money(m, &r.currency);
    let mut words = Vec::new();
    if let (true, Some(by)) = (d.due > 0, d.due_by) {
        words.push(t.with(
            "offer-deposit",
            &[
                ("amount", Arg::Text(money(d.due))),
                ("day", Arg::Text(t.short_date(by.0))),
            ],
        ));
    }
    words.push(t.with("deposit-paid", &[("amount", Arg::Text(money(d.paid)))]));
    if d.outstanding > 0 {
        words.push(t.with(
            "deposit-outstanding",
            &[("amount", Arg::Text(money(d.outstanding)))],
        ));
    }
    let numbers: Vec<&str> = d.advances.iter().map(|a| a.number.as_str()).collect();
    if !numbers.is_empty() {
        words.push(t.with(
            "deposit-invoices",
            &[("numbers", Arg::Text(numbers.join(", ")))],
        ));
    }
    Some((t.t("field-deposit"), words.join(" · ")))
}

/// The record-a-deposit form, for a confirmed booking (deposits come before arrival).
pub(super) fn form(t: &T, r: &Reservation, refusal: &Refusal) -> Option<DepositFields> {
    if r.status != Status::Confirmed {
        return None;
    }
    let outstanding = r.deposit.as_ref().map_or(0, |d| d.outstanding);
    let typed = |name: &str| refusal.typed.get(&format!("deposit_{name}")).cloned();
    let amount = typed("amount").unwrap_or_else(|| {
        if outstanding > 0 {
            format_amount(outstanding)
        } else {
            String::new()
        }
    });
    let error = refusal
        .errors
        .iter()
        .find(|e| e.field == "amount" || e.field == "deposit_amount")
        .map(|e| super::rules::say(t, e));
    Some(DepositFields {
        amount,
        error,
        methods: super::check_out::methods(t),
        method: typed("payment_method").unwrap_or_else(|| "card".into()),
    })
}

/// `POST /reservations/{id}/deposit`: records a deposit with its advance invoice.
#[handler]
pub async fn record(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<DepositForm>(req, body, &state, super::BILLING).await);
    // The page's fields are named `deposit_…` so that they never meet the charge form's.
    let typed: std::collections::HashMap<String, String> = [
        ("deposit_amount", &posted.fields.amount),
        ("deposit_payment_method", &posted.fields.payment_method),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.clone()))
    .collect();
    let mut errors = Vec::new();
    let amount = match parse_amount(posted.fields.amount.trim()) {
        Some(minor) => serde_json::json!(minor),
        None => {
            errors.push(FieldError::new("amount", "invalid", t.t("error-amount")));
            serde_json::Value::Null
        }
    };
    let input = serde_json::json!({"amount": amount,
        "payment_method": posted.fields.payment_method.trim()});
    let parsed = DepositCreate::from_json(&input, "", &mut errors);
    let refused = |errors: Vec<FieldError>, problem: String| Refusal {
        typed: typed.clone(),
        errors,
        problem: Some(problem),
    };
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        errors.retain(|e| !(e.field == "amount" && e.code != "invalid"));
        let problem = t.n("form-errors", errors.len() as i64);
        let r = refused(errors, problem);
        return super::stay_actions::refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, r)
            .await;
    };
    match crate::service::deposits::record(&state.svc, &s.principal, id.clone(), input).await {
        Ok(_) => crate::web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/reservations/{id}?done=deposit-recorded"),
        ),
        Err(e) => match super::stay_actions::refusal_of(&e, typed.clone(), &t) {
            Some(r) => {
                let status = super::stay_actions::status_of(&e);
                super::stay_actions::refuse(&state, &s, t, id, status, r).await
            }
            None => super::failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    }
}
