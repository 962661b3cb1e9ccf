//! Screen 11, self check-in at a kiosk (`/kiosk`): a LAN device that staff approve through
//! the device flow (it shows a code; approved on `/device` or in the admin pages). A guest
//! types the booking code and their last name, completes the registration data the national
//! scheme needs for each guest, accepts, and is told their room; Today shows them in house.
//! The kiosk has its own cookie (path `/kiosk`) and session, which the desk's pages do not
//! accept: no lists, no other guests' data. Wrong look-ups are limited, and a booking left
//! half-done is forgotten after a few minutes (each page refreshes itself to the start).
//! Visiting `/kiosk` writes nothing: pairing begins when someone presses "Pair this kiosk"
//! (`POST /kiosk/pair`, limited per address), and a kiosk that was unpaired, outlived its
//! pairing or lost its approver says so and offers to pair again.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::check_in::party_edit;
use super::kiosk_language::{self, kiosk_words};
use super::kiosk_pairing::session;
use super::party_form::{self, GuestPart};
use super::{DeskState, page, server_error, web};
use crate::auth::secrets;
use crate::domain::enums::HousekeepingStatus;
use crate::error::{AppError, FieldError};
use crate::i18n::{Arg, T};
use crate::model::CheckIn;
use crate::model::input::FromJson;
use crate::service::identity_check::{self, Standing};
use crate::service::kiosk::{self, Found, KioskSession};
use crate::service::{desk_views, party, reservations, rooms};

/// The kiosk's cookie.
pub(super) const COOKIE: &str = "innkeep_kiosk";

/// What the kiosk shows.
pub(super) enum Screen {
    /// Not paired: the button that starts pairing, why an earlier pairing ended, and where
    /// the front desk approves it.
    Pair(Option<String>, String),
    /// Kiosks are switched off (the kiosk client is revoked).
    Off,
    /// The code staff approve, and where they approve it.
    Waiting(String, String),
    /// The look-up form: code and last name as typed.
    Lookup(String, String),
    /// The registration form for each guest.
    Register(Vec<GuestPart>),
    /// Checked in: the room.
    Done(String),
    /// Italy: waiting for staff to see each guest's document in person.
    Identity(String),
    /// Something the reception must do.
    Reception(String),
}

#[derive(Template)]
#[template(path = "desk/kiosk.html")]
struct KioskPage {
    t: T,
    csrf: String,
    screen: Screen,
    problem: Option<String>,
    /// Seconds until the page (through htmx) goes back to the start, or, every 5, asks
    /// whether the kiosk was approved. Without JavaScript, links do the same.
    refresh: Option<(u32, &'static str)>,
    /// The languages a guest may choose (on the first screen): tag, own name, shown.
    languages: Vec<(&'static str, &'static str, bool)>,
}

pub(super) fn show(
    t: T,
    csrf: String,
    screen: Screen,
    status: StatusCode,
    problem: Option<String>,
) -> Response {
    let refresh = match &screen {
        Screen::Pair(..) | Screen::Off => None,
        Screen::Waiting(..) => Some((5, "/kiosk/poll")),
        Screen::Identity(_) => Some((5, "/kiosk/identity")),
        Screen::Register(_) => Some((180, "/kiosk/reset")),
        Screen::Done(_) | Screen::Reception(_) => Some((30, "/kiosk/reset")),
        // A guest who chose a language and walked away leaves it to the next one.
        Screen::Lookup(..) => Some((180, "/kiosk/reset")),
    };
    let languages = match &screen {
        Screen::Lookup(..) => kiosk_language::choices(&t),
        _ => Vec::new(),
    };
    page(
        status,
        &KioskPage {
            t,
            csrf,
            screen,
            problem,
            refresh,
            languages,
        },
    )
}

pub(super) fn cookie(req: &Request) -> Option<String> {
    web::cookie(req, COOKIE)
}

/// The registration form of the booking in progress, from what is stored or was typed.
async fn register_screen(
    state: &DeskState,
    k: &KioskSession,
    t: &T,
    id: &str,
    typed: Option<&HashMap<String, String>>,
    errors: &[FieldError],
) -> Result<Screen, AppError> {
    let r = reservations::get(&state.svc, &k.principal, id.to_string()).await?;
    let party = desk_views::party(&state.svc, &k.principal, &r).await?;
    let lists = crate::service::code_tables::tourist_lists(&state.svc, &k.principal)
        .await
        .unwrap_or_default();
    let mut parts = party_form::parts(&state.svc, t, &party, (typed, &lists), errors);
    // The place picker asks the desk's `/places`, which is for staff: a guest at the kiosk
    // types the place, checked by name at registration.
    for f in parts.iter_mut().flat_map(|p| p.fields.iter_mut()) {
        if f.kind == "place" {
            f.kind = "text";
        }
    }
    Ok(Screen::Register(parts))
}

/// `GET /kiosk`.
#[handler]
pub async fn start(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (_, k) = match session(req, &state).await {
        Ok(s) => s,
        Err(answer) => return answer,
    };
    let t = kiosk_words(req);
    let Some(id) = &k.reservation_id else {
        return show(
            t,
            k.csrf,
            Screen::Lookup(String::new(), String::new()),
            StatusCode::OK,
            None,
        );
    };
    let (svc, p) = (&state.svc, &k.principal);
    let screen = match identity_check::standing(svc, p, id.clone()).await {
        Ok(Standing::Waiting(_)) => Screen::Identity(t.t("kiosk-identity-wait")),
        Ok(Standing::Confirmed(room)) => {
            if let Some(c) = cookie(req) {
                let _ = kiosk::forget(svc, &c).await;
            }
            Screen::Done(t.with("kiosk-your-room", &[("room", Arg::Text(room))]))
        }
        Ok(Standing::None) => match register_screen(&state, &k, &t, id, None, &[]).await {
            Ok(s) => s,
            Err(e) => return server_error(&t, &e),
        },
        Err(e) => return server_error(&t, &e),
    };
    show(t, k.csrf, screen, StatusCode::OK, None)
}

/// `GET /kiosk/identity` (htmx, every 5 seconds while the guest waits for staff): 204 while
/// waiting, then back to `/kiosk`, which shows the room; after a few minutes the kiosk is
/// the next guest's.
#[handler]
pub async fn identity(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (c, k) = match session(req, &state).await {
        Ok(s) => s,
        Err(answer) => return answer,
    };
    let standing = match &k.reservation_id {
        Some(id) => identity_check::standing(&state.svc, &k.principal, id.clone()).await,
        None => Ok(Standing::None),
    };
    match standing {
        Ok(Standing::Waiting(false)) => Response::builder().status(StatusCode::NO_CONTENT).finish(),
        Ok(Standing::Waiting(true)) => {
            let _ = kiosk::forget(&state.svc, &c).await;
            super::kiosk_pairing::to_start(req)
        }
        _ => super::kiosk_pairing::to_start(req),
    }
}

/// The kiosk's session for a form post that passed the origin and CSRF checks.
async fn posted(
    req: &Request,
    body: Body,
    state: &DeskState,
) -> Result<(String, KioskSession, T, HashMap<String, String>), Response> {
    let (c, k) = session(req, state).await?;
    let t = kiosk_words(req);
    let form = web::form(body).await.unwrap_or_default();
    let token = form.get("csrf").map(String::as_str).unwrap_or_default();
    if !web::same_origin(req) || !secrets::constant_time_eq(token, &k.csrf) {
        let problem = Some(t.t("request-refused-csrf"));
        return Err(show(
            t,
            k.csrf.clone(),
            Screen::Lookup(String::new(), String::new()),
            StatusCode::FORBIDDEN,
            problem,
        ));
    }
    Ok((c, k, t, form))
}

/// `POST /kiosk/find`: the booking code and last name.
#[handler]
pub async fn find(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (c, k, t, form) = match posted(req, body, &state).await {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    let get = |n: &str| {
        form.get(n)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let (code, last) = (get("code"), get("last_name"));
    match kiosk::find(&state.svc, &c, &code, &last).await {
        Ok(Found::Booking(_)) => web::redirect(StatusCode::SEE_OTHER, "/kiosk"),
        Ok(Found::Nothing) => {
            let problem = Some(t.t("kiosk-not-found"));
            show(
                t,
                k.csrf,
                Screen::Lookup(code, last),
                StatusCode::UNPROCESSABLE_ENTITY,
                problem,
            )
        }
        Ok(Found::Locked) => {
            let words = t.t("kiosk-locked");
            show(
                t,
                k.csrf,
                Screen::Reception(words),
                StatusCode::TOO_MANY_REQUESTS,
                None,
            )
        }
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /kiosk/check-in`: saves the registration data, then checks in to the booked room
/// (or the first clean free one of its type).
#[handler]
pub async fn check_in(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (c, k, t, form) = match posted(req, body, &state).await {
        Ok(p) => p,
        Err(answer) => return answer,
    };
    let Some(id) = k.reservation_id.clone() else {
        return web::redirect(StatusCode::SEE_OTHER, "/kiosk");
    };
    let again = |t: T, errors: Vec<FieldError>, problem: Option<String>| {
        let (state, k, id, form) = (&state, &k, id.clone(), &form);
        async move {
            match register_screen(state, k, &t, &id, Some(form), &errors).await {
                Ok(screen) => show(
                    t,
                    k.csrf.clone(),
                    screen,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    problem,
                ),
                Err(e) => server_error(&t, &e),
            }
        }
    };
    if form.get("consent").map(String::as_str) != Some("yes") {
        let problem = Some(t.t("kiosk-consent-needed"));
        return again(t, Vec::new(), problem).await;
    }
    let edit = match party_edit(&state, &k.principal, &id, &form).await {
        Ok((edit, _)) => edit,
        Err(Ok(errors)) => {
            let problem = Some(t.n("check-in-registration-missing", errors.len() as i64));
            return again(t, errors, problem).await;
        }
        Err(Err(e)) => return server_error(&t, &e),
    };
    let (svc, p) = (&state.svc, &k.principal);
    let room = match reservations::get(svc, p, id.clone()).await {
        Ok(r) if r.room_id.is_some() => r.room_id,
        Ok(r) => desk_views::check_in_rooms(svc, p, &r)
            .await
            .ok()
            .and_then(|rooms| {
                rooms.into_iter().find(|m| {
                    matches!(
                        m.housekeeping_status,
                        HousekeepingStatus::Clean | HousekeepingStatus::Inspected
                    )
                })
            })
            .map(|m| m.id),
        Err(e) => return server_error(&t, &e),
    };
    let Some(room) = room else {
        let words = t.t("kiosk-no-room");
        return show(
            t,
            k.csrf,
            Screen::Reception(words),
            StatusCode::CONFLICT,
            None,
        );
    };
    let mut errors = Vec::new();
    let Some(input) = CheckIn::from_json(
        &json!({"reservation_id": id, "room_id": &room}),
        "",
        &mut errors,
    ) else {
        return server_error(&t, &AppError::validation(errors));
    };
    // In Italy the kiosk never checks in alone: staff see each guest's document first.
    let country = crate::service::settings::get(svc, p)
        .await
        .ok()
        .and_then(|s| s.country);
    if identity_check::required(svc, country.as_deref()) {
        return match identity_check::request(svc, p, edit, input).await {
            Ok(()) => {
                let words = t.t("kiosk-identity-wait");
                show(t, k.csrf, Screen::Identity(words), StatusCode::OK, None)
            }
            Err(e) => refused(&k, t, e, again).await,
        };
    }
    match party::check_in(svc, p, edit, input).await {
        Ok(_) => {
            let _ = kiosk::forget(svc, &c).await;
            let number = rooms::get(svc, p, room.to_string())
                .await
                .map(|m| m.number)
                .unwrap_or_default();
            let words = t.with("kiosk-your-room", &[("room", Arg::Text(number))]);
            show(t, k.csrf, Screen::Done(words), StatusCode::OK, None)
        }
        Err(e) => refused(&k, t, e, again).await,
    }
}

/// A refused kiosk check-in, said: the data still missing, a guest changed meanwhile, or
/// something for the reception.
async fn refused<F, Fut>(k: &KioskSession, t: T, e: AppError, again: F) -> Response
where
    F: FnOnce(T, Vec<FieldError>, Option<String>) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    match e {
        e if e.code == "registration_incomplete" => {
            let problem = Some(t.n("check-in-registration-missing", e.errors.len() as i64));
            again(t, e.errors, problem).await
        }
        e if e.kind == crate::error::Kind::PreconditionFailed => {
            let problem = Some(t.t("check-in-guest-changed"));
            again(t, Vec::new(), problem).await
        }
        e if e.kind == crate::error::Kind::Conflict => {
            let words = t.t("kiosk-see-reception");
            let detail = Some(super::rules::detail(&t, &e));
            show(
                t,
                k.csrf.clone(),
                Screen::Reception(words),
                StatusCode::CONFLICT,
                detail,
            )
        }
        e => server_error(&t, &e),
    }
}
