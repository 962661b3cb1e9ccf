//! Staff pages: sign-in and consent at `/oauth/authorize`, device approval at `/device`.
//!
//! Rendered from askama templates (`assets/templates/`, escaped by default), with CSRF protection (a random token in a `SameSite=Strict`,
//! `HttpOnly` cookie that the form must echo), exact redirect URI matching, no framing, and
//! friendly messages instead of JSON errors.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::{HeaderValue, StatusCode};
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};

use super::endpoints::{OAuthState, remote};
use crate::auth::secrets;
use crate::desk::rules;
use crate::domain::scopes::Scope;
use crate::i18n::{Arg, Lang, T};
use crate::service::oauth::{self, AuthorizeError, AuthorizeParams, AuthorizeRequest, LoginError};
use crate::{templates, web};

const STYLE: &str = include_str!("../../../assets/style.css");
const CSRF_COOKIE: &str = "innkeep_csrf";

/// Sends a rendered page with the headers every staff page carries.
pub(super) fn page(status: StatusCode, template: &impl Template, csrf: Option<&str>) -> Response {
    let mut r = templates::render(status, template);
    let h = r.headers_mut();
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    if let Some(cookie) = csrf.and_then(|t| {
        HeaderValue::from_str(&format!(
            "{CSRF_COOKIE}={t}; Path=/; HttpOnly; SameSite=Strict"
        ))
        .ok()
    }) {
        h.insert("set-cookie", cookie);
    }
    r
}

/// The words for the browser's language (nobody is signed in yet on these pages).
pub(super) fn words(req: &Request) -> T {
    T::new(Lang::negotiate(
        req.headers()
            .get("accept-language")
            .and_then(|h| h.to_str().ok()),
    ))
}

pub(super) fn message(t: T, status: StatusCode, title: &str, text: &str, ok: bool) -> Response {
    let m = templates::Message {
        t,
        title,
        message: text,
        ok,
    };
    page(status, &m, None)
}

fn redirect(location: &str) -> Response {
    web::redirect(StatusCode::FOUND, location)
}

/// The CSRF token of the browser's cookie.
fn cookie_csrf(req: &Request) -> Option<String> {
    web::cookie(req, CSRF_COOKIE)
}

pub(super) async fn form(body: Body) -> Option<HashMap<String, String>> {
    web::form(body).await
}

pub(super) fn csrf_ok(req: &Request, form: &HashMap<String, String>) -> bool {
    matches!((cookie_csrf(req), form.get("csrf")), (Some(c), Some(f)) if !c.is_empty() && secrets::constant_time_eq(&c, f))
}

fn login_page(
    t: T,
    hotel: String,
    req: &AuthorizeRequest,
    p: &AuthorizeParams,
    username: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Response {
    let hidden = [
        ("response_type", &p.response_type),
        ("client_id", &p.client_id),
        ("redirect_uri", &p.redirect_uri),
        ("scope", &p.scope),
        ("state", &p.state),
        ("code_challenge", &p.code_challenge),
        ("code_challenge_method", &p.code_challenge_method),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
    .collect();
    let csrf = secrets::token("csrf");
    let login = templates::Login {
        t,
        client_name: &req.client.name,
        hotel,
        first_party: req.client.id == crate::service::desk::CLIENT_ID,
        scopes: req
            .scope
            .iter()
            .map(|s: Scope| (s.as_str(), rules::scope_words(&t, s)))
            .collect(),
        hidden,
        csrf: &csrf,
        username,
        error,
    };
    page(status, &login, Some(&csrf))
}

/// The property's name for the sign-in page (empty if it cannot be read: the page still
/// works).
async fn hotel(state: &OAuthState) -> String {
    crate::service::settings::property_name(&state.svc)
        .await
        .unwrap_or_default()
}

fn authorize_error(t: T, e: AuthorizeError) -> Response {
    match e {
        AuthorizeError::Page(said) => message(
            t,
            StatusCode::BAD_REQUEST,
            &t.t("oauth-link-broken"),
            &said.say(&t),
            false,
        ),
        AuthorizeError::Redirect(location) => redirect(&location),
    }
}

pub(super) fn throttled(t: T, wait: std::time::Duration, title: &str) -> Response {
    let secs = wait.as_secs().max(1);
    let mut r = message(
        t,
        StatusCode::TOO_MANY_REQUESTS,
        &t.t(title),
        &t.with("oauth-throttled", &[("secs", Arg::Num(secs as i64))]),
        false,
    );
    if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
        r.headers_mut().insert("retry-after", v);
    }
    r
}

/// `GET /oauth/authorize`: the sign-in and consent page.
#[handler]
pub async fn authorize_page(
    req: &Request,
    Query(p): Query<AuthorizeParams>,
    state: Data<&Arc<OAuthState>>,
) -> Response {
    let t = words(req);
    match oauth::check_authorize(&state.svc, &p).await {
        Ok(areq) => {
            let hotel = hotel(&state).await;
            login_page(t, hotel, &areq, &p, "", None, StatusCode::OK)
        }
        Err(e) => authorize_error(t, e),
    }
}

/// `POST /oauth/authorize`: signs the staff member in and returns a code to the client.
#[handler]
pub async fn authorize_submit(
    req: &Request,
    body: Body,
    state: Data<&Arc<OAuthState>>,
) -> Response {
    let t = words(req);
    let Some(f) = form(body).await else {
        return message(
            t,
            StatusCode::BAD_REQUEST,
            &t.t("oauth-broken-title"),
            &t.t("oauth-unreadable"),
            false,
        );
    };
    if !csrf_ok(req, &f) {
        return message(
            t,
            StatusCode::FORBIDDEN,
            &t.t("oauth-expired-title"),
            &t.t("oauth-expired"),
            false,
        );
    }
    let get = |k: &str| f.get(k).cloned();
    let p = AuthorizeParams {
        response_type: get("response_type"),
        client_id: get("client_id"),
        redirect_uri: get("redirect_uri"),
        scope: get("scope"),
        state: get("state"),
        code_challenge: get("code_challenge"),
        code_challenge_method: get("code_challenge_method"),
    };
    let areq = match oauth::check_authorize(&state.svc, &p).await {
        Ok(r) => r,
        Err(e) => return authorize_error(t, e),
    };
    if f.get("decision").map(String::as_str) == Some("deny") {
        let mut q = vec![
            ("error", "access_denied"),
            ("error_description", "the staff member denied the request"),
        ];
        if let Some(s) = &areq.state {
            q.push(("state", s));
        }
        return redirect(&oauth::redirect_with(&areq.redirect_uri, &q));
    }
    let username = get("username").unwrap_or_default();
    let password = get("password").unwrap_or_default();
    match oauth::login(&state.auth, &state.svc, &username, &password, &remote(req)).await {
        Ok(user) => match oauth::issue_code(&state.svc, &areq, &user).await {
            Ok(location) => redirect(&location),
            Err(e) => authorize_error(t, e),
        },
        Err(LoginError::Invalid) => login_page(
            t,
            hotel(&state).await,
            &areq,
            &p,
            &username,
            Some(&t.t("oauth-wrong-password")),
            StatusCode::UNAUTHORIZED,
        ),
        Err(LoginError::Throttled(wait)) => throttled(t, wait, "oauth-sign-in-paused"),
        Err(LoginError::Server(e)) => {
            tracing::error!(error = %e, "sign-in failed");
            message(
                t,
                StatusCode::INTERNAL_SERVER_ERROR,
                &t.t("oauth-broken-title"),
                &t.t("oauth-password-unchecked"),
                false,
            )
        }
    }
}

/// `GET /assets/style.css`.
#[handler]
pub fn style() -> Response {
    Response::builder()
        .content_type("text/css; charset=utf-8")
        .header("cache-control", "max-age=3600")
        .body(STYLE)
}
