//! Screen 4, the reservation (`/reservations/{id}`): the stay, its guests, folio and history
//! (who did what, when), and the actions its state and the staff member's role allow: check
//! in, check out, the invoice, cancel, no-show, and adding a charge (`stay_actions`).

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, failed_read, open, or_answer, page};
use crate::domain::reservation::Status;
use crate::domain::scopes::Scope;
use crate::error::FieldError;
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
    /// (id, name) of each guest, the primary first.
    guests: Vec<(String, String)>,
    /// The add-a-companion form, while the booking has room for one more guest.
    companion: Option<Vec<super::guest_form::FormField>>,
    /// Whether the companion form comes back refused (so shown open).
    companion_open: bool,
    charges: Vec<(String, String, i64, String)>,
    history: Vec<Entry>,
    /// What was sent to the guest, and whether it can be sent again.
    messages: Vec<super::messages::MessageRow>,
    id: String,
    version: i64,
    /// The actions offered.
    can: Actions,
    /// The add-charge form: (name, label, value, error) per field.
    charge: Vec<(&'static str, String, String, Option<String>)>,
    /// The charge's VAT choices (basis points, "13 %"), the usual rate first, and the one
    /// chosen.
    charge_rates: Vec<(String, String)>,
    charge_rate: String,
    /// (id, label) of the extras on offer, to add from the list.
    extras: Vec<(String, String)>,
    /// The record-a-deposit form, for a confirmed booking.
    deposit: Option<super::deposits::DepositFields>,
    /// The change-the-booking form.
    change: super::reservation_change::Change,
    /// Why the last action was refused, in words.
    problem: Option<String>,
}

/// What the page offers, from the reservation's state, the day and the role.
#[derive(Default)]
struct Actions {
    check_in: bool,
    check_out: bool,
    invoice: Option<String>,
    cancel: bool,
    no_show: bool,
    undo_check_in: bool,
    charge: bool,
    change: bool,
    /// Cancelled, and the staff member may write: its cancellation can be sent again.
    cancelled: bool,
}

/// What a refused action leaves on the page: the typed charge, the errors, the problem.
#[derive(Default)]
pub(super) struct Refusal {
    /// The refused form as typed (add a charge, or change the dates or room).
    pub typed: std::collections::HashMap<String, String>,
    /// The rules it broke, by field.
    pub errors: Vec<FieldError>,
    /// What went wrong, in words.
    pub problem: Option<String>,
}

/// A rate in basis points as a person reads it: `13 %`, `5,5 %` in Italian and Croatian.
fn percent(t: &T, bp: i64) -> String {
    let n = crate::domain::money::format_amount(bp);
    let n = n.trim_end_matches('0').trim_end_matches('.');
    let n = if t.lang() == crate::i18n::Lang::En {
        n.to_string()
    } else {
        n.replace('.', ",")
    };
    format!("{n} %")
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
    "restriction_overridden",
];

/// What a history entry's values are read against: the rooms, room types and guests the
/// page knows by id (so a change says "Room: 101 → 102", not two ids), and the currency.
struct Names {
    ids: std::collections::HashMap<String, String>,
    currency: String,
}

impl Names {
    fn of(v: &desk_views::Stay) -> Names {
        let mut ids = std::collections::HashMap::new();
        for m in v.type_rooms.iter().chain(v.room.iter()) {
            ids.insert(m.id.clone(), m.number.clone());
        }
        for x in v.room_types.iter().chain([&v.room_type]) {
            ids.insert(x.id.clone(), x.name.clone());
        }
        for g in &v.guests {
            ids.insert(g.id.clone(), format!("{} {}", g.first_name, g.last_name));
        }
        Names {
            ids,
            currency: v.reservation.currency.clone(),
        }
    }
}

/// The party in words: "2 adults, 2 children aged 4, 7; 1 cot".
fn party(t: &T, r: &crate::model::Reservation) -> String {
    let people = [
        ("adults", Arg::Num(r.adults)),
        ("children", Arg::Num(r.children)),
    ];
    let mut words = t.with("party", &people);
    if let Some(ages) = r.children_ages.as_ref().filter(|a| !a.is_empty()) {
        let ages: Vec<String> = ages.iter().map(i64::to_string).collect();
        let aged = t.with("party-ages", &[("ages", Arg::Text(ages.join(", ")))]);
        words = format!("{words} {aged}");
    }
    match super::housekeeping::beds(t, r.extra_beds, r.cots) {
        Some(beds) => format!("{words}; {beds}"),
        None => words,
    }
}

/// A changed field's label in the page's language (its API name when it has none).
fn label(field: &str, t: &T) -> String {
    let key = match field {
        "arrival" => "field-arrival",
        "departure" => "field-departure",
        "adults" => "field-adults",
        "children" => "field-children",
        "children_ages" => "field-children-ages",
        "extra_beds" => "field-extra-beds",
        "cots" => "field-cots",
        "room_id" => "field-room",
        "room_type_id" => "field-room-type",
        "nightly_rate" => "field-rate",
        "rate_note" => "field-rate-note",
        "source" => "field-source",
        "notes" => "field-notes",
        "status" => "field-status",
        "primary_guest_id" | "guest_ids" => "history-field-guests",
        _ => return field.to_string(),
    };
    t.t(key)
}

/// A changed value in words: a room by number, a guest by name, a date and an amount as
/// the language writes them, a status and a source in words.
fn said(field: &str, v: &serde_json::Value, t: &T, names: &Names) -> String {
    use serde_json::Value;
    match (field, v) {
        (_, Value::Null) => t.t("history-empty-value"),
        ("arrival" | "departure", Value::String(d)) => d
            .parse::<chrono::NaiveDate>()
            .map_or_else(|_| d.clone(), |d| t.date(d)),
        ("nightly_rate", Value::Number(n)) => n
            .as_i64()
            .map_or_else(|| n.to_string(), |m| t.money(m, &names.currency)),
        ("status", Value::String(s)) => t.t(&format!("status-{s}")),
        ("source", Value::String(s)) => t.t(&format!("source-{s}")),
        (_, Value::String(s)) => names.ids.get(s).cloned().unwrap_or_else(|| s.clone()),
        (_, Value::Array(items)) => items
            .iter()
            .map(|i| said(field, i, t, names))
            .collect::<Vec<_>>()
            .join(", "),
        (_, other) => other.to_string(),
    }
}

/// One history entry in words, its time in the property's `time_zone`.
fn entry(e: HistoryEntry, t: &T, time_zone: &str, names: &Names) -> Entry {
    let when = crate::clock::local_time(&e.occurred_at.0, time_zone)
        .map_or_else(|| e.occurred_at.0.clone(), |(d, at)| t.moment(d, at));
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
                        ("field", Arg::Text(label(&c.field, t))),
                        ("from", Arg::Text(said(&c.field, &c.from, t, names))),
                        ("to", Arg::Text(said(&c.field, &c.to, t, names))),
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
    let (s, t) = or_answer!(open(req, &state, super::STAY).await);
    let shell = Shell::new(&s, t, "today").after(req);
    show(&state, &s, shell, id, StatusCode::OK, Refusal::default()).await
}

/// The reservation page for `id`, with what a refused action left.
pub(super) async fn show(
    state: &DeskState,
    s: &crate::service::desk::DeskSession,
    shell: Shell,
    id: String,
    status: StatusCode,
    refusal: Refusal,
) -> Response {
    let t = shell.t;
    let v = match desk_views::stay(&state.svc, &s.principal, id.clone()).await {
        Ok(v) => v,
        Err(e) => return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    };
    let today = s.today;
    let names = Names::of(&v);
    let p = &s.principal;
    let r = &v.reservation;
    let desk = p.scopes.contains(Scope::FrontDesk);
    let write = p.scopes.contains(Scope::ReservationsWrite);
    let confirmed = r.status == Status::Confirmed;
    let can = Actions {
        check_in: desk && confirmed && today >= r.arrival.0 && today < r.departure.0,
        check_out: desk && r.status == Status::CheckedIn,
        invoice: r.invoice_id.clone(),
        cancel: write && confirmed,
        no_show: write && confirmed && today >= r.arrival.0,
        undo_check_in: desk
            && crate::service::undo_check_in::possible(&state.svc)
            && r.status == Status::CheckedIn
            && r.checked_in_at.as_ref().is_some_and(|at| {
                crate::clock::local_time(&at.0, &s.time_zone).is_some_and(|(d, _)| d == today)
            }),
        charge: desk && matches!(r.status, Status::Confirmed | Status::CheckedIn),
        change: write && matches!(r.status, Status::Confirmed | Status::CheckedIn),
        cancelled: write && r.status == Status::Cancelled,
    };
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
            ("nights", Arg::Text(t.n("nights", r.night_count))),
        ],
    );
    let mut facts = vec![
        (
            t.t("field-status"),
            t.t(&format!("status-{}", r.status.as_str())),
        ),
        (t.t("field-stay"), stay),
        (t.t("field-party"), party(&t, r)),
        (t.t("field-room-type"), v.room_type.name.clone()),
        (
            t.t("field-room"),
            v.room
                .as_ref()
                .map_or_else(|| t.t("room-unassigned"), |m| m.number.clone()),
        ),
        (t.t("field-source"), source(&t, r)),
    ];
    facts.extend(super::stay_price::facts(state, s, &t, r).await);
    if let Some(reg) = &r.registration {
        facts.push((
            t.t("field-registration"),
            t.t(&format!("submission-{}", reg.status.as_str())),
        ));
    }
    if let Some(n) = &r.notes {
        facts.push((t.t("field-notes"), n.clone()));
    }
    let charge = super::stay_actions::CHARGE_FIELDS
        .iter()
        .map(|(name, label)| {
            let value = refusal.typed.get(*name).cloned().unwrap_or_else(|| {
                if *name == "quantity" {
                    "1".into()
                } else {
                    String::new()
                }
            });
            let error = refusal
                .errors
                .iter()
                .find(|e| super::stay_actions::charge_field(&e.field) == Some(*name))
                .map(|e| super::rules::say(&t, e));
            (*name, t.t(label), value, error)
        })
        .collect();
    let change = super::reservation_change::form(&t, &v, &refusal);
    let extras = if can.charge {
        super::stay_price::extra_choices(state, s, &t, &r.currency).await
    } else {
        Vec::new()
    };
    let messages = super::messages::rows(state, p, &t, &s.time_zone, &id).await;
    let body = ReservationPage {
        messages,
        title: t.with("reservation-title", &[("code", code.clone())]),
        heading: t.with(
            "reservation-heading",
            &[("guest", Arg::Text(guest)), ("code", code)],
        ),
        facts,
        guests: v
            .guests
            .iter()
            .map(|g| (g.id.clone(), format!("{} {}", g.first_name, g.last_name)))
            .collect(),
        companion: super::party_form::companion(
            &t,
            r,
            Some(super::party_form::COMPANION_SHORT),
            Some(&refusal.typed),
            &refusal.errors,
        )
        .filter(|_| can.change && p.scopes.contains(Scope::GuestsWrite)),
        companion_open: refusal
            .errors
            .iter()
            .any(|e| e.field.starts_with("companion")),
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
        history: v
            .history
            .into_iter()
            .map(|e| entry(e, &t, &s.time_zone, &names))
            .collect(),
        id,
        version: r.version,
        can,
        charge,
        charge_rates: v
            .charge_rates
            .iter()
            .map(|bp| (bp.to_string(), percent(&t, *bp)))
            .collect(),
        charge_rate: refusal
            .typed
            .get("tax_rate")
            .cloned()
            .unwrap_or_else(|| v.charge_rates[0].to_string()),
        extras,
        deposit: super::deposits::form(&t, r, &refusal)
            .filter(|_| p.scopes.contains(Scope::InvoicesWrite)),
        change,
        problem: refusal.problem,
        shell,
    };
    page(status, &body)
}

/// Where the booking came from: a booking site's name, code and who collects, and whether
/// it was taken with no room free.
fn source(t: &T, r: &crate::model::Reservation) -> String {
    let general = t.t(&format!("source-{}", r.source.as_str()));
    match &r.channel {
        None => general,
        Some(c) => {
            let mut said = t.with(
                &format!("channel-source-{}", c.payment.as_str()),
                &[
                    ("site", Arg::Text(c.ota.clone())),
                    ("code", Arg::Text(c.ota_code.clone())),
                ],
            );
            if c.overbooked {
                said = format!("{said} · {}", t.t("channel-overbooked"));
            }
            said
        }
    }
}
