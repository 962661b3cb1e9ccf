//! Changing a reservation with PUT: field changes, cancellation and no-show.

use poem_openapi::types::MaybeUndefined;

use super::{check_fields, check_stay, guest_list, today};
use crate::domain::events::EventType;
use crate::domain::reservation::{self as rules, Editable, Status, TransitionError};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::{Instant, Reservation, ReservationUpdate, snapshot};
use crate::refusal::Refusal;
use crate::service::Services;
use crate::service::{IfMatch, all_into, fail_on, set_optional, unchanged};
use crate::store;

/// The names of the fields that differ between two versions (status aside).
fn changed_fields(a: &Reservation, b: &Reservation) -> Vec<&'static str> {
    let checks = [
        ("primary_guest_id", a.primary_guest_id != b.primary_guest_id),
        ("guest_ids", a.guest_ids != b.guest_ids),
        ("room_type_id", a.room_type_id != b.room_type_id),
        ("room_id", a.room_id != b.room_id),
        ("arrival", a.arrival != b.arrival),
        ("departure", a.departure != b.departure),
        ("adults", a.adults != b.adults),
        ("children", a.children != b.children),
        ("children_ages", a.children_ages != b.children_ages),
        ("extra_beds", a.extra_beds != b.extra_beds),
        ("cots", a.cots != b.cots),
        ("nightly_rate", a.nightly_rate != b.nightly_rate),
        ("rate_note", a.rate_note != b.rate_note),
        ("currency", a.currency != b.currency),
        ("source", a.source != b.source),
        ("notes", a.notes != b.notes),
    ];
    checks.iter().filter(|(_, c)| *c).map(|(n, _)| *n).collect()
}

fn transition_error(e: TransitionError) -> AppError {
    match e {
        TransitionError::NotAllowed { from, to } => AppError::conflict(
            "invalid_state_transition",
            match to {
                Status::CheckedIn => format!(
                    "A {from} reservation cannot be set to checked_in by PUT; use POST /v1/check-in."
                ),
                Status::CheckedOut => format!(
                    "A {from} reservation cannot be set to checked_out by PUT; use POST /v1/check-out."
                ),
                _ => return Refusal::CannotBecome { from, to }.into(),
            },
        ),
        TransitionError::TooEarly { arrival } => Refusal::NoShowTooEarly { arrival }.into(),
    }
}

/// Applies a PUT: absent fields keep their value, `null` clears optional ones.
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: ReservationUpdate,
) -> AppResult<Reservation> {
    p.require(Scope::ReservationsWrite)?;
    let db = svc.db();
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    let mail = svc.mail_domain();
    db.write(move |tx| {
        let old = store::reservations::get(tx, &id)?
            .ok_or_else(|| AppError::not_found("reservation", &id))?;
        IfMatch::check(if_match.as_ref(), old.version)?;
        let today = today(tx)?;
        let mut r = old.clone();
        let mut status = old.status;
        input.status.apply(&mut status);
        input.primary_guest_id.apply(&mut r.primary_guest_id);
        r.guest_ids = match input.guest_ids {
            MaybeUndefined::Undefined => {
                guest_list(&r.primary_guest_id, Some(old.guest_ids.clone()))
            }
            MaybeUndefined::Null => vec![r.primary_guest_id.clone()],
            MaybeUndefined::Value(ids) => guest_list(&r.primary_guest_id, Some(all_into(ids))),
        };
        input.room_type_id.apply(&mut r.room_type_id);
        set_optional(&mut r.room_id, input.room_id);
        input.arrival.apply(&mut r.arrival);
        input.departure.apply(&mut r.departure);
        input.adults.apply(&mut r.adults);
        input.children.apply(&mut r.children);
        set_optional(
            &mut r.children_ages,
            input
                .children_ages
                .map_value(|a| a.into_iter().map(|x| x.0).collect::<Vec<i64>>()),
        );
        input.extra_beds.apply(&mut r.extra_beds);
        input.cots.apply(&mut r.cots);
        let rate_given = matches!(input.nightly_rate, crate::model::Patch::Set(_));
        input.nightly_rate.apply(&mut r.nightly_rate);
        set_optional(&mut r.rate_note, input.rate_note);
        input.currency.apply(&mut r.currency);
        input.source.apply(&mut r.source);
        set_optional(&mut r.notes, input.notes);
        r.night_count = (r.departure.0 - r.arrival.0).num_days();

        if let Some(next) =
            rules::put_status(old.status, status, old.arrival.0, today).map_err(transition_error)?
        {
            r.status = next;
        }
        let changed = changed_fields(&old, &r);
        match rules::editable(old.status) {
            Editable::All => {}
            Editable::InHouse => {
                let locked: Vec<&str> = changed
                    .iter()
                    .copied()
                    .filter(|f| !rules::IN_HOUSE_FIELDS.contains(f))
                    .collect();
                if !locked.is_empty() {
                    return Err(Refusal::InHouseLocked {
                        fields: locked.join(", "),
                    }
                    .into());
                }
            }
            Editable::Nothing if !changed.is_empty() => {
                return Err(Refusal::NoLongerChanges { status: old.status }.into());
            }
            Editable::Nothing => {}
        }
        if unchanged(&old, &r) {
            return Ok(old);
        }

        let mut errs = Vec::new();
        if r.status == Status::CheckedIn {
            if r.room_id.is_none() {
                errs.push(
                    FieldError::new(
                        "room_id",
                        "required",
                        "a checked-in reservation must keep a room",
                    )
                    .said("problem-keep-room", vec![]),
                );
            }
            if r.departure.0 < today {
                errs.push(
                    FieldError::new(
                        "departure",
                        "in_past",
                        "must not be before today for guests in the house",
                    )
                    .said("problem-departure-past", vec![]),
                );
            }
        }
        let moves_inventory = changed
            .iter()
            .any(|f| ["room_type_id", "room_id", "arrival", "departure"].contains(f));
        if changed.iter().any(|f| ["arrival", "departure"].contains(f)) {
            crate::service::day_close::closed_nights_kept(
                tx,
                Some((old.arrival.0, old.departure.0)),
                (r.arrival.0, r.departure.0),
            )?;
        }
        if r.status.holds_inventory() && moves_inventory {
            check_stay(tx, &r, errs)?;
        } else if r.status.holds_inventory() {
            check_fields(tx, &r, &mut errs)?;
            fail_on(errs)?;
        }

        let why = input.override_reason.map(|w| w.0);
        let overridden =
            super::nights::reprice(tx, &old, &mut r, rate_given, why.is_some(), today)?;
        let now = Instant(tx.now_text());
        if r.status == Status::Cancelled && old.status != Status::Cancelled {
            r.cancelled_at = Some(now.clone());
        }
        r.version += 1;
        r.updated_at = now;
        store::reservations::update(tx, &old, &r)?;
        // Guests in the house moved rooms: the room they left needs cleaning.
        if old.status == Status::CheckedIn
            && r.status == Status::CheckedIn
            && old.room_id != r.room_id
            && let Some(left) = &old.room_id
        {
            crate::service::stays::mark_dirty(tx, left, &r.updated_at)?;
        }
        if old.status == Status::CheckedIn && r.status == Status::CheckedIn {
            crate::service::registration_changes::resend_changed(
                tx,
                &c,
                &r,
                crate::service::registration_changes::Strict::Never,
            )?;
        }
        let event = match (old.status, r.status) {
            (a, Status::Cancelled) if a != Status::Cancelled => EventType::ReservationCancelled,
            (a, Status::NoShow) if a != Status::NoShow => EventType::ReservationNoShow,
            _ => EventType::ReservationUpdated,
        };
        store::events::record(tx, &actor, event, &r.id, &snapshot(&r))?;
        if old.status == Status::Confirmed && matches!(r.status, Status::Cancelled | Status::NoShow)
        {
            super::nights::charge_fee(tx, &actor, &r, today)?;
            crate::service::deposits::on_cancel(tx, &actor, &c, &mut r)?;
        }
        if old.status != Status::Cancelled && r.status == Status::Cancelled {
            crate::service::messages::about(
                tx,
                mail.as_deref(),
                crate::service::messages::Kind::Cancellation,
                &r,
            )?;
        }
        if let (true, Some(why)) = (overridden, &why) {
            super::nights::record_override(tx, &actor, &r, why)?;
        }
        Ok(r)
    })
    .await
}

/// Marks a confirmed reservation a no-show inside the caller's transaction (the day
/// close's list): `reservation.no_show`, its plan's fee on the folio (returned), its deposit
/// kept or given back as a cancellation would.
pub(crate) fn no_show_in(
    tx: &crate::db::Tx,
    actor: &crate::model::Actor,
    c: &crate::compliance::Compliance,
    old: &Reservation,
) -> AppResult<(Reservation, i64)> {
    let today = today(tx)?;
    let mut r = old.clone();
    r.status = rules::put_status(old.status, Status::NoShow, old.arrival.0, today)
        .map_err(transition_error)?
        .unwrap_or(Status::NoShow);
    r.version += 1;
    r.updated_at = Instant(tx.now_text());
    store::reservations::update(tx, old, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationNoShow,
        &r.id,
        &snapshot(&r),
    )?;
    let fee = super::nights::charge_fee(tx, actor, &r, today)?;
    crate::service::deposits::on_cancel(tx, actor, c, &mut r)?;
    Ok((r, fee))
}
