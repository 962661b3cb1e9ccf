//! Screen 1, Today (`/`): the date, the day's counts, and who arrives, stays and leaves.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, Shell, page, server_error, signed_in, words};
use crate::i18n::{Arg, T};
use crate::service::desk_views;
use crate::service::desk_views::StayRow;

/// A stay as a row of Today's lists.
struct Row {
    id: String,
    room: Option<String>,
    guest: String,
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
}

#[derive(Template)]
#[template(path = "desk/today.html")]
struct TodayPage {
    shell: Shell,
    date: String,
    counts: Vec<String>,
    lists: Vec<List>,
}

fn day(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

fn row(t: &T, r: StayRow) -> Row {
    let nights = match (day(&r.arrival), day(&r.departure)) {
        (Some(a), Some(d)) => (d - a).num_days(),
        _ => 0,
    };
    Row {
        id: r.id,
        room: r.room,
        guest: r.guest,
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

fn list(t: &T, id: &'static str, rows: Vec<StayRow>) -> List {
    List {
        id,
        heading: t.t(&format!("{id}-heading")),
        none: t.t(&format!("none-{id}")),
        rows: rows.into_iter().map(|r| row(t, r)).collect(),
    }
}

/// `GET /`: Today.
#[handler]
pub async fn today(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let t = words(req);
    let v = match desk_views::today(&state.svc, &s.principal).await {
        Ok(v) => v,
        Err(e) => return server_error(&t, &e),
    };
    let counts = vec![
        t.n("count-arrivals", v.arrivals.len() as i64),
        t.n("count-in-house", v.in_house.len() as i64),
        t.n("count-departures", v.departures.len() as i64),
        t.n("count-free", v.free_tonight()),
        t.n("count-dirty", v.counts.dirty),
    ];
    let body = TodayPage {
        date: t.date(v.day),
        counts,
        lists: vec![
            list(&t, "arrivals", v.arrivals),
            list(&t, "in-house", v.in_house),
            list(&t, "departures", v.departures),
        ],
        shell: Shell::new(&s, t, "today"),
    };
    page(StatusCode::OK, &body)
}
