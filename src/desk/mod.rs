//! The front desk: innkeep's own pages for the receptionist (DESK.md), served by the binary.
//!
//! Sign-in is a backend-for-frontend: `/login` starts the authorization code flow with PKCE
//! against innkeep's own `/oauth/authorize`, `/login/callback` exchanges the code in-process
//! and opens a database session behind an `HttpOnly` cookie; the tokens never reach the
//! browser. Every state-changing request must carry the session's CSRF token and come from
//! this server's own origin. Pages call the same use cases as the API, with the staff member
//! as the acting principal; every word comes from the language catalogue (`crate::i18n`).

pub mod guest_edit;
pub mod guests;
pub mod reservation;
pub mod today;

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};

use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::config::desk::Timeouts;
use crate::i18n::{Arg, Lang, T};
use crate::service::Services;
use crate::service::desk::{self, DeskSession, LoginFailed};
use crate::{templates, web};

/// The session cookie.
const SESSION_COOKIE: &str = "innkeep_desk";
/// The cookie that carries a sign-in's state to its callback.
const LOGIN_COOKIE: &str = "innkeep_login";
/// What desk pages may load: only this server's stylesheet (and, later, its own scripts).
const CSP: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const STYLE: &str = include_str!("../../assets/desk.css");

/// What the desk's handlers share.
pub struct DeskState {
    /// The use cases' context.
    pub svc: Services,
    /// The authorization server the desk signs in against.
    pub auth: Arc<AuthServer>,
    /// How long sessions last.
    pub timeouts: Timeouts,
}

/// What every desk page shows around its content: the words, the navigation, who is
/// signed in, and the CSRF token of the sign-out form.
pub struct Shell {
    /// The words.
    pub t: T,
    /// Which navigation entry is this page.
    pub active: &'static str,
    /// "Signed in as …".
    pub who: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// Whether the navigation offers Guests (controls a role may not use are not shown).
    pub guests: bool,
}

impl Shell {
    fn new(s: &DeskSession, t: T, active: &'static str) -> Shell {
        let role = t.t(&format!("role-{}", s.role.as_str()));
        let who = t.with(
            "signed-in-as",
            &[
                ("name", Arg::Text(s.principal.actor.name.clone())),
                ("role", Arg::Text(role)),
            ],
        );
        Shell {
            t,
            active,
            who,
            csrf: s.csrf.clone(),
            guests: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::GuestsRead),
        }
    }
}

/// A page that only says something, with a way on.
#[derive(Template)]
#[template(path = "desk/message.html")]
struct Message<'a> {
    lang: &'static str,
    title: &'a str,
    text: &'a str,
    link: Option<(&'a str, &'a str)>,
}

fn words(req: &Request) -> T {
    T::new(Lang::negotiate(
        req.headers()
            .get("accept-language")
            .and_then(|h| h.to_str().ok()),
    ))
}

/// Renders a desk page with its headers.
fn page(status: StatusCode, template: &impl Template) -> Response {
    let mut r = templates::render(status, template);
    web::secure(&mut r, CSP);
    r
}

fn message(
    t: &T,
    status: StatusCode,
    title: &str,
    text: &str,
    link: Option<(&str, &str)>,
) -> Response {
    page(
        status,
        &Message {
            lang: t.lang().tag(),
            title,
            text,
            link,
        },
    )
}

fn server_error(t: &T, e: &crate::error::AppError) -> Response {
    if e.kind == crate::error::Kind::Forbidden {
        // The use case refused the staff member's role: say so, it is not a breakdown.
        let back = t.t("back-to-today");
        return message(
            t,
            StatusCode::FORBIDDEN,
            &t.t("forbidden-title"),
            &t.t("forbidden"),
            Some(("/", &back)),
        );
    }
    tracing::error!(error = %e, "desk page failed");
    message(
        t,
        StatusCode::INTERNAL_SERVER_ERROR,
        &t.t("server-error-title"),
        &t.t("server-error"),
        None,
    )
}

/// The answer to a failed read: a 404 page saying `missing` (a catalogue key) with a way
/// back to `back` (a path and the key of its label), or the server-error page.
fn failed_read(t: &T, e: &crate::error::AppError, missing: &str, back: (&str, &str)) -> Response {
    if e.kind != crate::error::Kind::NotFound {
        return server_error(t, e);
    }
    let label = t.t(back.1);
    message(
        t,
        StatusCode::NOT_FOUND,
        &t.t("not-found-title"),
        &t.t(missing),
        Some((back.0, &label)),
    )
}

/// The signed-in staff member, or the answer to send instead: a redirect to sign in.
async fn signed_in(req: &Request, state: &DeskState) -> Result<DeskSession, Response> {
    let t = words(req);
    let Some(cookie) = web::cookie(req, SESSION_COOKIE) else {
        return Err(web::redirect(StatusCode::SEE_OTHER, "/login"));
    };
    match desk::session(&state.svc, &cookie, state.timeouts).await {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(web::redirect(StatusCode::SEE_OTHER, "/login")),
        Err(e) => Err(server_error(&t, &e)),
    }
}

/// Checks a state-changing request: same origin, and the session's CSRF token in the form
/// (or the `X-CSRF-Token` header htmx sends). The refusal to send, if any.
fn refused(
    req: &Request,
    s: &DeskSession,
    form: &std::collections::HashMap<String, String>,
) -> Option<Response> {
    let t = words(req);
    let refuse = |text: String| {
        Some(message(
            &t,
            StatusCode::FORBIDDEN,
            &t.t("request-refused-title"),
            &text,
            None,
        ))
    };
    if !web::same_origin(req) {
        return refuse(t.t("request-refused-origin"));
    }
    let sent = form.get("csrf").cloned().or_else(|| {
        req.headers()
            .get("x-csrf-token")
            .and_then(|h| h.to_str().ok())
            .map(str::to_string)
    });
    match sent {
        Some(token) if secrets::constant_time_eq(&token, &s.csrf) => None,
        _ => refuse(t.t("request-refused-csrf")),
    }
}

fn cookie_header(name: &str, value: &str, path: &str, max_age: Option<u64>) -> String {
    let age = max_age
        .map(|s| format!("; Max-Age={s}"))
        .unwrap_or_default();
    format!("{name}={value}; Path={path}; HttpOnly; SameSite=Lax{age}")
}

/// `GET /login`: starts a sign-in (or goes home when already signed in).
#[handler]
pub async fn login(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    if signed_in(req, &state).await.is_ok() {
        return web::redirect(StatusCode::SEE_OTHER, "/");
    }
    let t = words(req);
    match desk::begin_login(&state.svc).await {
        Ok((query, login_state)) => {
            let mut r = web::redirect(StatusCode::SEE_OTHER, &format!("/oauth/authorize?{query}"));
            let max_age = desk::LOGIN_TTL.as_secs();
            if let Ok(v) =
                cookie_header(LOGIN_COOKIE, &login_state, "/login", Some(max_age)).parse()
            {
                r.headers_mut().insert("set-cookie", v);
            }
            r
        }
        Err(e) => server_error(&t, &e),
    }
}

/// The callback's query.
#[derive(Debug, serde::Deserialize)]
pub struct Callback {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// `GET /login/callback`: finishes a sign-in and opens the session.
#[handler]
pub async fn callback(
    req: &Request,
    Query(q): Query<Callback>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let t = words(req);
    let again = t.t("login-again");
    let failed = |text: String| {
        message(
            &t,
            StatusCode::BAD_REQUEST,
            &t.t("login-failed-title"),
            &text,
            Some(("/login", &again)),
        )
    };
    if q.error.is_some() {
        return failed(t.t("login-failed-denied"));
    }
    let (Some(code), Some(login_state)) = (q.code, q.state) else {
        return failed(t.t("login-failed-unknown"));
    };
    let expected = web::cookie(req, LOGIN_COOKIE);
    let opened = desk::finish_login(
        &state.auth,
        &state.svc,
        expected.as_deref(),
        &login_state,
        &code,
        state.timeouts,
    )
    .await;
    match opened {
        Ok(cookie) => {
            let mut r = web::redirect(StatusCode::SEE_OTHER, "/");
            let h = r.headers_mut();
            if let Ok(v) = cookie_header(SESSION_COOKIE, &cookie, "/", None).parse() {
                h.append("set-cookie", v);
            }
            if let Ok(v) = cookie_header(LOGIN_COOKIE, "", "/login", Some(0)).parse() {
                h.append("set-cookie", v);
            }
            r
        }
        Err(LoginFailed::Unknown) => failed(t.t("login-failed-unknown")),
        Err(LoginFailed::Refused(why)) => {
            failed(t.with("login-failed-refused", &[("reason", Arg::Text(why))]))
        }
        Err(LoginFailed::Server(e)) => server_error(&t, &e),
    }
}

/// `POST /logout`: ends the session.
#[handler]
pub async fn logout(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let form = web::form(body).await.unwrap_or_default();
    if let Some(r) = refused(req, &s, &form) {
        return r;
    }
    if let Some(cookie) = web::cookie(req, SESSION_COOKIE)
        && let Err(e) = desk::logout(&state.svc, &cookie).await
    {
        return server_error(&words(req), &e);
    }
    let mut r = web::redirect(StatusCode::SEE_OTHER, "/login");
    if let Ok(v) = cookie_header(SESSION_COOKIE, "", "/", Some(0)).parse() {
        r.headers_mut().insert("set-cookie", v);
    }
    r
}

/// `GET /assets/desk.css`.
#[handler]
pub fn style() -> Response {
    Response::builder()
        .content_type("text/css; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .body(STYLE)
}
