//! Administration, the property (`/admin/settings`, screen 10): name, time zone, currency,
//! country, invoice series, the usual tax rate, the city tax and the seller's particulars
//! printed on invoices, through the use case of
//! `PATCH /v1/settings`. Money and rates are typed as people write them (`2.50`, `10 %`);
//! each refusal is shown next to its field with everything typed kept; a change saved by
//! someone else meanwhile is caught, not overwritten. The compliance schemes are shown, not
//! edited: they live in the configuration file with their credentials.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::admin_form::hundredths;
use super::guest_form::FormField;
use super::{DeskState, Outcome, Shell, open, open_form, or_answer};
use super::{page, server_error, web};
use crate::domain::money::parse_amount;
use crate::error::{FieldError, Kind};
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{Settings, SettingsUpdate};
use crate::service::{IfMatch, settings};

/// The form's fields: (form name, API path, label key).
const FIELDS: &[(&str, &str, &str)] = &[
    ("name", "name", "settings-name"),
    ("time_zone", "time_zone", "settings-time-zone"),
    ("currency", "currency", "settings-currency"),
    ("country", "country", "settings-country"),
    ("invoice_series", "invoice_series", "settings-series"),
    ("cin", "cin", "settings-cin"),
    ("default_tax_rate", "default_tax_rate", "settings-tax-rate"),
    ("city_tax", "city_tax", "settings-city-tax"),
    (
        "city_tax_amount",
        "city_tax.amount_per_person_night",
        "settings-city-tax-amount",
    ),
    (
        "city_tax_rate",
        "city_tax.tax_rate",
        "settings-city-tax-rate",
    ),
    (
        "city_tax_max_nights",
        "city_tax.max_nights",
        "settings-city-tax-max-nights",
    ),
    (
        "city_tax_exempt_under_age",
        "city_tax.exempt_under_age",
        "settings-city-tax-exempt",
    ),
    (
        "seller_legal_name",
        "seller.legal_name",
        "settings-seller-name",
    ),
    (
        "seller_line1",
        "seller.address.line1",
        "settings-seller-street",
    ),
    (
        "seller_postal_code",
        "seller.address.postal_code",
        "settings-seller-postal-code",
    ),
    ("seller_city", "seller.address.city", "settings-seller-city"),
    ("seller_vat_id", "seller.vat_id", "settings-seller-vat-id"),
    (
        "seller_tax_code",
        "seller.tax_code",
        "settings-seller-tax-code",
    ),
];

#[derive(Template)]
#[template(path = "desk/settings.html")]
struct SettingsPage {
    shell: Shell,
    problem: Option<String>,
    version: i64,
    /// The property's fields, then the city tax's, then the seller's.
    fields: Vec<FormField>,
    city: Vec<FormField>,
    seller: Vec<FormField>,
    /// The compliance schemes in force, in words.
    schemes: Vec<(String, String)>,
}

/// The form's values for the stored settings.
fn values_of(s: &Settings) -> HashMap<String, String> {
    let c = s.city_tax.as_ref();
    let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    let seller = s.seller.as_ref();
    let line = |v: Option<&crate::model::fields::Line<100>>| v.map(|l| l.0.clone());
    [
        (
            "seller_legal_name",
            seller.map(|x| x.legal_name.0.clone()).unwrap_or_default(),
        ),
        (
            "seller_line1",
            seller
                .and_then(|x| x.address.line1.as_ref().map(|l| l.0.clone()))
                .unwrap_or_default(),
        ),
        (
            "seller_postal_code",
            seller
                .and_then(|x| x.address.postal_code.as_ref().map(|l| l.0.clone()))
                .unwrap_or_default(),
        ),
        (
            "seller_city",
            seller
                .and_then(|x| line(x.address.city.as_ref()))
                .unwrap_or_default(),
        ),
        (
            "seller_vat_id",
            seller.map(|x| x.vat_id.0.clone()).unwrap_or_default(),
        ),
        (
            "seller_tax_code",
            seller
                .and_then(|x| x.tax_code.as_ref().map(|l| l.0.clone()))
                .unwrap_or_default(),
        ),
        ("name", s.name.clone()),
        ("time_zone", s.time_zone.clone()),
        ("currency", s.currency.clone()),
        ("country", s.country.clone().unwrap_or_default()),
        ("invoice_series", s.invoice_series.clone()),
        ("cin", s.cin.clone().unwrap_or_default()),
        ("default_tax_rate", hundredths(s.default_tax_rate)),
        (
            "city_tax",
            if c.is_some() { "charged" } else { "none" }.into(),
        ),
        (
            "city_tax_amount",
            c.map(|c| hundredths(c.amount_per_person_night.0))
                .unwrap_or_default(),
        ),
        (
            "city_tax_rate",
            c.and_then(|c| c.tax_rate)
                .map(|r| hundredths(r.0))
                .unwrap_or_default(),
        ),
        (
            "city_tax_max_nights",
            opt(c.and_then(|c| c.max_nights).map(|n| n.0)),
        ),
        (
            "city_tax_exempt_under_age",
            opt(c.and_then(|c| c.exempt_under_age).map(|n| n.0)),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn render(
    shell: Shell,
    stored: &Settings,
    values: &HashMap<String, String>,
    version: i64,
    outcome: Outcome,
) -> Response {
    let t = &shell.t;
    let field = |(form, path, label): &(&str, &str, &str)| FormField {
        name: form.to_string(),
        kind: if *form == "city_tax" {
            "select"
        } else {
            "text"
        },
        label: t.t(label),
        value: values.get(*form).cloned().unwrap_or_default(),
        error: outcome
            .errors
            .iter()
            .find(|e| e.field == *path || e.field == *form)
            .map(|e| super::rules::say(t, e)),
        autocomplete: Some("off"),
        placeholder: None,
        choices: match *form {
            "city_tax" => vec![
                ("none".into(), t.t("settings-city-tax-none")),
                ("charged".into(), t.t("settings-city-tax-charged")),
            ],
            _ => Vec::new(),
        },
    };
    let group = |prefix: &str| -> Vec<FormField> {
        FIELDS
            .iter()
            .filter(|f| f.0.starts_with(prefix))
            .map(field)
            .collect()
    };
    let fields = FIELDS
        .iter()
        .filter(|f| !f.0.starts_with("city_tax") && !f.0.starts_with("seller_"))
        .map(field)
        .collect();
    let (city, seller) = (group("city_tax"), group("seller_"));
    let c = &stored.compliance;
    let schemes = vec![
        (
            t.t("settings-registration"),
            t.t(&format!("scheme-{}", c.registration)),
        ),
        (t.t("settings-fiscal"), t.t(&format!("scheme-{}", c.fiscal))),
    ];
    let body = SettingsPage {
        problem: outcome.problem,
        version,
        fields,
        city,
        seller,
        schemes,
        shell,
    };
    page(outcome.status, &body)
}

/// `GET /admin/settings`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    match settings::get(&state.svc, &s.principal).await {
        Ok(stored) => {
            let shell = Shell::new(&s, t, "admin").after(req);
            let values = values_of(&stored);
            render(shell, &stored, &values, stored.version, Outcome::fresh())
        }
        Err(e) => server_error(&t, &e),
    }
}

/// A number as typed: the number, or the text for the use case's rule to name.
fn whole(v: &str) -> Value {
    v.parse::<i64>().map_or_else(|_| json!(v), |n| json!(n))
}

/// The settings form as posted.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct SettingsForm {
    /// The settings' version when the page was drawn.
    version: String,
    name: String,
    time_zone: String,
    currency: String,
    country: String,
    invoice_series: String,
    /// Italy's CIN, as typed (spaces dropped, capitals made).
    cin: String,
    /// VAT on rooms in percent, as typed.
    default_tax_rate: String,
    /// `charged` or not.
    city_tax: String,
    city_tax_amount: String,
    city_tax_rate: String,
    city_tax_max_nights: String,
    city_tax_exempt_under_age: String,
    seller_legal_name: String,
    seller_line1: String,
    seller_postal_code: String,
    seller_city: String,
    seller_vat_id: String,
    seller_tax_code: String,
}

impl SettingsForm {
    /// The seller as the API takes it: all empty is none (cleared), else what was typed
    /// (an empty required field left out, for the API's rule to name).
    fn seller(&self) -> Value {
        let text = |v: &str| (!v.trim().is_empty()).then(|| json!(v.trim()));
        let parts = [
            &self.seller_legal_name,
            &self.seller_line1,
            &self.seller_postal_code,
            &self.seller_city,
            &self.seller_vat_id,
            &self.seller_tax_code,
        ];
        if parts.iter().all(|p| p.trim().is_empty()) {
            return Value::Null;
        }
        let mut seller = json!({"address": {"line1": text(&self.seller_line1),
            "postal_code": text(&self.seller_postal_code), "city": text(&self.seller_city),
            "country": text(&self.country.to_uppercase())}});
        for (key, v) in [
            ("legal_name", &self.seller_legal_name),
            ("vat_id", &self.seller_vat_id),
            ("tax_code", &self.seller_tax_code),
        ] {
            if let Some(v) = text(v) {
                seller[key] = v;
            }
        }
        seller
    }
}

/// The update the form asks for; amounts and rates that cannot be read are said at their
/// fields.
fn body_of(f: &SettingsForm, t: &T, errors: &mut Vec<FieldError>) -> Value {
    let mut hundredths_of = |v: &str, form: &str, key: &str, optional: bool| {
        let v = v.trim().trim_end_matches('%').trim();
        if optional && v.is_empty() {
            return Value::Null;
        }
        parse_amount(v).map_or_else(
            || {
                errors.push(FieldError::new(form, "invalid", t.t(key)));
                Value::Null
            },
            |n| json!(n),
        )
    };
    let rate = hundredths_of(
        &f.default_tax_rate,
        "default_tax_rate",
        "error-tax-rate",
        false,
    );
    let city = match f.city_tax.trim() {
        "charged" => {
            let amount =
                hundredths_of(&f.city_tax_amount, "city_tax_amount", "error-amount", false);
            let tax = hundredths_of(&f.city_tax_rate, "city_tax_rate", "error-tax-rate", true);
            let nights = f.city_tax_max_nights.trim();
            let age = f.city_tax_exempt_under_age.trim();
            json!({
                "amount_per_person_night": amount,
                "tax_rate": tax,
                "max_nights": (!nights.is_empty()).then(|| whole(nights)),
                "exempt_under_age": (!age.is_empty()).then(|| whole(age)),
            })
        }
        _ => Value::Null,
    };
    let country = f.country.trim().to_uppercase();
    json!({
        "name": f.name.trim(),
        "time_zone": f.time_zone.trim(),
        "currency": f.currency.trim().to_uppercase(),
        "country": (!country.is_empty()).then_some(country),
        "invoice_series": f.invoice_series.trim(),
        "cin": Some(f.cin.replace(' ', "").to_uppercase()).filter(|c| !c.is_empty()),
        "default_tax_rate": rate,
        "city_tax": city,
        "seller": f.seller(),
    })
}

/// `POST /admin/settings`: saves the form.
#[handler]
pub async fn save(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<SettingsForm>(req, body, &state, super::ADMIN).await);
    let stored = match settings::get(&state.svc, &s.principal).await {
        Ok(stored) => stored,
        Err(e) => return server_error(&t, &e),
    };
    let version = posted.fields.version.parse().unwrap_or(0);
    let mut errors = Vec::new();
    let input = body_of(&posted.fields, &t, &mut errors);
    let f = posted.typed;
    let mut api = Vec::new();
    let parsed = SettingsUpdate::from_json(&input, "", &mut api);
    // A field the form already explained keeps its own words.
    let explained: Vec<String> = errors.iter().map(|e| e.field.clone()).collect();
    errors.extend(api.into_iter().filter(|e| {
        !FIELDS
            .iter()
            .any(|(form, path, _)| e.field == *path && explained.iter().any(|x| x == form))
    }));
    let again =
        |t: T, outcome: Outcome| render(Shell::new(&s, t, "admin"), &stored, &f, version, outcome);
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        let problem = Some(t.n("form-errors", errors.len() as i64));
        return again(
            t,
            Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem),
        );
    };
    let if_match = Some(IfMatch::Versions(vec![version]));
    match settings::update(&state.svc, &s.principal, if_match, input).await {
        Ok(_) => web::redirect(StatusCode::SEE_OTHER, "/admin/settings?done=settings-saved"),
        Err(e) if e.kind == Kind::PreconditionFailed => {
            // What was typed stays, now against the version saved meanwhile: saving again
            // is a decision taken knowingly.
            let problem = Some(t.t("settings-changed-meanwhile"));
            let shell = Shell::new(&s, t, "admin");
            let outcome = Outcome::refused(StatusCode::CONFLICT, Vec::new(), problem);
            render(shell, &stored, &f, stored.version, outcome)
        }
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len() as i64));
            again(
                t,
                Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, e.errors, problem),
            )
        }
        Err(e) => server_error(&t, &e),
    }
}
