//! RFC 9457 problem+json: rendering every error, and documenting them per operation.
//!
//! Handlers return `Result<_, ApiError<Set>>`; `Set` names the statuses the operation can
//! answer, so each operation's OpenAPI lists its own errors. At run time every error,
//! including poem's own (unknown route, wrong method, bad parameter), becomes a poem error
//! that the edge middleware renders with [`render`], adding the request id.

use std::marker::PhantomData;

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Object};
use serde_json::{Value, json};

use crate::error::{AppError, Kind};

/// The problem+json media type.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One failing field.
#[derive(Debug, Clone, Object)]
pub struct ProblemField {
    /// Path of the field, query parameter or header, such as `document.number`.
    pub field: String,
    /// Stable rule code, such as `required`.
    pub code: String,
    /// The rule in plain words.
    pub message: String,
}

/// An RFC 9457 problem; every error answer has this shape.
#[derive(Debug, Clone, Object)]
pub struct Problem {
    /// A URI reference naming the problem type, such as `/problems/validation-failed`.
    #[oai(rename = "type")]
    pub kind: String,
    /// Short summary of the problem type.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong in this case, in plain words.
    pub detail: String,
    /// Stable machine-readable code, such as `no_availability`.
    pub code: String,
    /// Every failing field (input errors only).
    pub errors: Option<Vec<ProblemField>>,
    /// The request id; the server log has details under it.
    pub request_id: String,
}

/// The HTTP status for an error kind.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::BadRequest => StatusCode::BAD_REQUEST,
        Kind::Unauthorized => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Gone => StatusCode::GONE,
        Kind::PreconditionFailed => StatusCode::PRECONDITION_FAILED,
        Kind::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Kind::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn title(e: &AppError) -> &'static str {
    match e.code {
        "validation_failed" => "Request body is invalid",
        "bad_request" => "Malformed request",
        "invalid_cursor" => "Invalid cursor",
        "not_found" => "Not found",
        "unauthorized" => "Unauthorized",
        "insufficient_scope" => "Insufficient scope",
        "rate_limited" => "Too many requests",
        "method_not_allowed" => "Method not allowed",
        "no_availability" => "No availability",
        "room_unavailable" => "Room unavailable",
        "invalid_state_transition" => "Invalid state transition",
        "too_early" => "Too early",
        "already_exists" => "Already exists",
        "idempotency_in_progress" => "Request with this Idempotency-Key is in progress",
        "idempotency_key_reused" => "Idempotency-Key reused with a different request",
        "precondition_failed" => "Precondition failed",
        "feed_reset" => "The event feed was reset",
        "cursor_ahead" => "Position beyond the newest event",
        "events_expired" => "Events no longer kept",
        "sunset" => "Operation retired",
        "payload_too_large" => "Payload too large",
        "unsupported_media_type" => "Unsupported media type",
        "internal" => "Internal server error",
        _ => match e.kind {
            Kind::Conflict => "Conflict with the current state",
            Kind::Unprocessable => "Unprocessable request",
            _ => "Request failed",
        },
    }
}

/// Renders an error as problem+json. Internal causes go to the log, never to the body.
pub fn render(e: &AppError, request_id: &str) -> Response {
    let status = status_of(e.kind);
    if e.kind == Kind::Internal {
        tracing::error!(request_id, error = %e, "request failed");
    }
    let mut body = json!({
        "type": format!("/problems/{}", e.code.replace('_', "-")),
        "title": title(e),
        "status": status.as_u16(),
        "detail": e.detail,
        "code": e.code,
        "request_id": request_id,
    });
    if !e.errors.is_empty()
        && let Value::Object(map) = &mut body
    {
        let errors = e
            .errors
            .iter()
            .map(|f| json!({"field": f.field, "code": f.code, "message": f.message}))
            .collect();
        map.insert("errors".into(), Value::Array(errors));
    }
    if let Value::Object(map) = &mut body {
        for (k, v) in &e.extensions {
            map.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    Response::builder()
        .status(status)
        .content_type(PROBLEM_JSON)
        .body(body.to_string())
}

impl poem::error::ResponseError for AppError {
    fn status(&self) -> StatusCode {
        status_of(self.kind)
    }

    fn as_response(&self) -> Response {
        render(self, "")
    }
}

/// The statuses an operation documents.
pub trait ErrorSet: Send + Sync + 'static {
    /// Statuses beyond the ones every operation has (400, 429, 500).
    const STATUSES: &'static [u16];
    /// Whether the operation needs a token (so documents 401 and 403).
    const AUTHENTICATED: bool = true;
}

macro_rules! error_set {
    ($($(#[$m:meta])* $name:ident = [$($s:literal),*] $(public $public:literal)?;)+) => {$(
        $(#[$m])*
        pub struct $name;
        impl ErrorSet for $name {
            const STATUSES: &'static [u16] = &[$($s),*];
            $(const AUTHENTICATED: bool = !$public;)?
        }
    )+};
}

error_set! {
    /// Lists and reads without a resource id.
    ListErrors = [];
    /// Reads of one resource.
    GetErrors = [404];
    /// Reads whose query is checked (a range, a stay).
    QueryErrors = [422];
    /// Bulk edits with a body, of no one resource (the price calendar).
    EditErrors = [413, 415, 422];
    /// Creations.
    CreateErrors = [409, 413, 415, 422];
    /// Updates with If-Match.
    UpdateErrors = [404, 409, 412, 413, 415, 422];
    /// Actions on an existing resource (check-in, check-out, charges, payments).
    ActionErrors = [404, 409, 413, 415, 422];
    /// The event feed: a position that is stale (409) or pruned (410).
    FeedErrors = [409, 410];
    /// Actions of no one resource that the state may forbid (the channel manager's resend;
    /// 422 for an Idempotency-Key reused with another request).
    StateErrors = [409, 422];
    /// Public reads (no token needed).
    PublicErrors = [] public true;
}

fn describe(status: u16) -> &'static str {
    match status {
        400 => {
            "Malformed request: bad JSON, query parameter, header or cursor (`bad_request`, `invalid_cursor`)."
        }
        404 => "No such resource (`not_found`).",
        409 => {
            "The current state forbids this (`no_availability`, `room_unavailable`, `invalid_state_transition`, `too_early`, `already_exists`, `idempotency_in_progress`, `feed_reset`, `cursor_ahead`; on a booking on a rate plan, the innkeep extensions `min_stay`, `max_stay`, `closed_to_arrival`, `closed_to_departure`, `stop_sell`, `min_advance`, `max_advance` and `not_sold`, with `params`, the codes `GET /offers` gives; `rate_plan_has_children`; `not_connected` when no channel manager is configured; `mail_off` and `no_address` when a guest's message cannot be made; `day_not_over`, `day_not_next` and `day_closed` from the day close)."
        }
        410 => {
            "Gone for good: the event feed no longer holds that position (`events_expired`), or the operation is past its sunset (`sunset`)."
        }
        412 => "If-Match does not match the current version (`precondition_failed`).",
        413 => "The body is larger than 1 MiB (`payload_too_large`).",
        415 => "The body is not `application/json` (`unsupported_media_type`).",
        422 => {
            "Field rules failed; `errors` lists every failing field (`validation_failed`, `idempotency_key_reused`)."
        }
        429 => {
            "Too many requests from this client (`rate_limited`); wait for `Retry-After` seconds."
        }
        _ => "Unexpected server error (`internal`); the log has details under the request id.",
    }
}

/// An error answer of an operation that documents the statuses of `S`.
pub struct ApiError<S: ErrorSet>(pub AppError, PhantomData<S>);

impl<S: ErrorSet> From<AppError> for ApiError<S> {
    fn from(e: AppError) -> Self {
        ApiError(e, PhantomData)
    }
}

impl<S: ErrorSet> From<ApiError<S>> for poem::Error {
    fn from(e: ApiError<S>) -> poem::Error {
        poem::Error::from(e.0)
    }
}

impl<S: ErrorSet> IntoResponse for ApiError<S> {
    fn into_response(self) -> Response {
        render(&self.0, "")
    }
}

impl<S: ErrorSet> ApiResponse for ApiError<S> {
    fn meta() -> MetaResponses {
        let mut statuses = vec![400];
        if S::AUTHENTICATED {
            statuses.extend_from_slice(&[401, 403]);
        }
        statuses.extend_from_slice(S::STATUSES);
        statuses.extend_from_slice(&[429, 500]);
        MetaResponses {
            responses: statuses
                .into_iter()
                .map(|status| MetaResponse {
                    description: describe(status),
                    status: Some(status),
                    status_range: None,
                    content: vec![MetaMediaType {
                        content_type: PROBLEM_JSON,
                        schema: Problem::schema_ref(),
                    }],
                    headers: vec![],
                })
                .collect(),
        }
    }

    fn register(registry: &mut Registry) {
        Problem::register(registry);
    }
}
