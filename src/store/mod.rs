//! SQL, one module per aggregate. Functions take a `&Connection` to read or a `&Tx` to
//! write; they never open transactions and never know about HTTP.

pub mod charges;
pub mod clients;
pub mod codes;
pub mod events;
pub mod fiscal;
pub mod grants;
pub mod guests;
pub mod history;
pub mod idempotency;
pub mod invoices;
pub mod jobs;
pub mod page;
pub mod reservations;
pub mod room_types;
pub mod rooms;
pub mod settings;
pub mod submissions;
pub mod webhooks;

use poem_openapi::types::{ParseFromJSON, ToJSON};
use rusqlite::Row;

/// Reads a JSON text column into a nested object.
pub(crate) fn nested<T: ParseFromJSON>(row: &Row, col: &str) -> rusqlite::Result<Option<T>> {
    let text: Option<String> = row.get(col)?;
    let Some(text) = text else { return Ok(None) };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })?;
    T::parse_from_json(Some(value)).map(Some).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            e.into_message().into(),
        )
    })
}

/// Writes a nested object as JSON text.
pub(crate) fn nested_text<T: ToJSON>(value: &Option<T>) -> Option<String> {
    value
        .as_ref()
        .and_then(ToJSON::to_json)
        .map(|v| v.to_string())
}
