//! The reservation page's own actions: adding a charge to the folio, cancelling, marking a
//! no-show. Each is a plain form post that goes back to the reservation page: with a flash
//! when done, or with the refusal in place (the typed charge kept, each error next to its
//! field) when not. They call the same use cases as `POST /v1/reservations/{id}/charges`
//! and `PUT /v1/reservations/{id}`.

use std::collections::HashMap;
use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::reservation::{Refusal, show};
use serde::Deserialize;

use super::posted::ticked;
use super::{DeskState, Shell, open_form, open_post, or_answer};
use crate::domain::money::parse_amount;
use crate::error::{AppError, FieldError, Kind};
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{ChargeInput, ReservationUpdate};
use crate::service::{IfMatch, charges, party, reservations};
use crate::web;

/// The add-charge form's fields: (form name, label key).
pub const CHARGE_FIELDS: &[(&str, &str)] = &[
    ("description", "field-charge-description"),
    ("quantity", "field-charge-quantity"),
    ("unit_price", "field-charge-price"),
];

/// The form field an API error path names, if the add-charge form has it.
pub fn charge_field(path: &str) -> Option<&'static str> {
    CHARGE_FIELDS
        .iter()
        .map(|(name, _)| *name)
        .find(|name| path == *name)
}

/// A charge as a form types it (the folio's add-charge form, a line of a sale).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ChargeForm {
    /// What was sold.
    pub description: String,
    /// How many.
    pub quantity: String,
    /// The price of one, as people write amounts.
    pub unit_price: String,
    /// The VAT rate in basis points, chosen from the property's list (blank: the usual).
    pub tax_rate: String,
}

impl ChargeForm {
    /// The charge as the API takes it: a price that is not an amount is reported at
    /// `{path}unit_price` in words, a quantity that is not a number is left for the API's
    /// rule to name.
    pub fn request(&self, path: &str, t: &T, errors: &mut Vec<FieldError>) -> Value {
        let unit_price = match parse_amount(self.unit_price.trim()) {
            Some(minor) => json!(minor),
            None => {
                let field = format!("{path}unit_price");
                errors.push(FieldError::new(&field, "invalid", t.t("error-amount")));
                Value::Null
            }
        };
        let quantity = self.quantity.trim();
        let quantity = quantity
            .parse::<i64>()
            .map_or(Value::String(quantity.into()), |n| json!(n));
        let mut line = json!({"description": self.description.trim(), "quantity": quantity,
            "unit_price": unit_price});
        let rate = self.tax_rate.trim();
        if !rate.is_empty() {
            line["tax_rate"] = rate
                .parse::<i64>()
                .map_or(Value::String(rate.into()), |n| json!(n));
        }
        line
    }
}

/// The cancel and no-show forms: the confirmation tick and the version the page showed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct StatusForm {
    /// "Yes, cancel it" ticked.
    #[serde(deserialize_with = "ticked")]
    confirm: bool,
    /// The reservation's version when the page was drawn.
    version: String,
}

/// The reservation page again, refused: `status`, what was typed and why.
pub(super) async fn refuse(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: T,
    id: String,
    status: StatusCode,
    refusal: Refusal,
) -> Response {
    let shell = Shell::new(s, t, "today");
    show(state, s, shell, id, status, refusal).await
}

/// The refusal of a use case's error: rule errors by field, anything else in words.
pub(super) fn refusal_of(e: &AppError, typed: HashMap<String, String>, t: &T) -> Option<Refusal> {
    let problem = match e.kind {
        Kind::Conflict | Kind::PreconditionFailed => {
            if e.kind == Kind::PreconditionFailed {
                t.t("reservation-changed-meanwhile")
            } else {
                super::rules::detail(t, e)
            }
        }
        Kind::Unprocessable | Kind::BadRequest if !e.errors.is_empty() => {
            t.n("form-errors", e.errors.len() as i64)
        }
        _ => return None,
    };
    Some(Refusal {
        typed,
        errors: e.errors.clone(),
        problem: Some(problem),
    })
}

/// `POST /reservations/{id}/charges`: adds a charge to the folio.
#[handler]
pub async fn add_charge(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<ChargeForm>(req, body, &state, super::FRONT_DESK).await);
    let form = posted.typed;
    let mut errors = Vec::new();
    let input = posted.fields.request("", &t, &mut errors);
    let parsed = ChargeInput::from_json(&input, "", &mut errors);
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        errors.retain(|e| !(e.field == "unit_price" && e.code != "invalid"));
        let problem = Some(t.n("form-errors", errors.len() as i64));
        let refusal = Refusal {
            typed: form.clone(),
            errors,
            problem,
        };
        return refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
    };
    match charges::add(&state.svc, &s.principal, id.clone(), input).await {
        Ok(_) => done(&id, "charge-added"),
        Err(e) => match refusal_of(&e, form.clone(), &t) {
            Some(r) => refuse(&state, &s, t, id, status_of(&e), r).await,
            None => super::failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    }
}

/// `POST /reservations/{id}/extras`: adds an extra from the list to the folio.
#[handler]
pub async fn add_extra(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, form) = or_answer!(open_post(req, body, &state, super::FRONT_DESK).await);
    let count = form
        .get("count")
        .map(|c| c.trim())
        .filter(|c| !c.is_empty());
    let input = serde_json::json!({
        "extra_id": form.get("extra_id").cloned().unwrap_or_default(),
        "count": count.map(|c| c.parse::<i64>().map_or(serde_json::json!(c), |n| serde_json::json!(n))),
    });
    let mut errors = Vec::new();
    let Some(order) = crate::model::ExtraOrder::from_json(&input, "", &mut errors) else {
        let refusal = Refusal {
            typed: form.clone(),
            problem: Some(t.n("form-errors", errors.len() as i64)),
            errors,
        };
        return refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
    };
    match crate::service::extras::order(&state.svc, &s.principal, id.clone(), order).await {
        Ok(_) => done(&id, "charge-added"),
        Err(e) => match refusal_of(&e, form.clone(), &t) {
            Some(r) => refuse(&state, &s, t, id, status_of(&e), r).await,
            None => super::failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    }
}

/// `POST /reservations/{id}/companions`: adds a guest to the party (their name and birth
/// date; the rest is asked at check-in).
#[handler]
pub async fn add_companion(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, form) = or_answer!(open_post(req, body, &state, super::CHANGES).await);
    let edit = match super::party_form::edit_of(&[], &form) {
        Ok(edit) if edit.companion.is_some() => Ok(edit),
        Ok(_) => Err(vec![
            FieldError::new("companion.first_name", "required", "is required")
                .said("rule-required", vec![]),
        ]),
        Err(errors) => Err(errors),
    };
    let edit = match edit {
        Ok(edit) => edit,
        Err(errors) => {
            let refusal = Refusal {
                typed: form.clone(),
                problem: Some(t.n("form-errors", errors.len() as i64)),
                errors,
            };
            return refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
        }
    };
    match party::save(&state.svc, &s.principal, id.clone(), edit).await {
        Ok(()) => done(&id, "companion-added"),
        Err(e) => match refusal_of(&e, form.clone(), &t) {
            Some(r) => refuse(&state, &s, t, id, status_of(&e), r).await,
            None => super::failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    }
}

pub(super) fn status_of(e: &AppError) -> StatusCode {
    match e.kind {
        Kind::Conflict | Kind::PreconditionFailed => StatusCode::CONFLICT,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// The redirect back to the reservation page, saying what was done.
pub(super) fn done(id: &str, what: &str) -> Response {
    web::redirect(
        StatusCode::SEE_OTHER,
        &format!("/reservations/{id}?done={what}"),
    )
}

/// `POST /reservations/{id}/cancel` and `/no-show`: the status change, once the staff
/// member has ticked the confirmation.
async fn set_status(
    req: &Request,
    id: String,
    body: Body,
    state: &DeskState,
    status: &str,
    flash: &str,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<StatusForm>(req, body, state, super::CHANGES).await);
    let form = posted.fields;
    if !form.confirm {
        let refusal = Refusal {
            problem: Some(t.t(&format!("confirm-{flash}"))),
            ..Refusal::default()
        };
        return refuse(state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
    }
    let version = form.version.parse().unwrap_or(0);
    let mut errors = Vec::new();
    let Some(input) = ReservationUpdate::from_json(&json!({ "status": status }), "", &mut errors)
    else {
        return super::server_error(&t, &AppError::internal("status input"));
    };
    apply(
        state,
        &s,
        t,
        (id, version),
        input,
        HashMap::new(),
        (flash, None),
    )
    .await
}

/// Applies `input` to the reservation `id` at `version` (`PUT /v1/reservations/{id}`'s use
/// case) and goes back to its page saying `flash`, or shows the refusal with `typed` kept.
pub(super) async fn apply(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: T,
    (id, version): (String, i64),
    input: ReservationUpdate,
    typed: HashMap<String, String>,
    (flash, back): (&str, Option<String>),
) -> Response {
    let if_match = Some(IfMatch::Versions(vec![version]));
    match reservations::update(&state.svc, &s.principal, id.clone(), if_match, input).await {
        Ok(_) => match back {
            Some(page) => web::redirect(StatusCode::SEE_OTHER, &format!("{page}&done={flash}")),
            None => done(&id, flash),
        },
        Err(e) => refused(state, s, t, id, e, typed).await,
    }
}

/// The reservation page again after the use case refused, with `typed` kept; a failure
/// that is not a refusal answered as a failed read.
pub(super) async fn refused(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: T,
    id: String,
    e: AppError,
    typed: HashMap<String, String>,
) -> Response {
    match refusal_of(&e, typed, &t) {
        Some(r) => refuse(state, s, t, id, status_of(&e), r).await,
        None => super::failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    }
}

/// `POST /reservations/{id}/cancel`.
#[handler]
pub async fn cancel(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    set_status(req, id, body, &state, "cancelled", "cancelled").await
}

/// `POST /reservations/{id}/undo-check-in`: a check-in made by mistake taken back, once
/// the staff member has ticked the confirmation.
#[handler]
pub async fn undo_check_in(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<StatusForm>(req, body, &state, super::CHANGES).await);
    if !posted.fields.confirm {
        let refusal = Refusal {
            problem: Some(t.t("confirm-check-in-undone")),
            ..Refusal::default()
        };
        return refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
    }
    let version = posted.fields.version.parse().ok();
    match crate::service::undo_check_in::undo(&state.svc, &s.principal, id.clone(), version).await {
        Ok(_) => done(&id, "check-in-undone"),
        Err(e) => refused(&state, &s, t, id, e, HashMap::new()).await,
    }
}

/// `POST /reservations/{id}/no-show`.
#[handler]
pub async fn no_show(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    set_status(req, id, body, &state, "no_show", "no-show").await
}
