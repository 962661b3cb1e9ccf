//! Screen 5, check-in (`/reservations/{id}/check-in`): choose the room (free, clean rooms of
//! the booked type first) and, when a registration scheme is on, complete every guest's
//! registration fields on the same page, each guest named with the role the authority will
//! give them; add a companion while the booking has room for one. The server's errors appear
//! next to the fields they name, and nothing typed is lost. One use case saves the party and
//! checks in, in one transaction ([`party::check_in`]).

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::guest_form::FormField;
use super::party_form::{self, GuestPart};
use super::{
    DeskState, Outcome, Shell, failed_read, open, open_post, or_answer, page, server_error,
};
use crate::error::{AppError, FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{CheckIn, Principal};
use crate::service::desk::DeskSession;
use crate::service::{desk_views, party, reservations};
use crate::web;

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
    /// A companion's fields, while the booking has room for one more guest.
    companion: Option<Vec<FormField>>,
    /// Where a check-in started from Today returns.
    back: String,
    /// The booking's notes and its guests' ("late arrival", "gluten-free").
    notes: Vec<String>,
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
    let guests = if state.svc.compliance().registration.enabled() {
        let lists = crate::service::code_tables::tourist_lists(&state.svc, p)
            .await
            .unwrap_or_default();
        party_form::parts(&state.svc, &t, &v.guests, (values, &lists), errors)
    } else {
        Vec::new()
    };
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
        companion: party_form::companion(&t, r, None, values, errors),
        back: values
            .and_then(|f| f.get("back").cloned())
            .unwrap_or_default(),
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

/// What the posted form asks to change in the party of reservation `id`, read without
/// writing; the size of the party as shown, to place a companion's errors.
pub(super) async fn party_edit(
    state: &DeskState,
    p: &Principal,
    id: &str,
    form: &HashMap<String, String>,
) -> Result<(party::PartyEdit, usize), Result<Vec<FieldError>, AppError>> {
    let r = reservations::get(&state.svc, p, id.to_string())
        .await
        .map_err(Err)?;
    let guests = desk_views::party(&state.svc, p, &r).await.map_err(Err)?;
    let edit = party_form::edit_of(&guests, form).map_err(Ok)?;
    Ok((edit, guests.len()))
}

/// The errors of a refused use case as the page places them: those about the companion,
/// who would have been the party's `size`-th guest, under `companion.`.
pub(super) fn placed(errors: Vec<FieldError>, size: usize) -> Vec<FieldError> {
    let theirs = format!("guest_ids[{size}].");
    errors
        .into_iter()
        .map(|e| match e.field.strip_prefix(&theirs) {
            Some(rest) => FieldError {
                field: format!("companion.{rest}"),
                ..e
            },
            None => e,
        })
        .collect()
}

/// `POST /reservations/{id}/check-in`: saves the party and checks in, in one transaction;
/// with `action=add`, only saves the party (adding the companion) and shows the page again.
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
    let (edit, size) = match party_edit(&state, &s.principal, &id, &form).await {
        Ok(found) => found,
        Err(Ok(errors)) => return again(StatusCode::UNPROCESSABLE_ENTITY, errors, None).await,
        Err(Err(e)) => {
            return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today"));
        }
    };
    let (svc, p) = (&state.svc, &s.principal);
    if form.get("action").map(String::as_str) == Some("add") {
        if edit.companion.is_none() {
            let missing = FieldError::new("companion.first_name", "required", "is required")
                .said("rule-required", vec![]);
            return again(StatusCode::UNPROCESSABLE_ENTITY, vec![missing], None).await;
        }
        return match party::save(svc, p, id.clone(), edit).await {
            Ok(()) => web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/reservations/{id}/check-in"),
            ),
            Err(e) => refused(e, size, &t, again).await,
        };
    }
    let room = form.get("room_id").cloned().unwrap_or_default();
    let mut errors = Vec::new();
    let input =
        json!({"reservation_id": id, "room_id": if room.is_empty() { None } else { Some(room) }});
    let Some(input) = CheckIn::from_json(&input, "", &mut errors) else {
        return again(StatusCode::UNPROCESSABLE_ENTITY, errors, None).await;
    };
    match party::check_in(svc, p, edit, input).await {
        // Checked in from Today's list: back to Today; otherwise to the reservation.
        Ok(_) if form.get("back").map(String::as_str) == Some("today") => {
            web::redirect(StatusCode::SEE_OTHER, "/?done=checked-in")
        }
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/reservations/{id}?done=checked-in"),
        ),
        Err(e) => refused(e, size, &t, again).await,
    }
}

/// The answer to a refused check-in: the page again with the errors in place.
async fn refused<F, Fut>(e: AppError, size: usize, t: &T, again: F) -> Response
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
        Kind::PreconditionFailed => {
            let problem = Some(t.t("check-in-guest-changed"));
            again(StatusCode::PRECONDITION_FAILED, Vec::new(), problem).await
        }
        Kind::Unprocessable | Kind::BadRequest if e.code == "registration_incomplete" => {
            let n = e.errors.len() as i64;
            again(
                StatusCode::UNPROCESSABLE_ENTITY,
                placed(e.errors, size),
                Some(t.n("check-in-registration-missing", n)),
            )
            .await
        }
        Kind::Unprocessable | Kind::BadRequest if !e.errors.is_empty() => {
            again(
                StatusCode::UNPROCESSABLE_ENTITY,
                placed(e.errors, size),
                None,
            )
            .await
        }
        _ => failed_read(t, &e, "not-found-reservation", ("/", "back-to-today")),
    }
}
