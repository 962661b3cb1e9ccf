//! A guest's rights over their data (GDPR): everything innkeep holds about one person, as
//! one JSON document (art. 15 and 20), and erasure (art. 17): the guest record and its audit
//! trail's values are anonymised at once, while invoices and police registrations the law
//! makes the hotel keep stay, each named with its law and the day it may go (art. 17(3)(b)).
//! Both are the admin's, and both are recorded in the guest's audit trail.

use serde::Serialize;
use serde_json::{Value, json};

use crate::domain::events::EventType;
use crate::domain::retention;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{Guest, Instant, Principal, snapshot};
use crate::service::Services;
use crate::store;

/// Something about the guest that must be kept.
#[derive(Debug, Clone, Serialize)]
pub struct Kept {
    /// What, such as "invoice 2026-000123 of 2026-03-15".
    pub what: String,
    /// `invoice` or `registration`.
    pub kind: &'static str,
    /// The invoice's number, or the reservation's code.
    pub reference: String,
    /// The first day it may be deleted.
    pub until: chrono::NaiveDate,
    /// The law that keeps it.
    pub why: String,
    /// The same as a catalogue key, for the pages.
    #[serde(skip)]
    pub law_key: &'static str,
}

/// What an erasure did.
#[derive(Debug, Clone, Serialize)]
pub struct Erasure {
    /// The guest.
    pub guest_id: String,
    /// The guest record's fields emptied or replaced.
    pub erased: Vec<&'static str>,
    /// Audit-trail entries whose values were replaced by "[erased]".
    pub history_entries: usize,
    /// What the law keeps, with until when and why.
    pub kept: Vec<Kept>,
}

/// The fields an erasure empties (the names become "Erased" "Guest").
const ERASED: &[&str] = &[
    "first_name",
    "last_name",
    "email",
    "phone",
    "birth_date",
    "gender",
    "nationality",
    "birth_place",
    "document",
    "address",
    "tourist",
    "tax_code",
    "notes",
];

fn guest(c: &rusqlite::Connection, id: &str) -> AppResult<Guest> {
    store::guests::get(c, id)?.ok_or_else(|| AppError::not_found("guest", id))
}

/// Everything innkeep holds about the guest: the record, their reservations, invoices,
/// submissions to the authorities with the exchanges, the messages sent them, and the
/// audit trail.
pub async fn export(svc: &Services, p: &Principal, id: String) -> AppResult<Value> {
    p.require(Scope::Admin)?;
    let at = crate::clock::format_instant(svc.db().clock().now());
    let out = svc
        .db()
        .read(move |c| {
            let g = guest(c, &id)?;
            let mut reservations = Vec::new();
            let mut submissions = Vec::new();
            for rid in store::privacy::reservation_ids(c, &id)? {
                if let Some(r) = store::reservations::get(c, &rid)? {
                    reservations.push(snapshot(&r));
                }
                for sid in store::privacy::submission_ids(c, &rid)? {
                    if let Some(s) = store::submissions::get(c, &sid)? {
                        let exchanges = store::submissions::exchanges(c, &sid)?;
                        let exchanges: Vec<Value> = exchanges.iter().map(snapshot).collect();
                        submissions
                            .push(json!({"submission": snapshot(&s), "exchanges": exchanges}));
                    }
                }
            }
            let mut invoices = Vec::new();
            for iid in store::privacy::invoice_ids(c, &id)? {
                if let Some(i) = store::invoices::get(c, &iid)? {
                    invoices.push(snapshot(&i));
                }
            }
            let history: Vec<Value> = store::history::list(c, &id, None, i64::MAX, 10_000)?
                .iter()
                .map(|(h, _)| snapshot(h))
                .collect();
            Ok(json!({
                "exported_at": at,
                "guest": snapshot(&g),
                "reservations": reservations,
                "invoices": invoices,
                "submissions": submissions,
                "messages": store::privacy::messages(c, &id)?,
                "history": history,
            }))
        })
        .await?;
    svc.db()
        .write({
            let (actor, id) = (
                p.actor.clone(),
                out["guest"]["id"].as_str().unwrap_or("").to_string(),
            );
            move |tx| store::history::note(tx, &actor, "guest.exported", &id, &[], None)
        })
        .await?;
    Ok(out)
}

/// Erases the guest: refused while they have a reservation that is not over; otherwise
/// the record is anonymised, its audit trail's values redacted, its messages emptied (one
/// not yet sent never leaves), and what the law keeps is listed. A `guest.updated` event carries the anonymised record to integrations.
pub async fn erase(svc: &Services, p: &Principal, id: String) -> AppResult<Erasure> {
    p.require(Scope::Admin)?;
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let old = guest(tx, &id)?;
            let country = store::settings::get(tx)?.country;
            let mut kept = Vec::new();
            for rid in store::privacy::reservation_ids(tx, &id)? {
                let Some(r) = store::reservations::get(tx, &rid)? else {
                    continue;
                };
                if !r.status.is_final() {
                    return Err(crate::refusal::Refusal::GuestOnOpenStay {
                        code: r.code,
                        arrival: r.arrival.0,
                        departure: r.departure.0,
                    }
                    .into());
                }
                for sid in store::privacy::submission_ids(tx, &rid)? {
                    let Some(s) = store::submissions::get(tx, &sid)? else {
                        continue;
                    };
                    if s.kind.as_str() != "guest_registration" {
                        continue;
                    }
                    let duty = retention::registrations(&s.scheme);
                    let date = s
                        .due_at
                        .0
                        .get(..10)
                        .and_then(|d| d.parse().ok())
                        .unwrap_or(r.arrival.0);
                    kept.push(Kept {
                        what: format!(
                            "the police registration of reservation {} ({})",
                            r.code, s.id
                        ),
                        kind: "registration",
                        reference: r.code.clone(),
                        until: duty.until(date),
                        why: duty.law.into(),
                        law_key: duty.key,
                    });
                }
            }
            let duty = retention::invoices(country.as_deref());
            for iid in store::privacy::invoice_ids(tx, &id)? {
                let Some(i) = store::invoices::get(tx, &iid)? else {
                    continue;
                };
                kept.push(Kept {
                    what: format!("invoice {} of {}", i.number, i.issue_date.0),
                    kind: "invoice",
                    reference: i.number.clone(),
                    until: duty.until(i.issue_date.0),
                    why: duty.law.into(),
                    law_key: duty.key,
                });
            }
            let mut g = old.clone();
            g.first_name = "Erased".into();
            g.last_name = "Guest".into();
            (g.email, g.phone, g.birth_date, g.gender, g.nationality) =
                (None, None, None, None, None);
            (g.birth_place, g.document, g.address, g.notes) = (None, None, None, None);
            g.tourist = None;
            g.tax_code = None;
            g.version += 1;
            g.updated_at = Instant(tx.now_text());
            store::guests::update(tx, &old, &g)?;
            let snap = snapshot(&g);
            store::events::record(tx, &actor, EventType::GuestUpdated, &g.id, &snap)?;
            store::history::note(tx, &actor, "guest.erased", &g.id, &[], None)?;
            let history_entries = store::privacy::redact_history(tx, &g.id, &snap)?;
            // The rename above logged the real name as an old sort key: not kept either.
            store::privacy::forget_sort_keys(tx, &g.id)?;
            store::privacy::forget_messages(tx, &g.id)?;
            Ok(Erasure {
                guest_id: g.id,
                erased: ERASED.to_vec(),
                history_entries,
                kept,
            })
        })
        .await
}
