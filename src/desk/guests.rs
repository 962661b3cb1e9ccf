//! Screen 7, guests: search by name (`/guests?q=`), and a guest's page with their details
//! and stays (`/guests/{id}`); for admins also the guest's privacy: export and erase
//! (`guest_privacy`).

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path, Query};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, failed_read, open, or_answer, page, server_error};
use crate::i18n::{Arg, T};
use crate::service::{desk_lists, desk_views};

#[derive(Template)]
#[template(path = "desk/guests.html")]
struct GuestsPage {
    shell: Shell,
    query: String,
    found: String,
    /// (id, name, e-mail, phone, nationality)
    guests: Vec<(String, String, String, String, String)>,
    /// The booking whose code was typed: (id, code, guest, dates).
    booking: Option<(String, String, String, String)>,
}

#[derive(Template)]
#[template(path = "desk/guest.html")]
struct GuestPage {
    shell: Shell,
    id: String,
    name: String,
    facts: Vec<(String, String)>,
    /// (reservation id, code, arrival, nights, status)
    stays: Vec<(String, String, String, String, String)>,
    /// The erase form's confirmation label, naming the guest.
    erase_label: String,
    /// Why the erasure was refused, next to its box.
    erase_error: Option<String>,
    /// Why the erasure was refused, in words.
    problem: Option<String>,
}

/// How the guest page's erase form came back.
#[derive(Default)]
pub struct EraseForm {
    /// The box was not ticked.
    pub error: Option<String>,
    /// The erasure was refused.
    pub problem: Option<String>,
}

/// The search box's query.
#[derive(Debug, serde::Deserialize)]
pub struct Search {
    q: Option<String>,
}

fn or_not_given(t: &T, v: Option<String>) -> String {
    v.filter(|s| !s.is_empty())
        .unwrap_or_else(|| t.t("not-given"))
}

/// `GET /guests`: search by name.
#[handler]
pub async fn guests(
    req: &Request,
    Query(q): Query<Search>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::GUESTS).await);
    let query = q.q.unwrap_or_default();
    let found = match desk_lists::find_guests(&state.svc, &s.principal, &query).await {
        Ok(g) => g,
        Err(e) => return server_error(&t, &e),
    };
    let booking = match desk_lists::find_booking(&state.svc, &s.principal, &query).await {
        Ok(b) => b.map(|(r, g)| {
            let dates = format!(
                "{} – {}",
                t.short_date(r.arrival.0),
                t.short_date(r.departure.0)
            );
            (
                r.id,
                r.code,
                format!("{} {}", g.first_name, g.last_name),
                dates,
            )
        }),
        Err(e) => return server_error(&t, &e),
    };
    let body = GuestsPage {
        booking,
        found: t.n("guests-found", found.len() as i64),
        guests: found
            .into_iter()
            .map(|g| {
                (
                    g.id,
                    format!("{} {}", g.first_name, g.last_name),
                    g.email.unwrap_or_default(),
                    g.phone.unwrap_or_default(),
                    g.nationality.map(|c| country(&t, &c)).unwrap_or_default(),
                )
            })
            .collect(),
        query,
        shell: Shell::new(&s, t, "guests"),
    };
    page(StatusCode::OK, &body)
}

/// `GET /guests/{id}`.
#[handler]
pub async fn guest(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::GUESTS).await);
    show(&state, &s, t, id, StatusCode::OK, EraseForm::default()).await
}

/// The guest's page, with the erase form as it came back.
pub async fn show(
    state: &DeskState,
    s: &super::DeskSession,
    t: T,
    id: String,
    status: StatusCode,
    erase: EraseForm,
) -> Response {
    let (g, stays) = match desk_views::guest(&state.svc, &s.principal, id).await {
        Ok(v) => v,
        Err(e) => return failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    };
    let document = g
        .document
        .as_ref()
        .map(|d| format!("{} {}", d.kind.as_str().replace('_', " "), d.number.0));
    let address = g.address.as_ref().map(|a| {
        let parts = [
            a.line1.as_ref().map(|l| l.0.clone()),
            a.line2.as_ref().map(|l| l.0.clone()),
            a.postal_code.as_ref().map(|l| l.0.clone()),
            a.city.as_ref().map(|l| l.0.clone()),
            a.country.as_ref().map(|c| country(&t, &c.0)),
        ];
        parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
    });
    let facts = vec![
        (t.t("field-email"), or_not_given(&t, g.email.clone())),
        (t.t("field-phone"), or_not_given(&t, g.phone.clone())),
        (
            t.t("field-birth-date"),
            or_not_given(&t, g.birth_date.map(|d| t.date(d.0))),
        ),
        (
            t.t("field-nationality"),
            or_not_given(&t, g.nationality.as_ref().map(|c| country(&t, c))),
        ),
        (t.t("field-document"), or_not_given(&t, document)),
        (t.t("field-address"), or_not_given(&t, address)),
    ];
    let mut facts = facts;
    if let Some(cf) = &g.tax_code {
        // Shown where a guest has one (Italy), not as "not given" everywhere.
        facts.insert(4, (t.t("field-tax-code"), cf.clone()));
    }
    if let Some(n) = g.notes.clone().filter(|n| !n.trim().is_empty()) {
        facts.push((t.t("field-notes"), n));
    }
    let full_name = format!("{} {}", g.first_name, g.last_name);
    let body = GuestPage {
        id: g.id.clone(),
        name: t.with("guest-heading", &[("name", Arg::Text(full_name.clone()))]),
        erase_label: t.with("privacy-erase-confirm", &[("name", Arg::Text(full_name))]),
        erase_error: erase.error,
        problem: erase.problem,
        facts,
        stays: stays
            .into_iter()
            .map(|r| {
                (
                    r.id,
                    r.code,
                    t.short_date(r.arrival.0),
                    t.n("nights", r.night_count),
                    t.t(&format!("status-{}", r.status.as_str())),
                )
            })
            .collect(),
        shell: Shell::new(s, t, "guests"),
    };
    page(status, &body)
}

/// A country's name in the page's language (its code when innkeep does not know it).
fn country(t: &T, code: &str) -> String {
    crate::i18n::countries::name(t.lang(), code).map_or_else(|| code.to_string(), str::to_string)
}
