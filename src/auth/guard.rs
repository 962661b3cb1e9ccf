//! The guard of `/v1`: every operation demands a valid access token carrying the scope the
//! OpenAPI document declares for it.
//!
//! The required scopes are read from the finished spec (see `api::spec::RouteTable`), so
//! what integrators read and what is enforced cannot disagree. A missing, malformed,
//! expired, revoked, wrong-audience or wrongly signed token is 401 with
//! `WWW-Authenticate: Bearer error="invalid_token"`; a token without the scope is 403
//! `insufficient_scope` naming it. Unknown routes pass through to their 404.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use poem::http::HeaderValue;
use poem::{Endpoint, IntoResponse, Request, Response};

use super::AuthServer;
use super::tokens::{Invalid, Principal};
use crate::api::edge::RequestId;
use crate::api::problem::render;
use crate::api::spec::{Requirement, RouteTable};
use crate::db::Db;
use crate::domain::scopes::ScopeSet;
use crate::error::{AppError, Kind};

/// Wraps the routes that need a token.
pub struct Guard<E> {
    inner: E,
    auth: Arc<AuthServer>,
    db: Db,
    routes: Arc<RouteTable>,
    last_reload: AtomicI64,
}

impl<E> Guard<E> {
    /// Guards `inner` with the requirements of `routes`.
    pub fn new(inner: E, auth: Arc<AuthServer>, db: Db, routes: Arc<RouteTable>) -> Self {
        Guard {
            inner,
            auth,
            db,
            routes,
            last_reload: AtomicI64::new(0),
        }
    }

    fn refuse(
        &self,
        req: &Request,
        kind: Kind,
        code: &'static str,
        detail: &str,
        challenge: String,
    ) -> Response {
        let id = RequestId::of(req);
        let mut resp = render(&AppError::new(kind, code, detail), &id);
        if let Ok(v) = HeaderValue::from_str(&challenge) {
            resp.headers_mut().insert("www-authenticate", v);
        }
        resp
    }

    fn unauthorized(&self, req: &Request, detail: &str) -> Response {
        let challenge = format!(
            r#"Bearer realm="innkeep", error="invalid_token", error_description="{detail}""#
        );
        self.refuse(req, Kind::Unauthorized, "unauthorized", detail, challenge)
    }

    /// Verifies, reloading the keys once (at most every 5 s) on an unknown `kid`, so that
    /// a rotation by the CLI is picked up.
    async fn verify(&self, token: &str) -> Result<super::tokens::AccessClaims, Invalid> {
        match self.auth.verify(token) {
            Err(Invalid::UnknownKey) => {
                let now = chrono::Utc::now().timestamp();
                let last = self.last_reload.load(Ordering::Relaxed);
                if now - last >= 5
                    && self
                        .last_reload
                        .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                {
                    if let Err(e) = self.auth.keys.reload(&self.db).await {
                        tracing::warn!(error = %e, "could not reload signing keys");
                    }
                    return self.auth.verify(token);
                }
                Err(Invalid::UnknownKey)
            }
            other => other,
        }
    }
}

fn bearer(req: &Request) -> Option<&str> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

impl<E: Endpoint> Endpoint for Guard<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let needed = match self
            .routes
            .requirement(req.method().as_str(), req.uri().path())
        {
            Some(Requirement::Scopes(s)) => s.clone(),
            Some(Requirement::Public) | None => {
                return self.inner.call(req).await.map(IntoResponse::into_response);
            }
        };
        let Some(token) = bearer(&req) else {
            return Ok(self.unauthorized(
                &req,
                "This operation needs an access token: send Authorization: Bearer <token>.",
            ));
        };
        let claims = match self.verify(token).await {
            Ok(c) => c,
            Err(why) => return Ok(self.unauthorized(&req, why.describe())),
        };
        let rate = match crate::service::oauth::standing(
            &self.db,
            &claims.jti,
            &claims.client_id,
            &claims.sub,
        )
        .await
        {
            Ok(Some(rate)) => rate,
            Ok(None) => {
                return Ok(self.unauthorized(
                    &req,
                    "The access token has been revoked, or its client or staff member disabled.",
                ));
            }
            Err(e) => return Err(e.into()),
        };
        let scopes = ScopeSet::parse(&claims.scope).unwrap_or_default();
        let missing: Vec<&str> = needed
            .iter()
            .map(String::as_str)
            .filter(|n| !claims.scope.split(' ').any(|s| s == *n))
            .collect();
        if !missing.is_empty() {
            let scope = needed.join(" ");
            let detail = format!(
                "This operation needs the scope {scope}; the token has: {}.",
                if claims.scope.is_empty() {
                    "none"
                } else {
                    &claims.scope
                }
            );
            let challenge =
                format!(r#"Bearer realm="innkeep", error="insufficient_scope", scope="{scope}""#);
            return Ok(self.refuse(
                &req,
                Kind::Forbidden,
                "insufficient_scope",
                &detail,
                challenge,
            ));
        }
        req.extensions_mut().insert(Principal {
            claims,
            scopes,
            rate,
        });
        self.inner.call(req).await.map(IntoResponse::into_response)
    }
}
