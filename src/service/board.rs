//! The room board's data: rooms, the stays overlapping a window of nights, and where each
//! goes ([`crate::domain::board`]), read in one read transaction; the guests' names are read
//! for the stays the board draws alone, and only for a principal who may read guests.

use chrono::NaiveDate;

use crate::domain::board::{self, Layout};
use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::Principal;
use crate::service::Services;
use crate::store;
pub use crate::store::board::{BoardRoom, BoardStay};

/// At most this many rows of bookings without a room per room type: more means the type is
/// booked far beyond its rooms, which the board says in words rather than in endless rows.
pub const MAX_LANES: usize = 30;

/// The room board's data for `days` nights from `from`.
#[derive(Debug)]
pub struct Board {
    /// The property's today.
    pub today: NaiveDate,
    /// Every room, by type and number.
    pub rooms: Vec<BoardRoom>,
    /// The room types that have rooms, (id, name), in the rooms' order.
    pub types: Vec<(String, String)>,
    /// The stays the board draws (the guests' names empty for a principal who may not
    /// read guests).
    pub stays: Vec<BoardStay>,
    /// Where each stay goes (indexes into `stays`, rooms in the order of `rooms`, types in
    /// the order of `types`).
    pub layout: Layout,
    /// Per type (in the order of `types`) and night, what every plan of the type says:
    /// not sold, or closed to arrival (empty for a type without plans).
    pub sales: Vec<Vec<Option<Sales>>>,
}

/// A night every plan of a room type closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sales {
    /// Stop-sold on every plan.
    Stopped,
    /// Closed to arrival on every plan.
    NoArrival,
}

/// What every plan of room type `id` (of all `plans`) says of each of `days` nights from
/// `from`.
fn sales_of(
    c: &rusqlite::Connection,
    plans: &[crate::model::RatePlan],
    id: &str,
    from: NaiveDate,
    days: usize,
) -> AppResult<Vec<Option<Sales>>> {
    let plans: Vec<_> = plans.iter().filter(|p| p.room_type_id == id).collect();
    let Some(room_type) = store::room_types::get(c, id)? else {
        return Ok(Vec::new());
    };
    if plans.is_empty() || days == 0 {
        return Ok(Vec::new());
    }
    let to = from + chrono::Days::new(days as u64 - 1);
    let mut all = vec![(true, true); days];
    for plan in plans {
        let nights = crate::service::rates::nights(c, plan, &room_type, from, to)?;
        for (i, (_, _, r)) in nights.iter().enumerate().take(days) {
            all[i].0 &= r.stop_sell;
            all[i].1 &= r.closed_to_arrival;
        }
    }
    Ok(all
        .into_iter()
        .map(|(stopped, no_arrival)| match (stopped, no_arrival) {
            (true, _) => Some(Sales::Stopped),
            (false, true) => Some(Sales::NoArrival),
            _ => None,
        })
        .collect())
}

/// A number that changes whenever anything commits to the database (see
/// [`crate::db::Db::data_version`]): a board read after it was taken, and kept, is current
/// for as long as it is the same.
pub fn version(svc: &Services) -> AppResult<i64> {
    svc.db().data_version()
}

/// The night column of `day` on a board from `from` of `days` nights, clamped to it.
pub fn column(from: NaiveDate, days: usize, day: NaiveDate) -> usize {
    (day - from).num_days().clamp(0, days as i64) as usize
}

/// The room board: rooms and the stays overlapping `from` + `days`, laid out, in one read.
pub async fn board(svc: &Services, p: &Principal, from: NaiveDate, days: u64) -> AppResult<Board> {
    p.require(Scope::ReservationsRead)?;
    let named = p.scopes.contains(Scope::GuestsRead);
    let clock = svc.db().clock().clone();
    let to = (from + chrono::Days::new(days)).to_string();
    let long_from = (from - chrono::Days::new(store::board::LONG as u64)).to_string();
    let days = days as usize;
    svc.db()
        .read(move |c| {
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            let rooms = store::board::rooms(c)?;
            let mut types: Vec<(String, String)> = Vec::new();
            for r in &rooms {
                if types.last().is_none_or(|(id, _)| *id != r.room_type_id) {
                    types.push((r.room_type_id.clone(), r.room_type.clone()));
                }
            }
            let ids: Vec<&str> = types.iter().map(|(id, _)| id.as_str()).collect();
            let window = (from.to_string(), to, long_from);
            let slots = store::board::slots(c, (&window.0, &window.1, &window.2), &rooms, &ids)?;
            let layout = lay_out(from, days, &rooms, &ids, &slots);
            let shown: Vec<i64> = layout.shown().map(|i| slots[i].rowid).collect();
            let mut found = store::board::drawn(c, &shown)?;
            let mut stays = Vec::with_capacity(shown.len());
            let mut at = vec![None; slots.len()];
            for i in layout.shown() {
                if let Some(mut stay) = found.remove(&slots[i].rowid) {
                    if !named {
                        stay.guest.clear();
                        stay.notes = None;
                    }
                    at[i] = Some(stays.len());
                    stays.push(stay);
                }
            }
            let plans = store::rate_plans::all(c)?;
            let sales = types
                .iter()
                .map(|(id, _)| sales_of(c, &plans, id, from, days))
                .collect::<AppResult<Vec<_>>>()?;
            Ok(Board {
                today,
                rooms,
                types,
                stays,
                layout: layout.renumber(|i| at[i]),
                sales,
            })
        })
        .await
}

fn lay_out(
    from: NaiveDate,
    days: usize,
    rooms: &[BoardRoom],
    ids: &[&str],
    slots: &[store::board::Slot],
) -> Layout {
    let rooms: Vec<board::Room> = rooms
        .iter()
        .map(|r| board::Room {
            room_type: ids.iter().position(|t| *t == r.room_type_id).unwrap_or(0),
            in_service: r.status != "out_of_order",
        })
        .collect();
    let stays: Vec<board::Stay> = slots
        .iter()
        .map(|s| board::Stay {
            room: s.room,
            room_type: s.room_type,
            start: column(from, days, s.arrival),
            end: column(from, days, s.departure),
            active: s.active,
        })
        .collect();
    board::layout(&rooms, ids.len(), &stays, days, MAX_LANES)
}
