//! Signing in and out of the desk (a backend-for-frontend, DESK.md): `/login` starts the
//! authorization code flow with PKCE against innkeep's own `/oauth/authorize`,
//! `/login/callback` exchanges the code in-process and opens a database session behind an
//! `HttpOnly` cookie (the tokens never reach the browser), `/logout` ends it.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};

use super::{
    DeskState, LOGIN_COOKIE, SESSION_COOKIE, message, refused, server_error, signed_in, words,
};
use crate::i18n::Arg;
use crate::service::desk::{self, LoginFailed};
use crate::web;

fn cookie_header(name: &str, value: &str, path: &str, max_age: Option<u64>) -> String {
    let age = max_age
        .map(|s| format!("; Max-Age={s}"))
        .unwrap_or_default();
    format!("{name}={value}; Path={path}; HttpOnly; SameSite=Lax{age}")
}

/// The `Set-Cookie` value that keeps a sign-in's state until its callback.
pub(super) fn login_cookie(login_state: &str) -> String {
    let max_age = desk::LOGIN_TTL.as_secs();
    cookie_header(LOGIN_COOKIE, login_state, "/login", Some(max_age))
}

/// `GET /login`: starts a sign-in (or goes home when already signed in); on a new
/// installation, nobody can sign in yet: the first-run page instead.
#[handler]
pub async fn login(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    if signed_in(req, &state).await.is_ok() {
        return web::redirect(StatusCode::SEE_OTHER, "/");
    }
    if state.welcome.is_open(&state.svc).await {
        return web::redirect(StatusCode::SEE_OTHER, "/welcome");
    }
    let t = words(req);
    match desk::begin_login(&state.svc) {
        Ok((query, login_state)) => {
            let mut r = web::redirect(StatusCode::SEE_OTHER, &format!("/oauth/authorize?{query}"));
            if let Ok(v) = login_cookie(&login_state).parse() {
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
