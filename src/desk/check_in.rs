//! Screen 5, check-in (`/reservations/{id}/check-in`): choose the room (free, clean rooms of
//! the booked type first) and, when a registration scheme is on, complete every guest's
//! registration fields on the same page. The server's `registration_incomplete` errors
//! appear next to the fields they name, so the receptionist completes them and tries again
//! without leaving the page; nothing typed is lost. It calls the same use cases as
//! `PUT /v1/guests/{id}` and `POST /v1/check-in`.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::guest_form::{self, FormField, REGISTRATION};
use super::{
    DeskState, Outcome, Shell, failed_read, open, open_post, or_answer, page, server_error,
};
use crate::error::{AppError, FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{CheckIn, GuestUpdate};
use crate::service::desk::DeskSession;
use crate::service::{IfMatch, desk_views, guests, reservations, stays};
use crate::web;

/// One guest's part of the form.
struct GuestPart {
    name: String,
    prefix: String,
    version: i64,
    fields: Vec<FormField>,
}

#[derive(Template)]
#[template(path = "desk/check_in.html")]
struct CheckInPage {
    shell: Shell,
    title: String,
    id: String,
    problem: Option<String>,
    /// (room id, "101 · clean") choices.
    rooms: Vec<(String, String)>,
    room: String,
    room_error: Option<String>,
    guests: Vec<GuestPart>,
    /// The booking's notes and its guests' ("late arrival", "gluten-free").
    notes: Vec<String>,
}

fn prefix(i: usize) -> String {
    format!("g{i}_")
}

/// The check-in page: the form's `values` (the stored ones on first view), the `errors` by
/// API path, and the problem in words.
async fn render(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    values: Option<&HashMap<String, String>>,
    outcome: Outcome,
) -> Response {
    let Outcome {
        status,
        errors,
        problem,
    } = outcome;
    let errors = &errors[..];
    let p = &s.principal;
    let v = match desk_views::stay(&state.svc, p, id.clone()).await {
        Ok(v) => v,
        Err(e) => return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    };
    let r = &v.reservation;
    let rooms = match desk_views::check_in_rooms(&state.svc, p, r).await {
        Ok(rooms) => rooms,
        Err(e) => return server_error(&t, &e),
    };
    let registration = state.svc.compliance().registration.enabled();
    let guests = v
        .guests
        .iter()
        .enumerate()
        .filter(|_| registration)
        .map(|(i, g)| {
            let pre = prefix(i);
            let stored = guest_form::values_of(g, &pre);
            let shown = values.unwrap_or(&stored);
            GuestPart {
                name: format!("{} {}", g.first_name, g.last_name),
                version: g.version,
                fields: guest_form::fields(
                    &t,
                    &pre,
                    Some(REGISTRATION),
                    shown,
                    errors,
                    &format!("guest_ids[{i}]."),
                ),
                prefix: pre,
            }
        })
        .collect();
    let guest = v
        .guests
        .first()
        .map_or_else(String::new, |g| format!("{} {}", g.first_name, g.last_name));
    let room = values
        .and_then(|f| f.get("room_id").cloned())
        .or(r.room_id.clone())
        .unwrap_or_default();
    let notes = r
        .notes
        .iter()
        .chain(v.guests.iter().filter_map(|g| g.notes.as_ref()))
        .filter(|n| !n.trim().is_empty())
        .cloned()
        .collect();
    let body = CheckInPage {
        notes,
        title: t.with(
            "check-in-title",
            &[
                ("guest", Arg::Text(guest)),
                ("code", Arg::Text(r.code.clone())),
            ],
        ),
        id,
        problem,
        rooms: rooms
            .iter()
            .map(|m| {
                let status = t.t(&format!("housekeeping-{}", m.housekeeping_status.as_str()));
                (m.id.clone(), format!("{} · {status}", m.number))
            })
            .collect(),
        room,
        room_error: errors
            .iter()
            .find(|e| e.field == "room_id")
            .map(|e| super::rules::say(&t, e)),
        guests,
        shell: Shell::new(s, t, "today"),
    };
    page(status, &body)
}

/// `GET /reservations/{id}/check-in`.
#[handler]
pub async fn page_of(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::CHECK_IN).await);
    render(&state, &s, t, id, None, Outcome::fresh()).await
}

/// Saves the guests whose registration fields the form changed; the errors, placed under
/// `guest_ids[i].`, and the problem in words, if any.
pub(super) async fn save_guests(
    state: &DeskState,
    p: &crate::model::Principal,
    t: &T,
    id: &str,
    form: &HashMap<String, String>,
) -> Result<(), (Vec<FieldError>, Option<String>)> {
    // Only the guests are needed here (not the folio, history or rooms of the page).
    let failed = |e: AppError| (Vec::new(), Some(super::rules::detail(t, &e)));
    let reservation = reservations::get(&state.svc, p, id.to_string())
        .await
        .map_err(failed)?;
    let party = desk_views::party(&state.svc, p, &reservation)
        .await
        .map_err(failed)?;
    let mut errors = Vec::new();
    let mut problem = None;
    for (i, g) in party.iter().enumerate() {
        let pre = prefix(i);
        let stored = guest_form::values_of(g, &pre);
        let changed = REGISTRATION.iter().any(|k| {
            let k = format!("{pre}{k}");
            form.get(&k).map(|v| v.trim()) != stored.get(&k).map(String::as_str)
        });
        if !changed {
            continue;
        }
        let under = |e: FieldError| FieldError {
            field: format!("guest_ids[{i}].{}", e.field),
            ..e
        };
        let mut found = Vec::new();
        let body = guest_form::body_of(form, &pre, Some(REGISTRATION));
        let Some(input) = GuestUpdate::from_json(&body, "", &mut found) else {
            errors.extend(found.into_iter().map(under));
            continue;
        };
        let version = form
            .get(&format!("{pre}version"))
            .and_then(|v| v.parse().ok())
            .unwrap_or(g.version);
        let if_match = Some(IfMatch::Versions(vec![version]));
        match guests::update(&state.svc, p, g.id.clone(), if_match, input).await {
            Ok(_) => {}
            Err(e) if e.kind == Kind::PreconditionFailed => {
                problem = Some(t.t("check-in-guest-changed"));
            }
            Err(e) if !e.errors.is_empty() => errors.extend(e.errors.into_iter().map(under)),
            Err(e) => return Err((Vec::new(), Some(super::rules::detail(t, &e)))),
        }
    }
    if errors.is_empty() && problem.is_none() {
        Ok(())
    } else {
        Err((errors, problem))
    }
}

/// `POST /reservations/{id}/check-in`: saves the registration fields, then checks in.
#[handler]
pub async fn submit(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, form) = or_answer!(open_post(req, body, &state, super::CHECK_IN).await);
    let again = |status, errors: Vec<FieldError>, problem: Option<String>| {
        let problem = problem.or_else(|| Some(t.n("form-errors", errors.len() as i64)));
        let (state, s, id, form) = (&state, &s, id.clone(), &form);
        async move {
            render(
                state,
                s,
                t,
                id,
                Some(form),
                Outcome::refused(status, errors, problem),
            )
            .await
        }
    };
    if state.svc.compliance().registration.enabled()
        && let Err((errors, problem)) = save_guests(&state, &s.principal, &t, &id, &form).await
    {
        return again(StatusCode::UNPROCESSABLE_ENTITY, errors, problem).await;
    }
    let room = form.get("room_id").cloned().unwrap_or_default();
    let mut errors = Vec::new();
    let input =
        json!({"reservation_id": id, "room_id": if room.is_empty() { None } else { Some(room) }});
    let Some(input) = CheckIn::from_json(&input, "", &mut errors) else {
        return again(StatusCode::UNPROCESSABLE_ENTITY, errors, None).await;
    };
    match stays::check_in(&state.svc, &s.principal, input).await {
        // Checked in from Today's list: back to Today; otherwise to the reservation.
        Ok(_) if form.get("back").map(String::as_str) == Some("today") => {
            web::redirect(StatusCode::SEE_OTHER, "/?done=checked-in")
        }
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/reservations/{id}?done=checked-in"),
        ),
        Err(e) => refused(e, &t, again).await,
    }
}

/// The answer to a refused check-in: the page again with the errors in place.
async fn refused<F, Fut>(e: AppError, t: &T, again: F) -> Response
where
    F: FnOnce(StatusCode, Vec<FieldError>, Option<String>) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    match e.kind {
        Kind::Conflict => {
            again(
                StatusCode::CONFLICT,
                Vec::new(),
                Some(super::rules::detail(t, &e)),
            )
            .await
        }
        Kind::Unprocessable | Kind::BadRequest if e.code == "registration_incomplete" => {
            let n = e.errors.len() as i64;
            again(
                StatusCode::UNPROCESSABLE_ENTITY,
                e.errors,
                Some(t.n("check-in-registration-missing", n)),
            )
            .await
        }
        Kind::Unprocessable | Kind::BadRequest if !e.errors.is_empty() => {
            again(StatusCode::UNPROCESSABLE_ENTITY, e.errors, None).await
        }
        _ => failed_read(t, &e, "not-found-reservation", ("/", "back-to-today")),
    }
}
