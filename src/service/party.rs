//! A booking's party as the front desk completes it: every guest's registration data saved
//! and a companion added in one transaction, and, at check-in, the check-in in that same
//! transaction, so a refused check-in leaves nothing half saved. Errors name the guest's
//! place (`guest_ids[1].document.number`) or the companion's field (`companion.last_name`).

use crate::db::Tx;
use crate::domain::events::EventType;
use crate::domain::reservation::Status;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError, Kind};
use crate::model::{Actor, CheckIn, GuestCreate, GuestUpdate, Instant, Principal};
use crate::model::{Reservation, snapshot};
use crate::refusal::Refusal;
use crate::service::{IfMatch, Services, guests, stays};
use crate::store;

/// One guest of the party whose data changed, as the page read it.
pub struct GuestEdit {
    /// The guest's place in the party (0 is the primary guest).
    pub index: usize,
    /// The guest's id.
    pub id: String,
    /// The version the page showed (a newer one is a 412, nothing saved).
    pub version: i64,
    /// The changes.
    pub input: GuestUpdate,
}

/// What the desk changes in a party at once.
#[derive(Default)]
pub struct PartyEdit {
    /// Guests whose data changed.
    pub edits: Vec<GuestEdit>,
    /// A guest to add to the party (created and listed last).
    pub companion: Option<GuestCreate>,
}

impl PartyEdit {
    /// Whether there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty() && self.companion.is_none()
    }
}

/// Places a guest's field errors under `at` (`guest_ids[1].`, `companion.`).
fn placed(e: AppError, at: &str) -> AppError {
    if e.errors.is_empty() {
        return e;
    }
    let errors = e
        .errors
        .iter()
        .map(|f| FieldError {
            field: format!("{at}{}", f.field),
            ..f.clone()
        })
        .collect();
    e.with_errors(errors)
}

/// Applies `edit` to the party of reservation `id` inside the caller's transaction: every
/// guest's changes (all their errors together), then the companion.
pub(crate) fn apply_in(
    tx: &Tx,
    actor: &Actor,
    registration: bool,
    id: &str,
    edit: PartyEdit,
) -> AppResult<()> {
    let mut errors = Vec::new();
    for g in edit.edits {
        let at = format!("guest_ids[{}].", g.index);
        let versions = Some(IfMatch::Versions(vec![g.version]));
        match guests::update_in(tx, actor, &g.id, versions.as_ref(), g.input) {
            Ok(_) => {}
            Err(e) if e.kind == Kind::Unprocessable && !e.errors.is_empty() => {
                errors.extend(placed(e, &at).errors);
            }
            Err(e) => return Err(e),
        }
    }
    crate::service::fail_on(errors)?;
    if let Some(companion) = edit.companion {
        add_in(tx, actor, registration, id, companion)?;
    }
    Ok(())
}

/// Creates `companion` and lists them last in the party of reservation `id`: before
/// check-in, or in the house when no registration scheme is on (a registered party's
/// records are sent already; a guest who joins later needs a booking of their own).
fn add_in(
    tx: &Tx,
    actor: &Actor,
    registration: bool,
    id: &str,
    companion: GuestCreate,
) -> AppResult<Reservation> {
    let old =
        store::reservations::get(tx, id)?.ok_or_else(|| AppError::not_found("reservation", id))?;
    match old.status {
        Status::Confirmed => {}
        Status::CheckedIn if !registration => {}
        Status::CheckedIn => return Err(Refusal::PartyRegistered.into()),
        status => return Err(Refusal::PartyClosed { status }.into()),
    }
    let room_for = (old.adults + old.children) as usize;
    if old.guest_ids.len() >= room_for {
        return Err(AppError::invalid_field(
            "companion",
            "too_many_guests",
            format!(
                "the booking is for {room_for} guests and lists them all; change the adults or \
                 children first"
            ),
        )
        .field_said(
            "problem-party-full",
            vec![("party", crate::domain::said::Value::Num(room_for as i64))],
        ));
    }
    let guest = guests::create_in(tx, actor, companion).map_err(|e| placed(e, "companion."))?;
    let mut r = old.clone();
    r.guest_ids.push(guest.id);
    r.version += 1;
    r.updated_at = Instant(tx.now_text());
    store::reservations::update(tx, &old, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationUpdated,
        &r.id,
        &snapshot(&r),
    )?;
    Ok(r)
}

/// Saves the party's changes (guests' data, a companion) in one transaction.
pub async fn save(svc: &Services, p: &Principal, id: String, edit: PartyEdit) -> AppResult<()> {
    p.require(Scope::GuestsWrite)?;
    if edit.companion.is_some() {
        p.require(Scope::ReservationsWrite)?;
    }
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            apply_in(tx, &actor, c.registration.enabled(), &id, edit)?;
            match store::reservations::get(tx, &id)? {
                Some(r) if r.status == Status::CheckedIn => {
                    crate::service::registration_changes::resend_changed(
                        tx,
                        &c,
                        &r,
                        crate::service::registration_changes::Strict::Party,
                    )
                    .map(|_| ())
                }
                _ => Ok(()),
            }
        })
        .await
}

/// Saves the party's changes and checks the reservation in, in one transaction: a refused
/// check-in (a registration still incomplete, a room taken) saves nothing.
pub async fn check_in(
    svc: &Services,
    p: &Principal,
    edit: PartyEdit,
    input: CheckIn,
) -> AppResult<Reservation> {
    p.require(Scope::FrontDesk)?;
    if !edit.edits.is_empty() || edit.companion.is_some() {
        p.require(Scope::GuestsWrite)?;
    }
    if edit.companion.is_some() {
        p.require(Scope::ReservationsWrite)?;
    }
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let id = input.reservation_id.0.clone();
            apply_in(tx, &actor, c.registration.enabled(), &id, edit)?;
            stays::check_in_in(tx, &c, &actor, input)
        })
        .await
}
