//! Screen 2, the room board (`/board?from=YYYY-MM-DD`): rooms as rows grouped by type, 14
//! nights as columns, each stay a bar with the guest's name coloured by its status, the
//! bookings without a room in rows of their own under their type, dirty and out-of-order
//! rooms marked. A free cell starts a booking for that room and night; a bar opens its
//! reservation. A bar dragged (or, with the keyboard, picked up with M, carried with the
//! arrow keys and put down with Enter) onto another room or night posts the reservation's
//! change form (`assets/desk.js`), so the move passes the same rules as
//! `PUT /v1/reservations/{id}`, and comes back here. Two queries per view, whatever the
//! number of rooms and nights.

use std::sync::Arc;

use askama::Template;
use chrono::{Datelike, NaiveDate};
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, Shell, open, or_answer, page, server_error};
use crate::domain::scopes::Scope;
use crate::i18n::{Arg, T};
use crate::service::board::{self as layout, Board, BoardStay, Sales, column};

/// How many nights the board shows.
pub const DAYS: usize = 14;

/// One cell (or run of cells) of a row.
enum Cell {
    /// A free night: the day, and whether it can be booked from here.
    Free(String, bool),
    /// A stay: its id, the guest, its status, the nights it spans here, and what moving it
    /// from the board needs (its version and dates; `movable` when this staff member may
    /// and it is booked or in the house).
    Bar {
        id: String,
        guest: String,
        status: String,
        span: usize,
        label: String,
        version: i64,
        arrival: String,
        departure: String,
        movable: bool,
    },
}

/// A row of the board.
struct Row {
    /// The room's number, or "without a room".
    head: String,
    /// The room's state worth saying (dirty, out of order), if any.
    tag: Option<(String, String)>,
    room_id: Option<String>,
    /// The room type of the row's room, where a stay moved onto it goes.
    type_id: String,
    cells: Vec<Cell>,
}

/// A room type's rows.
struct Group {
    name: String,
    rows: Vec<Row>,
    /// Rooms of the type still free each night (in service, less the bookings holding one;
    /// below zero when the type is overbooked).
    free: Vec<i64>,
    /// The bookings without a room left off the rows, in words.
    more: Option<String>,
    /// Per night, (class, words) where every plan of the type closes it (empty: none).
    sales: Vec<(&'static str, String)>,
}

#[derive(Template)]
#[template(path = "desk/board.html")]
struct BoardPage {
    shell: Shell,
    title: String,
    from: String,
    /// Whether stays can be moved from here (the staff member may change bookings).
    movable: bool,
    /// The board's table ([`BoardTable`], kept rendered while nothing changes), or the
    /// words saying there are no rooms yet.
    table: Arc<str>,
    /// (path, label) of the moves: a week back, a day back, today, a day on, a week on.
    moves: Vec<(String, String)>,
    problem: Option<String>,
}

/// The board's table: the costly part, rendered once per database version, fortnight,
/// language and role.
#[derive(Template)]
#[template(path = "desk/board_table.html")]
struct BoardTable<'a> {
    t: &'a T,
    title: &'a str,
    from: String,
    /// (day head, whether it is today, the day as `YYYY-MM-DD`).
    days: Vec<(String, bool, String)>,
    /// "Book room", said once for the page rather than once per free night.
    book: String,
    groups: Vec<Group>,
}

/// The cells of one row from its stays (which the layout keeps apart, by first night).
fn cells(
    words: &Words,
    from: NaiveDate,
    stays: &[BoardStay],
    row: &[usize],
    bookable: bool,
) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut at = 0usize;
    for s in row.iter().map(|&i| &stays[i]) {
        let night = |d: &str| d.parse().map_or(0, |d| column(from, DAYS, d));
        let (start, end) = (night(&s.arrival), night(&s.departure));
        out.extend((at..start).map(|i| Cell::Free(words.days[i].clone(), bookable)));
        let status = words.status(&s.status);
        let label = match &s.notes {
            Some(n) => format!("{}, {status}: {n}", s.guest),
            None => format!("{}, {status}", s.guest),
        };
        out.push(Cell::Bar {
            id: s.id.clone(),
            guest: match &s.notes {
                Some(_) => format!("{} ✎", s.guest),
                None => s.guest.clone(),
            },
            label,
            status: s.status.clone(),
            span: end - start,
            version: s.version,
            arrival: s.arrival.clone(),
            departure: s.departure.clone(),
            movable: words.movable && matches!(s.status.as_str(), "confirmed" | "checked_in"),
        });
        at = end;
    }
    out.extend((at..DAYS).map(|i| Cell::Free(words.days[i].clone(), bookable)));
    out
}

/// The words a board repeats, looked up once per page rather than once per bar.
struct Words {
    /// (status, its name) of the statuses a bar can have.
    statuses: Vec<(&'static str, String)>,
    /// Whether the staff member may move stays.
    movable: bool,
    /// The board's nights as `YYYY-MM-DD`, written once rather than once per cell.
    days: Vec<String>,
}

impl Words {
    fn new(t: &T, from: NaiveDate, movable: bool) -> Words {
        Words {
            movable,
            days: (0..DAYS)
                .map(|i| (from + chrono::Days::new(i as u64)).to_string())
                .collect(),
            statuses: ["confirmed", "checked_in", "checked_out"]
                .into_iter()
                .map(|s| (s, t.t(&format!("status-{s}"))))
                .collect(),
        }
    }

    fn status<'a>(&'a self, s: &'a str) -> &'a str {
        self.statuses
            .iter()
            .find(|(k, _)| *k == s)
            .map_or(s, |(_, w)| w.as_str())
    }
}

/// The board's rows, grouped by room type.
fn groups(t: &T, from: NaiveDate, b: &Board, bookable: bool) -> Vec<Group> {
    let words = Words::new(t, from, bookable);
    let mut groups: Vec<Group> = Vec::new();
    for (ti, (type_id, name)) in b.types.iter().enumerate() {
        let mut rows = Vec::new();
        for (room, mine) in b.rooms.iter().zip(&b.layout.rooms) {
            if room.room_type_id != *type_id {
                continue;
            }
            let usable = bookable && room.status != "out_of_order";
            let tag = matches!(room.status.as_str(), "dirty" | "out_of_order").then(|| {
                (
                    room.status.clone(),
                    t.t(&format!("housekeeping-{}", room.status)),
                )
            });
            rows.push(Row {
                head: room.number.clone(),
                tag,
                room_id: Some(room.id.clone()),
                type_id: type_id.clone(),
                cells: cells(&words, from, &b.stays, mine, usable),
            });
        }
        for lane in &b.layout.lanes[ti] {
            rows.push(Row {
                head: t.t("board-unassigned"),
                tag: None,
                room_id: None,
                type_id: type_id.clone(),
                cells: cells(&words, from, &b.stays, lane, false),
            });
        }
        let hidden = b.layout.hidden[ti];
        let marks = b.sales.get(ti).cloned().unwrap_or_default();
        let sales = if marks.iter().any(Option::is_some) {
            marks
                .iter()
                .map(|m| match m {
                    Some(Sales::Stopped) => ("stopped", t.t("board-stopped")),
                    Some(Sales::NoArrival) => ("no-arrival", t.t("board-no-arrival")),
                    None => ("", String::new()),
                })
                .collect()
        } else {
            Vec::new()
        };
        groups.push(Group {
            sales,
            name: name.clone(),
            rows,
            free: b.layout.free[ti].clone(),
            more: (hidden > 0).then(|| t.n("board-more-unassigned", hidden as i64)),
        });
    }
    groups
}

/// `GET /board?from=YYYY-MM-DD`.
#[handler]
pub async fn board(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::BOARD).await);
    let asked = req
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("from=")))
        .filter(|v| !v.is_empty());
    let parsed = asked.map(|v| v.parse::<NaiveDate>());
    let today = s.today;
    let (from, problem) = match parsed {
        // Far beyond any stay, a fortnight's arithmetic would leave the calendar.
        Some(Ok(d)) if (1900..=9999).contains(&d.year()) => (d, None),
        Some(_) => (today, Some(t.t("board-bad-date"))),
        None => (today, None),
    };
    let bookable = s.principal.scopes.contains(Scope::ReservationsWrite);
    let named = s.principal.scopes.contains(Scope::GuestsRead);
    let title = t.with(
        "board-title",
        &[
            ("from", Arg::Text(t.short_date(from))),
            (
                "to",
                Arg::Text(t.short_date(from + chrono::Days::new(DAYS as u64 - 1))),
            ),
        ],
    );
    let key = format!(
        "board {from} {} {bookable} {named} {}",
        t.lang().tag(),
        s.today
    );
    let version = match layout::version(&state.svc) {
        Ok(v) => v,
        Err(e) => return server_error(&t, &e),
    };
    let table = match state.rendered.get(&key, version) {
        Some(table) => table,
        None => {
            let b = match layout::board(&state.svc, &s.principal, from, DAYS as u64).await {
                Ok(b) => b,
                Err(e) => return server_error(&t, &e),
            };
            let table = match table(&t, &title, from, s.today, b, bookable) {
                Ok(table) => table,
                Err(e) => return server_error(&t, &crate::error::AppError::internal(e)),
            };
            state.rendered.keep(key, version, table.clone());
            table
        }
    };
    let at = |days: i64| format!("/board?from={}", from + chrono::Duration::days(days));
    let body = BoardPage {
        title,
        from: from.to_string(),
        movable: bookable,
        table,
        moves: vec![
            (at(-7), t.t("board-week-back")),
            (at(-1), t.t("board-day-back")),
            (format!("/board?from={}", s.today), t.t("board-today")),
            (at(1), t.t("board-day-on")),
            (at(7), t.t("board-week-on")),
        ],
        problem,
        shell: Shell::new(&s, t, "board").after(req),
    };
    page(StatusCode::OK, &body)
}

/// Renders the board's table from its data.
fn table(
    t: &T,
    title: &str,
    from: NaiveDate,
    today: NaiveDate,
    mut b: Board,
    bookable: bool,
) -> askama::Result<Arc<str>> {
    // A role that may not read guests sees the stays without their names.
    for stay in b.stays.iter_mut().filter(|s| s.guest.is_empty()) {
        stay.guest = t.t(&format!("status-{}", stay.status));
    }
    let table = BoardTable {
        t,
        title,
        from: from.to_string(),
        days: (0..DAYS)
            .map(|i| {
                let d = from + chrono::Days::new(i as u64);
                (t.day_head(d), d == today, d.to_string())
            })
            .collect(),
        book: t.t("board-book"),
        groups: groups(t, from, &b, bookable),
    };
    Ok(table.render()?.into())
}
