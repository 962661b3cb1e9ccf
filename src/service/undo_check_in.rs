//! A check-in made by mistake (the wrong booking, a guest who did not stay), undone on the
//! day it was made: the reservation is confirmed again and every guest's registration is
//! withdrawn where the scheme can (eVisitor's `CancelTouristCheckIn`), in one transaction.
//! Later, the guest is checked out instead: a stay that began is a stay the law counts.

use crate::domain::events::EventType;
use crate::domain::reservation::Via;
use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::{Instant, Principal, Reservation, snapshot};
use crate::refusal::Refusal;
use crate::service::Services;
use crate::service::stays::{load, next_status};
use crate::store;

/// Whether check-ins can be undone: where guests are registered, only with a scheme that
/// can withdraw them (Alloggiati Web cannot).
pub fn possible(svc: &Services) -> bool {
    let r = &svc.compliance().registration;
    !r.enabled() || r.withdraws()
}

/// Undoes the check-in of reservation `id` (today's only, at `version` when given); records
/// `reservation.updated`.
pub async fn undo(
    svc: &Services,
    p: &Principal,
    id: String,
    version: Option<i64>,
) -> AppResult<Reservation> {
    p.require(Scope::FrontDesk)?;
    let c = svc.compliance().clone();
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let mut r = load(tx, &id)?;
            let if_match = version.map(|v| crate::service::IfMatch::Versions(vec![v]));
            crate::service::IfMatch::check(if_match.as_ref(), r.version)?;
            let next = next_status(&r, Via::UndoCheckIn, "taken back to confirmed")?;
            if !c.registration.withdraws() && c.registration.enabled() {
                let scheme = c.registration.name().to_string();
                return Err(crate::refusal::FiscalRefusal::CannotWithdraw { scheme }.into());
            }
            let tz = store::settings::get(tx)?.time_zone;
            let today = tx.clock().today_in(&tz);
            let day = r
                .checked_in_at
                .as_ref()
                .and_then(|at| crate::clock::local_time(&at.0, &tz))
                .map(|(day, _)| day);
            if let Some(day) = day
                && day != today
            {
                return Err(Refusal::UndoTooLate { checked_in: day }.into());
            }
            let old = r.clone();
            crate::service::registration_changes::withdraw(tx, &c, &r)?;
            r.status = next;
            r.checked_in_at = None;
            r.registration = None;
            r.version += 1;
            r.updated_at = Instant(tx.now_text());
            store::reservations::update(tx, &old, &r)?;
            store::events::record(
                tx,
                &actor,
                EventType::ReservationUpdated,
                &r.id,
                &snapshot(&r),
            )?;
            Ok(r)
        })
        .await
}
