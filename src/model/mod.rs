//! The public shapes of resources, as the API serves them and events snapshot them.
//!
//! Each type derives poem-openapi's `Object`, so its `///` docs become the OpenAPI text and
//! one serialisation (`ToJSON`) serves both HTTP responses and event `data`: a webhook
//! receiver sees exactly what `GET` returns. Request bodies are declared with
//! `input_object!`, which parses every field and reports every failure.

pub mod fields;
mod guest;
mod page;
mod patch;
mod property;
mod reservation;
mod types;

pub use guest::*;
pub use page::*;
pub use patch::Patch;
pub use property::*;
pub use reservation::*;
pub use types::{Date, Instant};

use poem_openapi::types::ToJSON;

/// The JSON snapshot of a resource, exactly as the API serves it.
pub fn snapshot<T: ToJSON>(resource: &T) -> serde_json::Value {
    resource.to_json().unwrap_or(serde_json::Value::Null)
}
