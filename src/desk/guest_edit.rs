//! Screen 7, changing a guest (`/guests/{id}/edit`, posted to `/guests/{id}`): the same
//! rules as `PUT /v1/guests/{id}`, each error shown next to its field, everything typed kept
//! when the server refuses, and a change made meanwhile by someone else caught (the form
//! carries the version it was read at).

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::{Map, Value, json};

use super::{DeskState, Shell, failed_read, page, refused, signed_in, words};
use crate::domain::enums::DocumentType;
use crate::error::{FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{Guest, GuestUpdate};
use crate::service::{IfMatch, guests};
use crate::web;

/// The form's fields: (form name, API field path, label key, autocomplete).
const FIELDS: &[(&str, &str, &str, Option<&str>)] = &[
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
    ("nationality", "nationality", "field-nationality", None),
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

/// One field as the form shows it.
struct FormField {
    name: &'static str,
    label: String,
    value: String,
    error: Option<String>,
    autocomplete: Option<&'static str>,
}

#[derive(Template)]
#[template(path = "desk/guest_edit.html")]
struct EditPage {
    shell: Shell,
    title: String,
    id: String,
    version: i64,
    problem: Option<String>,
    fields: Vec<FormField>,
    /// (value, label) of the document type choices, "no document" first.
    document_types: Vec<(String, String)>,
}

/// The form's values for a stored guest.
fn values_of(g: &Guest) -> HashMap<String, String> {
    let d = g.document.as_ref();
    let a = g.address.as_ref();
    let line = |v: Option<String>| v.unwrap_or_default();
    [
        ("first_name", g.first_name.clone()),
        ("last_name", g.last_name.clone()),
        ("email", line(g.email.clone())),
        ("phone", line(g.phone.clone())),
        ("birth_date", line(g.birth_date.map(|d| d.to_string()))),
        ("nationality", line(g.nationality.clone())),
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
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The change the form asks for, as the API's JSON body: blank optional fields clear,
/// a document or address with every field blank is removed.
fn body_of(f: &HashMap<String, String>) -> Value {
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
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
    json!({
        "first_name": get("first_name"),
        "last_name": get("last_name"),
        "email": opt("email"),
        "phone": opt("phone"),
        "birth_date": opt("birth_date"),
        "nationality": opt("nationality"),
        "notes": opt("notes"),
        "document": object(&[("type", "document_type"), ("number", "document_number"),
            ("issuing_country", "document_country"), ("issuing_place", "document_place"),
            ("expiry_date", "document_expiry")],
            &["type", "number"]),
        "address": object(&[("line1", "line1"), ("line2", "line2"), ("city", "city"),
            ("postal_code", "postal_code"), ("region", "region"), ("country", "country")], &[]),
    })
}

#[allow(clippy::too_many_arguments)] // the page's parts, each needed once
fn form_page(
    status: StatusCode,
    shell: Shell,
    t: &T,
    id: String,
    name: &str,
    version: i64,
    values: &HashMap<String, String>,
    errors: &[FieldError],
    problem: Option<String>,
) -> Response {
    let fields = FIELDS
        .iter()
        .map(|(form, path, label, autocomplete)| FormField {
            name: form,
            label: t.t(label),
            value: values.get(*form).cloned().unwrap_or_default(),
            error: errors
                .iter()
                .find(|e| e.field == *path || e.field.starts_with(&format!("{path}.")))
                .map(|e| match e.field.as_str() {
                    // The API lists the wire values; at the desk, say what to do.
                    "document.type" => t.t("error-document-type"),
                    _ => e.message.clone(),
                }),
            autocomplete: *autocomplete,
        })
        .collect();
    let mut document_types = vec![(String::new(), t.t("document-none"))];
    document_types.extend(DocumentType::ALL.iter().map(|d| {
        (
            d.as_str().to_string(),
            t.t(&format!("document-{}", d.as_str())),
        )
    }));
    let unplaced = errors
        .iter()
        .filter(|e| !FIELDS.iter().any(|(_, p, _, _)| e.field.starts_with(p)))
        .map(|e| format!("{}: {}", e.field, e.message));
    let problem = problem
        .or_else(|| (!errors.is_empty()).then(|| t.n("guest-edit-errors", errors.len() as i64)))
        .map(|p| {
            std::iter::once(p)
                .chain(unplaced)
                .collect::<Vec<_>>()
                .join(" ")
        });
    page(
        status,
        &EditPage {
            title: t.with("guest-edit-title", &[("name", Arg::Text(name.to_string()))]),
            id,
            version,
            problem,
            fields,
            document_types,
            shell,
        },
    )
}

/// `GET /guests/{id}/edit`.
#[handler]
pub async fn edit(req: &Request, Path(id): Path<String>, state: Data<&Arc<DeskState>>) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let t = words(req);
    let g = match guests::get(&state.svc, &s.principal, id.clone()).await {
        Ok(g) => g,
        Err(e) => return failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    };
    let name = format!("{} {}", g.first_name, g.last_name);
    let shell = Shell::new(&s, t, "guests");
    form_page(
        StatusCode::OK,
        shell,
        &t,
        id,
        &name,
        g.version,
        &values_of(&g),
        &[],
        None,
    )
}

/// `POST /guests/{id}`: saves the form.
#[handler]
pub async fn save(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let t = words(req);
    let form = web::form(body).await.unwrap_or_default();
    if let Some(r) = refused(req, &s, &form) {
        return r;
    }
    let version: i64 = form
        .get("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let name = format!(
        "{} {}",
        form.get("first_name").map(String::as_str).unwrap_or(""),
        form.get("last_name").map(String::as_str).unwrap_or("")
    );
    let again = |status, errors: &[FieldError], problem: Option<String>| {
        let shell = Shell::new(&s, t, "guests");
        form_page(
            status,
            shell,
            &t,
            id.clone(),
            &name,
            version,
            &form,
            errors,
            problem,
        )
    };
    let mut errors = Vec::new();
    let Some(input) = GuestUpdate::from_json(&body_of(&form), "", &mut errors) else {
        return again(StatusCode::UNPROCESSABLE_ENTITY, &errors, None);
    };
    let if_match = Some(IfMatch::Versions(vec![version]));
    match guests::update(&state.svc, &s.principal, id.clone(), if_match, input).await {
        Ok(g) => web::redirect(StatusCode::SEE_OTHER, &format!("/guests/{}", g.id)),
        Err(e) if e.kind == Kind::PreconditionFailed => {
            again(StatusCode::CONFLICT, &[], Some(t.t("guest-edit-conflict")))
        }
        Err(e) if !e.errors.is_empty() => again(StatusCode::UNPROCESSABLE_ENTITY, &e.errors, None),
        Err(e) => failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    }
}
