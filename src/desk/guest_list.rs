//! Reports › Guests in the house (`/reports/guests?date=…`, `reports:read` and
//! `guests:read`): everyone who stayed a night, each member of each party by room, with
//! nationality, birth date and document: the in-house list, and the police list an
//! inspector asks for, ready to print. The same use case as `GET /v1/reports/guests`.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, REPORTS, Shell, open, or_answer, page, server_error};
use crate::i18n::Arg;
use crate::model::Date;
use crate::service::reports;

#[derive(Template)]
#[template(path = "desk/guest_list.html")]
struct GuestListPage {
    shell: Shell,
    title: String,
    /// `2026-11-27`, for the date field.
    date: String,
    /// Room, name, nationality, birth date, document, stay.
    rows: Vec<[String; 6]>,
}

/// `GET /reports/guests?date=YYYY-MM-DD` (today by default).
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, REPORTS).await);
    let date = req
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("date=")))
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .unwrap_or(s.today);
    let list = match reports::guest_list(&state.svc, &s.principal, Date(date)).await {
        Ok(l) => l,
        Err(e) => return server_error(&t, &e),
    };
    let rows = list
        .rows
        .iter()
        .map(|r| {
            let g = &r.guest;
            let document = g.document.as_ref().map_or_else(String::new, |d| {
                let mut words = format!(
                    "{} {}",
                    t.t(&format!("document-{}", d.kind.as_str())),
                    d.number.0
                );
                if let Some(c) = &d.issuing_country {
                    words.push_str(&format!(" ({})", c.0));
                }
                words
            });
            [
                r.room.clone().unwrap_or_default(),
                format!("{} {}", g.first_name, g.last_name),
                g.nationality.clone().unwrap_or_default(),
                g.birth_date
                    .map(|d| t.numeric_date(d.0))
                    .unwrap_or_default(),
                document,
                format!(
                    "{} – {}",
                    t.short_date(r.arrival.0),
                    t.short_date(r.departure.0)
                ),
            ]
        })
        .collect();
    let title = t.with("guest-list-title", &[("date", Arg::Text(t.date(date)))]);
    let body = GuestListPage {
        title,
        date: date.to_string(),
        rows,
        shell: Shell::new(&s, t, "reports").after(req),
    };
    page(StatusCode::OK, &body)
}
