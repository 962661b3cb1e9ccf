//! JSON answers written straight from the model with serde.
//!
//! poem-openapi's `Json` builds a `serde_json::Value` tree of the answer (a `BTreeMap` per
//! object, a `String` per field name and value) and then writes that tree out: for a page of
//! fifty reservations, 39 % of the request's CPU (perf, innkeep-bench's arrivals list). The
//! answers served most often (lists, the resources behind an `ETag`) are written here from the
//! model's serde description instead, in one pass with no tree.
//!
//! The schema still comes from poem-openapi (`Type`), so the model is described twice: once
//! for the spec and `to_json`, once for serde. [`body`] checks the two agree at run time, in
//! debug builds only (every test of the API suite, Schemathesis' generated cases): each
//! answer is also built the old way and compared, and a difference panics with both texts.
//! Data no test produces is not checked. Keys come out in the struct's order rather than
//! sorted; JSON objects are unordered (RFC 8259 §4).

use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaResponses, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};
use serde::Serialize;

use crate::error::AppError;

/// The media type of every JSON answer.
pub const JSON: &str = "application/json; charset=utf-8";

/// The answer's JSON text, written by serde (checked against poem-openapi's in debug builds).
pub fn body<T: Serialize + ToJSON>(value: &T) -> Result<Vec<u8>, AppError> {
    let text = serde_json::to_vec(value).map_err(AppError::internal)?;
    #[cfg(debug_assertions)]
    same_as_openapi(value, &text);
    Ok(text)
}

/// Panics when serde's JSON of `value` differs from poem-openapi's: the two descriptions of
/// a model type have drifted apart.
#[cfg(debug_assertions)]
fn same_as_openapi<T: ToJSON>(value: &T, text: &[u8]) {
    let ours = serde_json::from_slice::<serde_json::Value>(text).ok();
    let theirs = value.to_json().unwrap_or(serde_json::Value::Null);
    assert!(
        ours.as_ref() == Some(&theirs),
        "serde and poem-openapi describe {} differently:\nserde:        {}\npoem-openapi: {theirs}",
        T::name(),
        String::from_utf8_lossy(text)
    );
}

/// A 200 answer with a JSON body; poem-openapi's `Json` without the `Value` tree.
pub struct Direct<T>(pub T);

impl<T: Type> Payload for Direct<T> {
    const CONTENT_TYPE: &'static str = JSON;

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Serialize + ToJSON + Send> IntoResponse for Direct<T> {
    fn into_response(self) -> Response {
        match body(&self.0) {
            Ok(text) => Response::builder().content_type(JSON).body(text),
            Err(e) => poem::error::ResponseError::as_response(&e),
        }
    }
}

impl<T: Serialize + ToJSON + Send> ApiResponse for Direct<T> {
    /// As poem-openapi's `Json` describes it: 200, no description of its own, no headers.
    fn meta() -> MetaResponses {
        super::responses::json_response(200, "", T::schema_ref(), vec![])
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use poem_openapi::Object;

    use super::body;
    use crate::domain::enums::{EInvoiceStatus, FiscalStatus};
    use crate::model::{EInvoice, Fiscal};

    /// Described the same way twice.
    #[derive(Object, serde::Serialize)]
    struct Agreed {
        name: String,
        note: Option<String>,
        nights: Vec<i64>,
    }

    /// serde's name for a field drifted from the spec's.
    #[derive(Object, serde::Serialize)]
    struct Drifted {
        #[serde(rename = "label")]
        name: String,
    }

    #[test]
    fn writes_what_poem_openapi_would() {
        let text = body(&Agreed {
            name: "Ana".into(),
            note: None,
            nights: vec![1, 2],
        })
        .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"name": "Ana", "note": null, "nights": [1, 2]})
        );
    }

    /// An invoice's `fiscal`, written as the invoice writes it.
    #[derive(Object, serde::Serialize)]
    struct Shown {
        #[serde(serialize_with = "Fiscal::serialize_shown")]
        fiscal: Fiscal,
    }

    #[test]
    fn a_fiscal_says_einvoice_null_when_it_has_none_and_the_e_invoice_once_when_it_has_one() {
        let none = Shown {
            fiscal: Fiscal::new("none", FiscalStatus::NotRequired),
        };
        let text = String::from_utf8(body(&none).unwrap()).unwrap();
        assert!(text.contains(r#""einvoice":null"#), "{text}");
        let mut fiscal = Fiscal::new("hr-cis", FiscalStatus::Pending);
        fiscal.einvoice = Some(EInvoice {
            status: EInvoiceStatus::Queued,
            intermediary: "moj-eracun".into(),
            reference: None,
            sha256: "ab".repeat(32),
            last_error: None,
        });
        let text = String::from_utf8(body(&Shown { fiscal }).unwrap()).unwrap();
        assert_eq!(text.matches(r#""einvoice""#).count(), 1, "{text}");
        assert!(text.contains(r#""intermediary":"moj-eracun""#), "{text}");
    }

    #[test]
    #[should_panic(expected = "serde and poem-openapi describe Drifted differently")]
    fn a_drift_between_the_two_descriptions_is_caught() {
        let _ = body(&Drifted { name: "Ana".into() });
    }
}
