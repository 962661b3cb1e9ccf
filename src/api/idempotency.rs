//! `Idempotency-Key` on every POST (API.md section 4).
//!
//! The first request with a key claims it; a retry with the same key and body replays the
//! stored answer with `Idempotent-Replayed: true`; a different body is 422
//! `idempotency_key_reused`; a retry while the first still runs is 409
//! `idempotency_in_progress`. The key is marked committed inside the request's own write
//! transaction (through a write hook), so a crash between the commit and storing the answer
//! can never lead to the change being applied twice: such a key answers 409
//! `idempotency_response_lost` instead. Answers that changed nothing and may succeed later
//! (401, 403, 409, 429, 5xx) are not stored, so the client may retry with the same key.

use std::sync::Arc;

use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response};
use sha2::{Digest, Sha256};

use super::edge::{RequestId, problem_response};
use crate::error::{AppError, FieldError, Kind};
use crate::service::Services;
use crate::service::idempotency::{self, Decision};
use crate::store::idempotency as keys;

/// Response headers that are replayed.
const REPLAYED_HEADERS: &[&str] = &["content-type", "etag", "location"];

/// Wraps the API routes.
pub struct Idempotency<E> {
    inner: E,
    svc: Services,
    instance: Arc<str>,
}

impl<E> Idempotency<E> {
    /// `instance` identifies this server process (a dead owner's keys can be taken over).
    pub fn new(inner: E, svc: Services, instance: Arc<str>) -> Self {
        Idempotency {
            inner,
            svc,
            instance,
        }
    }
}

/// The longest key accepted.
const KEY_MAX: usize = 255;

/// The `Idempotency-Key` request header as the OpenAPI document describes it on every POST
/// (the spec finisher adds it): the same rule `key_of` enforces.
pub fn header_parameter() -> serde_json::Value {
    serde_json::json!({
        "in": "header",
        "name": "Idempotency-Key",
        "required": false,
        "deprecated": false,
        "explode": true,
        "description": "Makes retries safe: the same key and body within 24 h replays the first answer.",
        "schema": {"type": "string", "minLength": 1, "maxLength": KEY_MAX, "pattern": r"^[\x20-\x7e]+$"}
    })
}

fn key_of(req: &Request) -> Result<Option<String>, AppError> {
    let Some(v) = req.headers().get("idempotency-key") else {
        return Ok(None);
    };
    match v.to_str() {
        Ok(s)
            if (1..=KEY_MAX).contains(&s.len()) && s.bytes().all(|b| (0x20..0x7f).contains(&b)) =>
        {
            Ok(Some(s.to_string()))
        }
        _ => Err(AppError::bad_request(
            "Idempotency-Key must be 1 to 255 printable ASCII characters.",
        )
        .with_errors(vec![FieldError::new(
            "Idempotency-Key",
            "invalid_header",
            "must be 1 to 255 printable ASCII characters",
        )])),
    }
}

/// Whether an answer is final for this key (replayed to retries).
fn storable(status: StatusCode) -> bool {
    !(status.is_server_error() || [401, 403, 409, 429].contains(&status.as_u16()))
}

fn replay(rec: keys::Record) -> Response {
    let mut b = Response::builder()
        .status(StatusCode::from_u16(rec.status.unwrap_or(200)).unwrap_or(StatusCode::OK));
    for (name, value) in &rec.headers {
        b = b.header(name.as_str(), value.as_str());
    }
    b.header("idempotent-replayed", "true").body(rec.body)
}

impl<E: Endpoint> Endpoint for Idempotency<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        if req.method() != Method::POST || !req.uri().path().starts_with("/v1/") {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        }
        let Some(key) = key_of(&req)? else {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        };
        let request_id = req
            .extensions()
            .get::<RequestId>()
            .map(|r| r.0.clone())
            .unwrap_or_default();
        let (method, path) = (req.method().clone(), req.uri().to_string());
        let body = req.take_body().into_bytes().await?;
        let mut hasher = Sha256::new();
        hasher.update(format!("{method} {path}\n").as_bytes());
        hasher.update(&body);
        let hash = format!("{:x}", hasher.finalize());
        req.set_body(body);
        let scope = super::client_scope(&req);

        let (s, k, h, i) = (scope.clone(), key.clone(), hash, self.instance.to_string());
        match idempotency::claim(&self.svc, s, k, h, i).await? {
            Decision::Replay(rec) => return Ok(replay(rec)),
            Decision::Reused => {
                return Err(AppError::new(
                    Kind::Unprocessable,
                    "idempotency_key_reused",
                    "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
                )
                .into());
            }
            Decision::InProgress => {
                return Err(AppError::conflict(
                    "idempotency_in_progress",
                    "The first request with this Idempotency-Key is still running. Retry in a moment.",
                )
                .into());
            }
            Decision::Lost => {
                return Err(AppError::conflict(
                    "idempotency_response_lost",
                    "The first request with this Idempotency-Key was applied, but the server stopped before storing \
                     its answer. Look the resource up instead of retrying.",
                )
                .into());
            }
            Decision::Proceed => {}
        }

        let call = self.inner.call(req);
        let resp = match idempotency::run_marking(scope.clone(), key.clone(), call).await {
            Ok(r) => r.into_response(),
            Err(e) => problem_response(e, &method, &path, &request_id),
        };
        let status = resp.status();
        let (parts, body) = resp.into_parts();
        let bytes = body.into_vec().await.unwrap_or_default();
        let headers: Vec<(String, String)> = REPLAYED_HEADERS
            .iter()
            .filter_map(|h| {
                parts
                    .headers
                    .get(*h)
                    .and_then(|v| v.to_str().ok())
                    .map(|v| (h.to_string(), v.to_string()))
            })
            .collect();
        let answer = storable(status).then(|| (status.as_u16(), headers, bytes.clone()));
        let outcome = idempotency::settle(&self.svc, scope, key, answer).await;
        if let Err(e) = outcome {
            tracing::error!(error = %e, "could not store the idempotent response");
        }
        let mut resp = Response::from_parts(parts, bytes.into());
        if resp.headers().get("content-type").is_none() {
            resp.headers_mut()
                .insert("content-type", HeaderValue::from_static("application/json"));
        }
        Ok(resp)
    }
}
