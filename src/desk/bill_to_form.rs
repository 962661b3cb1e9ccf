//! Who the invoice goes to, on the check-out and sale pages: the guest (a person, the
//! default) or a business with its name, VAT number, tax code and address. The business's
//! fields as a form shows them, the `bill_to` a posted form asks for, and each error of the
//! API's `bill_to.…` placed at its field.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::guest_form::FormField;
use crate::error::FieldError;
use crate::i18n::{T, countries};

/// The choice between the guest and a business.
pub const KIND: &str = "bill_kind";

/// The business's fields: (form name, API path, label key, autocomplete).
const FIELDS: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "bill_name",
        "bill_to.name",
        "field-bill-name",
        Some("organization"),
    ),
    ("bill_vat_id", "bill_to.vat_id", "field-bill-vat-id", None),
    (
        "bill_tax_code",
        "bill_to.tax_code",
        "field-bill-tax-code",
        None,
    ),
    (
        "bill_sdi_code",
        "bill_to.sdi_code",
        "field-bill-sdi-code",
        None,
    ),
    ("bill_pec", "bill_to.pec", "field-bill-pec", Some("email")),
    (
        "bill_line1",
        "bill_to.address.line1",
        "field-line1",
        Some("address-line1"),
    ),
    (
        "bill_city",
        "bill_to.address.city",
        "field-city",
        Some("address-level2"),
    ),
    (
        "bill_postal_code",
        "bill_to.address.postal_code",
        "field-postal-code",
        Some("postal-code"),
    ),
    (
        "bill_country",
        "bill_to.address.country",
        "field-country",
        Some("country"),
    ),
];

/// The choice as the form shows it: (value, label, chosen) for the guest and a business.
pub fn kinds(t: &T, typed: Option<&HashMap<String, String>>) -> Vec<(String, String, bool)> {
    let business = typed
        .and_then(|f| f.get(KIND))
        .is_some_and(|k| k == "business");
    vec![
        ("person".into(), t.t("bill-to-guest"), !business),
        ("business".into(), t.t("bill-to-business"), business),
    ]
}

/// The business's fields, with what was typed and the errors at them.
pub fn fields(
    t: &T,
    typed: Option<&HashMap<String, String>>,
    errors: &[FieldError],
) -> Vec<FormField> {
    FIELDS
        .iter()
        .map(|(name, path, label, autocomplete)| {
            let value = typed
                .and_then(|f| f.get(*name))
                .cloned()
                .unwrap_or_default();
            let country = *name == "bill_country";
            FormField {
                name: (*name).to_string(),
                kind: if country { "country" } else { "text" },
                label: t.t(label),
                value: match country {
                    true => countries::name(t.lang(), &value).map_or(value, str::to_string),
                    false => value,
                },
                error: errors
                    .iter()
                    .find(|e| e.field == *path || (*name == "bill_name" && e.field == "bill_to"))
                    .map(|e| super::rules::say(t, e)),
                autocomplete: *autocomplete,
                placeholder: None,
                choices: Vec::new(),
            }
        })
        .collect()
}

/// The `bill_to` the form asks for: none for the guest; for a business what was typed
/// (blank fields left out, a country by its name read as its code).
pub fn body(form: &HashMap<String, String>) -> Option<Value> {
    if form.get(KIND).map(String::as_str) != Some("business") {
        return None;
    }
    let get = |k: &str| {
        form.get(k)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let mut b = Map::new();
    b.insert("kind".into(), json!("business"));
    b.insert("name".into(), json!(get("bill_name")));
    for (key, name) in [
        ("vat_id", "bill_vat_id"),
        ("tax_code", "bill_tax_code"),
        ("sdi_code", "bill_sdi_code"),
        ("pec", "bill_pec"),
    ] {
        let v = get(name);
        if !v.is_empty() {
            b.insert(key.into(), json!(v));
        }
    }
    let mut a = Map::new();
    for (key, name) in [
        ("line1", "bill_line1"),
        ("city", "bill_city"),
        ("postal_code", "bill_postal_code"),
        ("country", "bill_country"),
    ] {
        let v = get(name);
        if !v.is_empty() {
            let v = match key {
                "country" => countries::code_of(&v).map_or(v, str::to_string),
                _ => v,
            };
            a.insert(key.into(), json!(v));
        }
    }
    if !a.is_empty() {
        b.insert("address".into(), Value::Object(a));
    }
    Some(Value::Object(b))
}

/// Whether an error is about the bill-to (and so shown at its fields).
pub fn is_theirs(e: &FieldError) -> bool {
    e.field == "bill_to" || e.field.starts_with("bill_to.")
}
