//! A guest's identity fields as the desk's forms show them: one list of fields shared by the
//! guest edit form (screen 7) and the check-in page's registration fields (screen 5), the
//! form values of a stored guest, the API body a form asks for, and each error placed next to
//! the field it names. Several guests on one page keep their fields apart with a prefix.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::domain::enums::{DocumentType, Gender};
use crate::error::FieldError;
use crate::i18n::{T, locale};
use crate::model::Guest;

/// The fields: (form name, API field path, label key, autocomplete).
pub const FIELDS: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "first_name",
        "first_name",
        "field-first-name",
        Some("given-name"),
    ),
    (
        "last_name",
        "last_name",
        "field-last-name",
        Some("family-name"),
    ),
    ("email", "email", "field-email", Some("email")),
    ("phone", "phone", "field-phone", Some("tel")),
    ("birth_date", "birth_date", "field-birth-date", Some("bday")),
    ("gender", "gender", "field-gender", None),
    ("nationality", "nationality", "field-nationality", None),
    (
        "birth_country",
        "birth_place.country",
        "field-birth-country",
        None,
    ),
    (
        "birth_municipality",
        "birth_place.municipality",
        "field-birth-municipality",
        None,
    ),
    (
        "birth_region",
        "birth_place.region",
        "field-birth-region",
        None,
    ),
    (
        "document_type",
        "document.type",
        "field-document-type",
        None,
    ),
    (
        "document_number",
        "document.number",
        "field-document-number",
        None,
    ),
    (
        "document_country",
        "document.issuing_country",
        "field-document-country",
        None,
    ),
    (
        "document_place",
        "document.issuing_place",
        "field-document-place",
        None,
    ),
    (
        "document_expiry",
        "document.expiry_date",
        "field-document-expiry",
        None,
    ),
    (
        "line1",
        "address.line1",
        "field-line1",
        Some("address-line1"),
    ),
    (
        "line2",
        "address.line2",
        "field-line2",
        Some("address-line2"),
    ),
    ("city", "address.city", "field-city", Some("address-level2")),
    (
        "postal_code",
        "address.postal_code",
        "field-postal-code",
        Some("postal-code"),
    ),
    (
        "region",
        "address.region",
        "field-region",
        Some("address-level1"),
    ),
    (
        "country",
        "address.country",
        "field-country",
        Some("country"),
    ),
    ("notes", "notes", "field-notes-staff", None),
];

/// The fields a registration asks about at check-in (names and contact stay on the guest's
/// own page).
pub const REGISTRATION: &[&str] = &[
    "birth_date",
    "gender",
    "nationality",
    "birth_country",
    "birth_municipality",
    "birth_region",
    "document_type",
    "document_number",
    "document_country",
    "document_place",
    "document_expiry",
    "line1",
    "city",
    "postal_code",
    "country",
];

/// The fields that hold a day: typed the way the page's language writes one
/// (`15/03/1980`, `15.03.1980.`) or as the API does, and shown the page's way.
const DATES: &[&str] = &["birth_date", "document_expiry"];

/// One field as a form shows it.
pub struct FormField {
    /// The input's name and id (with the form's prefix).
    pub name: String,
    /// The field's kind: `select` lists `choices`, `textarea`, or `text`.
    pub kind: &'static str,
    /// The visible label.
    pub label: String,
    /// What the form holds now.
    pub value: String,
    /// The rule it breaks, in words, if any.
    pub error: Option<String>,
    /// The browser's autocomplete hint.
    pub autocomplete: Option<&'static str>,
    /// How to write the value (`dd/mm/yyyy` for a day), if it needs saying.
    pub placeholder: Option<String>,
    /// (value, label) of a select's choices.
    pub choices: Vec<(String, String)>,
}

/// The form values of a stored guest, each name with `prefix`.
pub fn values_of(g: &Guest, prefix: &str) -> HashMap<String, String> {
    let d = g.document.as_ref();
    let a = g.address.as_ref();
    let b = g.birth_place.as_ref();
    let line = |v: Option<String>| v.unwrap_or_default();
    [
        ("first_name", g.first_name.clone()),
        ("last_name", g.last_name.clone()),
        ("email", line(g.email.clone())),
        ("phone", line(g.phone.clone())),
        ("birth_date", line(g.birth_date.map(|d| d.to_string()))),
        ("gender", line(g.gender.map(|x| x.as_str().to_string()))),
        ("nationality", line(g.nationality.clone())),
        (
            "birth_country",
            line(b.and_then(|b| b.country.clone()).map(|c| c.0)),
        ),
        (
            "birth_municipality",
            line(b.and_then(|b| b.municipality.clone()).map(|l| l.0)),
        ),
        (
            "birth_region",
            line(b.and_then(|b| b.region.clone()).map(|l| l.0)),
        ),
        (
            "document_type",
            line(d.map(|d| d.kind.as_str().to_string())),
        ),
        ("document_number", line(d.map(|d| d.number.0.clone()))),
        (
            "document_country",
            line(d.and_then(|d| d.issuing_country.clone()).map(|c| c.0)),
        ),
        (
            "document_place",
            line(d.and_then(|d| d.issuing_place.clone()).map(|l| l.0)),
        ),
        (
            "document_expiry",
            line(d.and_then(|d| d.expiry_date).map(|d| d.to_string())),
        ),
        ("line1", line(a.and_then(|a| a.line1.clone()).map(|l| l.0))),
        ("line2", line(a.and_then(|a| a.line2.clone()).map(|l| l.0))),
        ("city", line(a.and_then(|a| a.city.clone()).map(|l| l.0))),
        (
            "postal_code",
            line(a.and_then(|a| a.postal_code.clone()).map(|l| l.0)),
        ),
        (
            "region",
            line(a.and_then(|a| a.region.clone()).map(|l| l.0)),
        ),
        (
            "country",
            line(a.and_then(|a| a.country.clone()).map(|c| c.0)),
        ),
        ("notes", line(g.notes.clone())),
    ]
    .into_iter()
    .map(|(k, v)| (format!("{prefix}{k}"), v))
    .collect()
}

/// The change a form asks for, as `PUT /v1/guests/{id}`'s JSON body: blank optional fields
/// clear, a document, address or birth place with every field blank is removed. Fields the
/// form does not carry (`only` leaves them out) keep their stored value.
pub fn body_of(f: &HashMap<String, String>, prefix: &str, only: Option<&[&str]>) -> Value {
    let has = |k: &str| only.is_none_or(|o| o.contains(&k));
    let get = |k: &str| {
        let v = f
            .get(&format!("{prefix}{k}"))
            .map(|v| v.trim().to_string())
            .unwrap_or_default();
        match locale::read_date(&v) {
            Some(d) if DATES.contains(&k) => d.to_string(),
            _ => v,
        }
    };
    let opt = |k: &str| {
        let v = get(k);
        if v.is_empty() {
            Value::Null
        } else {
            Value::String(v)
        }
    };
    let object = |pairs: &[(&str, &str)], always: &[&str]| -> Value {
        if pairs.iter().all(|(_, k)| get(k).is_empty()) {
            return Value::Null;
        }
        let mut m = Map::new();
        for (name, k) in pairs {
            let v = get(k);
            if !v.is_empty() || always.contains(name) {
                m.insert((*name).to_string(), Value::String(v));
            }
        }
        Value::Object(m)
    };
    let mut body = Map::new();
    for k in ["first_name", "last_name"] {
        if has(k) {
            body.insert(k.into(), Value::String(get(k)));
        }
    }
    for k in [
        "email",
        "phone",
        "birth_date",
        "gender",
        "nationality",
        "notes",
    ] {
        if has(k) {
            body.insert(k.into(), opt(k));
        }
    }
    let groups = json!({
        "birth_place": object(&[("country", "birth_country"), ("municipality", "birth_municipality"),
            ("region", "birth_region")], &[]),
        "document": object(&[("type", "document_type"), ("number", "document_number"),
            ("issuing_country", "document_country"), ("issuing_place", "document_place"),
            ("expiry_date", "document_expiry")], &["type", "number"]),
        "address": object(&[("line1", "line1"), ("line2", "line2"), ("city", "city"),
            ("postal_code", "postal_code"), ("region", "region"), ("country", "country")], &[]),
    });
    if let Value::Object(groups) = groups {
        for (name, v) in groups {
            // A group is on the form when its first field is.
            let first = match name.as_str() {
                "birth_place" => "birth_country",
                "document" => "document_type",
                _ => "line1",
            };
            if has(first) {
                body.insert(name, v);
            }
        }
    }
    Value::Object(body)
}

/// The label key of the field at API path `path` (a group's first field for a group).
pub fn label_of(path: &str) -> Option<&'static str> {
    let path = group_field(path);
    FIELDS
        .iter()
        .find(|(_, p, ..)| *p == path)
        .map(|(_, _, label, _)| *label)
}

/// The field an error on a whole group is shown at (a missing document at its type, and so
/// on); any other path as it is.
fn group_field(path: &str) -> &str {
    match path {
        "document" => "document.type",
        "birth_place" => "birth_place.country",
        "address" => "address.line1",
        other => other,
    }
}

/// The message to show for an error: the API's words, except where the desk says better
/// what to do (a registration's missing field is said once, without the guest's name and
/// the wire path: the field and the guest are already on the page).
fn message(e: &FieldError, t: &T, registration: bool) -> String {
    match (
        e.field.rsplit('.').next(),
        e.field.contains("document.type"),
    ) {
        _ if registration && e.code == "required" => t.t("error-registration-required"),
        (Some(f), _) if DATES.contains(&f) && matches!(e.code, "invalid_type" | "invalid_date") => {
            t.t("error-date-typed")
        }
        (_, true) => t.t("error-document-type"),
        (Some("gender"), _) if e.code != "not_supported" => t.t("error-gender"),
        _ => super::rules::say(t, e),
    }
}

/// The fields `names` (all when `None`) as a form shows them, with `prefix`, their values from
/// `values`, and the errors whose path (after `error_prefix`) names them.
pub fn fields(
    t: &T,
    prefix: &str,
    names: Option<&[&str]>,
    values: &HashMap<String, String>,
    errors: &[FieldError],
    error_prefix: &str,
) -> Vec<FormField> {
    FIELDS
        .iter()
        .filter(|(form, ..)| names.is_none_or(|n| n.contains(form)))
        .map(|(form, path, label, autocomplete)| {
            let name = format!("{prefix}{form}");
            let (kind, choices) = match *form {
                "document_type" => (
                    "select",
                    choices(
                        t,
                        "document-none",
                        "document",
                        DocumentType::ALL.iter().map(|d| d.as_str()),
                    ),
                ),
                "gender" => (
                    "select",
                    choices(
                        t,
                        "gender-none",
                        "gender",
                        Gender::ALL.iter().map(|g| g.as_str()),
                    ),
                ),
                "notes" => ("textarea", Vec::new()),
                _ => ("text", Vec::new()),
            };
            let value = values.get(&name).cloned().unwrap_or_default();
            let day = DATES.contains(form);
            FormField {
                value: match locale::read_date(&value) {
                    Some(d) if day => t.numeric_date(d),
                    _ => value,
                },
                placeholder: day.then(|| t.t("hint-date-typed")),
                name,
                kind,
                label: t.t(label),
                error: errors
                    .iter()
                    .find(|e| {
                        e.field
                            .strip_prefix(error_prefix)
                            .map(group_field)
                            .is_some_and(|f| f == *path || f.starts_with(&format!("{path}.")))
                    })
                    .map(|e| message(e, t, !error_prefix.is_empty())),
                autocomplete: *autocomplete,
                choices,
            }
        })
        .collect()
}

fn choices<'a>(
    t: &T,
    none: &str,
    key: &str,
    values: impl Iterator<Item = &'a str>,
) -> Vec<(String, String)> {
    std::iter::once((String::new(), t.t(none)))
        .chain(values.map(|v| (v.to_string(), t.t(&format!("{key}-{v}")))))
        .collect()
}

/// The errors no field of `fields` shows, as "field: message" lines.
pub fn unplaced(
    t: &T,
    errors: &[FieldError],
    fields: &[FormField],
    error_prefix: &str,
) -> Vec<String> {
    errors
        .iter()
        .filter(|e| {
            !FIELDS.iter().any(|(form, path, ..)| {
                fields.iter().any(|f| f.name.ends_with(form))
                    && e.field
                        .strip_prefix(error_prefix)
                        .map(group_field)
                        .is_some_and(|p| p.starts_with(path))
            })
        })
        .map(|e| format!("{}: {}", e.field, super::rules::say(t, e)))
        .collect()
}
