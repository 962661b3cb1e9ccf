//! The administration's record forms, described once: each field's name (the API's), label,
//! how it is typed (text, money, a whole number, a choice) and whether it may be empty. From
//! that come the fields as a page shows them (value, error in place) and the JSON the use
//! case reads, with money typed as people write it (`2,50`) turned into minor units.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::guest_form::FormField;
use crate::domain::money::parse_amount;
use crate::error::FieldError;
use crate::i18n::T;

/// How a field is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Words.
    Text,
    /// An amount of money (or a percentage), sent in hundredths.
    Money,
    /// A whole number.
    Number,
    /// One of a list.
    Choice,
}

/// One field of a form.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The form's and the API's name.
    pub name: &'static str,
    /// The label's catalogue key.
    pub label: &'static str,
    /// How it is typed.
    pub kind: Kind,
    /// Whether it may be left empty (sent as `null`).
    pub optional: bool,
}

/// A field of `kind` named `name`, labelled `label`, required.
pub const fn required(name: &'static str, label: &'static str, kind: Kind) -> Spec {
    Spec {
        name,
        label,
        kind,
        optional: false,
    }
}

/// A field that may be left empty.
pub const fn optional(name: &'static str, label: &'static str, kind: Kind) -> Spec {
    Spec {
        name,
        label,
        kind,
        optional: true,
    }
}

/// Hundredths as typed: `1234` → `12.34`, `1000` → `10`.
pub fn hundredths(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let n = n.abs();
    match n % 100 {
        0 => format!("{sign}{}", n / 100),
        c => format!("{sign}{}.{c:02}", n / 100),
    }
}

/// The form's values from a record's JSON: money in hundredths as typed, nulls empty.
pub fn values_of(specs: &[Spec], record: &Value) -> HashMap<String, String> {
    specs
        .iter()
        .map(|s| {
            let v = &record[s.name];
            let text = match (s.kind, v) {
                (_, Value::Null) => String::new(),
                (Kind::Money, Value::Number(n)) => hundredths(n.as_i64().unwrap_or_default()),
                (_, Value::String(t)) => t.clone(),
                (_, other) => other.to_string(),
            };
            (s.name.to_string(), text)
        })
        .collect()
}

/// The JSON the form asks for. An amount that cannot be read is said at its field in words
/// (`error-amount`); a number that is not one is sent as typed, for the use case's rule.
pub fn json_of(
    specs: &[Spec],
    f: &HashMap<String, String>,
    t: &T,
    errors: &mut Vec<FieldError>,
) -> Value {
    let mut out = Map::new();
    for s in specs {
        let typed = f.get(s.name).map(|v| v.trim()).unwrap_or_default();
        let typed = if s.kind == Kind::Money {
            typed.trim_end_matches('%').trim()
        } else {
            typed
        };
        let value = match s.kind {
            _ if typed.is_empty() && s.optional => Value::Null,
            Kind::Money => parse_amount(typed).map_or_else(
                || {
                    errors.push(FieldError::new(s.name, "invalid", t.t("error-amount")));
                    Value::Null
                },
                |n| json!(n),
            ),
            Kind::Number => typed
                .parse::<i64>()
                .map_or_else(|_| json!(typed), |n| json!(n)),
            Kind::Text | Kind::Choice => json!(typed),
        };
        out.insert(s.name.to_string(), value);
    }
    Value::Object(out)
}

/// The API's errors but those on fields the form already explained.
pub fn merge(errors: &mut Vec<FieldError>, api: Vec<FieldError>) {
    for e in api {
        if !errors.iter().any(|x| x.field == e.field) {
            errors.push(e);
        }
    }
}

/// The fields as a page shows them, with `choices` for the choice fields (by name).
pub fn fields(
    specs: &[Spec],
    t: &T,
    values: &HashMap<String, String>,
    errors: &[FieldError],
    choices: &dyn Fn(&str) -> Vec<(String, String)>,
) -> Vec<FormField> {
    specs
        .iter()
        .map(|s| FormField {
            name: s.name.to_string(),
            kind: if s.kind == Kind::Choice {
                "select"
            } else {
                "text"
            },
            label: t.t(s.label),
            value: values.get(s.name).cloned().unwrap_or_default(),
            error: errors
                .iter()
                .find(|e| e.field == s.name)
                .map(|e| super::rules::say(t, e)),
            autocomplete: Some("off"),
            placeholder: None,
            choices: if s.kind == Kind::Choice {
                choices(s.name)
            } else {
                Vec::new()
            },
        })
        .collect()
}
