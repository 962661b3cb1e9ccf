//! Screen 9, housekeeping (`/housekeeping`): every room by its state (to be cleaned first,
//! then inspected, clean, out of order), each with one tap to its next state, usable on a
//! phone. The housekeeping role sees this and nothing else. A tap is a plain form post (the
//! use case of `PUT /v1/rooms/{id}`, with the room's version as If-Match), made in place
//! with htmx.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::{DeskState, Shell, open, open_form, or_answer, page, server_error};
use crate::domain::enums::HousekeepingStatus as H;
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::model::RoomUpdate;
use crate::model::input::FromJson;
use crate::service::{IfMatch, desk_views, rooms};
use crate::web;

/// The order of the groups on the screen.
const ORDER: [H; 4] = [H::Dirty, H::Inspected, H::Clean, H::OutOfOrder];

/// The taps a room in `state` offers: (the state it moves to, the button's catalogue key).
fn taps(state: H) -> &'static [(H, &'static str)] {
    match state {
        H::Dirty => &[(H::Clean, "hk-mark-clean"), (H::OutOfOrder, "hk-mark-ooo")],
        H::Clean => &[
            (H::Inspected, "hk-mark-inspected"),
            (H::Dirty, "hk-mark-dirty"),
        ],
        H::Inspected => &[(H::Dirty, "hk-mark-dirty"), (H::OutOfOrder, "hk-mark-ooo")],
        H::OutOfOrder => &[(H::Dirty, "hk-back-in-service")],
    }
}

/// The extra beds and cots a room needs, in words ("1 extra bed, 1 cot"), if any.
pub(super) fn beds(t: &T, extra_beds: i64, cots: i64) -> Option<String> {
    let words: Vec<String> = [("party-extra-beds", extra_beds), ("party-cots", cots)]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(key, n)| t.n(key, n))
        .collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// A room's card.
struct Card {
    id: String,
    number: String,
    kind: String,
    occupied: String,
    /// "Arrival today", when a booking arriving today has the room.
    arriving: Option<String>,
    /// That booking's notes.
    note: Option<String>,
    /// The extra beds and cots to put in for it, in words.
    beds: Option<String>,
    version: i64,
    /// (state value, button label).
    taps: Vec<(&'static str, String)>,
}

/// Rooms in one state.
struct Group {
    id: &'static str,
    heading: String,
    cards: Vec<Card>,
}

#[derive(Template)]
#[template(path = "desk/housekeeping.html")]
struct HousekeepingPage {
    shell: Shell,
    groups: Vec<Group>,
    problem: Option<String>,
}

async fn render(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    shell: Shell,
    status: StatusCode,
    problem: Option<String>,
) -> Response {
    let t: T = shell.t;
    let all = match desk_views::housekeeping_rooms(&state.svc, &s.principal).await {
        Ok(r) => r,
        Err(e) => return server_error(&t, &e),
    };
    let groups = ORDER
        .iter()
        .map(|st| {
            let cards: Vec<Card> = all
                .iter()
                .filter(|(r, ..)| r.housekeeping_status == *st)
                .map(|(r, kind, arrives)| Card {
                    arriving: arrives.as_ref().map(|_| t.t("hk-arriving")),
                    note: arrives
                        .as_ref()
                        .and_then(|a| a.notes.clone())
                        .filter(|n| !n.trim().is_empty()),
                    beds: arrives
                        .as_ref()
                        .and_then(|a| beds(&t, a.extra_beds, a.cots)),
                    id: r.id.clone(),
                    number: r.number.clone(),
                    kind: kind.clone(),
                    occupied: t.t(if r.occupied {
                        "hk-occupied"
                    } else {
                        "hk-empty"
                    }),
                    version: r.version,
                    taps: taps(*st)
                        .iter()
                        .map(|(to, key)| (to.as_str(), t.t(key)))
                        .collect(),
                })
                .collect();
            Group {
                id: st.as_str(),
                heading: t.with(
                    &format!("hk-heading-{}", st.as_str()),
                    &[("count", Arg::Num(cards.len() as i64))],
                ),
                cards,
            }
        })
        .collect();
    page(
        status,
        &HousekeepingPage {
            groups,
            problem,
            shell,
        },
    )
}

/// `GET /housekeeping`.
#[handler]
pub async fn housekeeping(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::HOUSEKEEPING).await);
    let shell = Shell::new(&s, t, "housekeeping").after(req);
    render(&state, &s, shell, StatusCode::OK, None).await
}

/// A room's state button.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct RoomStateForm {
    /// The housekeeping state to move it to.
    status: String,
    /// The room's version when the page was drawn.
    version: String,
}

/// `POST /housekeeping/{room_id}`: moves a room to `status`.
#[handler]
pub async fn set(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<RoomStateForm>(req, body, &state, super::HOUSEKEEPING).await);
    let RoomStateForm { status, version } = posted.fields;
    let version = version.parse().unwrap_or(0);
    let mut errors = Vec::new();
    let input = RoomUpdate::from_json(&json!({ "housekeeping_status": status }), "", &mut errors);
    let again = |status, problem| {
        let shell = Shell::new(&s, t, "housekeeping");
        render(&state, &s, shell, status, Some(problem))
    };
    let Some(input) = input else {
        return again(StatusCode::UNPROCESSABLE_ENTITY, t.t("hk-unknown-state")).await;
    };
    let if_match = Some(IfMatch::Versions(vec![version]));
    match rooms::update(&state.svc, &s.principal, id, if_match, input).await {
        Ok(_) => web::redirect(StatusCode::SEE_OTHER, "/housekeeping?done=room-changed"),
        Err(e) if e.kind == Kind::PreconditionFailed => {
            again(StatusCode::CONFLICT, t.t("hk-changed-meanwhile")).await
        }
        Err(e) => super::failed_read(
            &t,
            &e,
            "not-found-room",
            ("/housekeeping", "nav-housekeeping"),
        ),
    }
}
