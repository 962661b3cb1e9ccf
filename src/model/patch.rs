//! `Patch<T>`: an update field that may be left out but never cleared.

use std::borrow::Cow;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

use crate::error::FieldError;
use crate::model::input::{Errors, FromJson};

/// A schema title that marks a property as never null (update fields that may be left out
/// but not cleared); the spec finisher (`api::spec`) removes it.
pub const NOT_NULL_MARK: &str = "innkeep:not-null";

/// A field of an update that may be left out but never cleared: absent keeps the value,
/// `null` is refused with a field error.
#[derive(Debug, Clone)]
pub enum Patch<T> {
    /// Not sent: keep the current value.
    Keep,
    /// Sent: the new value.
    Set(T),
}

impl<T> Patch<T> {
    /// Replaces `target` when set.
    pub fn apply<U>(self, target: &mut U)
    where
        T: Into<U>,
    {
        if let Patch::Set(v) = self {
            *target = v.into();
        }
    }
}

impl<T: Type> Type for Patch<T> {
    const IS_REQUIRED: bool = false;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        format!("patch_{}", T::name()).into()
    }

    /// T's schema, marked so that the spec finisher does not make it nullable.
    fn schema_ref() -> MetaSchemaRef {
        let mark = Some(NOT_NULL_MARK.to_string());
        match T::schema_ref() {
            MetaSchemaRef::Inline(schema) => MetaSchemaRef::Inline(Box::new(MetaSchema {
                title: mark,
                ..*schema
            })),
            reference => MetaSchemaRef::Inline(Box::new(MetaSchema {
                title: mark,
                all_of: vec![reference],
                ..MetaSchema::ANY
            })),
        }
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        match self {
            Patch::Set(v) => v.as_raw_value(),
            Patch::Keep => None,
        }
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        match self {
            Patch::Set(v) => v.raw_element_iter(),
            Patch::Keep => Box::new(std::iter::empty()),
        }
    }
}

impl<T: ParseFromJSON> ParseFromJSON for Patch<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None => Ok(Patch::Keep),
            Some(Value::Null) => Err(ParseError::custom("cannot be null")),
            Some(v) => T::parse_from_json(Some(v))
                .map(Patch::Set)
                .map_err(ParseError::propagate),
        }
    }
}

impl<T: ToJSON> ToJSON for Patch<T> {
    fn to_json(&self) -> Option<Value> {
        match self {
            Patch::Set(v) => v.to_json(),
            Patch::Keep => None,
        }
    }
}

impl<T: FromJson> crate::model::input::Field for Patch<T> {
    fn absent(_: &str, _: &mut Errors) -> Option<Self> {
        Some(Patch::Keep)
    }

    fn present(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        if value.is_null() {
            errs.push(FieldError::new(
                path,
                "required",
                "cannot be null; leave the field out to keep its value",
            ));
            return None;
        }
        T::from_json(value, path, errs).map(Patch::Set)
    }
}
