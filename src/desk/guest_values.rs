//! A guest as form values and back: the values a stored guest fills a form with, and the
//! `PUT /v1/guests/{id}` body a posted form asks for (days read the page's way, blank
//! optional fields cleared, a document, address or birth place with every field blank
//! removed). Several guests on one page keep their fields apart with a prefix.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::guest_form::{COUNTRIES, DATES};
use crate::i18n::{countries, locale};
use crate::model::Guest;

/// The form values of a stored guest, each name with `prefix`.
pub fn values_of(g: &Guest, prefix: &str) -> HashMap<String, String> {
    let d = g.document.as_ref();
    let a = g.address.as_ref();
    let b = g.birth_place.as_ref();
    let tt = g.tourist.as_ref();
    let line = |v: Option<String>| v.unwrap_or_default();
    [
        ("first_name", g.first_name.clone()),
        ("last_name", g.last_name.clone()),
        ("email", line(g.email.clone())),
        ("phone", line(g.phone.clone())),
        ("birth_date", line(g.birth_date.map(|d| d.to_string()))),
        ("gender", line(g.gender.map(|x| x.as_str().to_string()))),
        ("language", line(g.language.map(|x| x.as_str().to_string()))),
        ("nationality", line(g.nationality.clone())),
        ("tax_code", line(g.tax_code.clone())),
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
        (
            "tax_category",
            line(tt.and_then(|t| t.tax_category.clone()).map(|l| l.0)),
        ),
        (
            "arrival_organisation",
            line(tt.and_then(|t| t.arrival_organisation.clone()).map(|l| l.0)),
        ),
        (
            "service_type",
            line(tt.and_then(|t| t.service_type.clone()).map(|l| l.0)),
        ),
        (
            "border_crossing",
            line(tt.and_then(|t| t.border_crossing.clone()).map(|l| l.0)),
        ),
        (
            "entry_date",
            line(tt.and_then(|t| t.entry_date).map(|d| d.to_string())),
        ),
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
            // A country typed or picked by name, in any of the desk's languages.
            _ if COUNTRIES.contains(&k) => countries::code_of(&v).map_or(v, str::to_string),
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
        "language",
        "nationality",
        "tax_code",
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
        "tourist": object(&[("tax_category", "tax_category"),
            ("arrival_organisation", "arrival_organisation"), ("service_type", "service_type"),
            ("border_crossing", "border_crossing"), ("entry_date", "entry_date")], &[]),
    });
    if let Value::Object(groups) = groups {
        for (name, v) in groups {
            // A group is on the form when its first field is.
            let first = match name.as_str() {
                "birth_place" => "birth_country",
                "document" => "document_type",
                "tourist" => "tax_category",
                _ => "line1",
            };
            if has(first) {
                body.insert(name, v);
            }
        }
    }
    Value::Object(body)
}
