//! The guard of `/v1`: every operation demands a valid access token carrying the scope the
//! OpenAPI document declares for it.
//!
//! The required scopes are read from the committed spec, the very file served at
//! `/v1/openapi.json` (made into a table at build time), and a test holds that file equal
//! to the code's description of the operations (see `api::spec::RouteTable`), so what
//! integrators read and what is enforced cannot disagree. A missing, malformed, expired, revoked, wrong-audience or wrongly signed token
//! is 401 with `WWW-Authenticate: Bearer error="invalid_token"`; a token without the scope
//! is 403 `insufficient_scope` naming it. Tokens of innkeep's own clients (the desk's and the
//! kiosk's) are refused too: their grants exist only for those pages. Unknown routes pass
//! through to their 404.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use poem::http::HeaderValue;
use poem::{Endpoint, IntoResponse, Request, Response};

use super::endpoints::remote;
use crate::api::edge::{RequestId, problem_response};
use crate::api::limits::{self, Caller, Limits};
use crate::api::problem::render;
use crate::api::spec::{Requirement, RouteTable};
use crate::auth::AuthServer;
use crate::auth::tokens::{Invalid, Verified};
use crate::domain::limits::Rate;
use crate::domain::scopes::ScopeSet;
use crate::error::{AppError, Kind};
use crate::service::Services;

/// Wraps the routes that need a token.
pub struct Guard<E> {
    inner: E,
    auth: Arc<AuthServer>,
    svc: Services,
    routes: Arc<RouteTable>,
    limits: Limits,
    last_reload: AtomicI64,
}

/// What the guard decided about a request that needs a token.
enum Decision {
    /// Let through, acting for this principal.
    Allowed(Verified),
    /// Refused with this answer; `client` when the token was good but lacked a scope.
    Refused {
        answer: Response,
        client: Option<(String, Option<Rate>)>,
    },
}

impl<E> Guard<E> {
    /// Guards `inner` with the requirements of `routes`, and `/v1` with `limits`.
    pub fn new(
        inner: E,
        auth: Arc<AuthServer>,
        svc: Services,
        routes: Arc<RouteTable>,
        limits: Limits,
    ) -> Self {
        Guard {
            inner,
            auth,
            svc,
            routes,
            limits,
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
    async fn verify(&self, token: &str) -> Result<crate::auth::tokens::AccessClaims, Invalid> {
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
                    if let Err(e) =
                        crate::service::oauth::keys::reload(&self.svc, &self.auth.keys).await
                    {
                        tracing::warn!(error = %e, "could not reload signing keys");
                    }
                    // A key may have been withdrawn: verify every token afresh.
                    self.auth.verified.clear();
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

impl<E> Guard<E> {
    /// Checks the token of a request to an operation that needs `needed`.
    async fn decide(&self, req: &Request, needed: &[String]) -> poem::Result<Decision> {
        let refused = |answer| Decision::Refused {
            answer,
            client: None,
        };
        let Some(token) = bearer(req) else {
            return Ok(refused(self.unauthorized(
                req,
                "This operation needs an access token: send Authorization: Bearer <token>.",
            )));
        };
        let claims = match self.verify(token).await {
            Ok(c) => c,
            Err(why) => return Ok(refused(self.unauthorized(req, why.describe()))),
        };
        if crate::service::oauth::first_party(&claims.client_id) {
            return Ok(refused(self.unauthorized(
                req,
                "This token belongs to innkeep's own pages (the front desk or a kiosk) and is not accepted by the API; use a client of your own.",
            )));
        }
        let standing = match crate::service::oauth::standing(
            &self.svc,
            &claims.jti,
            &claims.client_id,
            &claims.sub,
        )
        .await?
        {
            Some(standing) => standing,
            None => {
                return Ok(refused(self.unauthorized(
                    req,
                    "The access token has been revoked, or its client or staff member disabled.",
                )));
            }
        };
        let missing = needed
            .iter()
            .any(|n| !claims.scope.split(' ').any(|s| s == n));
        if missing {
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
            return Ok(Decision::Refused {
                answer: self.refuse(
                    req,
                    Kind::Forbidden,
                    "insufficient_scope",
                    &detail,
                    challenge,
                ),
                client: Some((claims.client_id, standing.rate)),
            });
        }
        let scopes = ScopeSet::parse(&claims.scope).unwrap_or_default();
        Ok(Decision::Allowed(Verified {
            claims,
            rate: standing.rate,
            principal: crate::model::Principal {
                actor: standing.actor,
                scopes,
            },
        }))
    }
}

impl<E: Endpoint> Guard<E> {
    /// The inner answer, with an error rendered here as the edge would render it, so that
    /// error answers get their rate-limit headers too.
    async fn answer(&self, req: Request) -> Response {
        let (method, path, id) = (
            req.method().clone(),
            req.uri().path().to_string(),
            RequestId::of(&req),
        );
        match self.inner.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => problem_response(e, &method, &path, &id),
        }
    }
}

impl<E: Endpoint> Endpoint for Guard<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let limited = limits::applies_to(req.uri().path());
        let needed = match self
            .routes
            .requirement(req.method().as_str(), req.uri().path())
        {
            Some(Requirement::Scopes(s)) => s.clone(),
            Some(Requirement::Public) | None if !limited => {
                return self.inner.call(req).await.map(IntoResponse::into_response);
            }
            Some(Requirement::Public) | None => {
                let caller = Caller::Address(remote(&req));
                let admitted = match self.limits.admit(&req, caller) {
                    Ok(a) => a,
                    Err(too_many) => return Ok(*too_many),
                };
                let mut resp = self.answer(req).await;
                admitted.stamp(&mut resp);
                return Ok(resp);
            }
        };
        let decision = self.decide(&req, &needed).await?;
        let admitted = if limited {
            let caller = match &decision {
                Decision::Allowed(p) => Caller::Client(&p.claims.client_id, p.rate),
                Decision::Refused {
                    client: Some((id, rate)),
                    ..
                } => Caller::Client(id, *rate),
                Decision::Refused { client: None, .. } => Caller::Address(remote(&req)),
            };
            match self.limits.admit(&req, caller) {
                Ok(a) => Some(a),
                Err(too_many) => return Ok(*too_many),
            }
        } else {
            None
        };
        let mut resp = match decision {
            Decision::Refused { answer, .. } => answer,
            Decision::Allowed(principal) => {
                req.extensions_mut().insert(principal);
                self.answer(req).await
            }
        };
        if let Some(a) = admitted {
            a.stamp(&mut resp);
        }
        Ok(resp)
    }
}
