//! innkeep as a channel manager sees it: the availability of each mapped room type and the
//! price and restrictions of each mapped rate plan, night by night, read in one snapshot;
//! and the calls that tell a channel manager all of it over a range of nights (a full
//! sync: one availability call and one restrictions call, as Channex asks).
//!
//! Availability is what the booking form and `GET /v1/availability` offer: rooms in
//! service less the stays that hold a room. A plan's night is its price for its base
//! occupancy and its restrictions as the calendar has them (a derived plan's price follows
//! its parent); a plan not `sold` is stop-sold on every night.

use std::collections::HashMap;

use chrono::NaiveDate;
use rusqlite::Connection;

use crate::channel::{Call, channex};
use crate::domain::availability::nightly_booked;
use crate::domain::channel::{RateNight, runs};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// innkeep's ids mapped to the channel manager's.
#[derive(Debug, Clone, Default)]
pub struct Mapping {
    /// Room type (`rt_…`) → the channel manager's room type id.
    pub room_types: HashMap<String, String>,
    /// Rate plan (`rp_…`) → the channel manager's rate plan id.
    pub rate_plans: HashMap<String, String>,
}

/// The nights of every mapped room type and rate plan, by the channel manager's ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ari {
    /// Room type → each night's rooms on sale.
    pub rooms: Vec<(String, Vec<(NaiveDate, i64)>)>,
    /// Rate plan → each night's price and restrictions.
    pub plans: Vec<(String, Vec<(NaiveDate, RateNight)>)>,
}

/// The ARI of every mapped room type and plan from `from` to `to` (inclusive), read in one
/// snapshot of `c`.
pub(crate) fn ari(c: &Connection, map: &Mapping, from: NaiveDate, to: NaiveDate) -> AppResult<Ari> {
    let window = crate::service::availability::window(from, to)
        .ok_or_else(|| AppError::internal("an empty range of nights"))?;
    let mut out = Ari::default();
    let plans = store::rate_plans::all(c)?;
    for t in store::room_types::all(c)? {
        if let Some(remote) = map.room_types.get(&t.id) {
            let (total, out_of_order) = store::rooms::count_of_type(c, &t.id)?;
            let booked = store::reservations::stays_of_type(c, &t.id, &window, None)?;
            let nights = nightly_booked(&window, &booked)
                .into_iter()
                .map(|(d, n)| (d, (total - out_of_order - i64::from(n)).max(0)))
                .collect();
            out.rooms.push((remote.clone(), nights));
        }
        for plan in plans.iter().filter(|p| p.room_type_id == t.id) {
            let Some(remote) = map.rate_plans.get(&plan.id) else {
                continue;
            };
            let nights = crate::service::rates::nights(c, plan, &t, from, to)?
                .into_iter()
                .map(|(d, price, r)| {
                    let night = RateNight {
                        price,
                        min_stay_arrival: r.min_stay_arrival.unwrap_or(0),
                        min_stay_through: r.min_stay_through.unwrap_or(0),
                        max_stay: r.max_stay.unwrap_or(0),
                        closed_to_arrival: r.closed_to_arrival,
                        closed_to_departure: r.closed_to_departure,
                        stop_sell: r.stop_sell || !plan.sold,
                    };
                    (d, night)
                })
                .collect();
            out.plans.push((remote.clone(), nights));
        }
    }
    Ok(out)
}

/// The calls that tell Channex property `property` everything from `from` for `days`
/// nights: one availability call and one restrictions call, equal neighbouring nights
/// sent as one range.
pub async fn full_sync(
    svc: &Services,
    p: &Principal,
    map: Mapping,
    property: String,
    from: NaiveDate,
    days: u64,
) -> AppResult<Vec<Call>> {
    p.require(Scope::RatesRead)?;
    let to = from + chrono::Days::new(days.max(1) - 1);
    let ari = svc.db().read(move |c| ari(c, &map, from, to)).await?;
    let rooms: Vec<_> = ari
        .rooms
        .iter()
        .flat_map(|(id, nights)| runs(nights).into_iter().map(|r| (id.clone(), r)))
        .collect();
    let plans: Vec<_> = ari
        .plans
        .iter()
        .flat_map(|(id, nights)| runs(nights).into_iter().map(|r| (id.clone(), r)))
        .collect();
    Ok(vec![
        channex::availability(&property, &rooms),
        channex::restrictions(&property, &plans),
    ])
}
