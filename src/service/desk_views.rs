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
