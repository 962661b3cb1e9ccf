//! Reports › City tax (`/reports/city-tax?quarter=2026-4`, `reports:read`): a quarter's
//! guest-nights month by month, exempt by age or beyond the cap, taxed, what they come to
//! and what the invoices billed, for the municipality's return. The same use case as
//! `GET /v1/reports/city-tax`.

use std::sync::Arc;

use askama::Template;
use chrono::Datelike;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, REPORTS, Shell, open, or_answer, page, server_error};
use crate::i18n::Arg;
use crate::service::city_tax;

#[derive(Template)]
#[template(path = "desk/city_tax.html")]
struct CityTaxPage {
    shell: Shell,
    title: String,
    previous: String,
    next: String,
    /// (label, value) of the rules in force.
    rules: Vec<(String, String)>,
    /// Month, stays, guest-nights, exempt by age, beyond the cap, taxed, due, billed.
    rows: Vec<[String; 8]>,
}

/// The quarter asked for (`?quarter=2026-4`), else the current one.
fn quarter_of(req: &Request, today: chrono::NaiveDate) -> (i32, u32) {
    req.uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("quarter=")))
        .and_then(|q| q.split_once('-'))
        .and_then(|(y, q)| Some((y.parse().ok()?, q.parse().ok()?)))
        .filter(|(_, q): &(i32, u32)| (1..=4).contains(q))
        .unwrap_or((today.year(), today.month0() / 3 + 1))
}

/// `GET /reports/city-tax?quarter=YYYY-Q`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let (year, quarter) = quarter_of(req, s.today);
    let r = match city_tax::report(&state.svc, &s.principal, year, quarter).await {
        Ok(r) => r,
        Err(e) => return server_error(&t, &e),
    };
    let money = |m: i64| t.money(m, &r.currency);
    let none = || "–".to_string();
    let rules = vec![
        (t.t("city-tax-rate"), money(r.rate)),
        (
            t.t("city-tax-cap"),
            r.max_nights.map_or_else(none, |n| n.to_string()),
        ),
        (
            t.t("city-tax-age"),
            r.exempt_under_age.map_or_else(none, |a| a.to_string()),
        ),
    ];
    let rows = r
        .months
        .iter()
        .chain([&r.total])
        .map(|m| {
            let name =
                match chrono::NaiveDate::parse_from_str(&format!("{}-01", m.month), "%Y-%m-%d") {
                    Ok(d) => t.month_year(d),
                    Err(_) => t.t("report-total"),
                };
            [
                name,
                m.stays.to_string(),
                m.person_nights.to_string(),
                m.exempt_age.to_string(),
                m.exempt_beyond_cap.to_string(),
                m.taxed.to_string(),
                money(m.due),
                money(m.billed),
            ]
        })
        .collect();
    let step = |back: bool| {
        let (y, q) = match (back, quarter) {
            (true, 1) => (year - 1, 4),
            (true, q) => (year, q - 1),
            (false, 4) => (year + 1, 1),
            (false, q) => (year, q + 1),
        };
        format!("{y}-{q}")
    };
    let body = CityTaxPage {
        title: t.with(
            "city-tax-title",
            &[
                ("quarter", Arg::Num(quarter.into())),
                ("year", Arg::Num(year.into())),
            ],
        ),
        previous: step(true),
        next: step(false),
        rules,
        rows,
        shell: Shell::new(&s, t, "reports").after(req),
    };
    page(StatusCode::OK, &body)
}
