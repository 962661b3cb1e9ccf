//! The token endpoint's grants, and revocation and introspection.

use serde_json::{Value, json};

use super::{OAuthError, at};
use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::auth::throttle::Who;
use crate::auth::tokens::NextToken;
use crate::db::Tx;
use crate::domain::scopes::Grant;
use crate::domain::scopes::ScopeSet;
use crate::error::AppError;
use crate::service::Services;
use crate::store::{self, clients::Client, grants::RefreshToken};

/// A successful token answer (RFC 6749 section 5.1).
#[derive(Debug, Clone)]
pub struct TokenResponse {
    /// The JWT.
    pub access_token: String,
    /// Seconds until it expires.
    pub expires_in: u64,
    /// A refresh token, for the user-facing grants.
    pub refresh_token: Option<String>,
    /// Granted scopes.
    pub scope: String,
}

impl TokenResponse {
    /// The JSON body.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "access_token": self.access_token,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
            "scope": self.scope,
        });
        if let Some(rt) = &self.refresh_token {
            v["refresh_token"] = json!(rt);
        }
        v
    }
}

/// Client credentials as presented (basic or post).
#[derive(Debug, Clone)]
pub struct ClientAuth {
    /// `client_id`.
    pub id: String,
    /// `client_secret`, if any.
    pub secret: Option<String>,
}

/// Authenticates a client; failures are throttled per client and per address.
pub async fn authenticate_client(
    auth: &AuthServer,
    svc: &Services,
    creds: &ClientAuth,
    addr: &str,
) -> Result<Client, OAuthError> {
    let db = svc.db();
    let who = [Who::Client(&creds.id), Who::Address(addr)];
    auth.throttle.check(&who).map_err(OAuthError::throttled)?;
    let id = creds.id.clone();
    let client = db.read(move |c| store::clients::get_client(c, &id)).await?;
    let secret = creds.secret.clone();
    let stored = client.as_ref().and_then(|c| c.secret_hash.clone());
    let public = client.as_ref().is_some_and(|c| c.secret_hash.is_none());
    let secret_ok = tokio::task::spawn_blocking(move || match (stored, secret) {
        (Some(hash), Some(s)) => secrets::verify_password(&s, &hash),
        (None, None) => public,
        (_, s) => {
            // Spend the same time whatever was wrong.
            secrets::verify_password(s.as_deref().unwrap_or(""), secrets::dummy_hash());
            false
        }
    })
    .await
    .map_err(AppError::internal)?;
    match client {
        Some(c) if secret_ok && c.revoked_at.is_none() => {
            auth.throttle.success(&who);
            Ok(c)
        }
        found => {
            tokio::time::sleep(auth.throttle.failure(&who)).await;
            let why = match found {
                Some(c) if c.revoked_at.is_some() => "This client has been revoked.",
                _ => "Unknown client, or wrong client secret.",
            };
            Err(OAuthError::invalid_client(why))
        }
    }
}

fn allowed(client: &Client, grant: Grant) -> Result<(), OAuthError> {
    if grant.among(&client.grants) {
        Ok(())
    } else {
        Err(OAuthError::new(
            "unauthorized_client",
            format!(
                "This client may not use the {grant} grant; it was registered for {}.",
                client.grants.join(", ")
            ),
        ))
    }
}

/// The scopes granted for a request: `requested` (default: all of `limit`) within `limit`.
pub fn grant_scope(requested: Option<&str>, limit: &ScopeSet) -> Result<ScopeSet, OAuthError> {
    let Some(text) = requested.filter(|t| !t.trim().is_empty()) else {
        return Ok(limit.clone());
    };
    let wanted = ScopeSet::parse(text).map_err(|unknown| {
        OAuthError::new(
            "invalid_scope",
            format!("Unknown scopes: {}.", unknown.join(", ")),
        )
    })?;
    if !limit.covers(&wanted) {
        return Err(OAuthError::new(
            "invalid_scope",
            format!("The scopes may be at most: {limit}."),
        ));
    }
    Ok(wanted)
}

fn client_scopes(client: &Client) -> ScopeSet {
    ScopeSet::parse(&client.scopes).unwrap_or_default()
}

/// Where a new refresh token belongs.
pub(super) struct Family {
    /// The family id (a login; for the code flow, the code's hash).
    pub id: String,
    /// When the family dies.
    pub expires_at: String,
    /// When a token unused from now dies.
    pub idle_expires_at: String,
    /// The client.
    pub client_id: String,
    /// The `sub` of its access tokens.
    pub subject: String,
    /// The staff member, if a person signed in.
    pub user_id: Option<String>,
    /// Granted scopes.
    pub scope: String,
}

/// Stores a new refresh token of a family, and records the access token `next` issued with
/// it under the family (inside the caller's transaction).
pub(super) fn new_refresh(tx: &Tx, f: &Family, next: &Next) -> Result<String, AppError> {
    store::grants::record_access(tx, &next.0, &f.id, &next.1)?;
    let token = secrets::token("rt");
    store::grants::insert_refresh(
        tx,
        &RefreshToken {
            token_hash: secrets::token_hash(&token),
            family_id: f.id.clone(),
            client_id: f.client_id.clone(),
            subject: f.subject.clone(),
            user_id: f.user_id.clone(),
            scope: f.scope.clone(),
            created_at: crate::clock::now_text(),
            idle_expires_at: f.idle_expires_at.clone(),
            family_expires_at: f.expires_at.clone(),
            used_at: None,
            revoked_at: None,
        },
    )?;
    Ok(token)
}

/// An access token's id and expiry, as its login records them.
pub(super) struct Next(pub String, pub String);

impl Next {
    /// What the transaction records of `next`.
    pub(super) fn of(next: &NextToken) -> Next {
        Next(next.jti.clone(), next.expires_text())
    }
}

impl AuthServer {
    /// A new family's expiry instants: (family, idle).
    pub(super) fn refresh_deadlines(&self) -> (String, String) {
        (at(self.refresh_max), at(self.refresh_idle))
    }
}

pub(super) fn respond(
    auth: &AuthServer,
    next: &NextToken,
    client: &str,
    subject: &str,
    scope: &ScopeSet,
    refresh: Option<String>,
) -> Result<TokenResponse, OAuthError> {
    let (access_token, _) = auth.mint_as(next, client, subject, scope)?;
    Ok(TokenResponse {
        access_token,
        expires_in: auth.access_ttl.as_secs(),
        refresh_token: refresh,
        scope: scope.to_string(),
    })
}

/// `grant_type=client_credentials`: a token for the client itself; no refresh token.
pub async fn client_credentials(
    auth: &AuthServer,
    client: &Client,
    scope: Option<&str>,
) -> Result<TokenResponse, OAuthError> {
    allowed(client, Grant::ClientCredentials)?;
    let scope = grant_scope(scope, &client_scopes(client))?;
    respond(
        auth,
        &auth.next_token(),
        &client.id,
        &client.id,
        &scope,
        None,
    )
}

/// `grant_type=authorization_code` with PKCE.
pub async fn exchange_code(
    auth: &AuthServer,
    svc: &Services,
    client: &Client,
    code: &str,
    redirect_uri: Option<&str>,
    verifier: Option<&str>,
) -> Result<TokenResponse, OAuthError> {
    let db = svc.db();
    allowed(client, Grant::AuthorizationCode)?;
    let verifier = verifier
        .ok_or_else(|| OAuthError::new("invalid_request", "code_verifier is required (PKCE)."))?;
    let (hash, now) = (secrets::token_hash(code), crate::clock::now_text());
    let (client_id, redirect, verifier) = (
        client.id.clone(),
        redirect_uri.map(str::to_string),
        verifier.to_string(),
    );
    let (family_expires, idle) = auth.refresh_deadlines();
    let next = auth.next_token();
    let recorded = Next::of(&next);
    let outcome = db
        .write(move |tx| {
            let bad = |d: &str| Ok(Err(OAuthError::new("invalid_grant", d)));
            let Some(c) = store::grants::redeem_code(tx, &hash, &now)? else {
                return bad("Unknown authorization code.");
            };
            if c.used_at.is_some() {
                // A replayed code: revoke what the first exchange issued (RFC 6749 4.1.2).
                store::grants::revoke_family(tx, &c.code_hash, &now)?;
                tracing::warn!(security = true, client = %c.client_id, "authorization code replayed; its tokens were revoked");
                return bad("This authorization code was already used.");
            }
            if c.client_id != client_id {
                return bad("This authorization code was issued to another client.");
            }
            if c.expires_at < now {
                return bad("This authorization code has expired.");
            }
            if redirect.as_deref() != Some(c.redirect_uri.as_str()) {
                return bad("redirect_uri does not match the authorization request.");
            }
            if !secrets::pkce_matches(&verifier, &c.code_challenge) {
                return bad("code_verifier does not match the code_challenge.");
            }
            if store::clients::get_user(tx, &c.user_id)?.is_none_or(|u| u.disabled_at.is_some()) {
                return bad("The staff member who signed in has been disabled.");
            }
            let refresh = new_refresh(
                tx,
                &Family {
                    id: c.code_hash.clone(),
                    expires_at: family_expires,
                    idle_expires_at: idle,
                    client_id: c.client_id.clone(),
                    subject: c.user_id.clone(),
                    user_id: Some(c.user_id.clone()),
                    scope: c.scope.clone(),
                },
                &recorded,
            )?;
            Ok(Ok((c, refresh)))
        })
        .await?;
    let (c, refresh) = outcome?;
    let scope = ScopeSet::parse(&c.scope).unwrap_or_default();
    respond(auth, &next, &c.client_id, &c.user_id, &scope, Some(refresh))
}

/// `grant_type=refresh_token`: single use; presenting a used token revokes its family.
pub async fn refresh(
    auth: &AuthServer,
    svc: &Services,
    client: &Client,
    token: &str,
    scope: Option<&str>,
) -> Result<TokenResponse, OAuthError> {
    let db = svc.db();
    let (hash, now, client_id) = (
        secrets::token_hash(token),
        crate::clock::now_text(),
        client.id.clone(),
    );
    let scope = scope.map(str::to_string);
    let idle = at(auth.refresh_idle);
    let next = auth.next_token();
    let recorded = Next::of(&next);
    let outcome = db
        .write(move |tx| {
            let bad = |d: &str| Ok(Err(OAuthError::new("invalid_grant", d)));
            let Some(t) = store::grants::get_refresh(tx, &hash)? else {
                return bad("Unknown refresh token.");
            };
            if t.client_id != client_id {
                return bad("This refresh token was issued to another client.");
            }
            if t.revoked_at.is_some() {
                return bad("This refresh token has been revoked.");
            }
            if t.used_at.is_some() {
                let n = store::grants::revoke_family(tx, &t.family_id, &now)?;
                tracing::warn!(
                    security = true, client = %t.client_id, subject = %t.subject, family = %t.family_id, revoked = n,
                    "refresh token reuse detected; the whole login was revoked"
                );
                return bad("This refresh token was already used; every token of this login has been revoked.");
            }
            if t.idle_expires_at < now || t.family_expires_at < now {
                return bad("This refresh token has expired; sign in again.");
            }
            if let Some(user) = &t.user_id
                && store::clients::get_user(tx, user)?.is_none_or(|u| u.disabled_at.is_some())
            {
                return bad("The staff member of this login has been disabled.");
            }
            let granted = match grant_scope(scope.as_deref(), &ScopeSet::parse(&t.scope).unwrap_or_default()) {
                Ok(s) => s,
                Err(e) => return Ok(Err(e)),
            };
            store::grants::use_refresh(tx, &hash, &now)?;
            let token = new_refresh(
                tx,
                &Family {
                    id: t.family_id.clone(),
                    expires_at: t.family_expires_at.clone(),
                    idle_expires_at: idle,
                    client_id: t.client_id.clone(),
                    subject: t.subject.clone(),
                    user_id: t.user_id.clone(),
                    scope: t.scope.clone(),
                },
                &recorded,
            )?;
            Ok(Ok((t, granted, token)))
        })
        .await?;
    let (t, granted, new_token) = outcome?;
    respond(
        auth,
        &next,
        &t.client_id,
        &t.subject,
        &granted,
        Some(new_token),
    )
}
