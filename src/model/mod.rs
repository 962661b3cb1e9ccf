//! The public shapes of resources, as the API serves them and events snapshot them.
//!
//! Each type derives poem-openapi's `Object`, so its `///` docs become the OpenAPI text and
//! one serialisation (`ToJSON`) serves both HTTP responses and event `data`: a webhook
//! receiver sees exactly what `GET` returns. Request bodies are declared with
//! `input_object!`, which parses every field and reports every failure.

/// Implements poem-openapi's `Type` for a scalar with the given name and schema.
macro_rules! scalar_type {
    (impl [$($gen:tt)*] $ty:ty, $name:expr, $schema:expr) => {
        impl<$($gen)*> ::poem_openapi::types::Type for $ty {
            const IS_REQUIRED: bool = true;
            type RawValueType = Self;
            type RawElementValueType = Self;

            fn name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Owned($name)
            }

            fn schema_ref() -> ::poem_openapi::registry::MetaSchemaRef {
                ::poem_openapi::registry::MetaSchemaRef::Inline(Box::new($schema))
            }

            fn as_raw_value(&self) -> Option<&Self> {
                Some(self)
            }

            fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
                Box::new(std::iter::once(self))
            }
        }
    };
}

mod actor;
mod calendar;
mod channel;
pub mod codes;
mod compliance;
mod day_close;
mod deposit;
mod einvoice;
mod extras;
pub mod fields;
mod guest;
mod history;
pub mod input;
mod message;
mod money;
pub mod outcome;
mod page;
mod patch;
mod principal;
mod property;
mod rates;
mod report;
mod reservation;
mod types;
mod webhooks;

pub use actor::Actor;
pub use calendar::*;
pub use channel::*;
pub use compliance::*;
pub use day_close::*;
pub use deposit::*;
pub use einvoice::*;
pub use extras::*;
pub use guest::*;
pub use history::*;
pub use message::*;
pub use money::*;
pub use page::*;
pub use patch::{NOT_NULL_MARK, Patch};
pub use principal::Principal;
pub use property::*;
pub use rates::*;
pub use report::*;
pub use reservation::*;
pub use types::{Date, Instant};
pub use webhooks::*;

use poem_openapi::types::ToJSON;

/// The JSON snapshot of a resource, exactly as the API serves it.
pub fn snapshot<T: ToJSON>(resource: &T) -> serde_json::Value {
    resource.to_json().unwrap_or(serde_json::Value::Null)
}
