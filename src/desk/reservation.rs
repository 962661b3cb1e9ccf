//! Screen 4, the reservation (`/reservations/{id}`): the stay, its guests, folio and history
//! (who did what, when). Actions come with the check-in and check-out screens.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, failed_read, page, signed_in, words};
use crate::i18n::{Arg, T};
use crate::model::HistoryEntry;
use crate::service::desk_views;

/// One history entry as the page shows it.
struct Entry {
    what: String,
    by: String,
    changes: Vec<String>,
}

#[derive(Template)]
#[template(path = "desk/reservation.html")]
struct ReservationPage {
    shell: Shell,
    title: String,
    heading: String,
    facts: Vec<(String, String)>,
    guests: Vec<String>,
    charges: Vec<(String, String, i64, String)>,
    history: Vec<Entry>,
}

fn value(v: &serde_json::Value, t: &T) -> String {
    match v {
        serde_json::Value::Null => t.t("history-empty-value"),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The history types of a reservation, in the catalogue as `history-reservation-…`.
pub const KINDS: &[&str] = &[
    "created",
    "updated",
    "cancelled",
    "no_show",
    "checked_in",
    "checked_out",
    "charge_added",
];

fn entry(e: HistoryEntry, t: &T) -> Entry {
    let when: String = e.occurred_at.0.replace('T', " ").chars().take(16).collect();
    let what = match e.kind.strip_prefix("reservation.") {
        Some(k) if KINDS.contains(&k) => t.t(&format!("history-reservation-{k}")),
        _ => e.kind.clone(),
    };
    // A new booking's every field is "changed"; the facts above say it all.
    let shown = if e.kind.ends_with(".created") {
        &[][..]
    } else {
        &e.changes[..]
    };
    Entry {
        what,
        by: t.with(
            "history-by",
            &[("when", Arg::Text(when)), ("who", Arg::Text(e.actor.name))],
        ),
        changes: shown
            .iter()
            .map(|c| {
                t.with(
                    "history-change",
                    &[
                        ("field", Arg::Text(c.field.clone())),
                        ("from", Arg::Text(value(&c.from, t))),
                        ("to", Arg::Text(value(&c.to, t))),
                    ],
                )
            })
            .collect(),
    }
}

/// `GET /reservations/{id}`.
#[handler]
pub async fn reservation(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let t = words(req);
    let v = match desk_views::stay(&state.svc, &s.principal, id).await {
        Ok(v) => v,
        Err(e) => return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    };
    let r = &v.reservation;
    let guest = v
        .guests
        .first()
        .map(|g| format!("{} {}", g.first_name, g.last_name))
        .unwrap_or_default();
    let code = Arg::Text(r.code.clone());
    let stay = t.with(
        "stay-dates",
        &[
            ("arrival", Arg::Text(t.short_date(r.arrival.0))),
            ("departure", Arg::Text(t.short_date(r.departure.0))),
            ("nights", Arg::Text(t.n("nights", r.nights))),
        ],
    );
    let mut facts = vec![
        (
            t.t("field-status"),
            t.t(&format!("status-{}", r.status.as_str())),
        ),
        (t.t("field-stay"), stay),
        (
            t.t("field-party"),
            t.with(
                "party",
                &[
                    ("adults", Arg::Num(r.adults)),
                    ("children", Arg::Num(r.children)),
                ],
            ),
        ),
        (t.t("field-room-type"), v.room_type.name.clone()),
        (
            t.t("field-room"),
            v.room
                .as_ref()
                .map_or_else(|| t.t("room-unassigned"), |m| m.number.clone()),
        ),
        (t.t("field-rate"), t.money(r.nightly_rate, &r.currency)),
        (t.t("field-source"), r.source.as_str().replace('_', " ")),
    ];
    if let Some(n) = &r.notes {
        facts.push((t.t("field-notes"), n.clone()));
    }
    let body = ReservationPage {
        title: t.with("reservation-title", &[("code", code.clone())]),
        heading: t.with(
            "reservation-heading",
            &[("guest", Arg::Text(guest)), ("code", code)],
        ),
        facts,
        guests: v
            .guests
            .iter()
            .map(|g| format!("{} {}", g.first_name, g.last_name))
            .collect(),
        charges: v
            .charges
            .iter()
            .map(|c| {
                (
                    t.short_date(c.service_date.0),
                    c.description.clone(),
                    c.quantity,
                    t.money(c.gross_amount, &c.currency),
                )
            })
            .collect(),
        history: v.history.into_iter().map(|e| entry(e, &t)).collect(),
        shell: Shell::new(&s, t, "today"),
    };
    page(StatusCode::OK, &body)
}
