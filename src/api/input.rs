//! JSON request bodies at the HTTP edge: [`Body`] reads the bytes and hands them to the
//! collecting parser in `model::input`, so every failing field is reported at once (422),
//! and malformed JSON is a 400.

use poem::{FromRequest, Request, RequestBody};
use poem_openapi::payload::{ParsePayload, Payload};
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use serde_json::Value;

use crate::error::AppError;
pub use crate::model::input::{Errors, FromJson, stay_dates};

/// A JSON request body of type `T`, parsed with [`FromJson`].
pub struct Body<T>(pub T);

impl<T: Type + Send> Payload for Body<T> {
    const CONTENT_TYPE: &'static str = "application/json";

    fn check_content_type(content_type: &str) -> bool {
        matches!(content_type.parse::<mime::Mime>(), Ok(m)
            if m.type_() == "application" && (m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json")))
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Type + FromJson + Send> ParsePayload for Body<T> {
    const IS_REQUIRED: bool = true;

    async fn from_request(request: &Request, body: &mut RequestBody) -> poem::Result<Self> {
        let bytes = Vec::<u8>::from_request(request, body).await?;
        Ok(Body(parse_body(&bytes)?))
    }
}

/// Parses a whole body: 400 for bad JSON, 422 listing every field problem.
pub fn parse_body<T: FromJson>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AppError::bad_request(
            "The request body is empty; send a JSON object.",
        ));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| AppError::bad_request(format!("The request body is not valid JSON: {e}.")))?;
    let mut errs = Vec::new();
    match T::from_json(&value, "", &mut errs) {
        Some(v) if errs.is_empty() => Ok(v),
        _ => Err(AppError::validation(errs)),
    }
}

poem_openapi::impl_apirequest_for_payload!(Body<T>, T: Type + FromJson + Send);
