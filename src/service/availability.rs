//! Nightly availability per room type.

use chrono::NaiveDate;

use crate::domain::availability::nightly_booked;
use crate::domain::scopes::Scope;
use crate::domain::stay::StayDates;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::model::{AvailabilityNight, Date, RoomType};
use crate::service::Services;
use crate::store;

/// Availability for each night from `from` to `to` (inclusive), for one room type or all.
pub async fn nights(
    svc: &Services,
    p: &Principal,
    window: StayDates,
    room_type_id: Option<String>,
) -> AppResult<Vec<AvailabilityNight>> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    db.read(move |c| {
        let types: Vec<RoomType> = match &room_type_id {
            Some(id) => vec![
                store::room_types::get(c, id)?
                    .ok_or_else(|| AppError::not_found("room type", id))?,
            ],
            None => store::room_types::all(c)?,
        };
        let mut per_type = Vec::with_capacity(types.len());
        for t in &types {
            let (total, out_of_order, booked) = of_type(c, &t.id, &window)?;
            per_type.push((t, total, out_of_order, booked));
        }
        let mut out = Vec::new();
        for (i, night) in window.each_night().enumerate() {
            for (t, total, out_of_order, counts) in &per_type {
                let booked = i64::from(counts[i].1);
                out.push(AvailabilityNight {
                    date: Date(night),
                    room_type_id: t.id.clone(),
                    total: *total,
                    out_of_order: *out_of_order,
                    booked,
                    available: (total - out_of_order - booked).max(0),
                });
            }
        }
        Ok(out)
    })
    .await
}

/// Rooms booked each night.
pub(crate) type Booked = Vec<(NaiveDate, u32)>;

/// Room type `room_type`'s rooms, those out of order, and the rooms booked each night of
/// `window`: what its availability is worked out from (here and for a channel manager).
pub(crate) fn of_type(
    c: &rusqlite::Connection,
    room_type: &str,
    window: &StayDates,
) -> AppResult<(i64, i64, Booked)> {
    let (total, out_of_order) = store::rooms::count_of_type(c, room_type)?;
    let booked = store::reservations::stays_of_type(c, room_type, window, None)?;
    Ok((total, out_of_order, nightly_booked(window, &booked)))
}

/// The window of nights `from..=to`.
pub fn window(from: NaiveDate, to: NaiveDate) -> Option<StayDates> {
    StayDates::new(from, to.succ_opt()?).ok()
}
