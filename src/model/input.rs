//! Reading JSON input field by field so that every failing field is reported: the shared
//! vocabulary of request shapes, below the HTTP edge (which only wraps it in a payload, see
//! `api::input`).
//!
//! poem-openapi's own `Json<T>` stops at the first bad field and answers 400. Here a body
//! type declared with [`input_object!`] documents itself in OpenAPI exactly like an
//! `Object`, but is parsed by [`FromJson`]: unknown fields, missing fields, wrong types and
//! rule violations are all collected, with paths such as `document.number` or
//! `guest_ids[2]`, and answered as one 422 `validation_failed`. Malformed JSON is a 400.

use poem_openapi::types::MaybeUndefined;
use serde_json::{Map, Value};

use super::Date;
use crate::error::FieldError;

/// Errors collected while parsing.
pub type Errors = Vec<FieldError>;

/// A value that can be read from JSON, reporting problems at `path`.
pub trait FromJson: Sized {
    /// Parses `value`; on failure pushes at least one error and returns `None`.
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self>;
}

/// How a struct field treats absence and `null`.
pub trait Field: Sized {
    /// The field is missing from the object.
    fn absent(path: &str, errs: &mut Errors) -> Option<Self>;
    /// The field is present (possibly `null`).
    fn present(value: &Value, path: &str, errs: &mut Errors) -> Option<Self>;
}

/// A plain type is required and must not be null.
impl<T: FromJson> Field for T {
    fn absent(path: &str, errs: &mut Errors) -> Option<Self> {
        errs.push(
            FieldError::new(path, "required", "is required").said("rule-required", Vec::new()),
        );
        None
    }
    fn present(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        if value.is_null() {
            errs.push(
                FieldError::new(path, "required", "is required and must not be null")
                    .said("rule-required", Vec::new()),
            );
            return None;
        }
        T::from_json(value, path, errs)
    }
}

/// `Option<T>`: absent or `null` mean "none".
impl<T: FromJson> Field for Option<T> {
    fn absent(_: &str, _: &mut Errors) -> Option<Self> {
        Some(None)
    }
    fn present(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        if value.is_null() {
            return Some(None);
        }
        T::from_json(value, path, errs).map(Some)
    }
}

/// `MaybeUndefined<T>` (updates): absent keeps the value, `null` clears it.
impl<T: FromJson> Field for MaybeUndefined<T> {
    fn absent(_: &str, _: &mut Errors) -> Option<Self> {
        Some(MaybeUndefined::Undefined)
    }
    fn present(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        if value.is_null() {
            return Some(MaybeUndefined::Null);
        }
        T::from_json(value, path, errs).map(MaybeUndefined::Value)
    }
}

fn wrong_type(path: &str, errs: &mut Errors, what: &str) -> Option<std::convert::Infallible> {
    errs.push(
        FieldError::new(path, "invalid_type", format!("must be {what}"))
            .said("rule-invalid_type", Vec::new()),
    );
    None
}

impl FromJson for String {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        match value {
            Value::String(s) => Some(s.clone()),
            _ => wrong_type(path, errs, "a string").map(|n| match n {}),
        }
    }
}

impl FromJson for i64 {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        match value.as_i64() {
            Some(n) => Some(n),
            None => wrong_type(path, errs, "a whole number").map(|n| match n {}),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        match value {
            Value::Bool(b) => Some(*b),
            _ => wrong_type(path, errs, "true or false").map(|n| match n {}),
        }
    }
}

impl FromJson for Date {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        match value.as_str().map(Date::parse) {
            Some(Ok(d)) => Some(d),
            Some(Err(rule)) => {
                errs.push(FieldError::of(path, rule));
                None
            }
            None => wrong_type(path, errs, "a date written YYYY-MM-DD").map(|n| match n {}),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        let Value::Array(items) = value else {
            return wrong_type(path, errs, "an array").map(|n| match n {});
        };
        let before = errs.len();
        let parsed: Vec<Option<T>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| T::from_json(item, &format!("{path}[{i}]"), errs))
            .collect();
        if errs.len() > before {
            return None;
        }
        parsed.into_iter().collect()
    }
}

/// `parent.child`, or `child` at the top level.
pub fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The JSON object at `path`, or an error.
pub fn expect_object<'v>(
    value: &'v Value,
    path: &str,
    errs: &mut Errors,
) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        _ => {
            let at = if path.is_empty() { "body" } else { path };
            errs.push(FieldError::new(at, "invalid_type", "must be a JSON object"));
            None
        }
    }
}

/// Reports every key of `obj` that is not one of `known`.
pub fn reject_unknown(obj: &Map<String, Value>, path: &str, known: &[&str], errs: &mut Errors) {
    for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        errs.push(FieldError::new(
            join(path, key),
            "unknown_field",
            format!(
                "is not a known field; expected one of {}",
                crate::domain::rules::one_of(known)
            ),
        ));
    }
}

/// Reads field `name` of `obj`.
pub fn field<F: Field>(
    obj: &Map<String, Value>,
    path: &str,
    name: &str,
    errs: &mut Errors,
) -> Option<F> {
    let at = join(path, name);
    match obj.get(name) {
        None => F::absent(&at, errs),
        Some(v) => F::present(v, &at, errs),
    }
}

/// Declares a request body object: an OpenAPI `Object` plus a collecting [`FromJson`].
/// Field types enforce their own rules (see `model::fields`); a field takes an optional
/// `as "json_name"`.
/// An optional `ignore ["id", ...]` lists read-only keys a client may send back unchanged.
/// An optional `cross path::to::fn` runs rules across fields (`fn(&Map, &str, &mut Errors)`)
/// even when some fields failed, so that every failure is reported at once.
/// A leading `stored` also derives serde, for objects the store keeps as JSON columns.
#[macro_export]
macro_rules! input_object {
    (
        stored
        $(#[$smeta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident $(as $json:literal)? : $ty:ty
            ),* $(,)?
        }
        $(ignore [$($ignored:literal),* $(,)?])?
        $(cross $cross:path)?
    ) => {
        $(#[$smeta])*
        // Stored as a JSON column with its own serde names (pinned by
        // `store::tests::nested_columns_keep_their_stored_names`), independent of the API's.
        #[derive(Debug, Clone, poem_openapi::Object, serde::Serialize, serde::Deserialize)]
        #[oai(deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                $(#[oai(rename = $json)] #[serde(rename = $json)])?
                pub $field: $ty,
            )*
        }

        $crate::input_object!(@from_json $name { $($field $(as $json)? : $ty),* }
            $(ignore [$($ignored),*])? $(cross $cross)?);
    };
    (
        $(#[$smeta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident $(as $json:literal)? : $ty:ty
            ),* $(,)?
        }
        $(ignore [$($ignored:literal),* $(,)?])?
        $(cross $cross:path)?
    ) => {
        $(#[$smeta])*
        #[derive(Debug, Clone, poem_openapi::Object)]
        #[oai(deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                $(#[oai(rename = $json)])?
                pub $field: $ty,
            )*
        }

        $crate::input_object!(@from_json $name { $($field $(as $json)? : $ty),* }
            $(ignore [$($ignored),*])? $(cross $cross)?);
    };
    (
        @from_json $name:ident { $($field:ident $(as $json:literal)? : $ty:ty),* }
        $(ignore [$($ignored:literal),*])?
        $(cross $cross:path)?
    ) => {
        impl $crate::model::input::FromJson for $name {
            fn from_json(
                value: &serde_json::Value,
                path: &str,
                errs: &mut $crate::model::input::Errors,
            ) -> Option<Self> {
                let obj = $crate::model::input::expect_object(value, path, errs)?;
                $crate::model::input::reject_unknown(
                    obj,
                    path,
                    &[$($crate::input_object!(@name $field $($json)?),)* $($($ignored),*)?],
                    errs,
                );
                $(
                    let $field = {
                        let name = $crate::input_object!(@name $field $($json)?);
                        $crate::model::input::field::<$ty>(obj, path, name, errs)
                    };
                )*
                $( $cross(obj, path, errs); )?
                Some(Self { $($field: $field?,)* })
            }
        }
    };
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $json:literal) => { $json };
}

/// Cross-field rule for bodies with `arrival` and `departure`: departure after arrival,
/// at most 365 nights (checked whenever both dates parse).
pub fn stay_dates(obj: &Map<String, Value>, path: &str, errs: &mut Errors) {
    let date_of = |name: &str| {
        obj.get(name)
            .and_then(Value::as_str)
            .and_then(|s| Date::parse(s).ok())
    };
    let (Some(arrival), Some(departure)) = (date_of("arrival"), date_of("departure")) else {
        return;
    };
    let nights = (departure.0 - arrival.0).num_days();
    if nights < 1 {
        errs.push(
            FieldError::new(
                join(path, "departure"),
                "must_be_after",
                "must be after arrival",
            )
            .said("problem-after-arrival", vec![]),
        );
    } else if nights > crate::domain::stay::MAX_NIGHTS {
        errs.push(
            FieldError::new(
                join(path, "departure"),
                "too_long",
                "must be at most 365 nights after arrival",
            )
            .said(
                "problem-max-nights",
                vec![("n", crate::domain::said::Value::Num(365))],
            ),
        );
    }
}
