//! The compliance calendar (`/compliance/calendar?month=YYYY-MM`, the compliance scope):
//! the month's statutory duties by deadline, each with its state and how many of its items
//! are done, the months before and after, and the month's inspection pack
//! (`/compliance/inspection-pack?month=…`, a ZIP). The same use cases as
//! `GET /v1/compliance/calendar` and `/v1/compliance/inspection-pack`.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::reports::{after, month_of};
use super::{COMPLIANCE, DeskState, Shell, open, or_answer, page, server_error};
use crate::domain::calendar::DutyState;
use crate::i18n::Arg;
use crate::model::Date;
use crate::service::calendar;

#[derive(Template)]
#[template(path = "desk/calendar.html")]
struct CalendarPage {
    shell: Shell,
    title: String,
    month: String,
    previous: String,
    next: String,
    /// (deadline, duty, period, state, state's class, done of count).
    rows: Vec<[String; 6]>,
    manual: bool,
    /// The month's receipts from the registration authority: (day, day in words, fetched).
    receipts: Vec<[String; 3]>,
}

/// `GET /compliance/calendar?month=YYYY-MM`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, COMPLIANCE).await);
    let first = month_of(req, s.today);
    let span = (Date(first), Date(after(first)));
    let cal = match calendar::calendar(&state.svc, &s.principal, span).await {
        Ok(c) => c,
        Err(e) => return server_error(&t, &e),
    };
    let manual = cal
        .duties
        .iter()
        .any(|d| matches!(d.state, DutyState::Manual | DutyState::Upcoming));
    let rows = cal
        .duties
        .iter()
        .map(|d| {
            [
                t.short_date(d.due.0),
                t.t(&format!("duty-{}", d.duty.as_str())),
                d.period.clone(),
                t.t(&format!("duty-state-{}", d.state.as_str())),
                d.state.as_str().to_string(),
                if matches!(d.state, DutyState::Manual | DutyState::Upcoming) {
                    "–".to_string()
                } else {
                    t.with(
                        "duty-done-of",
                        &[("done", Arg::Num(d.done)), ("count", Arg::Num(d.count))],
                    )
                },
            ]
        })
        .collect();
    let receipts =
        match crate::service::registration_receipts::list(&state.svc, &s.principal, span).await {
            Ok(list) => list
                .into_iter()
                .map(|r| {
                    let words = r
                        .day
                        .parse()
                        .map_or_else(|_| r.day.clone(), |d| t.short_date(d));
                    let fetched = crate::clock::local_time(&r.fetched_at, &s.time_zone)
                        .map_or_else(|| r.fetched_at.clone(), |(d, at)| t.moment(d, at));
                    [r.day, words, fetched]
                })
                .collect(),
            Err(e) => return server_error(&t, &e),
        };
    let month_name = t.month_year(first);
    let previous = first
        .checked_sub_months(chrono::Months::new(1))
        .unwrap_or(first);
    let body = CalendarPage {
        title: t.with("calendar-title", &[("month", Arg::Text(month_name))]),
        month: first.format("%Y-%m").to_string(),
        previous: previous.format("%Y-%m").to_string(),
        next: after(first).format("%Y-%m").to_string(),
        rows,
        manual,
        receipts,
        shell: Shell::new(&s, t, "admin").after(req),
    };
    page(StatusCode::OK, &body)
}

/// `GET /compliance/inspection-pack?month=YYYY-MM`: the month's proofs as a ZIP.
#[handler]
pub async fn pack(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, COMPLIANCE).await);
    let first = month_of(req, s.today);
    let span = (Date(first), Date(after(first)));
    match calendar::inspection_pack(&state.svc, &s.principal, span).await {
        Ok(zip) => super::download(
            zip,
            "application/zip",
            &format!("innkeep-inspection-{}.zip", first.format("%Y-%m")),
        ),
        Err(e) => server_error(&t, &e),
    }
}

/// `GET /compliance/receipts/{date}`: a day's receipt from the registration authority.
#[handler]
pub async fn receipt(
    req: &Request,
    poem::web::Path(date): poem::web::Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, COMPLIANCE).await);
    let Ok(day) = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d") else {
        let e = crate::error::AppError::not_found("registration receipt", &date);
        return super::failed_read(
            &t,
            &e,
            "not-found-receipt",
            ("/compliance/calendar", "calendar-link"),
        );
    };
    match crate::service::registration_receipts::get(&state.svc, &s.principal, Date(day)).await {
        Ok(pdf) => super::download(pdf, "application/pdf", &format!("ricevuta-{day}.pdf")),
        Err(e) => super::failed_read(
            &t,
            &e,
            "not-found-receipt",
            ("/compliance/calendar", "calendar-link"),
        ),
    }
}
