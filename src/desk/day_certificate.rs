//! The closed days (`/day-closes`) and a day's certificate (`/day-closes/{date}`), ready to
//! print: the figures, the cash drawer, the checks each passed or not, the no-shows, and
//! the hash that chains it to the day before, with whether the chain verifies. The same
//! use cases as `GET /v1/day-closes`.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Request, Response, handler};

use super::{DeskState, NIGHT_AUDIT, Shell, failed_read, open, or_answer, page, server_error};
use crate::i18n::{Arg, T};
use crate::model::{Date, DayClose};
use crate::service::{PageRequest, day_close};

/// Closed days listed, newest first.
const SHOWN: usize = 200;

#[derive(Template)]
#[template(path = "desk/day_closes.html")]
struct ListPage {
    shell: Shell,
    /// (date, day in words, occupancy, invoiced, checks passed, verified).
    rows: Vec<(String, String, String, String, String, bool)>,
}

#[derive(Template)]
#[template(path = "desk/day_certificate.html")]
struct CertificatePage {
    shell: Shell,
    title: String,
    verified: bool,
    /// (label, value).
    figures: Vec<(String, String)>,
    /// (method, net, count).
    payments: Vec<[String; 3]>,
    /// (label, value) of the cash drawer.
    cash: Vec<(String, String)>,
    /// (passed, check in words, what was found).
    checks: Vec<(bool, String, String)>,
    /// (code, guest, fee).
    no_shows: Vec<[String; 3]>,
    kept: String,
    departures: String,
    rooms: String,
    pending: usize,
    cash_register: Option<String>,
    note: Option<String>,
    closed: String,
    hash: String,
    previous: String,
}

fn occupancy(t: &T, tenths: Option<i64>) -> String {
    // The decimal comma where the language writes one.
    let mark = if t.lang() == crate::i18n::Lang::En {
        "."
    } else {
        ","
    };
    tenths.map_or_else(
        || "–".to_string(),
        |o| format!("{}{mark}{} %", o / 10, o % 10),
    )
}

/// `GET /day-closes`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, NIGHT_AUDIT).await);
    let all =
        match day_close::list(&state.svc, &s.principal, PageRequest::first(usize::MAX / 2)).await {
            Ok(p) => p.items,
            Err(e) => return server_error(&t, &e),
        };
    let rows = all
        .into_iter()
        .rev()
        .take(SHOWN)
        .map(|(d, _)| {
            let c = &d.certificate;
            let passed = c.checks.iter().filter(|x| x.passed).count();
            (
                c.date.0.to_string(),
                t.date(c.date.0),
                occupancy(&t, c.figures.occupancy_tenths),
                t.money(c.figures.invoiced, &c.currency),
                t.with(
                    "day-checks-passed",
                    &[
                        ("passed", Arg::Num(passed as i64)),
                        ("all", Arg::Num(c.checks.len() as i64)),
                    ],
                ),
                d.verified,
            )
        })
        .collect();
    let shell = Shell::new(&s, t, "reports").after(req);
    page(StatusCode::OK, &ListPage { shell, rows })
}

fn certificate(t: &T, time_zone: &str, d: DayClose, shell: Shell) -> CertificatePage {
    let c = d.certificate;
    let f = &c.figures;
    let money = |m: i64| t.money(m, &c.currency);
    let maybe = |m: Option<i64>| m.map_or_else(|| "–".to_string(), money);
    let count = |n: i64| n.to_string();
    let figures = vec![
        (t.t("report-occupancy"), occupancy(t, f.occupancy_tenths)),
        (
            t.t("report-room-nights"),
            t.with(
                "report-sold-of",
                &[
                    ("sold", Arg::Num(f.rooms_sold)),
                    ("available", Arg::Num(f.rooms_available)),
                ],
            ),
        ),
        (t.t("report-adr"), maybe(f.adr)),
        (t.t("report-revpar"), maybe(f.revpar)),
        (t.t("report-revenue"), money(f.room_revenue)),
        (t.t("day-arrivals"), count(f.arrivals)),
        (t.t("day-departures"), count(f.departures)),
        (t.t("day-no-shows"), count(f.no_shows)),
        (t.t("day-in-house"), count(f.in_house)),
        (
            t.t("day-invoices"),
            format!("{} · {}", f.invoices_issued, money(f.invoiced)),
        ),
        (
            t.t("day-credit-notes"),
            format!("{} · {}", f.credit_notes_issued, money(f.credited)),
        ),
    ];
    let payments = f
        .payments
        .iter()
        .map(|p| {
            [
                t.t(&format!("payment-{}", p.method)),
                money(p.net),
                p.count.to_string(),
            ]
        })
        .collect();
    let cash = vec![
        (t.t("day-cash-recorded"), money(c.cash.recorded)),
        (t.t("day-cash-counted"), maybe(c.cash.counted)),
        (t.t("day-cash-difference"), maybe(c.cash.difference)),
    ];
    let checks = c
        .checks
        .iter()
        .map(|x| {
            (
                x.passed,
                t.t(&format!("day-check-{}", x.check.as_str())),
                x.detail.clone(),
            )
        })
        .collect();
    let no_shows = c
        .no_shows
        .iter()
        .map(|r| [r.code.clone(), r.guest.clone(), maybe(r.fee)])
        .collect();
    let codes = |rs: &[crate::model::DayReservation]| {
        rs.iter()
            .map(|r| format!("{} ({})", r.code, r.guest))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let closed = crate::clock::local_time(&c.closed_at.0, time_zone)
        .map_or_else(|| c.closed_at.0.clone(), |(day, at)| t.moment(day, at));
    CertificatePage {
        title: t.with(
            "day-certificate-title",
            &[("date", Arg::Text(t.date(c.date.0)))],
        ),
        verified: d.verified,
        figures,
        payments,
        cash,
        checks,
        no_shows,
        kept: codes(&c.arrivals_kept),
        departures: codes(&c.departures_open),
        rooms: c.rooms_dirty.join(", "),
        pending: c.pending.len(),
        cash_register: c.cash_register.clone(),
        note: c.note.clone(),
        closed: t.with(
            "day-closed-by",
            &[
                ("when", Arg::Text(closed)),
                ("who", Arg::Text(c.closed_by.clone())),
            ],
        ),
        hash: d.hash,
        previous: c.previous_hash.unwrap_or_else(|| "–".to_string()),
        shell,
    }
}

/// `GET /day-closes/{date}`.
#[handler]
pub async fn show(
    req: &Request,
    Path(date): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, NIGHT_AUDIT).await);
    let Ok(day) = NaiveDate::parse_from_str(&date, "%Y-%m-%d") else {
        let e = crate::error::AppError::not_found("day close", &date);
        return failed_read(
            &t,
            &e,
            "not-found-day-close",
            ("/day-closes", "nav-day-closes"),
        );
    };
    match day_close::get(&state.svc, &s.principal, Date(day)).await {
        Ok(d) => {
            let shell = Shell::new(&s, t, "reports").after(req);
            page(StatusCode::OK, &certificate(&t, &s.time_zone, d, shell))
        }
        Err(e) => failed_read(
            &t,
            &e,
            "not-found-day-close",
            ("/day-closes", "nav-day-closes"),
        ),
    }
}
