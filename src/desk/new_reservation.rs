//! Screen 3, a new reservation (`/reservations/new`): the dates and party, then every room
//! type with the rooms free on all those nights and its rate, then the guest (found by name
//! or created on the spot), then the booking. One form, posted back for each step so nothing
//! typed is lost; the booking step carries an idempotency key minted with the page, so a
//! double click or a resent form books once and shows the same booking.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use super::once::{self, Once};
use super::{DeskState, Outcome, Shell, open, open_post, or_answer, page, server_error};
use crate::domain::enums::Source;
use crate::domain::stay::StayDates;
use crate::error::FieldError;
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{GuestCreate, ReservationCreate};
use crate::service::desk::DeskSession;
use crate::service::{desk_lists, desk_views, guests, reservations};
use crate::web;

/// The stay fields: (form name, label key, input type).
const STAY: &[(&str, &str, &str)] = &[
    ("arrival", "field-arrival", "date"),
    ("departure", "field-departure", "date"),
    ("adults", "field-adults", "number"),
    ("children", "field-children", "number"),
    ("children_ages", "field-children-ages", "text"),
    ("extra_beds", "field-extra-beds", "number"),
    ("cots", "field-cots", "number"),
];

/// A new guest's fields: (form name, API field, label key, autocomplete).
const NEW_GUEST: &[(&str, &str, &str, &str)] = &[
    ("new_first_name", "first_name", "field-first-name", "off"),
    ("new_last_name", "last_name", "field-last-name", "off"),
    ("new_email", "email", "field-email", "off"),
    ("new_phone", "phone", "field-phone", "off"),
];

/// One input as the page shows it: (name, label, type, value, error).
type Input = (&'static str, String, &'static str, String, Option<String>);

#[derive(Template)]
#[template(path = "desk/new_reservation.html")]
struct NewPage {
    shell: Shell,
    problem: Option<String>,
    key: String,
    stay: Vec<Input>,
    /// (id, name, free rooms in words, rate, whether bookable).
    types: Vec<(String, String, String, String, bool)>,
    /// The plans on sale for the dates and party (when the hotel has plans).
    offers: Vec<super::offer_choices::OfferChoice>,
    /// The offer chosen (`rt_…|rp_…`).
    offer: String,
    override_reason: String,
    room_type: String,
    type_error: Option<String>,
    /// (id, label) of the rooms, "decide at check-in" first.
    rooms: Vec<(String, String)>,
    room: String,
    room_error: Option<String>,
    query: String,
    /// (id, name and details) of the guests found.
    found: Vec<(String, String)>,
    searched: bool,
    guest: String,
    guest_error: Option<String>,
    new_guest: Vec<Input>,
    notes: String,
    /// (value, label) of where the booking came from.
    sources: Vec<(String, String)>,
    source: String,
}

fn date(f: &HashMap<String, String>, k: &str) -> Option<NaiveDate> {
    f.get(k).and_then(|v| v.trim().parse().ok())
}

fn error_at(t: &T, errors: &[FieldError], field: &str) -> Option<String> {
    super::rules::at(t, errors, field)
}

/// The page for the form `f` (the defaults on first view).
async fn render(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    f: HashMap<String, String>,
    outcome: Outcome,
) -> Response {
    let Outcome {
        status,
        errors,
        problem,
    } = outcome;
    let p = &s.principal;
    let window = match (date(&f, "arrival"), date(&f, "departure")) {
        (Some(a), Some(d)) => StayDates::new(a, d).ok(),
        _ => None,
    };
    let choices = match desk_views::booking_choices(&state.svc, p, window).await {
        Ok(c) => c,
        Err(e) => return server_error(&t, &e),
    };
    let offers = match super::offer_choices::for_form(state, s, &t, &f, window).await {
        Ok(o) => o,
        Err(e) => return server_error(&t, &e),
    };
    let query = f.get("q").cloned().unwrap_or_default();
    let searched = !query.trim().is_empty();
    let mut found = Vec::new();
    if searched {
        match desk_lists::find_guests(&state.svc, p, &query).await {
            Ok(gs) => found = gs,
            Err(e) => return server_error(&t, &e),
        }
    }
    let guest = f.get("guest_id").cloned().unwrap_or_default();
    // A guest chosen earlier (or created by a refused booking) stays on the list.
    if guest.starts_with("gst_")
        && !found.iter().any(|g| g.id == guest)
        && let Ok(g) = guests::get(&state.svc, p, guest.clone()).await
    {
        found.insert(0, g);
    }
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let body = NewPage {
        problem,
        key: f.get("key").cloned().unwrap_or_else(once::new_key),
        stay: STAY
            .iter()
            .map(|(name, label, kind)| {
                (
                    *name,
                    t.t(label),
                    *kind,
                    get(name),
                    error_at(&t, &errors, name),
                )
            })
            .collect(),
        types: choices
            .types
            .iter()
            .map(|(rt, free)| {
                let words =
                    free.map_or_else(|| t.t("free-rooms-unknown"), |n| t.n("free-rooms", n));
                let rate = t.with(
                    "rate-per-night",
                    &[("rate", Arg::Text(t.money(rt.base_rate, &rt.currency)))],
                );
                (
                    rt.id.clone(),
                    rt.name.clone(),
                    words,
                    rate,
                    free.is_none_or(|n| n > 0),
                )
            })
            .collect(),
        offers,
        offer: get("offer"),
        override_reason: get("override_reason"),
        room_type: match get("room_type_id") {
            // Started from a room on the board: its type.
            t if t.is_empty() => choices
                .rooms
                .iter()
                .find(|r| r.id == get("room_id"))
                .map(|r| r.room_type_id.clone())
                .unwrap_or_default(),
            t => t,
        },
        type_error: error_at(&t, &errors, "room_type_id"),
        rooms: std::iter::once((String::new(), t.t("room-decide-later")))
            .chain(choices.rooms.iter().map(|r| {
                let kind = choices.types.iter().find(|(rt, _)| rt.id == r.room_type_id);
                let kind = kind.map(|(rt, _)| rt.name.clone()).unwrap_or_default();
                (r.id.clone(), format!("{} · {kind}", r.number))
            }))
            .collect(),
        room: get("room_id"),
        room_error: error_at(&t, &errors, "room_id"),
        query,
        found: found
            .iter()
            .map(|g| {
                let mut label = format!("{} {}", g.first_name, g.last_name);
                for extra in [&g.email, &g.phone].into_iter().flatten() {
                    label.push_str(&format!(" · {extra}"));
                }
                (g.id.clone(), label)
            })
            .collect(),
        searched,
        guest,
        guest_error: error_at(&t, &errors, "primary_guest_id")
            .or_else(|| error_at(&t, &errors, "guest_id")),
        new_guest: NEW_GUEST
            .iter()
            .map(|(name, api, label, _)| {
                (
                    *name,
                    t.t(label),
                    "text",
                    get(name),
                    error_at(&t, &errors, &format!("new_guest.{api}")),
                )
            })
            .collect(),
        notes: get("notes"),
        sources: Source::ALL
            .iter()
            .map(|x| {
                (
                    x.as_str().to_string(),
                    t.t(&format!("source-{}", x.as_str())),
                )
            })
            .collect(),
        source: f.get("source").cloned().unwrap_or_else(|| "phone".into()),
        shell: Shell::new(s, t, "new"),
    };
    page(status, &body)
}

/// `GET /reservations/new` (`?arrival=…&departure=…&room_id=…` from the room board).
#[handler]
pub async fn page_of(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::BOOKING).await);
    let today = s.today;
    let mut f: HashMap<String, String> = req
        .uri()
        .query()
        .map(|q| serde_urlencoded::from_str(q).unwrap_or_default())
        .unwrap_or_default();
    f.retain(|k, _| {
        ["arrival", "departure", "room_id", "room_type_id", "adults"].contains(&k.as_str())
    });
    f.entry("arrival".into())
        .or_insert_with(|| today.to_string());
    let next = date(&f, "arrival").unwrap_or(today) + chrono::Days::new(1);
    f.entry("departure".into())
        .or_insert_with(|| next.to_string());
    f.entry("adults".into()).or_insert_with(|| "2".into());
    for k in ["children", "extra_beds", "cots"] {
        f.entry(k.into()).or_insert_with(|| "0".into());
    }
    render(&state, &s, t, f, Outcome::fresh()).await
}

/// `POST /reservations/new`: a step of the form (`step=show` or `find` shows it again with
/// free rooms or the guests found), or `step=book`, the booking.
#[handler]
pub async fn submit(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, mut f) = or_answer!(open_post(req, body, &state, super::BOOKING).await);
    if f.get("step").map(String::as_str) != Some("book") {
        return render(&state, &s, t, f, Outcome::fresh()).await;
    }
    let key = f.get("key").cloned().unwrap_or_default();
    let digest = once::digest(&f);
    let act = async {
        let id = book(&state, &s, &t, &mut f).await?;
        Ok(format!("/reservations/{id}?done=booked"))
    };
    match once::once(&state, &s, key, digest, act).await {
        Ok(Once::Ran(Ok(to)) | Once::Replayed(to)) => web::redirect(StatusCode::SEE_OTHER, &to),
        Ok(Once::Ran(Err(outcome))) => {
            // A refused booking gets a new key, so the corrected form is a new request.
            f.remove("key");
            render(&state, &s, t, f, outcome).await
        }
        Ok(Once::Busy) => {
            let problem = Some(t.t("booking-already-sent"));
            let outcome = Outcome::refused(StatusCode::CONFLICT, Vec::new(), problem);
            render(&state, &s, t, f, outcome).await
        }
        Err(e) => server_error(&t, &e),
    }
}

/// Creates the guest (when new) and the reservation; its id, or the page's refusal. A guest
/// created before the booking is refused stays chosen on the form, so trying again does not
/// create them twice.
async fn book(
    state: &DeskState,
    s: &DeskSession,
    t: &T,
    f: &mut HashMap<String, String>,
) -> Result<String, Outcome> {
    let p = &s.principal;
    let get = |f: &HashMap<String, String>, k: &str| {
        f.get(k).map(|v| v.trim().to_string()).unwrap_or_default()
    };
    let refused = |status, errors: Vec<FieldError>, problem: Option<String>| {
        let problem = problem.or_else(|| Some(t.n("form-errors", errors.len() as i64)));
        Outcome::refused(status, errors, problem)
    };
    // An offer chosen names the room type and the plan.
    if let Some((rt, plan)) = get(f, "offer").split_once('|') {
        let (rt, plan) = (rt.to_string(), plan.to_string());
        f.insert("room_type_id".into(), rt);
        f.insert("rate_plan_id".into(), plan);
    }
    let mut guest = get(f, "guest_id");
    if guest.is_empty() || guest == "new" {
        let mut errors = Vec::new();
        let opt = |k: &str| {
            let v = get(f, k);
            if v.is_empty() {
                Value::Null
            } else {
                Value::String(v)
            }
        };
        let body = json!({"first_name": get(f, "new_first_name"), "last_name": get(f, "new_last_name"),
            "email": opt("new_email"), "phone": opt("new_phone")});
        let Some(input) = GuestCreate::from_json(&body, "new_guest", &mut errors) else {
            let problem = (guest.is_empty()).then(|| t.t("booking-choose-guest"));
            return Err(refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem));
        };
        match guests::create(&state.svc, p, input).await {
            Ok(g) => {
                guest = g.id;
                f.insert("guest_id".into(), guest.clone());
                for (name, ..) in NEW_GUEST {
                    f.remove(*name);
                }
            }
            Err(e) => {
                return Err(refused(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    e.errors.clone(),
                    Some(super::rules::detail(t, &e)),
                ));
            }
        }
    }
    let num = |k: &str| {
        let v = get(f, k);
        v.parse::<i64>().map_or(Value::String(v), |n| json!(n))
    };
    // Fields a page of an older form may not carry: left out, they keep their default.
    let optional_num = |k: &str| match get(f, k).as_str() {
        "" => Value::Null,
        _ => num(k),
    };
    let opt = |k: &str| {
        let v = get(f, k);
        if v.is_empty() {
            Value::Null
        } else {
            Value::String(v)
        }
    };
    let body = json!({"primary_guest_id": guest, "room_type_id": get(f, "room_type_id"), "room_id": opt("room_id"),
        "arrival": get(f, "arrival"), "departure": get(f, "departure"), "adults": num("adults"),
        "children": num("children"), "notes": opt("notes"), "source": opt("source"),
        "children_ages": super::reservation_change::ages(&get(f, "children_ages")),
        "extra_beds": optional_num("extra_beds"), "cots": optional_num("cots"),
        "rate_plan_id": opt("rate_plan_id"), "override_reason": opt("override_reason")});
    let mut errors = Vec::new();
    let Some(input) = ReservationCreate::from_json(&body, "", &mut errors) else {
        return Err(refused(StatusCode::UNPROCESSABLE_ENTITY, errors, None));
    };
    match reservations::create(&state.svc, p, input).await {
        Ok(r) => Ok(r.id),
        Err(e) if !e.errors.is_empty() => {
            Err(refused(StatusCode::UNPROCESSABLE_ENTITY, e.errors, None))
        }
        Err(e) if e.kind == crate::error::Kind::Conflict => Err(refused(
            StatusCode::CONFLICT,
            Vec::new(),
            Some(super::rules::detail(t, &e)),
        )),
        Err(e) => Err(refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            Vec::new(),
            Some(super::rules::detail(t, &e)),
        )),
    }
}
