//! The list endpoints' query helpers; the cursors themselves are [`crate::cursor`]'s
//! (shared with the desk's lists).

pub use crate::cursor::*;

use crate::error::{AppError, FieldError};

/// Splits a comma-separated filter into values parsed by `parse`, naming bad ones. The
/// values come sorted and without repeats, so equal filters give equal cursors.
pub fn csv<T: Ord>(
    param: &str,
    raw: Option<String>,
    parse: impl Fn(&str) -> Option<T>,
    choices: String,
) -> Result<Vec<T>, AppError> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    raw.split(',')
        .map(|v| {
            parse(v.trim()).ok_or_else(|| {
                AppError::bad_request(format!("{param} has an unknown value {v:?}.")).with_errors(
                    vec![FieldError::new(
                        param,
                        "invalid_choice",
                        format!("values must be {choices}"),
                    )],
                )
            })
        })
        .collect::<Result<Vec<T>, AppError>>()
        .map(|mut values| {
            values.sort();
            values.dedup();
            values
        })
}

/// A text query parameter, where an empty value (`?status=`) means "not given".
pub fn given(q: &poem_openapi::param::Query<Option<String>>) -> Option<String> {
    q.0.as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}
