//! The edge of every request: request id, body limit, logging, and turning every error,
//! ours or poem's, into problem+json.

use std::sync::Arc;
use std::time::Instant;

use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response};
use tokio::io::AsyncReadExt;
use tracing::Instrument;

use super::metrics::Metrics;
use super::problem::render;
use super::spec::RouteTable;
use crate::error::{AppError, FieldError, Kind};

/// Bodies above this many bytes get 413.
pub const MAX_BODY: usize = 1024 * 1024;

/// The request id, stored in request extensions.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id of `req` (empty before the edge has given it one).
    pub fn of(req: &Request) -> String {
        req.extensions()
            .get::<RequestId>()
            .map(|r| r.0.clone())
            .unwrap_or_default()
    }
}

/// Wraps the whole application.
pub struct Edge<E> {
    inner: E,
    allow: Arc<RouteTable>,
    metrics: Arc<Metrics>,
}

impl<E> Edge<E> {
    /// Wraps `inner`; `allow` answers the `Allow` header of 405s; `metrics` counts answers.
    pub fn new(inner: E, allow: Arc<RouteTable>, metrics: Arc<Metrics>) -> Self {
        Edge {
            inner,
            allow,
            metrics,
        }
    }
}

fn request_id(req: &Request) -> String {
    req.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 200 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(|| crate::ids::new("req"))
}

/// Reads the body up to [`MAX_BODY`], so that later layers can read it again.
async fn limit_body(req: &mut Request) -> Result<(), AppError> {
    let too_large = || {
        AppError::new(
            Kind::PayloadTooLarge,
            "payload_too_large",
            format!("The request body is larger than {MAX_BODY} bytes (1 MiB)."),
        )
    };
    let declared = req
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    req.take_body()
        .into_async_read()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| AppError::bad_request(format!("The request body could not be read: {e}.")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_large());
    }
    req.set_body(bytes);
    Ok(())
}

/// Turns any poem error into our error.
pub fn from_poem(err: poem::Error, method: &Method, path: &str) -> AppError {
    use poem_openapi::error::{ContentTypeError, ParseParamError, ParseRequestPayloadError};
    if let Some(e) = err.downcast_ref::<ParseParamError>() {
        let reason = plain_reason(&e.reason);
        return AppError::bad_request(format!("The {} parameter {reason}.", e.name))
            .with_errors(vec![FieldError::new(e.name, "invalid_parameter", reason)]);
    }
    if err.is::<ContentTypeError>() {
        return AppError::new(
            Kind::UnsupportedMediaType,
            "unsupported_media_type",
            "Send the body as JSON with Content-Type: application/json.",
        );
    }
    if let Some(e) = err.downcast_ref::<ParseRequestPayloadError>() {
        return AppError::bad_request(format!("The request body is invalid: {}.", e.reason));
    }
    match err.status() {
        StatusCode::NOT_FOUND => AppError::new(
            Kind::NotFound,
            "not_found",
            format!("There is nothing at {path}."),
        ),
        StatusCode::METHOD_NOT_ALLOWED => AppError::new(
            Kind::MethodNotAllowed,
            "method_not_allowed",
            format!("{method} is not allowed on {path}."),
        ),
        StatusCode::PAYLOAD_TOO_LARGE => AppError::new(
            Kind::PayloadTooLarge,
            "payload_too_large",
            "The request body is too large.",
        ),
        s if s.is_client_error() => AppError::bad_request(err.to_string()),
        _ => AppError::internal(err.to_string()),
    }
}

/// The pattern of a text parameter without control characters, as poem-openapi reports it.
const CONTROL_FREE: &str = r"^[^\x00-\x1f\x7f]*$";

/// Rewrites poem-openapi's validator messages ("verification failed. minimum(1, exclusive:
/// false)") in plain words.
fn plain_reason(reason: &str) -> String {
    let bound = |name: &str| {
        reason
            .split(&format!("{name}("))
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .map(str::to_string)
    };
    if reason.starts_with("verification failed") {
        if let Some(min) = bound("minimum") {
            return format!("must be at least {min}");
        }
        if let Some(max) = bound("maximum") {
            return format!("must be at most {max}");
        }
        if reason.contains(CONTROL_FREE) {
            return "must not contain control characters".into();
        }
        if let Some(pattern) = reason.split("pattern(").nth(1) {
            let pattern = pattern.trim_end_matches(')').trim_matches('"');
            return format!("must match {pattern} (see the parameter's documentation)");
        }
        if let Some(max) = bound("maxLength") {
            return format!("must be at most {max} characters");
        }
    }
    if reason.contains("failed to parse \"integer") {
        return "must be a whole number".into();
    }
    // `failed to parse "date": must be … (occurred while parsing "optional_date")`
    let inner = reason
        .split_once("\": ")
        .map(|(_, rest)| rest.split(" (occurred while").next().unwrap_or(rest))
        .unwrap_or(reason);
    if inner.starts_with("must ") {
        inner.to_string()
    } else {
        format!("is invalid: {inner}")
    }
}

/// Renders any poem error for a request.
pub fn problem_response(
    err: poem::Error,
    method: &Method,
    path: &str,
    request_id: &str,
) -> Response {
    if let Some(app) = err.downcast_ref::<AppError>() {
        return render(app, request_id);
    }
    render(&from_poem(err, method, path), request_id)
}

impl<E: Endpoint> Endpoint for Edge<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let started = Instant::now();
        let id = request_id(&req);
        let (method, path) = (req.method().clone(), req.uri().path().to_string());
        req.extensions_mut().insert(RequestId(id.clone()));
        let span = tracing::info_span!("request", id = %id, method = %method, path = %path);
        let mut resp = async {
            if let Err(e) = limit_body(&mut req).await {
                return render(&e, &id);
            }
            match self.inner.call(req).await {
                Ok(r) => r.into_response(),
                Err(e) => problem_response(e, &method, &path, &id),
            }
        }
        .instrument(span)
        .await;
        if resp.status() == StatusCode::METHOD_NOT_ALLOWED
            && let Some(allow) = self.allow.allowed(&path)
            && let Ok(v) = HeaderValue::from_str(&allow)
        {
            resp.headers_mut().insert("allow", v);
        }
        if let Ok(v) = HeaderValue::from_str(&id) {
            resp.headers_mut().insert("x-request-id", v);
        }
        self.metrics.record(resp.status().as_u16());
        tracing::info!(
            request_id = %id,
            %method,
            %path,
            status = resp.status().as_u16(),
            ms = started.elapsed().as_millis() as u64,
            "request"
        );
        Ok(resp)
    }
}
