//! A guest's identity fields as the desk's forms show them: one list of fields shared by the
//! guest edit form (screen 7) and the check-in page's registration fields (screen 5), the
//! form values of a stored guest, the API body a form asks for, and each error placed next to
//! the field it names. Several guests on one page keep their fields apart with a prefix.

use std::collections::HashMap;

pub use super::guest_values::{body_of, values_of};
use crate::domain::enums::{DocumentType, Gender};
use crate::error::FieldError;
use crate::i18n::{T, countries, locale};

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
    ("language", "language", "field-guest-language", None),
    ("birth_date", "birth_date", "field-birth-date", Some("bday")),
    ("gender", "gender", "field-gender", None),
    ("nationality", "nationality", "field-nationality", None),
    ("tax_code", "tax_code", "field-tax-code", None),
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
    (
        "tax_category",
        "tourist.tax_category",
        "field-tax-category",
        None,
    ),
    (
        "arrival_organisation",
        "tourist.arrival_organisation",
        "field-arrival-organisation",
        None,
    ),
    (
        "service_type",
        "tourist.service_type",
        "field-service-type",
        None,
    ),
    (
        "border_crossing",
        "tourist.border_crossing",
        "field-border-crossing",
        None,
    ),
    ("entry_date", "tourist.entry_date", "field-entry-date", None),
    ("notes", "notes", "field-notes-staff", None),
];

/// The fields a tourist board asks beyond identity (Croatia's eVisitor), shown only where
/// the registration scheme asks them.
pub const TOURIST: &[&str] = &[
    "tax_category",
    "arrival_organisation",
    "service_type",
    "border_crossing",
    "entry_date",
];

/// The fields registration asks at check-in: [`REGISTRATION`], and [`TOURIST`] with
/// `tourist`.
pub fn registration_fields(tourist: bool) -> Vec<&'static str> {
    let extra = if tourist { TOURIST } else { &[] };
    REGISTRATION.iter().chain(extra).copied().collect()
}

/// Every field of the guest page, the [`TOURIST`] ones only with `tourist`.
pub fn guest_page_fields(tourist: bool) -> Vec<&'static str> {
    FIELDS
        .iter()
        .map(|(form, ..)| *form)
        .filter(|f| tourist || !TOURIST.contains(f))
        .collect()
}

/// Offers the authority's lists as choices: each field named in `lists` (by its form name)
/// becomes a select of (code, label), led by an empty choice (the hotel's default where it
/// has one, else "pick from the list"); a value held that is not in the list stays offered,
/// so nothing typed is lost. A field whose list is empty (not fetched yet) stays a text field.
pub fn offer(fields: &mut [FormField], lists: &[(&str, Vec<(String, String)>)], t: &T) {
    for f in fields.iter_mut() {
        let Some((_, list)) = lists
            .iter()
            .find(|(name, list)| f.name.ends_with(name) && !list.is_empty())
        else {
            continue;
        };
        let empty = match f.name.ends_with("border_crossing") {
            true => t.t("tourist-pick"),
            false => t.t("tourist-as-set"),
        };
        let mut choices = vec![(String::new(), empty)];
        if !f.value.is_empty() && !list.iter().any(|(code, _)| *code == f.value) {
            choices.push((f.value.clone(), f.value.clone()));
        }
        choices.extend(list.iter().cloned());
        f.kind = "select";
        f.choices = choices;
    }
}

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
pub(super) const DATES: &[&str] = &["birth_date", "document_expiry", "entry_date"];

/// The fields that hold a country: shown and typed by name in the page's language (from the
/// page's list of countries), stored as the ISO code.
pub(super) const COUNTRIES: &[&str] = &[
    "nationality",
    "birth_country",
    "document_country",
    "country",
];

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
        "tourist" => "tourist.tax_category",
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
        _ if e.code == "invalid_country" => t.t("error-country"),
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
                "language" => (
                    "select",
                    choices(
                        t,
                        "language-none",
                        "language",
                        crate::domain::enums::Language::ALL
                            .iter()
                            .map(|l| l.as_str()),
                    ),
                ),
                "notes" => ("textarea", Vec::new()),
                f if COUNTRIES.contains(&f) => ("country", Vec::new()),
                "birth_municipality" | "document_place" => ("place", Vec::new()),
                _ => ("text", Vec::new()),
            };
            let value = values.get(&name).cloned().unwrap_or_default();
            let day = DATES.contains(form);
            FormField {
                value: match locale::read_date(&value) {
                    Some(d) if day => t.numeric_date(d),
                    _ if kind == "country" => {
                        countries::name(t.lang(), &value).map_or(value, str::to_string)
                    }
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
