//! The compliance calendar (`/compliance/calendar?month=YYYY-MM`, the compliance scope):
//! the month's statutory duties by deadline, each with its state and how many of its items
//! are done, the months before and after, and the month's inspection pack
//! (`/compliance/inspection-pack?month=…`, a ZIP). The same use cases as
//! `GET /v1/compliance/calendar` and `/v1/compliance/inspection-pack`.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{IntoResponse, Request, Response, handler};

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
        Ok(zip) => zip
            .with_content_type("application/zip")
            .with_header(
                "Content-Disposition",
                format!(
                    "attachment; filename=\"innkeep-inspection-{}.zip\"",
                    first.format("%Y-%m")
                ),
            )
            .into_response(),
        Err(e) => server_error(&t, &e),
    }
}
