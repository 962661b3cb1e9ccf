//! The staff member's own account (`/account/password`): the language of their pages
//! (`/account/language`; the browser's unless they choose), and their password (the one they
//! have, the new one twice; their other sessions end, the one in use stays). Passwords are
//! never written back into a refused form: each field's error says what to type again.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::{DeskSession, DeskState, Outcome, SESSION_COOKIE, Shell, open, open_form, or_answer};
use super::{page, server_error, web};
use crate::auth::secrets;
use crate::i18n::T;
use crate::service::staff::{self, OwnPassword};

/// The fields: (form name, label key, autocomplete).
const FIELDS: &[(&str, &str, &str)] = &[
    ("current", "field-password-current", "current-password"),
    ("new", "field-password-new", "new-password"),
    ("repeat", "field-password-repeat", "new-password"),
];

#[derive(Template)]
#[template(path = "desk/account_password.html")]
struct PasswordForm {
    shell: Shell,
    problem: Option<String>,
    /// (name, label, autocomplete, error).
    fields: Vec<(&'static str, String, &'static str, Option<String>)>,
    /// (tag, name) of the languages, the browser's first (empty tag).
    languages: Vec<(String, String)>,
    language: String,
}

/// The choice of language: the browser's, then each language in its own name.
pub(super) fn languages(t: &T) -> Vec<(String, String)> {
    std::iter::once((String::new(), t.t("language-browser")))
        .chain(
            crate::i18n::Lang::ALL
                .iter()
                .map(|l| (l.tag().to_string(), l.own_name().to_string())),
        )
        .collect()
}

fn render(req: &Request, s: &DeskSession, t: T, outcome: Outcome) -> Response {
    let fields = FIELDS
        .iter()
        .map(|(name, label, auto)| {
            let error = outcome
                .errors
                .iter()
                .find(|e| e.field == *name)
                .map(|e| t.t(&format!("error-password-{}", e.code)));
            (*name, t.t(label), *auto, error)
        })
        .collect();
    let body = PasswordForm {
        problem: outcome.problem,
        fields,
        languages: languages(&t),
        language: s.language.clone().unwrap_or_default(),
        shell: Shell::new(s, t, "account").after(req),
    };
    page(outcome.status, &body)
}

/// `GET /account/password`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ANYONE).await);
    render(req, &s, t, Outcome::fresh())
}

/// `POST /account/password`.
#[handler]
pub async fn change(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<OwnPassword>(req, body, &state, super::ANYONE).await);
    let typed = posted.fields;
    let mine = web::cookie(req, SESSION_COOKIE).map(|c| secrets::token_hash(&c));
    let address = crate::web::remote(req);
    let guard = (&state.auth.throttle, address.as_str());
    match staff::change_own(&state.svc, &s.principal, mine, typed, guard).await {
        Ok(()) => web::redirect(
            StatusCode::SEE_OTHER,
            "/account/password?done=password-changed",
        ),
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len() as i64));
            let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, e.errors, problem);
            render(req, &s, t, outcome)
        }
        Err(e) => server_error(&t, &e),
    }
}

/// The language form.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct LanguageForm {
    /// `en`, `it` or `hr`.
    language: String,
}

/// `POST /account/language`: the language of the staff member's own pages.
#[handler]
pub async fn language(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<LanguageForm>(req, body, &state, super::ANYONE).await);
    let typed = posted.fields.language;
    let me = s.principal.actor.id.clone();
    match staff::set_language(&state.svc, &s.principal, me, &typed).await {
        Ok(()) => web::redirect(
            StatusCode::SEE_OTHER,
            "/account/password?done=language-saved",
        ),
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.t("error-language"));
            render(
                req,
                &s,
                t,
                Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, Vec::new(), problem),
            )
        }
        Err(e) => server_error(&t, &e),
    }
}
