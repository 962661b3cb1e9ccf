//! Identified in person (Italy): the Consiglio di Stato's ruling of November 2025
//! (sentenza 9101/2025) requires the hotel to identify each guest in person, live video
//! admitted, so a kiosk never completes a check-in alone there. It saves the guests' data
//! and asks; Today lists the stays waiting, with each guest's document; a member of staff
//! who has seen that each guest holds their document confirms, which checks the stay in
//! (and registers the guests with the police) and records who confirmed; only then does the
//! kiosk show the room.
//!
//! It applies where the property is in Italy or registers with Alloggiati Web.

use super::Services;
use super::party::{PartyEdit, apply_in};
use super::stays::check_in_in;
use crate::db::Tx;
use crate::domain::history::Note;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{Actor, CheckIn, Guest, Principal, Reservation, snapshot};
use crate::store;

/// Where a kiosk's check-in stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// Waiting for staff; `true` once the kiosk has shown it for [`KIOSK_WAIT`] (the kiosk is
    /// then the next guest's and the reception tells the room in person).
    Waiting(bool),
    /// Confirmed: the room's number.
    Confirmed(String),
    /// Nothing asked (or the stay was checked in some other way).
    None,
}

/// How long a kiosk shows "go to the reception" before it is the next guest's again.
pub const KIOSK_WAIT: chrono::Duration = chrono::Duration::minutes(3);

/// A stay waiting for its guests' identity to be seen.
#[derive(Debug, Clone)]
pub struct Waiting {
    /// The reservation.
    pub reservation: Reservation,
    /// Its guests, with their documents.
    pub guests: Vec<Guest>,
    /// When the kiosk asked.
    pub requested_at: String,
}

/// Whether check-ins here wait for an identity check in person.
pub fn required(svc: &Services, country: Option<&str>) -> bool {
    country == Some("IT") || svc.compliance().registration.name() == "it-alloggiati"
}

/// Runs the check-in in a savepoint and undoes it: whether it would be allowed, by exactly
/// the rules of the real one (registration data, the room free and of the booked type).
/// Everything it wrote, events and queued registrations included, is rolled back.
fn would_check_in(
    tx: &Tx,
    c: &crate::compliance::Compliance,
    actor: &Actor,
    input: CheckIn,
) -> AppResult<()> {
    tx.execute_batch("SAVEPOINT identity_dry_run")?;
    let tried = check_in_in(tx, c, actor, input);
    tx.execute_batch("ROLLBACK TO identity_dry_run; RELEASE identity_dry_run")?;
    tried.map(drop)
}

/// The kiosk's request: saves the guests' data and asks staff to check them, for `room`;
/// refused (saving nothing) when the check-in itself would be (data missing, room taken).
pub async fn request(
    svc: &Services,
    p: &Principal,
    edit: PartyEdit,
    input: CheckIn,
) -> AppResult<()> {
    p.require(Scope::FrontDesk)?;
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let id = input.reservation_id.0.clone();
            let room = input
                .room_id
                .as_ref()
                .map(|r| r.0.clone())
                .ok_or_else(|| AppError::invalid_field("room_id", "required", "is required"))?;
            apply_in(tx, &actor, c.registration.enabled(), &id, edit)?;
            would_check_in(tx, &c, &actor, input)?;
            store::identity_checks::request(tx, &id, &room, &actor.name)?;
            let r = store::reservations::get(tx, &id)?
                .ok_or_else(|| AppError::not_found("reservation", &id))?;
            let kind = Note::IdentityCheckRequested.as_str();
            store::history::record(tx, &actor, kind, &id, &snapshot(&r), None)
        })
        .await
}

/// The stays waiting for staff, oldest first.
pub async fn waiting(svc: &Services, p: &Principal) -> AppResult<Vec<Waiting>> {
    p.require(Scope::FrontDesk)?;
    svc.db()
        .read(|c| {
            let mut out = Vec::new();
            for w in store::identity_checks::waiting(c)? {
                let Some(reservation) = store::reservations::get(c, &w.reservation_id)? else {
                    continue;
                };
                let mut guests = Vec::new();
                for g in &reservation.guest_ids {
                    if let Some(g) = store::guests::get(c, g)? {
                        guests.push(g);
                    }
                }
                out.push(Waiting {
                    reservation,
                    guests,
                    requested_at: w.requested_at,
                });
            }
            Ok(out)
        })
        .await
}

/// Staff confirm that each guest holds their document: the stay is checked in to the room
/// the kiosk chose, and who confirmed is recorded.
pub async fn confirm(svc: &Services, p: &Principal, id: String) -> AppResult<Reservation> {
    p.require(Scope::FrontDesk)?;
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let check = store::identity_checks::get(tx, &id)?
                .filter(|k| k.confirmed_by.is_none())
                .ok_or_else(|| {
                    AppError::conflict(
                        "invalid_state_transition",
                        "this stay is not waiting for an identity check",
                    )
                })?;
            let mut errors = Vec::new();
            let input: CheckIn = crate::model::input::FromJson::from_json(
                &serde_json::json!({"reservation_id": id, "room_id": check.room_id}),
                "",
                &mut errors,
            )
            .ok_or_else(|| AppError::validation(errors))?;
            let r = check_in_in(tx, &c, &actor, input)?;
            store::identity_checks::confirm(tx, &id, &actor.name)?;
            let kind = Note::IdentityConfirmed.as_str();
            store::history::record(tx, &actor, kind, &id, &snapshot(&r), None)?;
            Ok(r)
        })
        .await
}

/// Where the kiosk's check-in of `id` stands.
pub async fn standing(svc: &Services, p: &Principal, id: String) -> AppResult<Standing> {
    p.require(Scope::FrontDesk)?;
    let now = svc.db().clock().now();
    svc.db()
        .read(move |c| {
            let Some(check) = store::identity_checks::get(c, &id)? else {
                return Ok(Standing::None);
            };
            if check.confirmed_by.is_none() {
                let stale = chrono::DateTime::parse_from_rfc3339(&check.requested_at)
                    .is_ok_and(|at| now - at.with_timezone(&chrono::Utc) > KIOSK_WAIT);
                return Ok(Standing::Waiting(stale));
            }
            let room = store::rooms::get(c, &check.room_id)?
                .map(|r| r.number)
                .unwrap_or_default();
            Ok(Standing::Confirmed(room))
        })
        .await
}
