//! Administration, rooms (screen 10): `/admin/rooms` lists the room types (guests, rate) and
//! the rooms (type, floor, state) and adds either; `/admin/room-types/{id}` and
//! `/admin/rooms/{id}` change one, a room's state included (out of order takes it out of
//! sale). The use cases are those of `/v1/room-types` and `/v1/rooms`; every refusal is shown
//! next to its field with what was typed kept, and a change saved meanwhile is caught.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use poem_openapi::types::ToJSON;
use serde_json::Value;

use super::admin_form::{self, Kind, Spec, optional, required};
use super::guest_form::FormField;
use super::or_answer;
use super::{DeskSession, DeskState, Outcome, Shell, failed_read, open_admin, open_admin_post};
use super::{page, server_error, web};
use crate::domain::enums::HousekeepingStatus;
use crate::error::{AppError, FieldError, Kind as ErrorKind};
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{RoomCreate, RoomTypeCreate, RoomTypeUpdate, RoomUpdate};
use crate::service::{IfMatch, PageRequest, desk_views, room_types, rooms};

/// A room type's fields.
const TYPE: &[Spec] = &[
    required("code", "rooms-type-code", Kind::Text),
    required("name", "rooms-type-name", Kind::Text),
    required("max_occupancy", "rooms-type-guests", Kind::Number),
    required("base_rate", "rooms-type-rate", Kind::Money),
    optional("description", "rooms-type-description", Kind::Text),
    optional("kpd_code", "rooms-type-kpd", Kind::Text),
];

/// A room's fields.
const ROOM: &[Spec] = &[
    required("number", "rooms-number", Kind::Text),
    required("room_type_id", "rooms-type", Kind::Choice),
    optional("floor", "rooms-floor", Kind::Number),
    required("housekeeping_status", "rooms-state", Kind::Choice),
];

#[derive(Template)]
#[template(path = "desk/rooms_admin.html")]
struct RoomsPage {
    shell: Shell,
    problem: Option<String>,
    /// (id, code, name, guests, rate).
    types: Vec<[String; 5]>,
    /// (id, number, type, floor, state).
    rooms: Vec<[String; 5]>,
    type_form: Vec<FormField>,
    room_form: Vec<FormField>,
    /// Whether each add form is open (it came back refused, or there is nothing yet).
    type_open: bool,
    room_open: bool,
}

#[derive(Template)]
#[template(path = "desk/record_edit.html")]
struct EditPage {
    shell: Shell,
    problem: Option<String>,
    title: String,
    action: String,
    version: i64,
    fields: Vec<FormField>,
}

/// The choices of a room's choice fields: the room types, and the states.
async fn choices_of(
    state: &DeskState,
    s: &DeskSession,
    t: &T,
) -> Result<HashMap<&'static str, Vec<(String, String)>>, AppError> {
    let types = room_types::list(&state.svc, &s.principal, PageRequest::first(1000)).await?;
    let types = types
        .items
        .into_iter()
        .map(|(rt, _)| (rt.id, format!("{} ({})", rt.name, rt.code)))
        .collect();
    let states = HousekeepingStatus::ALL
        .iter()
        .map(|h| {
            (
                h.as_str().to_string(),
                t.t(&format!("housekeeping-{}", h.as_str())),
            )
        })
        .collect();
    Ok(HashMap::from([
        ("room_type_id", types),
        ("housekeeping_status", states),
    ]))
}

/// What a refused form shows: its errors and a summary.
fn refused(t: &T, errors: Vec<FieldError>) -> Outcome {
    let problem = Some(t.n("form-errors", errors.len() as i64));
    Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem)
}

/// The list page; `typed` is a refused form's values (`type` or `room`) and its outcome.
async fn list_page(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    typed: Option<(&str, &HashMap<String, String>)>,
    outcome: Outcome,
) -> Response {
    let t = &shell.t;
    let (all, choices) = match (
        desk_views::room_setup(&state.svc, &s.principal).await,
        choices_of(state, s, t).await,
    ) {
        (Ok(all), Ok(choices)) => (all, choices),
        (Err(e), _) | (_, Err(e)) => return server_error(t, &e),
    };
    let types = all
        .types
        .iter()
        .map(|rt| {
            let rate = t.money(rt.base_rate, &rt.currency);
            [
                rt.id.clone(),
                rt.code.clone(),
                rt.name.clone(),
                rt.max_occupancy.to_string(),
                rate,
            ]
        })
        .collect();
    let rooms = all
        .rooms
        .iter()
        .map(|(r, type_name)| {
            let floor = r.floor.map(|f| f.to_string()).unwrap_or_default();
            let st = t.t(&format!("housekeeping-{}", r.housekeeping_status.as_str()));
            [r.id.clone(), r.number.clone(), type_name.clone(), floor, st]
        })
        .collect();
    let fresh = HashMap::from([("housekeeping_status".to_string(), "clean".to_string())]);
    let (type_values, room_values) = match typed {
        Some(("type", v)) => (v.clone(), fresh),
        Some((_, v)) => (HashMap::new(), v.clone()),
        None => (HashMap::new(), fresh),
    };
    let errors_for = |which: &str| match typed {
        Some((w, _)) if w == which => outcome.errors.clone(),
        _ => Vec::new(),
    };
    let pick = |name: &str| choices.get(name).cloned().unwrap_or_default();
    let body = RoomsPage {
        type_open: typed.is_some_and(|(w, _)| w == "type") || all.types.is_empty(),
        room_open: typed.is_some_and(|(w, _)| w == "room")
            || (all.rooms.is_empty() && !all.types.is_empty()),
        problem: outcome.problem.clone(),
        types,
        rooms,
        type_form: admin_form::fields(TYPE, t, &type_values, &errors_for("type"), &pick),
        room_form: admin_form::fields(ROOM, t, &room_values, &errors_for("room"), &pick),
        shell,
    };
    page(outcome.status, &body)
}

/// `GET /admin/rooms`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let shell = Shell::new(&s, t, "admin").after(req);
    list_page(&state, &s, shell, None, Outcome::fresh()).await
}

/// `POST /admin/room-types` and `POST /admin/rooms`: adds one.
async fn add(req: &Request, body: Body, state: &DeskState, which: &'static str) -> Response {
    let (s, t, f) = or_answer!(open_admin_post(req, body, state).await);
    let specs = if which == "type" { TYPE } else { ROOM };
    let mut errors = Vec::new();
    let input = admin_form::json_of(specs, &f, &t, &mut errors);
    let mut api = Vec::new();
    let done = if which == "type" {
        match RoomTypeCreate::from_json(&input, "", &mut api) {
            Some(i) if errors.is_empty() && api.is_empty() => Some(
                room_types::create(&state.svc, &s.principal, i)
                    .await
                    .map(drop),
            ),
            _ => None,
        }
    } else {
        match RoomCreate::from_json(&input, "", &mut api) {
            Some(i) if errors.is_empty() && api.is_empty() => {
                Some(rooms::create(&state.svc, &s.principal, i).await.map(drop))
            }
            _ => None,
        }
    };
    admin_form::merge(&mut errors, api);
    let outcome = match done {
        Some(Ok(())) => {
            return web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/admin/rooms?done=room-{which}-added"),
            );
        }
        None => refused(&t, errors),
        Some(Err(e)) if !e.errors.is_empty() => refused(&t, e.errors),
        Some(Err(e)) if e.kind == ErrorKind::Conflict => Outcome::refused(
            StatusCode::CONFLICT,
            Vec::new(),
            Some(super::rules::detail(&t, &e)),
        ),
        Some(Err(e)) => return server_error(&t, &e),
    };
    let shell = Shell::new(&s, t, "admin");
    list_page(state, &s, shell, Some((which, &f)), outcome).await
}

/// `POST /admin/room-types`.
#[handler]
pub async fn add_type(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    add(req, body, &state, "type").await
}

/// `POST /admin/rooms`.
#[handler]
pub async fn add_room(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    add(req, body, &state, "room").await
}

/// The edit page of a room type (`which` = `type`) or a room, from the stored record or
/// from what was typed.
async fn edit_page(
    req: &Request,
    state: &DeskState,
    s: &DeskSession,
    t: T,
    (which, id): (&str, String),
    typed: Option<(&HashMap<String, String>, i64)>,
    outcome: Outcome,
) -> Response {
    let p = &s.principal;
    let read = if which == "type" {
        room_types::get(&state.svc, p, id.clone())
            .await
            .map(|r| (r.code.clone(), r.version, r.to_json()))
    } else {
        rooms::get(&state.svc, p, id.clone())
            .await
            .map(|r| (r.number.clone(), r.version, r.to_json()))
    };
    let (name, version, record) = match read {
        Ok((name, version, Some(record))) => (name, version, record),
        Ok((_, _, None)) => return server_error(&t, &AppError::internal("a record without JSON")),
        Err(e) => return failed_read(&t, &e, "not-found-room", ("/admin/rooms", "nav-rooms")),
    };
    let choices = match choices_of(state, s, &t).await {
        Ok(c) => c,
        Err(e) => return server_error(&t, &e),
    };
    let specs = if which == "type" { TYPE } else { ROOM };
    let stored = admin_form::values_of(specs, &record);
    let (values, version) = typed.map_or((&stored, version), |(v, at)| (v, at));
    let pick = |n: &str| choices.get(n).cloned().unwrap_or_default();
    let fields = admin_form::fields(specs, &t, values, &outcome.errors, &pick);
    let title_key = if which == "type" {
        "rooms-edit-type"
    } else {
        "rooms-edit-room"
    };
    let body = EditPage {
        problem: outcome.problem,
        title: t.with(title_key, &[("name", crate::i18n::Arg::Text(name))]),
        action: req.uri().path().to_string(),
        version,
        fields,
        shell: Shell::new(s, t, "admin"),
    };
    page(outcome.status, &body)
}

/// `GET /admin/room-types/{id}`.
#[handler]
pub async fn type_page(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    edit_page(req, &state, &s, t, ("type", id), None, Outcome::fresh()).await
}

/// `GET /admin/rooms/{id}`.
#[handler]
pub async fn room_page(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    edit_page(req, &state, &s, t, ("room", id), None, Outcome::fresh()).await
}

/// Saves a room type (`which` = `type`) or a room.
async fn save(req: &Request, body: Body, state: &DeskState, which: &str, id: String) -> Response {
    let (s, t, f) = or_answer!(open_admin_post(req, body, state).await);
    let specs = if which == "type" { TYPE } else { ROOM };
    let version = f.get("version").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut errors = Vec::new();
    let input: Value = admin_form::json_of(specs, &f, &t, &mut errors);
    let mut api = Vec::new();
    let if_match = Some(IfMatch::Versions(vec![version]));
    let (svc, p) = (&state.svc, &s.principal);
    let done = if which == "type" {
        match RoomTypeUpdate::from_json(&input, "", &mut api) {
            Some(i) if errors.is_empty() && api.is_empty() => Some(
                room_types::update(svc, p, id.clone(), if_match, i)
                    .await
                    .map(drop),
            ),
            _ => None,
        }
    } else {
        match RoomUpdate::from_json(&input, "", &mut api) {
            Some(i) if errors.is_empty() && api.is_empty() => Some(
                rooms::update(svc, p, id.clone(), if_match, i)
                    .await
                    .map(drop),
            ),
            _ => None,
        }
    };
    admin_form::merge(&mut errors, api);
    let (outcome, at) = match done {
        Some(Ok(())) => {
            return web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/admin/rooms?done=room-{which}-saved"),
            );
        }
        None => (refused(&t, errors), version),
        Some(Err(e)) if !e.errors.is_empty() => (refused(&t, e.errors), version),
        Some(Err(e)) if e.kind == ErrorKind::PreconditionFailed => {
            // What was typed stays, against the version saved meanwhile.
            let now = match which {
                "type" => room_types::get(svc, p, id.clone()).await.map(|r| r.version),
                _ => rooms::get(svc, p, id.clone()).await.map(|r| r.version),
            };
            let problem = Some(t.t("rooms-changed-meanwhile"));
            let outcome = Outcome::refused(StatusCode::CONFLICT, Vec::new(), problem);
            (outcome, now.unwrap_or(version))
        }
        Some(Err(e)) if e.kind == ErrorKind::Conflict => (
            Outcome::refused(
                StatusCode::CONFLICT,
                Vec::new(),
                Some(super::rules::detail(&t, &e)),
            ),
            version,
        ),
        Some(Err(e)) => {
            return failed_read(&t, &e, "not-found-room", ("/admin/rooms", "nav-rooms"));
        }
    };
    edit_page(req, state, &s, t, (which, id), Some((&f, at)), outcome).await
}

/// `POST /admin/room-types/{id}`.
#[handler]
pub async fn save_type(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    save(req, body, &state, "type", id).await
}

/// `POST /admin/rooms/{id}`.
#[handler]
pub async fn save_room(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    save(req, body, &state, "room", id).await
}
