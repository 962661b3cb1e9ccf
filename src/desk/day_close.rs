//! Close the day (`/day-close`, the `night_audit` scope): one page that walks through the
//! night audit in order: the arrivals that did not come (ticked to become no-shows), the
//! guests due out still in, the rooms that will turn dirty, the cash drawer counted against
//! the cash recorded, what the authorities have not accepted yet, and a note; then "Close
//! the day". The same use cases as `GET` and `POST /v1/day-close`.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde::Deserialize;

use super::{DeskState, NIGHT_AUDIT, Shell, open, open_form, or_answer, page, server_error};
use crate::domain::money::parse_amount;
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{DayCloseInput, DayClosePlan, DayReservation};
use crate::service::day_close;

/// The form as typed.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DayCloseForm {
    /// The cash counted, as people write amounts.
    cash_counted: String,
    /// The note.
    note: String,
}

/// An arrival still expected: its tick box's name, whether ticked, and its words.
struct Arrival {
    name: String,
    ticked: bool,
    code: String,
    id: String,
    guest: String,
    stay: String,
}

#[derive(Template)]
#[template(path = "desk/day_close.html")]
struct DayClosePage {
    shell: Shell,
    title: String,
    ready: bool,
    /// "Not over yet" or the last day closed, in words.
    status: String,
    problem: Option<String>,
    arrivals: Vec<Arrival>,
    /// (reservation id, code, guest, room, departure).
    departures: Vec<[String; 5]>,
    rooms: String,
    cash_recorded: String,
    cash_counted: String,
    cash_error: Option<String>,
    note: String,
    note_error: Option<String>,
    /// (what, where it stands, deadline).
    pending: Vec<[String; 3]>,
    /// The button: "Close Friday 27 November".
    button: String,
}

/// What was typed, to show again.
#[derive(Default)]
struct Typed {
    form: DayCloseForm,
    ticked: Vec<String>,
    cash_error: Option<String>,
    note_error: Option<String>,
    problem: Option<String>,
}

fn stay(t: &T, r: &DayReservation) -> String {
    format!(
        "{} – {}",
        t.short_date(r.arrival.0),
        t.short_date(r.departure.0)
    )
}

fn build(t: &T, time_zone: &str, plan: &DayClosePlan, typed: Typed, shell: Shell) -> DayClosePage {
    let day = t.date(plan.date.0);
    let title = t.with("day-close-title", &[("date", Arg::Text(day.clone()))]);
    let status = match (&plan.last_closed, plan.ready) {
        (_, false) => t.with("day-close-not-over", &[("date", Arg::Text(day.clone()))]),
        (Some(last), true) => t.with("day-close-last", &[("date", Arg::Text(t.date(last.0)))]),
        (None, true) => t.t("day-close-first"),
    };
    let arrivals = plan
        .arrivals_waiting
        .iter()
        .map(|r| Arrival {
            name: format!("no_show_{}", r.reservation_id),
            ticked: typed.ticked.contains(&r.reservation_id),
            code: r.code.clone(),
            id: r.reservation_id.clone(),
            guest: r.guest.clone(),
            stay: stay(t, r),
        })
        .collect();
    let departures = plan
        .departures_open
        .iter()
        .map(|r| {
            [
                r.reservation_id.clone(),
                r.code.clone(),
                r.guest.clone(),
                r.room.clone().unwrap_or_default(),
                t.short_date(r.departure.0),
            ]
        })
        .collect();
    let pending = plan
        .pending
        .iter()
        .map(|p| {
            [
                t.t(&format!("submission-kind-{}", p.kind.as_str())),
                t.t(&format!("submission-{}", p.status.as_str())),
                crate::clock::local_time(&p.due_at.0, time_zone)
                    .map_or_else(|| p.due_at.0.clone(), |(d, at)| t.moment(d, at)),
            ]
        })
        .collect();
    let cash_counted = if typed.form.cash_counted.is_empty() && typed.problem.is_none() {
        String::new()
    } else {
        typed.form.cash_counted
    };
    DayClosePage {
        button: t.with("day-close-button", &[("date", Arg::Text(day))]),
        title,
        ready: plan.ready,
        status,
        problem: typed.problem,
        arrivals,
        departures,
        rooms: plan.rooms_to_clean.join(", "),
        cash_recorded: t.money(plan.cash_recorded, &plan.currency),
        cash_counted,
        cash_error: typed.cash_error,
        note: typed.form.note,
        note_error: typed.note_error,
        pending,
        shell,
    }
}

async fn show_with(
    req: &Request,
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    t: T,
    typed: Typed,
    status: StatusCode,
) -> Response {
    let plan = match day_close::plan(&state.svc, &s.principal).await {
        Ok(p) => p,
        Err(e) => return server_error(&t, &e),
    };
    let shell = Shell::new(s, t, "reports").after(req);
    page(status, &build(&t, &s.time_zone, &plan, typed, shell))
}

/// `GET /day-close`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, NIGHT_AUDIT).await);
    show_with(req, &state, &s, t, Typed::default(), StatusCode::OK).await
}

/// The reservations ticked as no-shows (`no_show_{id}` boxes).
fn ticked(typed: &HashMap<String, String>) -> Vec<String> {
    let mut ids: Vec<String> = typed
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .filter_map(|(k, _)| k.strip_prefix("no_show_").map(str::to_string))
        .collect();
    ids.sort();
    ids
}

/// `POST /day-close`: closes the day, then shows its certificate.
#[handler]
pub async fn close(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<DayCloseForm>(req, body, &state, NIGHT_AUDIT).await);
    let mut typed = Typed {
        ticked: ticked(&posted.typed),
        ..Typed::default()
    };
    let cash = parse_amount(posted.fields.cash_counted.trim());
    typed.form = posted.fields;
    if typed.form.cash_counted.trim().is_empty() {
        typed.cash_error = Some(t.t("day-close-cash-needed"));
    } else if cash.is_none_or(|c| c < 0) {
        typed.cash_error = Some(t.t("error-amount"));
    }
    let input = serde_json::json!({
        "no_shows": typed.ticked,
        "cash_counted": cash,
        "note": typed.form.note.trim(),
    });
    let mut errors = Vec::new();
    let parsed = DayCloseInput::from_json(&input, "", &mut errors);
    if let Some(e) = errors.iter().find(|e| e.field == "note") {
        typed.note_error = Some(super::rules::say(&t, e));
    }
    let (Some(input), true, None) = (parsed, errors.is_empty(), &typed.cash_error) else {
        typed.problem = Some(t.t("day-close-fix"));
        return show_with(req, &state, &s, t, typed, StatusCode::UNPROCESSABLE_ENTITY).await;
    };
    match day_close::close(&state.svc, &s.principal, input).await {
        Ok(closed) => crate::web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/day-closes/{}?done=day-closed", closed.certificate.date.0),
        ),
        Err(e) if matches!(e.kind, Kind::Conflict | Kind::Unprocessable) => {
            let said: Vec<String> = e.errors.iter().map(|f| super::rules::say(&t, f)).collect();
            typed.problem = Some(match &e.said {
                Some(said) => said.say(&t),
                None if !said.is_empty() => said.join(" "),
                None => e.detail.clone(),
            });
            let status = super::stay_actions::status_of(&e);
            show_with(req, &state, &s, t, typed, status).await
        }
        Err(e) => server_error(&t, &e),
    }
}
