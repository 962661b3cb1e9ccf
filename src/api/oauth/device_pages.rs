//! Device approval at `/device` (RFC 8628): staff type the code a device shows; the page then
//! says which client asks and each permission in words, with a warning, and only then asks
//! them to sign in and approve or deny. Look-ups are limited per address.

use std::collections::HashMap;
use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};

use super::endpoints::{OAuthState, remote};
use super::pages::{csrf_ok, form, message, page, throttled, words};
use crate::auth::secrets;
use crate::desk::rules;
use crate::domain::scopes::Scope;
use crate::i18n::T;
use crate::service::oauth::{self, Approver, LoginError, WaitingDevice};
use crate::templates;

fn device_page(
    t: T,
    code: &str,
    asking: Option<&WaitingDevice>,
    username: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Response {
    let csrf = secrets::token("csrf");
    let asking = asking.map(|w| {
        let scopes = w
            .scope
            .iter()
            .map(|s: Scope| (s.as_str(), rules::scope_words(&t, s)))
            .collect();
        (
            w.client_name.clone(),
            w.client_id == crate::service::kiosk::CLIENT_ID,
            scopes,
        )
    });
    let device = templates::Device {
        t,
        csrf: &csrf,
        user_code: code,
        username,
        error,
        asking,
    };
    page(status, &device, Some(&csrf))
}

/// `GET /device`: where staff enter a device's code; with a code that a device is waiting
/// with, the page says which client asks and what for, and only then asks for a sign-in.
#[handler]
pub async fn device_form(
    req: &Request,
    Query(q): Query<HashMap<String, String>>,
    state: Data<&Arc<OAuthState>>,
) -> Response {
    let t = words(req);
    let typed = q.get("user_code").map(String::as_str).unwrap_or("");
    if typed.trim().is_empty() {
        return device_page(t, "", None, "", None, StatusCode::OK);
    }
    // A look-up tells whether a code is waiting: limited per address (RFC 8628 section 5.1).
    if let Err(wait) = state.auth.flood.admit(&remote(req)) {
        return throttled(t, wait, "oauth-approval-paused");
    }
    match oauth::waiting_device(&state.svc, typed).await {
        Ok(Some(w)) => device_page(t, &w.code.clone(), Some(&w), "", None, StatusCode::OK),
        Ok(None) => {
            let unknown = t.t("client-device-unknown");
            device_page(t, typed, None, "", Some(&unknown), StatusCode::NOT_FOUND)
        }
        Err(e) => {
            tracing::error!(error = %e, "device look-up failed");
            let broken = t.t("oauth-password-unchecked");
            device_page(
                t,
                typed,
                None,
                "",
                Some(&broken),
                StatusCode::INTERNAL_SERVER_ERROR,
            )
        }
    }
}

/// `POST /device`: signs the staff member in and approves or denies the device they were
/// shown.
#[handler]
pub async fn device_submit(req: &Request, body: Body, state: Data<&Arc<OAuthState>>) -> Response {
    let t = words(req);
    let Some(f) = form(body).await else {
        let unreadable = t.t("oauth-device-unreadable");
        return device_page(t, "", None, "", Some(&unreadable), StatusCode::BAD_REQUEST);
    };
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let (code, username) = (get("user_code"), get("username"));
    let waiting = match oauth::waiting_device(&state.svc, &code).await {
        Ok(Some(w)) => w,
        Ok(None) => {
            let unknown = t.t("client-device-unknown");
            return device_page(t, &code, None, "", Some(&unknown), StatusCode::NOT_FOUND);
        }
        Err(e) => {
            tracing::error!(error = %e, "device look-up failed");
            let broken = t.t("oauth-password-unchecked");
            return device_page(
                t,
                &code,
                None,
                "",
                Some(&broken),
                StatusCode::INTERNAL_SERVER_ERROR,
            );
        }
    };
    let again = |t: T, error: String, status: StatusCode| {
        device_page(
            t,
            &waiting.code,
            Some(&waiting),
            &username,
            Some(&error),
            status,
        )
    };
    if !csrf_ok(req, &f) {
        let expired = t.t("oauth-device-expired");
        return again(t, expired, StatusCode::FORBIDDEN);
    }
    let user = match oauth::login(
        &state.auth,
        &state.svc,
        &username,
        &get("password"),
        &remote(req),
    )
    .await
    {
        Ok(u) => u,
        Err(LoginError::Invalid) => {
            let wrong = t.t("oauth-wrong-password");
            return again(t, wrong, StatusCode::UNAUTHORIZED);
        }
        Err(LoginError::Throttled(wait)) => return throttled(t, wait, "oauth-approval-paused"),
        Err(LoginError::Server(e)) => {
            tracing::error!(error = %e, "device approval failed");
            let broken = t.t("oauth-password-unchecked");
            return again(t, broken, StatusCode::INTERNAL_SERVER_ERROR);
        }
    };
    let approve = get("decision") != "deny";
    match oauth::decide_device(&state.svc, &waiting.code, Approver::User(user), approve).await {
        Ok(_) if approve => message(
            t,
            StatusCode::OK,
            &t.t("oauth-device-approved-title"),
            &t.t("oauth-device-approved"),
            true,
        ),
        Ok(_) => message(
            t,
            StatusCode::OK,
            &t.t("oauth-device-denied-title"),
            &t.t("oauth-device-denied"),
            true,
        ),
        Err(e) => {
            let why = rules::detail(&t, &e);
            again(t, why, StatusCode::BAD_REQUEST)
        }
    }
}
