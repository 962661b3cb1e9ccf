//! One error type for the whole crate.
//!
//! Every failure a client can see is an [`AppError`]: a stable machine-readable `code`, a
//! plain-words `detail`, and, for input problems, the list of failing fields. The API layer
//! maps the [`Kind`] to an HTTP status and renders RFC 9457 problem+json; nothing below the
//! API layer knows about HTTP. Internal errors keep their cause for the log and never show it
//! to the client.

use std::fmt;

/// What went wrong, in terms the API layer can map to a status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Malformed request: bad JSON, a bad query parameter or header.
    BadRequest,
    /// No valid access token.
    Unauthorized,
    /// The token lacks the scope.
    Forbidden,
    /// The resource or route does not exist.
    NotFound,
    /// The method is not allowed on this path.
    MethodNotAllowed,
    /// The request is valid, but the current state forbids it.
    Conflict,
    /// What was asked for existed once and is gone for good (pruned events, a sunset
    /// operation).
    Gone,
    /// `If-Match` does not match the current version.
    PreconditionFailed,
    /// The body is larger than the limit.
    PayloadTooLarge,
    /// The body is not JSON.
    UnsupportedMediaType,
    /// Field rules failed.
    Unprocessable,
    /// Too many requests or failed attempts.
    TooManyRequests,
    /// Something broke on our side.
    Internal,
}

/// One failing field: where, which rule, and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field path, for example `document.number` or `guest_ids[1]`.
    pub field: String,
    /// Stable rule code, for example `required` or `too_long`.
    pub code: &'static str,
    /// The rule in plain words (English: the API's text).
    pub message: String,
    /// The rule as the catalogues say it, for a page in another language.
    pub said: Option<crate::domain::said::Said>,
}

impl FieldError {
    /// A failing field.
    pub fn new(field: impl Into<String>, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            code,
            message: message.into(),
            said: None,
        }
    }

    /// A field that broke a rule.
    pub fn of(field: impl Into<String>, rule: crate::domain::rules::Rule) -> Self {
        Self {
            field: field.into(),
            code: rule.code,
            message: rule.message,
            said: rule.said,
        }
    }

    /// The same, said by the catalogues as `key` with `values` on a desk page.
    pub fn said(
        mut self,
        key: &'static str,
        values: Vec<(&'static str, crate::domain::said::Value)>,
    ) -> Self {
        self.said = Some(crate::domain::said::Said::new(key, values));
        self
    }
}

/// The crate's error.
#[derive(Debug)]
pub struct AppError {
    /// The class of error.
    pub kind: Kind,
    /// Stable code, for example `no_availability`.
    pub code: &'static str,
    /// Plain-words explanation for the client.
    pub detail: String,
    /// Failing fields, when the input is at fault.
    pub errors: Vec<FieldError>,
    /// Extra problem members, such as the `nights` that are fully booked.
    pub extensions: serde_json::Map<String, serde_json::Value>,
    /// The underlying cause, logged but never sent.
    pub source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// The refusal as the catalogues say it, when it is a [`crate::refusal::Refusal`]: a
    /// page says it in its own language.
    pub said: Option<Box<crate::refusal::Said>>,
}

impl AppError {
    /// An error of `kind` with a code and detail.
    pub fn new(kind: Kind, code: &'static str, detail: impl Into<String>) -> Self {
        Self {
            kind,
            code,
            detail: detail.into(),
            errors: Vec::new(),
            extensions: serde_json::Map::new(),
            source: None,
            said: None,
        }
    }

    /// Attaches what the catalogues say for this refusal.
    pub fn with_said(mut self, said: crate::refusal::Said) -> Self {
        self.said = Some(Box::new(said));
        self
    }

    /// Attaches the failing fields.
    pub fn with_errors(mut self, errors: Vec<FieldError>) -> Self {
        self.errors = errors;
        self
    }

    /// Adds an extension member to the problem.
    pub fn with_extension(mut self, name: &str, value: serde_json::Value) -> Self {
        self.extensions.insert(name.to_string(), value);
        self
    }

    /// 412 `precondition_failed`.
    pub fn precondition_failed(current_version: i64) -> Self {
        Self::new(
            Kind::PreconditionFailed,
            "precondition_failed",
            format!(
                "If-Match does not match the current version ({current_version}); someone else \
                 changed this record. GET it again, re-apply your change and retry."
            ),
        )
        .with_extension("current_version", current_version.into())
    }

    /// 400 `bad_request`.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(Kind::BadRequest, "bad_request", detail)
    }

    /// 404 `not_found` for a resource.
    pub fn not_found(what: &str, id: &str) -> Self {
        Self::new(
            Kind::NotFound,
            "not_found",
            format!("No {what} has the id {id:?}."),
        )
    }

    /// 409 with a specific code.
    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(Kind::Conflict, code, detail)
    }

    /// 422 `validation_failed` listing every failing field.
    pub fn validation(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] => format!("{} {}", one.field, one.message),
            many => format!("{} fields are invalid; see errors.", many.len()),
        };
        Self::new(Kind::Unprocessable, "validation_failed", detail).with_errors(errors)
    }

    /// 422 for a single field.
    pub fn invalid_field(field: &str, code: &'static str, message: impl Into<String>) -> Self {
        Self::validation(vec![FieldError::new(field, code, message)])
    }

    /// The same, its (first) failing field said by the catalogues as `key` with `values`.
    pub fn field_said(
        mut self,
        key: &'static str,
        values: Vec<(&'static str, crate::domain::said::Value)>,
    ) -> Self {
        if let Some(f) = self.errors.first_mut() {
            f.said = Some(crate::domain::said::Said::new(key, values));
        }
        self
    }

    /// 500 `internal`, keeping the cause for the log.
    pub fn internal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        let mut e = Self::new(
            Kind::Internal,
            "internal",
            "Something went wrong on the server. The log has the details under this request id.",
        );
        e.source = Some(source.into());
        e
    }
}

impl AppError {
    /// The message for an operator at the command line: the cause itself for internal
    /// errors (there is no request id to look up), the detail otherwise.
    pub fn operator_message(&self) -> String {
        match (&self.source, self.kind) {
            (Some(source), Kind::Internal) => source.to_string(),
            _ => self.detail.clone(),
        }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.detail)?;
        if let Some(source) = &self.source {
            write!(f, " (cause: {source})")?;
        }
        Ok(())
    }
}

impl std::error::Error for AppError {}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> Self {
        Self::internal(e)
    }
}

impl From<r2d2::Error> for AppError {
    fn from(e: r2d2::Error) -> Self {
        Self::internal(e)
    }
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        Self::internal(e)
    }
}

/// The crate's result.
pub type AppResult<T> = Result<T, AppError>;
