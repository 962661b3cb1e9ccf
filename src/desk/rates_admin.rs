//! Administration › Rates (`/admin/rates`): a grid of every room type's plans over two
//! weeks, each night's price with its restrictions in words, and one form that changes a
//! range of nights on chosen weekdays (price, minimum stay, closed to arrival, stop-sell).
//! The use cases are those of `/v1/rate-plans` and `/v1/rates`; a refusal is shown next to
//! its field with what was typed kept.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use chrono::{Days, NaiveDate};
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::{DeskSession, DeskState, Outcome, Shell, open_admin, open_admin_post, or_answer};
use super::{page, server_error, web};
use crate::domain::money::parse_amount;
use crate::domain::pricing::Weekday;
use crate::error::FieldError;
use crate::i18n::T;
use crate::model::RatesUpdate;
use crate::model::input::FromJson;
use crate::service::{PageRequest, rate_plans, rates, room_types};

/// Nights the grid shows.
const SPAN: u64 = 14;

/// One night of a plan's row.
struct Cell {
    price: String,
    /// The restrictions in words (empty: none).
    notes: Vec<String>,
    /// Not sold that night.
    stopped: bool,
    weekend: bool,
}

/// A plan's row: its room type and name, and its nights.
struct Row {
    room_type: String,
    plan: String,
    cells: Vec<Cell>,
}

#[derive(Template)]
#[template(path = "desk/rates_admin.html")]
struct RatesPage {
    shell: Shell,
    problem: Option<String>,
    from: String,
    earlier: String,
    later: String,
    /// Column heads: (day, weekend).
    days: Vec<(String, bool)>,
    rows: Vec<Row>,
    /// (id, label) of every plan.
    plans: Vec<(String, String)>,
    /// What the form holds, by field.
    typed: HashMap<String, String>,
    /// (value, label, ticked) of the weekday boxes.
    weekdays: Vec<(String, String, bool)>,
    /// The form's errors, by field.
    errors: HashMap<String, String>,
}

impl RatesPage {
    fn typed(&self, name: &str) -> &str {
        self.typed.get(name).map_or("", String::as_str)
    }
    fn error(&self, name: &str) -> Option<&String> {
        self.errors.get(name)
    }
}

fn day_of(v: Option<&String>) -> Option<NaiveDate> {
    v.and_then(|s| s.parse().ok())
}

/// The restrictions of a night, in words.
fn notes(t: &T, n: &crate::model::RateNight) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = n.min_stay_arrival {
        out.push(t.n("rates-min-stay", m));
    }
    if let Some(m) = n.min_stay_through {
        out.push(t.n("rates-min-through", m));
    }
    if let Some(m) = n.max_stay {
        out.push(t.n("rates-max-stay", m));
    }
    if n.closed_to_arrival {
        out.push(t.t("rates-no-arrival"));
    }
    if n.closed_to_departure {
        out.push(t.t("rates-no-departure"));
    }
    out
}

async fn grid(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    from: NaiveDate,
    typed: HashMap<String, String>,
    outcome: Outcome,
) -> Response {
    let t = &shell.t;
    let p = &s.principal;
    let to = from + Days::new(SPAN - 1);
    let (types, plans) = match (
        room_types::list(&state.svc, p, PageRequest::first(1000)).await,
        rate_plans::list(&state.svc, p, PageRequest::first(1000)).await,
    ) {
        (Ok(ty), Ok(pl)) => (ty.items, pl.items),
        (Err(e), _) | (_, Err(e)) => return server_error(t, &e),
    };
    let mut rows = Vec::new();
    let mut choices = Vec::new();
    for (rt, _) in &types {
        for (plan, _) in plans.iter().filter(|(pl, _)| pl.room_type_id == rt.id) {
            let name = plan.name.in_language(t.lang().tag());
            choices.push((plan.id.clone(), format!("{} · {name}", rt.name)));
            let nights = match rates::get(&state.svc, p, plan.id.clone(), from, to).await {
                Ok(c) => c.data,
                Err(e) => return server_error(t, &e),
            };
            let cells = nights
                .iter()
                .map(|n| Cell {
                    price: t.money(n.price, &rt.currency),
                    notes: notes(t, n),
                    stopped: n.stop_sell,
                    weekend: crate::domain::pricing::Weekday::of(n.date.0) >= Weekday::Sat,
                })
                .collect();
            rows.push(Row {
                room_type: rt.name.clone(),
                plan: format!("{name} ({})", plan.code),
                cells,
            });
        }
    }
    let ticked: Vec<String> = typed
        .get("weekdays")
        .map(|w| w.split(',').map(str::to_string).collect())
        .unwrap_or_else(|| Weekday::NAMES.iter().map(|w| w.to_string()).collect());
    let weekdays = Weekday::ALL
        .iter()
        .map(|w| {
            let v = w.as_str().to_string();
            let on = ticked.contains(&v);
            (v.clone(), t.t(&format!("rates-day-{v}")), on)
        })
        .collect();
    let days = (0..SPAN)
        .map(|i| from + Days::new(i))
        .map(|d| (t.day_head(d), Weekday::of(d) >= Weekday::Sat))
        .collect();
    let errors = outcome
        .errors
        .iter()
        .map(|e| (e.field.clone(), super::rules::say(t, e)))
        .collect();
    // The range offered by default is the fortnight shown.
    let mut typed = typed;
    typed
        .entry("from".into())
        .or_insert_with(|| from.to_string());
    typed.entry("to".into()).or_insert_with(|| to.to_string());
    let body = RatesPage {
        problem: outcome.problem.clone(),
        from: from.to_string(),
        earlier: (from - Days::new(SPAN)).to_string(),
        later: (from + Days::new(SPAN)).to_string(),
        days,
        rows,
        plans: choices,
        typed,
        weekdays,
        errors,
        shell,
    };
    page(outcome.status, &body)
}

/// `GET /admin/rates` (`?from=` the first night shown, default today).
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let query: HashMap<String, String> = req.params().unwrap_or_default();
    let today = s.today;
    let from = day_of(query.get("from")).unwrap_or(today);
    let shell = Shell::new(&s, t, "admin").after(req);
    grid(&state, &s, shell, from, HashMap::new(), Outcome::fresh()).await
}

/// The form as the API reads it: only what was typed is changed; `-` as a flag leaves it.
fn body_of(f: &HashMap<String, String>, t: &T, errors: &mut Vec<FieldError>) -> Value {
    let mut out = json!({
        "rate_plan_id": f.get("rate_plan_id").cloned().unwrap_or_default(),
        "from": f.get("from").cloned().unwrap_or_default(),
        "to": f.get("to").cloned().unwrap_or_default(),
        "weekdays": f.get("weekdays").map(|w| w.split(',').filter(|x| !x.is_empty()).collect::<Vec<_>>()).unwrap_or_default(),
    });
    let typed = |name: &str| f.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    if let Some(p) = typed("price") {
        match parse_amount(p) {
            Some(n) => out["price"] = json!(n),
            None => errors.push(FieldError::new("price", "invalid", t.t("error-amount"))),
        }
    }
    if let Some(m) = typed("min_stay_arrival") {
        out["min_stay_arrival"] = match m.parse::<i64>() {
            Ok(0) => Value::Null,
            Ok(n) => json!(n),
            Err(_) => json!(m),
        };
    }
    for flag in ["closed_to_arrival", "stop_sell"] {
        match typed(flag) {
            Some("on") => out[flag] = json!(true),
            Some("off") => out[flag] = json!(false),
            _ => {}
        }
    }
    out
}

/// `POST /admin/rates`: changes the range; back to the grid at its first night.
#[handler]
pub async fn save(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, mut f) = or_answer!(open_admin_post(req, body, &state).await);
    // The weekday boxes come as repeated fields; the form keeps them joined.
    let picked: Vec<&str> = Weekday::NAMES
        .iter()
        .copied()
        .filter(|w| f.contains_key(&format!("day-{w}")))
        .collect();
    f.insert("weekdays".into(), picked.join(","));
    let mut errors = Vec::new();
    let input = body_of(&f, &t, &mut errors);
    let mut api = Vec::new();
    let parsed = RatesUpdate::from_json(&input, "", &mut api);
    super::admin_form::merge(&mut errors, api);
    let done = match parsed {
        Some(i) if errors.is_empty() => Some(rates::update(&state.svc, &s.principal, i).await),
        _ => None,
    };
    let from = day_of(f.get("from")).unwrap_or(s.today);
    let outcome = match done {
        Some(Ok(_)) => {
            let to = format!("/admin/rates?from={from}&done=rates-changed");
            return web::redirect(StatusCode::SEE_OTHER, &to);
        }
        Some(Err(e)) if !e.errors.is_empty() => refused(&t, e.errors),
        Some(Err(e)) => return server_error(&t, &e),
        None => refused(&t, errors),
    };
    let shell = Shell::new(&s, t, "admin");
    grid(&state, &s, shell, from, f, outcome).await
}

fn refused(t: &T, errors: Vec<FieldError>) -> Outcome {
    let problem = Some(t.n("form-errors", errors.len() as i64));
    Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem)
}
