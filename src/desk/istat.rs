//! Reports › ISTAT movement (`/reports/istat?month=YYYY-MM`, `reports:read`): the month's
//! guests by residence (arrivals and nights) and day by day (arrivals, departures, guests
//! present, rooms occupied), as ISTAT's model C/59 asks, ready to copy onto the region's
//! platform or to print; the CSV at `/reports/istat.csv`. The same use case as
//! `GET /v1/reports/istat`.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::reports::month_of;
use super::{DeskState, REPORTS, Shell, open, or_answer, page, server_error};
use crate::i18n::Arg;
use crate::service::istat;

#[derive(Template)]
#[template(path = "desk/istat.html")]
struct IstatPage {
    shell: Shell,
    title: String,
    month: String,
    previous: String,
    next: String,
    /// (label, value).
    totals: Vec<(String, String)>,
    /// (residence in words, arrivals, nights).
    residences: Vec<[String; 3]>,
    unknown: bool,
    /// (day, arrivals, departures, present, rooms).
    days: Vec<[String; 5]>,
    /// With `[compliance.istat]`: the guests the Ross1000 file leaves out (reservation id,
    /// code, guest, what to fix).
    left_out: Option<Vec<[String; 4]>>,
}

/// `GET /reports/istat?month=YYYY-MM`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let first = month_of(req, s.today);
    let month = first.format("%Y-%m").to_string();
    let r = match istat::movement(&state.svc, &s.principal, month.clone()).await {
        Ok(r) => r,
        Err(e) => return server_error(&t, &e),
    };
    let residences = r
        .residences
        .iter()
        .map(|x| {
            let name = match x.residence.as_str() {
                "unknown" => t.t("istat-unknown"),
                "IT" => t.t("istat-italy"),
                code => match code.strip_prefix("IT-") {
                    Some(p) => t.with("istat-province", &[("code", Arg::Text(p.into()))]),
                    None => t.country(code),
                },
            };
            [name, x.arrivals.to_string(), x.nights.to_string()]
        })
        .collect();
    let days = r
        .days
        .iter()
        .map(|d| {
            [
                t.short_date(d.date.0),
                d.arrivals.to_string(),
                d.departures.to_string(),
                d.present.to_string(),
                d.rooms_occupied.to_string(),
            ]
        })
        .collect();
    let left_out = match state.svc.istat_structure() {
        None => None,
        Some(_) => {
            match crate::service::ross1000::file(&state.svc, &s.principal, month.clone()).await {
                Ok((_, left)) => Some(
                    left.into_iter()
                        .map(|l| [l.reservation_id, l.code, l.guest, l.problem])
                        .collect(),
                ),
                Err(e) => return server_error(&t, &e),
            }
        }
    };
    let totals = vec![
        (t.t("istat-arrivals"), r.arrivals.to_string()),
        (t.t("istat-nights"), r.nights.to_string()),
        (t.t("istat-rooms"), r.rooms.to_string()),
        (t.t("istat-beds"), r.beds.to_string()),
    ];
    let around = |m: i32| {
        let d = if m < 0 {
            first.checked_sub_months(chrono::Months::new(1))
        } else {
            first.checked_add_months(chrono::Months::new(1))
        };
        d.unwrap_or(first).format("%Y-%m").to_string()
    };
    let body = IstatPage {
        title: t.with("istat-title", &[("month", Arg::Text(t.month_year(first)))]),
        previous: around(-1),
        next: around(1),
        month,
        totals,
        unknown: r.residences.iter().any(|x| x.residence == "unknown"),
        residences,
        days,
        left_out,
        shell: Shell::new(&s, t, "reports").after(req),
    };
    page(StatusCode::OK, &body)
}

/// `GET /reports/istat.csv?month=YYYY-MM`.
#[handler]
pub async fn csv(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let month = month_of(req, s.today).format("%Y-%m").to_string();
    match istat::movement(&state.svc, &s.principal, month.clone()).await {
        Ok(r) => super::download(
            istat::csv(&r),
            "text/csv; charset=utf-8",
            &format!("istat-{month}.csv"),
        ),
        Err(e) => server_error(&t, &e),
    }
}

/// `GET /reports/istat/ross1000.xml?month=YYYY-MM`: the month's file for Ross1000.
#[handler]
pub async fn ross1000_file(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let month = month_of(req, s.today).format("%Y-%m").to_string();
    match crate::service::ross1000::file(&state.svc, &s.principal, month.clone()).await {
        Ok((xml, _)) => super::download(
            xml,
            "text/xml; charset=utf-8",
            &format!("ross1000-{month}.xml"),
        ),
        Err(e) => server_error(&t, &e),
    }
}
