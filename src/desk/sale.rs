//! A sale outside a stay (`/invoices/new`, screen 8): first the guest, found by name (or
//! reached from the guest's page with `?guest=…`), then the lines (what, how many, price
//! each, the tax rate when not the property's usual one) and how it is paid; one button
//! issues the invoice through the use case of `POST /v1/invoices`. The form carries an
//! idempotency key, so a double click issues one invoice number, not two; a refused form
//! comes back with each error next to its field and every line kept.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::once::{self, Once};
use super::stay_actions::ChargeForm;
use super::{DeskSession, DeskState, Outcome, Shell, open, open_post, or_answer, page};
use super::{server_error, web};
use crate::domain::money::parse_amount;
use crate::domain::scopes::Scope;
use crate::error::FieldError;
use crate::i18n::{Arg, T};
use crate::model::InvoiceCreate;
use crate::model::input::FromJson;
use crate::service::{desk_lists, guests, invoices};

/// Lines a new sale starts with; "Add a line" adds one, up to [`MAX_LINES`].
const FIRST_LINES: usize = 2;
/// The most lines the form offers.
const MAX_LINES: usize = 30;

/// The page's query: the guest chosen, or a name to look for.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Ask {
    guest: Option<String>,
    q: Option<String>,
}

/// One field of a line on the form.
struct Cell {
    /// `description`, `quantity`, `unit_price` or `tax_rate` (the API's names).
    name: &'static str,
    /// Its label for screen readers ("Line 2, price each").
    label: String,
    value: String,
    size: u8,
    /// The keyboard a phone shows.
    mode: &'static str,
    error: Option<String>,
}

/// One line of the form, as typed, with its errors.
struct LineRow {
    i: usize,
    cells: Vec<Cell>,
}

/// A line's fields: (name, catalogue key of its column, size, input mode).
const CELLS: &[(&str, &str, u8, &str)] = &[
    ("description", "col-description", 30, "text"),
    ("quantity", "col-quantity", 4, "numeric"),
    ("unit_price", "col-unit-price", 9, "decimal"),
    ("tax_rate", "sale-tax-rate", 5, "decimal"),
];

#[derive(Template)]
#[template(path = "desk/sale.html")]
struct SalePage {
    shell: Shell,
    problem: Option<String>,
    /// The guest billed: id and name.
    guest: Option<(String, String)>,
    q: String,
    /// Guests found: (id, name, born).
    found: Vec<(String, String, String)>,
    searched: bool,
    key: String,
    rows: Vec<LineRow>,
    more: bool,
    methods: Vec<(String, String)>,
    method: String,
    method_error: Option<String>,
    /// A rule about the lines as a whole ("at least one"), or about the guest.
    lines_error: Option<String>,
    guest_error: Option<String>,
    /// Who the invoice goes to: the guest or a business ((value, label, chosen)).
    bill_kinds: Vec<(String, String, bool)>,
    /// The business's fields.
    fields: Vec<super::guest_form::FormField>,
}

/// A form field's value, trimmed.
fn field(f: &HashMap<String, String>, k: &str) -> String {
    f.get(k).map(|v| v.trim().to_string()).unwrap_or_default()
}

/// How many lines the form holds.
fn line_count(f: &HashMap<String, String>) -> usize {
    field(f, "rows")
        .parse::<usize>()
        .unwrap_or(FIRST_LINES)
        .clamp(1, MAX_LINES)
}

async fn render(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    f: &HashMap<String, String>,
    outcome: Outcome,
) -> Response {
    let p = &s.principal;
    if let Err(e) = p.require(Scope::InvoicesWrite) {
        return server_error(&t, &e);
    }
    let chosen = field(f, "guest");
    let guest = match chosen.is_empty() {
        true => None,
        false => match guests::get(&state.svc, p, chosen.clone()).await {
            Ok(g) => Some((g.id, format!("{} {}", g.first_name, g.last_name))),
            Err(e) if e.kind == crate::error::Kind::NotFound => None,
            Err(e) => return server_error(&t, &e),
        },
    };
    let q = field(f, "q");
    let searched = guest.is_none() && f.contains_key("q");
    let found = match searched {
        true => match desk_lists::find_guests(&state.svc, p, &q).await {
            Ok(found) => found,
            Err(e) => return server_error(&t, &e),
        },
        false => Vec::new(),
    };
    let found = found
        .into_iter()
        .map(|g| {
            let born = g.birth_date.map(|d| t.date(d.0)).unwrap_or_default();
            (g.id, format!("{} {}", g.first_name, g.last_name), born)
        })
        .collect();
    let error_at = |path: &str| {
        outcome
            .errors
            .iter()
            .find(|e| e.field == path)
            .map(|e| super::rules::say(&t, e))
    };
    let rows = (0..line_count(f))
        .map(|i| LineRow {
            i,
            cells: CELLS
                .iter()
                .map(|(name, column, size, mode)| {
                    let typed = field(f, &format!("l{i}_{name}"));
                    // A new form's lines count one of each.
                    let fresh = *name == "quantity" && typed.is_empty() && !f.contains_key("rows");
                    Cell {
                        name,
                        label: t.with(
                            "sale-line-field",
                            &[
                                ("line", Arg::Num(i as i64 + 1)),
                                ("field", Arg::Text(t.t(column))),
                            ],
                        ),
                        value: if fresh { "1".into() } else { typed },
                        size: *size,
                        mode,
                        error: error_at(&format!("lines[{i}].{name}")),
                    }
                })
                .collect(),
        })
        .collect::<Vec<_>>();
    let body = SalePage {
        problem: outcome.problem.clone(),
        lines_error: outcome
            .errors
            .iter()
            .find(|e| e.field == "lines")
            .map(|e| match e.code {
                "negative_total" => t.t("error-sale-negative"),
                _ => t.t("error-sale-lines"),
            }),
        guest_error: error_at("guest_id").map(|_| t.t("error-sale-guest")),
        more: rows.len() < MAX_LINES,
        rows,
        guest,
        q,
        found,
        searched,
        key: f.get("key").cloned().unwrap_or_else(once::new_key),
        methods: super::check_out::methods(&t),
        method: field(f, "method"),
        method_error: error_at("payment_method").map(|_| t.t("error-payment-method")),
        bill_kinds: super::bill_to_form::kinds(&t, Some(f)),
        fields: super::bill_to_form::fields(&t, Some(f), &outcome.errors),
        shell: Shell::new(s, t, "invoices"),
    };
    page(outcome.status, &body)
}

/// `GET /invoices/new` (`?guest=…` to bill that guest, `?q=…` to look for one).
#[handler]
pub async fn page_of(
    req: &Request,
    Query(ask): Query<Ask>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::BILLING).await);
    let mut f = HashMap::new();
    if let Some(g) = ask.guest {
        f.insert("guest".to_string(), g);
    }
    if let Some(q) = ask.q {
        f.insert("q".to_string(), q);
    }
    render(&state, &s, t, &f, Outcome::fresh()).await
}

/// The lines typed (empty ones left out), each with its place on the form, as the API's
/// `lines`; a price or tax rate that cannot be read is said at its field (by form place).
fn lines(f: &HashMap<String, String>, t: &T, errors: &mut Vec<FieldError>) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    for i in 0..line_count(f) {
        let get = |k: &str| field(f, &format!("l{i}_{k}"));
        if ["description", "unit_price", "tax_rate"]
            .iter()
            .all(|k| get(k).is_empty())
        {
            continue;
        }
        let path = format!("lines[{i}].");
        let charge = ChargeForm {
            description: get("description"),
            quantity: get("quantity"),
            unit_price: get("unit_price"),
            tax_rate: String::new(),
        };
        let mut line = charge.request(&path, t, errors);
        let tax = get("tax_rate");
        let tax = tax.trim_end_matches('%').trim();
        if !tax.is_empty() {
            match parse_amount(tax) {
                Some(bp) => line["tax_rate"] = json!(bp),
                None => errors.push(FieldError::new(
                    format!("{path}tax_rate"),
                    "invalid",
                    t.t("error-tax-rate"),
                )),
            }
        }
        out.push((i, line));
    }
    out
}

/// The API's errors with `lines[k]` (the k-th line sent) renamed to the line's place on the
/// form, leaving out fields that already carry the form's own error.
fn on_form(api: Vec<FieldError>, places: &[usize], mine: &mut Vec<FieldError>) {
    for mut e in api {
        if let Some(rest) = e.field.strip_prefix("lines[")
            && let Some((k, tail)) = rest.split_once(']')
            && let Some(place) = k.parse::<usize>().ok().and_then(|k| places.get(k))
        {
            e.field = format!("lines[{place}]{tail}");
        }
        if !mine.iter().any(|m| m.field == e.field) {
            mine.push(e);
        }
    }
}

/// `POST /invoices/new`: `step=more` adds a line, `step=sell` issues the invoice.
#[handler]
pub async fn submit(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, mut f) = or_answer!(open_post(req, body, &state, super::BILLING).await);
    if field(&f, "step") != "sell" {
        let more = (line_count(&f) + 1).min(MAX_LINES);
        f.insert("rows".into(), more.to_string());
        return render(&state, &s, t, &f, Outcome::fresh()).await;
    }
    let mut errors = Vec::new();
    let typed = lines(&f, &t, &mut errors);
    let places: Vec<usize> = typed.iter().map(|(i, _)| *i).collect();
    let mut input = json!({
        "guest_id": field(&f, "guest"),
        "payment_method": Some(field(&f, "method")).filter(|m| !m.is_empty()),
        "lines": typed.into_iter().map(|(_, l)| l).collect::<Vec<_>>(),
    });
    if let Some(bill_to) = super::bill_to_form::body(&f) {
        input["bill_to"] = bill_to;
    }
    let mut api = Vec::new();
    let parsed = InvoiceCreate::from_json(&input, "", &mut api);
    on_form(api, &places, &mut errors);
    // The use case requires these too; said here, the form shows every error at once.
    for (name, value) in [("guest_id", "guest"), ("payment_method", "method")] {
        if field(&f, value).is_empty() && !errors.iter().any(|e| e.field == name) {
            errors.push(
                FieldError::new(name, "required", "is required").said("rule-required", vec![]),
            );
        }
    }
    let refused = |errors: Vec<FieldError>| {
        let problem = t.n("form-errors", errors.len() as i64);
        Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, Some(problem))
    };
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        let outcome = refused(errors);
        return render(&state, &s, t, &f, outcome).await;
    };
    let key = field(&f, "key");
    let digest = once::digest(&f);
    let act = async {
        match invoices::create(&state.svc, &s.principal, input).await {
            Ok(inv) => Ok(format!("/invoices/{}?done=sold", inv.id)),
            Err(e) if !e.errors.is_empty() => {
                let mut errors = Vec::new();
                on_form(e.errors, &places, &mut errors);
                Err(refused(errors))
            }
            Err(e) if e.kind == crate::error::Kind::Conflict => Err(Outcome::refused(
                StatusCode::CONFLICT,
                Vec::new(),
                Some(super::rules::detail(&t, &e)),
            )),
            Err(e) => {
                tracing::error!(error = %e, "a sale from the desk failed");
                Err(Outcome::refused(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Vec::new(),
                    Some(t.t("server-error")),
                ))
            }
        }
    };
    match once::once(&state, &s, key, digest, act).await {
        Ok(Once::Ran(Ok(to)) | Once::Replayed(to)) => web::redirect(StatusCode::SEE_OTHER, &to),
        Ok(Once::Ran(Err(outcome))) => {
            f.remove("key");
            render(&state, &s, t, &f, outcome).await
        }
        Ok(Once::Busy) => {
            let problem = Some(t.t("sale-already-sent"));
            let outcome = Outcome::refused(StatusCode::CONFLICT, Vec::new(), problem);
            render(&state, &s, t, &f, outcome).await
        }
        Err(e) => server_error(&t, &e),
    }
}
