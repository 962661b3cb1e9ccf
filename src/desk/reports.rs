//! Reports (`/reports`, the `reports:read` scope): a month's occupancy night by night, as
//! a bar chart drawn on the server and a table, with its totals (occupancy, ADR, RevPAR,
//! room revenue), the months before and after, and the CSV (`/reports/occupancy.csv`).
//! The same use case as `GET /v1/reports/occupancy`.

use std::sync::Arc;

use askama::Template;
use chrono::{Datelike, NaiveDate};
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::chart::{Bar, percent_bars};
use super::{DeskState, REPORTS, Shell, open, or_answer, page, server_error};
use crate::i18n::{Arg, T};
use crate::model::{Date, OccupancyReport, OccupancyRow, ReportBy};
use crate::service::reports;

#[derive(Template)]
#[template(path = "desk/reports.html")]
struct ReportPage {
    shell: Shell,
    title: String,
    /// `2026-11`.
    month: String,
    previous: String,
    next: String,
    /// (label, value) of the month's totals.
    totals: Vec<(String, String)>,
    chart: String,
    /// A row per night: date, sold of available, occupancy, revenue, ADR, RevPAR.
    rows: Vec<[String; 6]>,
    /// Revenue invoiced: (department, net, VAT, gross), the total last.
    revenue: Vec<[String; 4]>,
    /// By VAT rate: (rate, net, VAT, gross).
    vat: Vec<[String; 4]>,
    /// Payments by method: (method, received, given back, net).
    payments: Vec<[String; 4]>,
    /// Bookings made by source: (source, made, cancelled, nights, revenue, lead time).
    bookings: Vec<[String; 6]>,
    /// Whether to offer Italy's ISTAT report: in Italy, or where the country is not set.
    istat: bool,
}

/// The bookings made in the month, by source, in words.
async fn booking_table(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: &T,
    span: (Date, Date),
) -> crate::error::AppResult<Vec<[String; 6]>> {
    let r = crate::service::money_reports::bookings(&state.svc, &s.principal, span).await?;
    Ok(r.rows
        .iter()
        .map(|x| {
            let source = match &x.channel {
                Some(site) => site.clone(),
                None => t.t(&format!("source-{}", x.source)),
            };
            [
                source,
                x.bookings.to_string(),
                x.cancelled.to_string(),
                x.nights.to_string(),
                t.money(x.room_revenue, &r.currency),
                t.n("report-days", x.lead_time_days.round() as i64),
            ]
        })
        .collect())
}

/// The month's revenue by department and VAT rate, and its payments by method, in words.
#[allow(clippy::type_complexity)]
async fn money_tables(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: &T,
    span: (Date, Date),
) -> crate::error::AppResult<(Vec<[String; 4]>, Vec<[String; 4]>, Vec<[String; 4]>)> {
    use crate::service::money_reports;
    let r = money_reports::revenue(&state.svc, &s.principal, span).await?;
    let p = money_reports::payments(&state.svc, &s.principal, span).await?;
    let m = |v: i64| t.money(v, &r.currency);
    let name = |d: &crate::model::DepartmentRevenue| match d.department.as_str() {
        "rooms" | "city_tax" | "advances" | "other" => {
            t.t(&format!("report-dept-{}", d.department.replace('_', "-")))
        }
        _ => d
            .name
            .as_deref()
            .and_then(|n| serde_json::from_str::<serde_json::Value>(n).ok())
            .and_then(|n| {
                n[t.lang().tag()]
                    .as_str()
                    .or_else(|| n["en"].as_str())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| d.department.trim_start_matches("extra:").to_string()),
    };
    let mut revenue: Vec<[String; 4]> = r
        .departments
        .iter()
        .map(|d| {
            [
                name(d),
                m(d.amounts.net),
                m(d.amounts.tax),
                m(d.amounts.gross),
            ]
        })
        .collect();
    revenue.push([
        t.t("report-total"),
        m(r.total.net),
        m(r.total.tax),
        m(r.total.gross),
    ]);
    let vat = r
        .vat
        .iter()
        .map(|v| {
            [
                crate::printed::rate(v.tax_rate),
                m(v.amounts.net),
                m(v.amounts.tax),
                m(v.amounts.gross),
            ]
        })
        .collect();
    let payments = p
        .methods
        .iter()
        .map(|x| {
            [
                t.t(&format!("payment-{}", x.method)),
                m(x.received),
                m(x.refunded),
                m(x.net),
            ]
        })
        .collect();
    Ok((revenue, vat, payments))
}

/// The month asked for (`?month=2026-11`), else the property's current one: its first day.
pub(super) fn month_of(req: &Request, today: NaiveDate) -> NaiveDate {
    req.uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("month=")))
        .and_then(|m| NaiveDate::parse_from_str(&format!("{m}-01"), "%Y-%m-%d").ok())
        .unwrap_or_else(|| today.with_day(1).unwrap_or(today))
}

/// The first day of the month after `first`'s.
pub(super) fn after(first: NaiveDate) -> NaiveDate {
    first
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(first)
}

fn percent(t: &T, r: &OccupancyRow) -> String {
    // The decimal comma where the language writes one.
    let comma = t.lang() != crate::i18n::Lang::En;
    r.occupancy_percent
        .map(|p| {
            let v = format!("{p:.1} %");
            if comma { v.replace('.', ",") } else { v }
        })
        .unwrap_or_else(|| "–".into())
}

fn table(t: &T, r: &OccupancyReport) -> Vec<[String; 6]> {
    let money = |v: Option<i64>| {
        v.map(|v| t.money(v, &r.currency))
            .unwrap_or_else(|| "–".into())
    };
    r.rows
        .iter()
        .map(|x| {
            let day = NaiveDate::parse_from_str(&x.period, "%Y-%m-%d")
                .map(|d| t.short_date(d))
                .unwrap_or_else(|_| x.period.clone());
            [
                day,
                t.with(
                    "report-sold-of",
                    &[
                        ("sold", Arg::Num(x.rooms_sold)),
                        ("available", Arg::Num(x.rooms_available)),
                    ],
                ),
                percent(t, x),
                t.money(x.room_revenue, &r.currency),
                money(x.adr),
                money(x.revpar),
            ]
        })
        .collect()
}

/// `GET /reports?month=YYYY-MM`.
#[handler]
pub async fn occupancy(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let first = month_of(req, s.today);
    let span = (Date(first), Date(after(first)));
    let r = match reports::occupancy(&state.svc, &s.principal, span, ReportBy::Night).await {
        Ok(r) => r,
        Err(e) => return server_error(&t, &e),
    };
    let money = |v: Option<i64>| {
        v.map(|v| t.money(v, &r.currency))
            .unwrap_or_else(|| "–".into())
    };
    let totals = vec![
        (t.t("report-occupancy"), percent(&t, &r.total)),
        (t.t("report-adr"), money(r.total.adr)),
        (t.t("report-revpar"), money(r.total.revpar)),
        (
            t.t("report-revenue"),
            t.money(r.total.room_revenue, &r.currency),
        ),
        (
            t.t("report-room-nights"),
            t.with(
                "report-sold-of",
                &[
                    ("sold", Arg::Num(r.total.rooms_sold)),
                    ("available", Arg::Num(r.total.rooms_available)),
                ],
            ),
        ),
    ];
    let month_name = t.month_year(first);
    let title = t.with("report-title", &[("month", Arg::Text(month_name.clone()))]);
    let bars: Vec<Bar> = r
        .rows
        .iter()
        .enumerate()
        .map(|(i, x)| Bar {
            label: if i % 7 == 0 {
                (i + 1).to_string()
            } else {
                String::new()
            },
            tenths: x.occupancy_percent.map_or(0, |p| (p * 10.0).round() as i64),
            said: format!("{}: {}", x.period, percent(&t, x)),
        })
        .collect();
    let chart = percent_bars(
        &t.with("report-chart", &[("month", Arg::Text(month_name))]),
        &bars,
    );
    let before = first
        .checked_sub_months(chrono::Months::new(1))
        .unwrap_or(first);
    let (revenue, vat, payments) = match money_tables(&state, &s, &t, span).await {
        Ok(x) => x,
        Err(e) => return server_error(&t, &e),
    };
    let bookings = match booking_table(&state, &s, &t, span).await {
        Ok(x) => x,
        Err(e) => return server_error(&t, &e),
    };
    let istat = match crate::service::settings::country(&state.svc).await {
        Ok(country) => country.is_none_or(|c| c == "IT"),
        Err(e) => return server_error(&t, &e),
    };
    let body = ReportPage {
        istat,
        rows: table(&t, &r),
        title,
        month: first.format("%Y-%m").to_string(),
        previous: before.format("%Y-%m").to_string(),
        next: after(first).format("%Y-%m").to_string(),
        totals,
        chart,
        revenue,
        vat,
        payments,
        bookings,
        shell: Shell::new(&s, t, "reports").after(req),
    };
    page(StatusCode::OK, &body)
}

/// `GET /reports/occupancy.csv?month=YYYY-MM`: the month night by night, as CSV.
#[handler]
pub async fn csv(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let first = month_of(req, s.today);
    let span = (Date(first), Date(after(first)));
    match reports::occupancy(&state.svc, &s.principal, span, ReportBy::Night).await {
        Ok(r) => super::download(
            reports::occupancy_csv(&r),
            "text/csv; charset=utf-8",
            &format!("occupancy-{}.csv", first.format("%Y-%m")),
        ),
        Err(e) => server_error(&t, &e),
    }
}
