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

use crate::channel::{Adapter, Call};
use crate::domain::channel::{RateNight, runs};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{Principal, RatePlan, RoomType};
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
    let plans = store::rate_plans::all(c)?;
    let mut out = Ari::default();
    for t in store::room_types::all(c)? {
        if let Some(remote) = map.room_types.get(&t.id) {
            out.rooms
                .push((remote.clone(), room_nights(c, &t, from, to)?));
        }
        for plan in plans.iter().filter(|p| p.room_type_id == t.id) {
            if let Some(remote) = map.rate_plans.get(&plan.id) {
                out.plans
                    .push((remote.clone(), plan_nights(c, plan, &t, from, to)?));
            }
        }
    }
    Ok(out)
}

/// Room type `t`'s rooms on sale each night from `from` to `to` (inclusive), as
/// `GET /v1/availability` counts them. A horizon longer than a stay may be (up to 730
/// nights, 500 by default) is read a year at a time: one window of it was refused as "an
/// empty range of nights", so every full sync beyond 365 nights failed (found by the year
/// in a box over a whole year).
fn room_nights(
    c: &Connection,
    t: &RoomType,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<(NaiveDate, i64)>> {
    let mut out = Vec::new();
    let mut start = from;
    while start <= to {
        let end = to.min(start + chrono::Days::new(crate::domain::stay::MAX_NIGHTS as u64 - 1));
        let window = crate::service::availability::window(start, end)
            .ok_or_else(|| AppError::internal("an empty range of nights"))?;
        let (total, out_of_order, booked) =
            crate::service::availability::of_type(c, &t.id, &window)?;
        out.extend(
            booked
                .into_iter()
                .map(|(d, n)| (d, (total - out_of_order - i64::from(n)).max(0))),
        );
        start = end + chrono::Days::new(1);
    }
    Ok(out)
}

/// Plan `plan`'s nights from `from` to `to` (inclusive) as a channel manager is told them:
/// stop-sold throughout when the plan is not sold.
fn plan_nights(
    c: &Connection,
    plan: &RatePlan,
    t: &RoomType,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<(NaiveDate, RateNight)>> {
    Ok(crate::service::rates::nights(c, plan, t, from, to)?
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
        .collect())
}

/// The calls that tell Channex property `property` everything from `from` for `days`
/// nights (a test's and a tool's way in; the queue uses its configured adapter): one availability call and one restrictions call, equal neighbouring nights
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
    Ok(calls(&crate::channel::Channex, &property, &ari))
}

impl Mapping {
    /// The mapping `[channel]` names by codes, as ids (codes innkeep does not know are
    /// said in the log and left out), with the mapping chosen in Administration › Channels
    /// over it.
    pub(crate) fn of(
        c: &Connection,
        cfg: &crate::config::channel::ChannelConfig,
    ) -> AppResult<Mapping> {
        let mut map = Mapping::default();
        for (code, remote) in &cfg.room_types {
            match store::room_types::id_by_code(c, code)? {
                Some(id) => {
                    map.room_types.insert(id, remote.clone());
                }
                None => tracing::warn!(
                    code,
                    "[channel.room_types] names a room type innkeep does not have"
                ),
            }
        }
        for (key, remote) in &cfg.rate_plans {
            let (rt, plan) = key.split_once('/').unwrap_or((key, ""));
            let id = match store::room_types::id_by_code(c, rt)? {
                Some(rt) => store::rate_plans::id_by_code(c, &rt, plan)?,
                None => None,
            };
            match id {
                Some(id) => {
                    map.rate_plans.insert(id, remote.clone());
                }
                None => tracing::warn!(
                    key,
                    "[channel.rate_plans] names a plan innkeep does not have"
                ),
            }
        }
        for (kind, local, remote) in store::channel::mappings(c)? {
            let side = if kind == "room_type" {
                &mut map.room_types
            } else {
                &mut map.rate_plans
            };
            if remote.is_empty() {
                side.remove(&local);
            } else {
                side.insert(local, remote);
            }
        }
        Ok(map)
    }
}

/// The nights each change touched: room types' and plans' ranges (inclusive).
#[derive(Debug, Default)]
struct Touched {
    rooms: HashMap<String, Vec<(NaiveDate, NaiveDate)>>,
    plans: HashMap<String, Vec<(NaiveDate, NaiveDate)>>,
}

/// A stay's nights in an event's snapshot: room type and first to last night.
fn stay_of(data: &serde_json::Value) -> Option<(String, NaiveDate, NaiveDate)> {
    let day = |k: &str| data[k].as_str()?.parse::<NaiveDate>().ok();
    let (a, d) = (day("arrival")?, day("departure")?);
    Some((data["room_type_id"].as_str()?.to_string(), a, d.pred_opt()?))
}

/// What `events` touched: a booking's nights before and after its change (the previous
/// event of the same reservation says where it was), a calendar edit's range for its plan
/// and the plans derived from it, a plan's whole `horizon` when the plan itself changed.
fn touched(
    c: &Connection,
    events: &[crate::model::Event],
    plans: &[RatePlan],
    horizon: (NaiveDate, NaiveDate),
) -> AppResult<Touched> {
    let with_children = |id: &str| -> Vec<String> {
        std::iter::once(id.to_string())
            .chain(
                plans
                    .iter()
                    .filter(|p| p.parent_id.as_deref() == Some(id))
                    .map(|p| p.id.clone()),
            )
            .collect()
    };
    let mut t = Touched::default();
    for e in events {
        if e.kind.starts_with("reservation.") {
            let subject = e.data["id"].as_str().unwrap_or_default();
            let before = store::events::previous(c, subject, e.sequence)?;
            for snap in std::iter::once(&e.data).chain(before.as_ref().map(|b| &b.data)) {
                if let Some((rt, a, l)) = stay_of(snap) {
                    t.rooms.entry(rt).or_default().push((a, l));
                }
            }
        } else if e.kind == "rates.changed" {
            let day = |k: &str| e.data[k].as_str().and_then(|d| d.parse::<NaiveDate>().ok());
            if let (Some(id), Some(a), Some(b)) =
                (e.data["rate_plan_id"].as_str(), day("from"), day("to"))
            {
                for p in with_children(id) {
                    t.plans.entry(p).or_default().push((a, b));
                }
            }
        } else if e.kind.starts_with("rate_plan.")
            && let Some(id) = e.data["id"].as_str()
        {
            for p in with_children(id) {
                t.plans.entry(p).or_default().push(horizon);
            }
        }
    }
    Ok(t)
}

/// One push the channel manager is owed: its calls, the event it brings the channel
/// manager up to, and the full sync it answers (when it is one).
#[derive(Debug, Clone)]
pub struct Due {
    /// The calls, in order (availability first, as Channex asks); none when nothing
    /// mapped changed.
    pub calls: Vec<Call>,
    /// The last event it covers.
    pub cursor: i64,
    /// The full-sync request it answers (its time), if any.
    pub answers: Option<String>,
    /// Whether it is a full sync.
    pub full: bool,
    /// The last night of the horizon it brings the channel manager to.
    pub to: NaiveDate,
}

/// The calls of the changes since the last push (at most `batch` events), or a full sync
/// when one was asked for or none was ever made; none when nothing is owed.
pub async fn due(
    svc: &Services,
    cfg: crate::config::channel::ChannelConfig,
    batch: usize,
) -> AppResult<Option<Due>> {
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let state = store::channel::get(c)?;
            let map = Mapping::of(c, &cfg)?;
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            let last = today + chrono::Days::new(u64::from(cfg.horizon_days.max(1)) - 1);
            let head = store::events::last_sequence(c)?;
            let (full, cursor, events) = match state.cursor {
                Some(cursor) if state.full_requested_at.is_none() => {
                    let events = store::events::list(c, cursor, batch, &[])?;
                    (false, events.last().map_or(cursor, |e| e.sequence), events)
                }
                _ => (true, head, Vec::new()),
            };
            // The horizon moved on since the last push: the nights it reached are owed.
            let reached = state
                .pushed_to
                .filter(|to| *to < last)
                .map(|to| ((to + chrono::Days::new(1)).max(today), last));
            if !full && events.is_empty() && reached.is_none() {
                return Ok(None);
            }
            let ari = if full {
                ari(c, &map, today, last)?
            } else {
                let types = store::room_types::all(c)?;
                let plans = store::rate_plans::all(c)?;
                let mut t = touched(c, &events, &plans, (today, last))?;
                if let Some(span) = reached {
                    for rt in &types {
                        t.rooms.entry(rt.id.clone()).or_default().push(span);
                    }
                    for p in &plans {
                        t.plans.entry(p.id.clone()).or_default().push(span);
                    }
                }
                let clip = |spans: &[(NaiveDate, NaiveDate)]| -> Vec<(NaiveDate, NaiveDate)> {
                    crate::domain::channel::merged(spans)
                        .into_iter()
                        .map(|(a, b)| (a.max(today), b.min(last)))
                        .filter(|(a, b)| a <= b)
                        .collect()
                };
                let mut out = Ari::default();
                for rt in types.iter() {
                    if let (Some(remote), Some(spans)) =
                        (map.room_types.get(&rt.id), t.rooms.get(&rt.id))
                    {
                        for (a, b) in clip(spans) {
                            out.rooms.push((remote.clone(), room_nights(c, rt, a, b)?));
                        }
                    }
                    for plan in plans.iter().filter(|p| p.room_type_id == rt.id) {
                        if let (Some(remote), Some(spans)) =
                            (map.rate_plans.get(&plan.id), t.plans.get(&plan.id))
                        {
                            for (a, b) in clip(spans) {
                                out.plans
                                    .push((remote.clone(), plan_nights(c, plan, rt, a, b)?));
                            }
                        }
                    }
                }
                out
            };
            Ok(Some(Due {
                calls: calls(cfg.adapter(), &cfg.property_id, &ari),
                cursor,
                answers: state.full_requested_at.filter(|_| full),
                full,
                to: last,
            }))
        })
        .await
}

/// The calls that send `ari`: an availability call and a restrictions call, each only
/// when it has something to say.
pub(crate) fn calls(adapter: &dyn Adapter, property: &str, ari: &Ari) -> Vec<Call> {
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
    let mut out = Vec::new();
    if !rooms.is_empty() {
        out.push(adapter.availability(property, &rooms));
    }
    if !plans.is_empty() {
        out.push(adapter.restrictions(property, &plans));
    }
    out
}
