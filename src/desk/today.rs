//! Screen 1, Today (`/`): the date, the day's counts, and who arrives, stays and leaves.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, Shell, open, or_answer, page, server_error};
use crate::i18n::{Arg, T};
use crate::service::desk_views;
use crate::service::desk_views::StayRow;

/// A stay as a row of Today's lists.
struct Row {
    id: String,
    /// The bill so far, in words.
    bill: String,
    /// For an arrival with a registration scheme on: complete, or what is missing.
    registration: Option<String>,
    /// The room to check into from Today, when one is assigned and nothing else is needed.
    quick: Option<String>,
    room: Option<String>,
    guest: String,
    /// The booking's and the guest's notes ("late arrival ~22:00", "gluten-free").
    notes: Vec<String>,
    /// "Checked in online, arriving around 18:30", when the guest did.
    online: Option<String>,
    /// Booked by a site with no room of its type free (listed at the top of the page).
    overbooked: bool,
    party: String,
    nights: String,
    room_type: String,
    departure: String,
    code: String,
}

/// One of Today's three lists.
struct List {
    id: &'static str,
    heading: String,
    none: String,
    rows: Vec<Row>,
    /// Whether the list shows each arrival's registration.
    registration: bool,
    /// Whether the list shows each stay's bill so far.
    bill: bool,
    /// Each row's next action: (the path after `/reservations/{id}/`, its label).
    action: Option<(&'static str, String)>,
}

#[derive(Template)]
#[template(path = "desk/today.html")]
struct TodayPage {
    shell: Shell,
    date: String,
    counts: Vec<String>,
    lists: Vec<List>,
    /// Why invoices cannot be issued now (after a restore), in words.
    held: Option<String>,
    /// That the usual VAT rate is 0 % where rooms are taxed, and who can change it.
    vat: Option<String>,
    /// Italy: kiosk check-ins waiting for staff to see each guest's document.
    identity: Vec<super::identity::IdentityRow>,
    /// Deposits due by today and not paid: (id, code, guest, arrival, due by, outstanding).
    deposits: Vec<(String, String, String, String, String, String)>,
    /// Booking sites' bookings taken with no room free: (id, code, site and code, dates).
    overbooked: Vec<[String; 4]>,
}

fn day(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

fn row(t: &T, r: StayRow, quick: bool) -> Row {
    let nights = match (day(&r.arrival), day(&r.departure)) {
        (Some(a), Some(d)) => (d - a).num_days(),
        _ => 0,
    };
    Row {
        registration: None,
        overbooked: false,
        bill: t.money(r.bill, &r.currency),
        quick: r.room_id.filter(|_| quick),
        id: r.id,
        room: r.room,
        guest: r.guest,
        notes: r.notes,
        online: match r.pre_checked_in {
            (false, _) => None,
            (true, None) => Some(t.t("today-pre-checked-in")),
            (true, Some(at)) => Some(t.with("today-pre-checked-in-at", &[("time", Arg::Text(at))])),
        },
        party: t.with(
            "party",
            &[
                ("adults", Arg::Num(r.adults)),
                ("children", Arg::Num(r.children)),
            ],
        ),
        nights: t.n("nights", nights),
        room_type: r.room_type,
        departure: day(&r.departure)
            .map(|d| t.short_date(d))
            .unwrap_or(r.departure),
        code: r.code,
    }
}

/// One of the lists; `quick` offers check-in right from the list for arrivals with a room.
fn list(t: &T, id: &'static str, rows: Vec<StayRow>, quick: bool) -> List {
    List {
        id,
        heading: t.t(&format!("{id}-heading")),
        none: t.t(&format!("none-{id}")),
        rows: rows
            .into_iter()
            .map(|r| row(t, r, quick && id == "arrivals"))
            .collect(),
        registration: false,
        bill: id != "arrivals",
        action: match id {
            "arrivals" => Some(("check-in", t.t("action-check-in"))),
            "departures" => Some(("check-out", t.t("action-check-out"))),
            _ => None,
        },
    }
}

/// An arrival's registration in words: complete, or the fields still missing.
fn missing(t: &T, problems: &[crate::compliance::Problem]) -> String {
    if problems.is_empty() {
        return t.t("registration-complete");
    }
    let mut fields: Vec<String> = Vec::new();
    for p in problems {
        let label =
            super::guest_form::label_of(&p.field).map_or_else(|| p.field.clone(), |k| t.t(k));
        // The hint in brackets belongs on the form, not in a list.
        let label = label.split(" (").next().unwrap_or_default().to_string();
        if !fields.contains(&label) {
            fields.push(label);
        }
    }
    t.with(
        "registration-missing",
        &[("fields", Arg::Text(fields.join(", ")))],
    )
}

/// `GET /`: Today.
#[handler]
pub async fn today(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ANYONE).await);
    // Housekeeping works from its own screen and sees nothing else.
    if !s
        .principal
        .scopes
        .contains(crate::domain::scopes::Scope::FrontDesk)
        && s.principal
            .scopes
            .contains(crate::domain::scopes::Scope::Housekeeping)
    {
        return crate::web::redirect(StatusCode::SEE_OTHER, "/housekeeping");
    }
    let v = match desk_views::today(&state.svc, &s.principal).await {
        Ok(v) => v,
        Err(e) => return server_error(&t, &e),
    };
    // Without a registration to complete, a booked room is checked in from the list itself.
    let quick = !state.svc.compliance().registration.enabled()
        && s.principal
            .scopes
            .contains(crate::domain::scopes::Scope::FrontDesk);
    let counts = vec![
        t.n("count-arrivals", v.arrivals.len() as i64),
        t.n("count-in-house", v.in_house.len() as i64),
        t.n("count-departures", v.departures.len() as i64),
        t.n("count-free", v.free_tonight()),
        t.n("count-dirty", v.counts.dirty),
    ];
    let ids = v.arrivals.iter().map(|r| r.id.clone()).collect();
    let gaps = match crate::service::registration::gaps(&state.svc, &s.principal, ids).await {
        Ok(g) => g,
        Err(e) => return server_error(&t, &e),
    };
    let mut arrivals = list(&t, "arrivals", v.arrivals, quick);
    if !gaps.is_empty() {
        arrivals.registration = true;
        for row in &mut arrivals.rows {
            let problems = gaps.iter().find(|(id, _)| *id == row.id).map(|(_, p)| p);
            row.registration = Some(missing(&t, problems.map(Vec::as_slice).unwrap_or_default()));
        }
    }
    let held = v.numbering_held.as_deref().map(|since| {
        let e = crate::service::numbering::unconfirmed(since);
        super::rules::detail(&t, &e)
    });
    let vat = v.vat_missing.then(|| {
        t.t(
            if s.principal
                .scopes
                .contains(crate::domain::scopes::Scope::Admin)
            {
                "today-vat-missing-admin"
            } else {
                "today-vat-missing"
            },
        )
    });
    let identity = super::identity::waiting(&state, &s.principal, &t, &s.time_zone).await;
    let overbooked = crate::service::channel_sync::overbooked(&state.svc, &s.principal)
        .await
        .unwrap_or_default();
    for row in &mut arrivals.rows {
        row.overbooked = overbooked.iter().any(|o| o.id == row.id);
    }
    let overbooked = overbooked
        .into_iter()
        .map(|o| {
            let dates = format!(
                "{} – {}",
                t.short_date(o.arrival.0),
                t.short_date(o.departure.0)
            );
            [o.id, o.code, o.source, dates]
        })
        .collect();
    let deposits = crate::service::deposits::due(&state.svc, &s.principal)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|d| {
            let when = |x: &str| day(x).map_or_else(|| x.to_string(), |x| t.short_date(x));
            let owed = t.money(d.outstanding, &d.currency);
            (
                d.id,
                d.code,
                d.guest,
                when(&d.arrival),
                when(&d.due_by),
                owed,
            )
        })
        .collect();
    let body = TodayPage {
        deposits,
        held,
        vat,
        identity,
        overbooked,
        date: t.date(v.day),
        counts,
        lists: vec![
            arrivals,
            list(&t, "in-house", v.in_house, false),
            list(&t, "departures", v.departures, false),
        ],
        shell: Shell::new(&s, t, "today").after(req),
    };
    page(StatusCode::OK, &body)
}
