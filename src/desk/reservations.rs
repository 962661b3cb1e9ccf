//! The reservations list (`/reservations?from=…&to=…&status=…&source=…&room_type=…`): the
//! bookings whose stay touches a span of days (today and the next 30 by default), of a
//! status, a source or a room type when asked, each opening its page. A day that cannot be
//! read is said next to its field. A hundred bookings make a page; "Next page" carries the
//! list's signed cursor, as the API's lists do.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, open, or_answer, page, server_error};
use crate::cursor::{CursorKey, Filters, ListRequest};
use crate::domain::enums::Source;
use crate::domain::reservation::Status;
use crate::i18n::{Arg, T};
use crate::service::desk_lists::{self, BookingAsk};

/// The filter as asked.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Ask {
    from: Option<String>,
    to: Option<String>,
    status: Option<String>,
    source: Option<String>,
    room_type: Option<String>,
    /// Where the page starts (the API's signed cursor).
    cursor: Option<String>,
}

/// A select: name, label, the value chosen, and the (value, label) choices.
type Select = (&'static str, String, String, Vec<(String, String)>);

/// Bookings on one page.
const PAGE: usize = 100;

#[derive(Template)]
#[template(path = "desk/reservations.html")]
struct ReservationsPage {
    shell: Shell,
    /// (name, label, value, error) of the two days.
    days: Vec<(&'static str, String, String, Option<String>)>,
    /// (name, label, chosen, choices) of the selects.
    selects: Vec<Select>,
    summary: String,
    /// (id, code, guest, stay, room type, room, status, source).
    rows: Vec<[String; 8]>,
    /// The address of the next page, when more bookings follow.
    next: Option<String>,
}

/// Choices of a select: "any" first, then `values` with their labels.
fn choices<'a>(
    t: &T,
    any: &str,
    values: impl Iterator<Item = (&'a str, String)>,
) -> Vec<(String, String)> {
    std::iter::once((String::new(), t.t(any)))
        .chain(values.map(|(v, l)| (v.to_string(), l)))
        .collect()
}

/// `GET /reservations`.
#[handler]
pub async fn reservations(
    req: &Request,
    Query(a): Query<Ask>,
    state: Data<&Arc<DeskState>>,
    key: Data<&CursorKey>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::STAY).await);
    let read = |v: &Option<String>, default: NaiveDate| match v
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
    {
        None => (default.to_string(), default, None),
        Some(text) => match text.parse::<NaiveDate>() {
            Ok(d) => (text.to_string(), d, None),
            Err(_) => (text.to_string(), default, Some(t.t("error-date"))),
        },
    };
    let (from_text, from, from_error) = read(&a.from, s.today);
    let (to_text, to, to_error) = read(&a.to, s.today + chrono::Days::new(30));
    let status = a.status.as_deref().and_then(Status::parse);
    let source = a.source.as_deref().and_then(Source::parse);
    let types = match crate::service::room_types::list(
        &state.svc,
        &s.principal,
        crate::service::PageRequest::first(200),
    )
    .await
    {
        Ok(p) => p.items.into_iter().map(|(x, _)| x).collect::<Vec<_>>(),
        Err(e) => return server_error(&t, &e),
    };
    let room_type = a
        .room_type
        .clone()
        .filter(|id| types.iter().any(|x| &x.id == id));
    let filter = BookingAsk {
        from,
        to,
        status,
        source,
        room_type_id: room_type.clone(),
    };
    let asked = [
        ("from", from.to_string()),
        ("to", to.to_string()),
        (
            "status",
            status.map(|x| x.as_str().to_string()).unwrap_or_default(),
        ),
        (
            "source",
            source.map(|x| x.as_str().to_string()).unwrap_or_default(),
        ),
        ("room_type", room_type.clone().unwrap_or_default()),
    ];
    let filters = || Filters::of("desk-reservations", &asked);
    // A cursor from other filters, or one that expired, starts the list again.
    let list = ListRequest::new(&key, Some(PAGE as i64), a.cursor.clone(), filters())
        .or_else(|_| ListRequest::new(&key, Some(PAGE as i64), None, filters()));
    let list = match list {
        Ok(list) => list,
        Err(e) => return server_error(&t, &e),
    };
    let found = desk_lists::reservations(&state.svc, &s.principal, filter, list.page.clone()).await;
    let (found, names) = match found {
        Ok(f) => f,
        Err(e) => return server_error(&t, &e),
    };
    let next = list.next_cursor(&found).map(|c| {
        let pairs: Vec<(&str, String)> = asked
            .iter()
            .cloned()
            .chain([("cursor", c)])
            .filter(|(_, v)| !v.is_empty())
            .collect();
        format!(
            "/reservations?{}",
            serde_urlencoded::to_string(pairs).unwrap_or_default()
        )
    });
    let name = |id: &str| names.get(id).cloned().unwrap_or_default();
    let rows: Vec<[String; 8]> = found
        .items
        .iter()
        .map(|(r, _)| {
            [
                r.id.clone(),
                r.code.clone(),
                name(&r.primary_guest_id),
                format!(
                    "{} – {} ({})",
                    t.short_date(r.arrival.0),
                    t.short_date(r.departure.0),
                    t.n("nights", r.night_count)
                ),
                name(&r.room_type_id),
                r.room_id.as_deref().map_or_else(|| "–".into(), name),
                t.t(&format!("status-{}", r.status.as_str())),
                t.t(&format!("source-{}", r.source.as_str())),
            ]
        })
        .collect();
    let span = [
        ("from", Arg::Text(t.short_date(from))),
        ("to", Arg::Text(t.short_date(to))),
    ];
    let count = [("count", Arg::Num(rows.len() as i64))];
    let summary = t.with("reservations-summary", &[&count[..], &span[..]].concat());
    let selects = vec![
        (
            "status",
            t.t("field-status"),
            asked[2].1.clone(),
            choices(
                &t,
                "reservations-any",
                Status::ALL
                    .iter()
                    .map(|x| (x.as_str(), t.t(&format!("status-{}", x.as_str())))),
            ),
        ),
        (
            "source",
            t.t("field-source"),
            asked[3].1.clone(),
            choices(
                &t,
                "reservations-any",
                Source::ALL
                    .iter()
                    .map(|x| (x.as_str(), t.t(&format!("source-{}", x.as_str())))),
            ),
        ),
        (
            "room_type",
            t.t("field-room-type"),
            asked[4].1.clone(),
            choices(
                &t,
                "reservations-any",
                types.iter().map(|x| (x.id.as_str(), x.name.clone())),
            ),
        ),
    ];
    let body = ReservationsPage {
        days: vec![
            ("from", t.t("reservations-from"), from_text, from_error),
            ("to", t.t("reservations-to"), to_text, to_error),
        ],
        selects,
        summary,
        rows,
        next,
        shell: Shell::new(&s, t, "guests"),
    };
    page(StatusCode::OK, &body)
}
