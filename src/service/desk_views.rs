//! What the desk's screens show, read in one read transaction per screen, for a principal
//! who may read reservations.

use chrono::NaiveDate;

use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::Principal;
use crate::service::Services;
use crate::store;
pub use crate::store::desk_views::{DayCounts, StayRow};

/// The Today screen.
#[derive(Debug, Clone)]
pub struct Today {
    /// The property's today.
    pub day: NaiveDate,
    /// Due and not yet in.
    pub arrivals: Vec<StayRow>,
    /// Staying tonight.
    pub in_house: Vec<StayRow>,
    /// Due to leave.
    pub departures: Vec<StayRow>,
    /// Rooms in service and dirty rooms.
    pub counts: DayCounts,
}

impl Today {
    /// Rooms still free tonight: in service, less the stays staying tonight and the
    /// arrivals still due (assigned a room or not).
    pub fn free_tonight(&self) -> i64 {
        (self.counts.in_service - self.in_house.len() as i64 - self.arrivals.len() as i64).max(0)
    }
}

/// The Today screen's data, in the property's time zone.
pub async fn today(svc: &Services, p: &Principal) -> AppResult<Today> {
    p.require(Scope::ReservationsRead)?;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let tz = store::settings::get(c)?.time_zone;
            let day = clock.today_in(&tz);
            let d = day.to_string();
            Ok(Today {
                day,
                arrivals: store::desk_views::arrivals(c, &d)?,
                in_house: store::desk_views::in_house(c, &d)?,
                departures: store::desk_views::departures(c, &d)?,
                counts: store::desk_views::counts(c)?,
            })
        })
        .await
}

/// The reservation screen: the stay, its guests, room type and room, folio and history.
#[derive(Debug)]
pub struct Stay {
    /// The reservation.
    pub reservation: crate::model::Reservation,
    /// Its guests, the primary first.
    pub guests: Vec<crate::model::Guest>,
    /// Its room type.
    pub room_type: crate::model::RoomType,
    /// Its room, once assigned.
    pub room: Option<crate::model::Room>,
    /// Its folio charges (the first 200).
    pub charges: Vec<crate::model::Charge>,
    /// Its history, oldest first (the first 200 entries).
    pub history: Vec<crate::model::HistoryEntry>,
}

/// The reservation screen's data through the same use cases as the API (404 when unknown).
pub async fn stay(svc: &Services, p: &Principal, id: String) -> AppResult<Stay> {
    use crate::service::{PageRequest, charges, guests, history, reservations, room_types, rooms};
    let first = || PageRequest {
        after: None,
        as_of: None,
        limit: 200,
    };
    let reservation = reservations::get(svc, p, id.clone()).await?;
    let mut people = Vec::with_capacity(reservation.guest_ids.len());
    for g in &reservation.guest_ids {
        people.push(guests::get(svc, p, g.clone()).await?);
    }
    let room_type = room_types::get(svc, p, reservation.room_type_id.clone()).await?;
    let room = match &reservation.room_id {
        Some(r) => Some(rooms::get(svc, p, r.clone()).await?),
        None => None,
    };
    let charges = charges::list(svc, p, id.clone(), first()).await?;
    let history = history::list(svc, p, history::Subject::Reservation, id, first()).await?;
    Ok(Stay {
        reservation,
        guests: people,
        room_type,
        room,
        charges: charges.items.into_iter().map(|(c, _)| c).collect(),
        history: history.items.into_iter().map(|(h, _)| h).collect(),
    })
}

/// Guests whose name matches `query` (all guests, by name, for an empty one): the first 50.
pub async fn find_guests(
    svc: &Services,
    p: &Principal,
    query: &str,
) -> AppResult<Vec<crate::model::Guest>> {
    let q = query.trim();
    let filter = store::guests::GuestFilter {
        name: (!q.is_empty()).then(|| q.to_string()),
        ..Default::default()
    };
    let page = crate::service::guests::list(
        svc,
        p,
        filter,
        crate::service::PageRequest {
            after: None,
            as_of: None,
            limit: 50,
        },
    )
    .await?;
    Ok(page.items.into_iter().map(|(g, _)| g).collect())
}

/// A guest and their stays, newest arrival last (the first 200).
pub async fn guest(
    svc: &Services,
    p: &Principal,
    id: String,
) -> AppResult<(crate::model::Guest, Vec<crate::model::Reservation>)> {
    let g = crate::service::guests::get(svc, p, id.clone()).await?;
    let filter = store::reservations::ReservationFilter {
        guest_id: Some(id),
        ..Default::default()
    };
    let stays = crate::service::reservations::list(
        svc,
        p,
        filter,
        crate::service::PageRequest {
            after: None,
            as_of: None,
            limit: 200,
        },
    )
    .await?;
    Ok((g, stays.items.into_iter().map(|(r, _)| r).collect()))
}
