//! Grants that involve a person: staff login, authorization codes (with PKCE), and the
//! device flow (RFC 8628).

use std::time::Duration;

use serde_json::{Value, json};

use super::grants::{Family, TokenResponse, grant_scope, new_refresh};
use super::{OAuthError, at};
use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::auth::throttle::Who;
use crate::clock::format_instant;
use crate::db::Db;
use crate::domain::scopes::ScopeSet;
use crate::error::{AppError, AppResult, Kind};
use crate::store::{self, clients::Client, clients::User, grants::AuthCode, grants::DeviceCode};

/// Authorization codes live this long.
pub const CODE_TTL: Duration = Duration::from_secs(60);
/// Device codes live this long.
pub const DEVICE_TTL: Duration = Duration::from_secs(600);
/// Devices poll at most this often (seconds); `slow_down` adds 5.
pub const DEVICE_INTERVAL: i64 = 5;

/// The query of `GET /oauth/authorize`, also posted back by the login form.
#[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
pub struct AuthorizeParams {
    /// Must be `code`.
    pub response_type: Option<String>,
    /// The client.
    pub client_id: Option<String>,
    /// One of the client's registered URIs, exactly.
    pub redirect_uri: Option<String>,
    /// Requested scopes.
    pub scope: Option<String>,
    /// Opaque client state, returned as given.
    pub state: Option<String>,
    /// PKCE challenge.
    pub code_challenge: Option<String>,
    /// Must be `S256`.
    pub code_challenge_method: Option<String>,
}

/// A checked authorization request.
#[derive(Debug, Clone)]
pub struct AuthorizeRequest {
    /// The client asking.
    pub client: Client,
    /// Where to send the answer.
    pub redirect_uri: String,
    /// What it asks for.
    pub scope: ScopeSet,
    /// Its state.
    pub state: Option<String>,
    /// PKCE challenge.
    pub code_challenge: String,
}

/// Why an authorization request cannot go on.
#[derive(Debug)]
pub enum AuthorizeError {
    /// The redirect URI cannot be trusted: tell the person on the page.
    Page(String),
    /// Send the error back to the client (RFC 6749 section 4.1.2.1).
    Redirect(String),
}

/// `redirect_uri` with query parameters appended.
pub fn redirect_with(uri: &str, params: &[(&str, &str)]) -> String {
    let query = serde_urlencoded::to_string(params).unwrap_or_default();
    let sep = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{sep}{query}")
}

fn redirect_error(
    uri: &str,
    state: &Option<String>,
    error: &str,
    description: &str,
) -> AuthorizeError {
    let mut p = vec![("error", error), ("error_description", description)];
    if let Some(s) = state {
        p.push(("state", s));
    }
    AuthorizeError::Redirect(redirect_with(uri, &p))
}

/// Checks an authorization request. Client and redirect URI problems are shown on the page;
/// once the redirect URI is trusted, other problems are redirected to it.
pub async fn check_authorize(
    db: &Db,
    p: &AuthorizeParams,
) -> Result<AuthorizeRequest, AuthorizeError> {
    let Some(client_id) = p.client_id.clone().filter(|c| !c.is_empty()) else {
        return Err(AuthorizeError::Page(
            "The application did not say who it is (client_id is missing).".into(),
        ));
    };
    let client = db
        .read(move |c| store::clients::get_client(c, &client_id))
        .await
        .map_err(|_| {
            AuthorizeError::Page("The server could not look up the application.".into())
        })?;
    let client = match client {
        Some(c) if c.revoked_at.is_none() && c.grants.iter().any(|g| g == "authorization_code") => {
            c
        }
        _ => {
            return Err(AuthorizeError::Page(
                "This application is not registered for staff sign-in.".into(),
            ));
        }
    };
    let redirect_uri = match &p.redirect_uri {
        Some(uri) if client.redirect_uris.contains(uri) => uri.clone(),
        None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
        _ => {
            return Err(AuthorizeError::Page(
                "The application asked to return to an address it did not register (redirect_uri)."
                    .into(),
            ));
        }
    };
    let fail = |e: &str, d: &str| Err(redirect_error(&redirect_uri, &p.state, e, d));
    if p.response_type.as_deref() != Some("code") {
        return fail("unsupported_response_type", "response_type must be code");
    }
    let Some(challenge) = p
        .code_challenge
        .clone()
        .filter(|c| (43..=128).contains(&c.len()))
    else {
        return fail(
            "invalid_request",
            "PKCE is required: send a code_challenge of 43 to 128 characters",
        );
    };
    if p.code_challenge_method.as_deref() != Some("S256") {
        return fail(
            "invalid_request",
            "code_challenge_method must be S256 (plain is not accepted)",
        );
    }
    let scope = match grant_scope(
        p.scope.as_deref(),
        &ScopeSet::parse(&client.scopes).unwrap_or_default(),
    ) {
        Ok(s) => s,
        Err(e) => return fail("invalid_scope", &e.description),
    };
    Ok(AuthorizeRequest {
        client,
        redirect_uri,
        scope,
        state: p.state.clone(),
        code_challenge: challenge,
    })
}

/// Why a staff sign-in failed.
#[derive(Debug)]
pub enum LoginError {
    /// Wrong name or password, or a disabled account (deliberately the same).
    Invalid,
    /// Too many failures: wait this long.
    Throttled(Duration),
    /// Server trouble.
    Server(AppError),
}

/// Checks a staff member's password; failures are throttled per name and address.
pub async fn login(
    auth: &AuthServer,
    db: &Db,
    username: &str,
    password: &str,
    addr: &str,
) -> Result<User, LoginError> {
    let who = [Who::User(username), Who::Address(addr)];
    auth.throttle.check(&who).map_err(LoginError::Throttled)?;
    let name = username.trim().to_string();
    let user = db
        .read(move |c| store::clients::user_by_name(c, &name))
        .await
        .map_err(LoginError::Server)?;
    let (pw, hash) = (
        password.to_string(),
        user.as_ref().map(|u| u.password_hash.clone()),
    );
    let ok = tokio::task::spawn_blocking(move || {
        secrets::verify_password(&pw, hash.as_deref().unwrap_or(secrets::dummy_hash()))
    })
    .await
    .map_err(|e| LoginError::Server(AppError::internal(e)))?;
    match user {
        Some(u) if ok && u.disabled_at.is_none() => {
            auth.throttle.success(&who);
            Ok(u)
        }
        _ => {
            tokio::time::sleep(auth.throttle.failure(&who)).await;
            Err(LoginError::Invalid)
        }
    }
}

/// After sign-in and consent: stores a code and returns the redirect carrying it.
pub async fn issue_code(
    db: &Db,
    req: &AuthorizeRequest,
    user: &User,
) -> Result<String, AuthorizeError> {
    let granted = req.scope.intersect(&ScopeSet::of(user.role.scopes()));
    if granted.is_empty() {
        return Err(redirect_error(
            &req.redirect_uri,
            &req.state,
            "access_denied",
            "your role cannot grant any of the requested scopes",
        ));
    }
    let code = secrets::token("ac");
    let row = AuthCode {
        code_hash: secrets::token_hash(&code),
        client_id: req.client.id.clone(),
        user_id: user.id.clone(),
        redirect_uri: req.redirect_uri.clone(),
        scope: granted.to_string(),
        code_challenge: req.code_challenge.clone(),
        expires_at: at(CODE_TTL),
        used_at: None,
    };
    db.write(move |tx| store::grants::insert_code(tx, &row))
        .await
        .map_err(|_| {
            redirect_error(
                &req.redirect_uri,
                &req.state,
                "server_error",
                "the code could not be stored",
            )
        })?;
    let mut p = vec![("code", code.as_str())];
    if let Some(s) = &req.state {
        p.push(("state", s));
    }
    Ok(redirect_with(&req.redirect_uri, &p))
}

/// A user code: 8 letters that cannot be confused, shown as `BDKT-QWMX`.
fn user_code() -> String {
    const LETTERS: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";
    let bytes = secrets::random_bytes::<8>();
    let s: String = bytes
        .iter()
        .map(|b| LETTERS[*b as usize % LETTERS.len()] as char)
        .collect();
    format!("{}-{}", &s[..4], &s[4..])
}

/// What a person typed as a user code, normalised (`bdkt qwmx` → `BDKT-QWMX`).
pub fn normalize_user_code(typed: &str) -> String {
    let s: String = typed
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if s.len() == 8 {
        format!("{}-{}", &s[..4], &s[4..])
    } else {
        s
    }
}

/// `POST /oauth/device_authorization`: starts the device flow for a kiosk.
pub async fn start_device(
    db: &Db,
    client: &Client,
    scope: Option<&str>,
    base_url: &str,
) -> Result<Value, OAuthError> {
    if !client.grants.iter().any(|g| g == "device") {
        return Err(OAuthError::new(
            "unauthorized_client",
            "This client is not registered for the device flow.",
        ));
    }
    let scope = grant_scope(scope, &ScopeSet::parse(&client.scopes).unwrap_or_default())?;
    let device_code = secrets::token("dc");
    let code = user_code();
    let row = DeviceCode {
        device_code_hash: secrets::token_hash(&device_code),
        user_code: code.clone(),
        client_id: client.id.clone(),
        scope: scope.to_string(),
        status: "pending".into(),
        subject: None,
        user_id: None,
        granted_scope: None,
        interval_seconds: DEVICE_INTERVAL,
        last_polled_at: None,
        expires_at: at(DEVICE_TTL),
    };
    let now = crate::clock::now_text();
    db.write(move |tx| store::grants::insert_device(tx, &row, &now))
        .await?;
    Ok(json!({
        "device_code": device_code,
        "user_code": code,
        "verification_uri": format!("{base_url}/device"),
        "verification_uri_complete": format!("{base_url}/device?user_code={code}"),
        "expires_in": DEVICE_TTL.as_secs(),
        "interval": DEVICE_INTERVAL,
    }))
}

/// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: one poll.
pub async fn poll_device(
    auth: &AuthServer,
    db: &Db,
    client: &Client,
    device_code: &str,
) -> Result<TokenResponse, OAuthError> {
    let (hash, now, client_id) = (
        secrets::token_hash(device_code),
        chrono::Utc::now(),
        client.id.clone(),
    );
    let (family_expires, idle) = auth.refresh_deadlines();
    let outcome = db
        .write(move |tx| {
            let err = |e: &'static str, d: &str| Ok(Err(OAuthError::new(e, d)));
            let now_text = format_instant(now);
            let Some(d) = store::grants::device_by_hash(tx, &hash)? else {
                return err("invalid_grant", "Unknown device code.");
            };
            if d.client_id != client_id {
                return err(
                    "invalid_grant",
                    "This device code was issued to another client.",
                );
            }
            if d.expires_at < now_text {
                return err("expired_token", "The device code has expired; start again.");
            }
            let too_soon = d
                .last_polled_at
                .as_deref()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
                .is_some_and(|last| {
                    (now - last.with_timezone(&chrono::Utc)).num_milliseconds()
                        < d.interval_seconds * 1000
                });
            // slow_down is part of waiting (RFC 8628 3.5); a decided code answers at once.
            let slow = too_soon && d.status == "pending";
            let interval = if slow {
                d.interval_seconds + 5
            } else {
                d.interval_seconds
            };
            store::grants::record_poll(tx, &hash, &now_text, interval)?;
            if slow {
                return err(
                    "slow_down",
                    &format!("Poll at most every {interval} seconds."),
                );
            }
            match d.status.as_str() {
                "pending" => err(
                    "authorization_pending",
                    "Waiting for staff to approve the code.",
                ),
                "denied" => err("access_denied", "Staff denied this device."),
                "used" => err("invalid_grant", "This device code was already exchanged."),
                _ => {
                    store::grants::use_device(tx, &hash)?;
                    let subject = d.subject.clone().unwrap_or_else(|| d.client_id.clone());
                    let scope = d.granted_scope.clone().unwrap_or_default();
                    let refresh = new_refresh(
                        tx,
                        &Family {
                            id: crate::ids::new("fam"),
                            expires_at: family_expires,
                            idle_expires_at: idle,
                            client_id: d.client_id.clone(),
                            subject: subject.clone(),
                            user_id: d.user_id.clone(),
                            scope: scope.clone(),
                        },
                    )?;
                    Ok(Ok((d.client_id, subject, scope, refresh)))
                }
            }
        })
        .await?;
    let (client_id, subject, scope, refresh) = outcome?;
    let scope = ScopeSet::parse(&scope).unwrap_or_default();
    let (access_token, _) = auth.mint(&client_id, &subject, &scope)?;
    Ok(TokenResponse {
        access_token,
        expires_in: auth.access_ttl.as_secs(),
        refresh_token: Some(refresh),
        scope: scope.to_string(),
    })
}

/// Who approves a device.
pub enum Approver {
    /// A staff member on `/device`: grants what their role allows.
    User(User),
    /// An administrator at the command line: grants what the client asked for.
    Cli,
}

/// Approves or denies a pending device authorization.
pub async fn decide_device(
    db: &Db,
    typed_code: &str,
    approver: Approver,
    approve: bool,
) -> AppResult<String> {
    let code = normalize_user_code(typed_code);
    db.write(move |tx| {
        let now = crate::clock::now_text();
        let d = store::grants::device_by_user_code(tx, &code)?
            .filter(|d| d.status == "pending" && d.expires_at >= now)
            .ok_or_else(|| {
                AppError::new(
                    Kind::NotFound,
                    "not_found",
                    format!("No device is waiting with the code {code}; it may have expired."),
                )
            })?;
        let requested = ScopeSet::parse(&d.scope).unwrap_or_default();
        let (subject, user_id, granted) = match &approver {
            Approver::User(u) => (
                u.id.clone(),
                Some(u.id.as_str()),
                requested.intersect(&ScopeSet::of(u.role.scopes())),
            ),
            Approver::Cli => (d.client_id.clone(), None, requested),
        };
        if approve && granted.is_empty() {
            return Err(AppError::conflict(
                "insufficient_role",
                "Your role cannot grant any of the scopes this device asks for.",
            ));
        }
        store::grants::decide_device(tx, &code, approve, &subject, user_id, &granted.to_string())?;
        Ok(granted.to_string())
    })
    .await
}
