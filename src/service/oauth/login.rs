//! Grants that involve a person: staff login, authorization codes (with PKCE), and the
//! device flow (RFC 8628).

use crate::domain::said::Said;
use std::time::Duration;

use super::at;
use super::grants::grant_scope;
use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::auth::throttle::Who;
use crate::domain::scopes::Grant;
use crate::domain::scopes::ScopeSet;
use crate::error::AppError;
use crate::service::Services;
use crate::store::{self, clients::Client, clients::User, grants::AuthCode};

/// Authorization codes live this long.
pub const CODE_TTL: Duration = Duration::from_secs(60);

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
    /// The redirect URI cannot be trusted: tell the person on the page (in the page's
    /// language).
    Page(Said),
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
    svc: &Services,
    p: &AuthorizeParams,
) -> Result<AuthorizeRequest, AuthorizeError> {
    let db = svc.db();
    let Some(client_id) = p.client_id.clone().filter(|c| !c.is_empty()) else {
        return Err(AuthorizeError::Page(Said::plain("problem-no-client-id")));
    };
    let client = db
        .read(move |c| store::clients::get_client(c, &client_id))
        .await
        .map_err(|_| AuthorizeError::Page(Said::plain("problem-client-lookup")))?;
    let client = match client {
        Some(c) if c.revoked_at.is_none() && Grant::AuthorizationCode.among(&c.grants) => c,
        _ => {
            return Err(AuthorizeError::Page(Said::plain("problem-not-for-staff")));
        }
    };
    let redirect_uri = match &p.redirect_uri {
        Some(uri) if client.redirect_uris.contains(uri) => uri.clone(),
        None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
        _ => {
            return Err(AuthorizeError::Page(Said::plain(
                "problem-redirect-unknown",
            )));
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
    svc: &Services,
    username: &str,
    password: &str,
    addr: &str,
) -> Result<User, LoginError> {
    let db = svc.db();
    let who = [Who::User(username), Who::Address(addr)];
    auth.throttle.check(&who).map_err(LoginError::Throttled)?;
    let name = crate::auth::throttle::canonical_username(username);
    let typed = username.trim().to_string();
    let user = db
        .read(move |c| {
            // A name stored before names were made canonical is found as it was typed.
            match store::clients::user_by_name(c, &name)? {
                None if typed != name => store::clients::user_by_name(c, &typed),
                found => Ok(found),
            }
        })
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
    svc: &Services,
    req: &AuthorizeRequest,
    user: &User,
) -> Result<String, AuthorizeError> {
    let db = svc.db();
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
