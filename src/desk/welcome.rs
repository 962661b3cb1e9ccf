//! The first-run page (`/welcome`): on a new installation `/` leads here instead of to a
//! sign-in nobody can pass. It asks what `innkeep setup` asks (the hotel, its room types and
//! rooms, the first admin), guarded by the one-time code innkeep prints when it starts, then
//! signs the new admin in through the authorization server, as a sign-in would. Its
//! compliance step is in `welcome_compliance`. The rules
//! are the API's (`service::setup_plan`); every broken one is shown at its field and
//! everything typed but the passwords comes back.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::{DeskState, page, server_error, words};
use crate::error::{FieldError, Kind};
use crate::i18n::T;
use crate::i18n::countries;
use crate::service::setup_plan::{Answers, RoomAnswers, SellerAnswers};
use crate::service::welcome;
use crate::web;

/// Room-type lines the page offers.
const ROOM_LINES: usize = 3;

/// The property's fields: (form name, error path, label key).
const PROPERTY: &[(&str, &str, &str)] = &[
    ("name", "name", "welcome-name"),
    ("country", "country", "welcome-country"),
    ("time_zone", "time_zone", "welcome-time-zone"),
    ("currency", "currency", "welcome-currency"),
    ("tax_rate", "default_tax_rate", "welcome-tax-rate"),
];

/// The seller's fields: (form name, error path, label key).
const SELLER: &[(&str, &str, &str)] = &[
    ("seller_name", "seller.legal_name", "settings-seller-name"),
    (
        "seller_street",
        "seller.address.line1",
        "settings-seller-street",
    ),
    (
        "seller_postal_code",
        "seller.address.postal_code",
        "settings-seller-postal-code",
    ),
    ("seller_city", "seller.address.city", "settings-seller-city"),
    ("seller_vat_id", "seller.vat_id", "settings-seller-vat-id"),
];

/// A room type line's fields: (form suffix, error suffix, label key).
const ROOM: &[(&str, &str, &str)] = &[
    ("code", "code", "welcome-rt-code"),
    ("name", "name", "welcome-rt-name"),
    ("guests", "max_occupancy", "welcome-rt-guests"),
    ("rate", "base_rate", "welcome-rt-rate"),
    ("rooms", "rooms", "welcome-rt-rooms"),
];

/// One input: name, label, value, error, input type.
pub(super) struct Input {
    name: String,
    label: String,
    value: String,
    error: Option<String>,
    kind: &'static str,
}

#[derive(Template)]
#[template(path = "desk/welcome.html")]
struct WelcomePage {
    t: T,
    lang: &'static str,
    problem: Option<String>,
    code: Input,
    property: Vec<Input>,
    seller: Vec<Input>,
    rooms: Vec<Vec<Input>>,
    admin: Vec<Input>,
    /// The compliance step, when the running server can take it.
    compliance: Option<Vec<super::welcome_compliance::Scheme>>,
}

/// Secrets: never shown again.
const SECRETS: &[&str] = &[
    "password",
    "password_again",
    "password_alloggiati",
    "ws_key",
    "evisitor_password",
    "evisitor_api_key",
    "certificate_password",
];

pub(super) fn input(
    t: &T,
    form: &HashMap<String, String>,
    errors: &[FieldError],
    (name, path, label): (String, String, &str),
) -> Input {
    let kind = if SECRETS.contains(&name.as_str()) {
        "password"
    } else if name == "certificate" {
        "file"
    } else if name == "country" {
        "country"
    } else {
        "text"
    };
    Input {
        value: match kind {
            "password" | "file" => String::new(),
            // A code (from `innkeep setup`'s habits, or a stored one) is shown by its name.
            "country" => form.get(&name).map_or_else(String::new, |v| {
                countries::name(t.lang(), v).map_or_else(|| v.clone(), str::to_string)
            }),
            _ => form.get(&name).cloned().unwrap_or_default(),
        },
        error: errors
            .iter()
            .find(|e| e.field == path)
            .map(|e| match e.code {
                "invalid_country" => t.t("error-country"),
                _ => super::rules::say(t, e),
            }),
        label: t.t(label),
        name,
        kind,
    }
}

fn render(
    state: &DeskState,
    t: T,
    status: StatusCode,
    form: &HashMap<String, String>,
    errors: &[FieldError],
) -> Response {
    let field = |name: &str, path: &str, label: &str| {
        input(
            &t,
            form,
            errors,
            (name.to_string(), path.to_string(), label),
        )
    };
    let rooms = (0..ROOM_LINES)
        .map(|i| {
            ROOM.iter()
                .map(|(n, p, l)| field(&format!("rt{i}_{n}"), &format!("room_types[{i}].{p}"), l))
                .collect()
        })
        .collect();
    let body = WelcomePage {
        lang: t.lang().tag(),
        problem: (!errors.is_empty()).then(|| t.n("form-errors", errors.len() as i64)),
        code: field("code", "code", "welcome-code"),
        property: PROPERTY.iter().map(|(n, p, l)| field(n, p, l)).collect(),
        seller: SELLER.iter().map(|(n, p, l)| field(n, p, l)).collect(),
        rooms,
        admin: vec![
            field("admin", "admin", "welcome-username"),
            field("password", "password", "welcome-password"),
            field("password_again", "password_again", "welcome-password-again"),
        ],
        compliance: state
            .welcome
            .schemes()
            .map(|now| super::welcome_compliance::step(&t, &now, form, errors)),
        t,
    };
    page(status, &body)
}

/// `GET /welcome`: the first-run form while the installation is new; otherwise to `/`.
#[handler]
pub async fn page_of(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    if !state.welcome.is_open(&state.svc).await {
        return web::redirect(StatusCode::SEE_OTHER, "/");
    }
    let form = HashMap::from([("admin".to_string(), "admin".to_string())]);
    render(&state, words(req), StatusCode::OK, &form, &[])
}

fn answers_of(form: &HashMap<String, String>) -> Answers {
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    Answers {
        name: get("name"),
        country: countries::code_of(&get("country")).map_or_else(|| get("country"), str::to_string),
        time_zone: get("time_zone"),
        currency: get("currency"),
        tax_rate: get("tax_rate"),
        room_types: (0..ROOM_LINES)
            .map(|i| RoomAnswers {
                code: get(&format!("rt{i}_code")),
                name: get(&format!("rt{i}_name")),
                guests: get(&format!("rt{i}_guests")),
                rate: get(&format!("rt{i}_rate")),
                rooms: get(&format!("rt{i}_rooms")),
            })
            .collect(),
        admin: get("admin"),
        password: get("password"),
        password_again: get("password_again"),
        seller: SellerAnswers {
            legal_name: get("seller_name"),
            street: get("seller_street"),
            postal_code: get("seller_postal_code"),
            city: get("seller_city"),
            vat_id: get("seller_vat_id"),
        },
    }
}

/// `POST /welcome`: sets innkeep up and signs the admin in, or shows the form again.
#[handler]
pub async fn submit(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let t = words(req);
    if !web::same_origin(req) {
        return super::message(
            &t,
            StatusCode::FORBIDDEN,
            &t.t("forbidden-title"),
            &t.t("welcome-other-origin"),
            None,
        );
    }
    let (form, mut files) = web::form_with_files(req, body).await.unwrap_or_default();
    let code = form.get("code").cloned().unwrap_or_default();
    let compliance = super::welcome_compliance::answers_of(&form, files.remove("certificate"));
    let done = state
        .welcome
        .set_up(&state.svc, &code, &answers_of(&form), compliance)
        .await;
    let done = match done {
        Ok(done) => done,
        Err(e) if e.kind == Kind::Conflict => return web::redirect(StatusCode::SEE_OTHER, "/"),
        Err(e) if !e.errors.is_empty() => {
            return render(
                &state,
                t,
                StatusCode::UNPROCESSABLE_ENTITY,
                &form,
                &e.errors,
            );
        }
        Err(e) => return server_error(&t, &e),
    };
    sign_in(&state, &done.admin).await
}

/// Signs the new admin in (see [`welcome::first_sign_in`]); on trouble, the sign-in page.
async fn sign_in(state: &DeskState, admin: &str) -> Response {
    match welcome::first_sign_in(&state.svc, admin).await {
        Ok((to, login_state)) => {
            let mut r = web::redirect(StatusCode::SEE_OTHER, &to);
            if let Ok(v) = super::sign_in::login_cookie(&login_state).parse() {
                r.headers_mut().insert("set-cookie", v);
            }
            r
        }
        Err(e) => {
            tracing::warn!(error = %e, "the new admin could not be signed in; they sign in by hand");
            web::redirect(StatusCode::SEE_OTHER, "/login")
        }
    }
}
