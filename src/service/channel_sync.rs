//! The channel manager's pushes as they stand (`channel_sync`): recording a push, a
//! problem, a read-back; asking for a full sync; and the rooms in service, which move
//! availability without an event.

use chrono::NaiveDate;

use super::channel::{Ari, Mapping, ari, calls};
use crate::channel::Call;
use crate::error::AppResult;
use crate::service::Services;
use crate::store;

/// Records a push taken (its warnings, if any, kept as the last problem).
pub async fn pushed(
    svc: &Services,
    due: &super::channel::Due,
    warnings: Vec<String>,
) -> AppResult<()> {
    let (cursor, asked, to) = (due.cursor, due.answers.clone(), due.to);
    svc.db()
        .write(move |tx| {
            store::channel::pushed(tx, cursor, asked.as_deref(), to)?;
            if !warnings.is_empty() {
                store::channel::failed(
                    tx,
                    &format!(
                        "the channel manager dropped some values: {}",
                        warnings.join("; ")
                    ),
                )?;
            }
            Ok(())
        })
        .await
}

/// Records why a push did not go.
pub async fn failed(svc: &Services, why: String) -> AppResult<()> {
    svc.db()
        .write(move |tx| store::channel::failed(tx, &why))
        .await
}

/// Asks for a full sync at the next push (`innkeep channel sync --full`).
pub async fn ask_full(db: &crate::db::Db) -> AppResult<()> {
    db.write(store::channel::ask_full).await
}

/// Where the pushes stand.
pub async fn state(db: &crate::db::Db) -> AppResult<store::channel::SyncState> {
    db.read(store::channel::get).await
}

/// innkeep's ARI of the mapped room types and plans over the horizon from today, to compare
/// with what the channel manager holds: the ARI and its first and last night.
pub async fn horizon(
    svc: &Services,
    cfg: crate::config::channel::ChannelConfig,
) -> AppResult<(Ari, NaiveDate, NaiveDate)> {
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let map = Mapping::of(c, &cfg)?;
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            let last = today + chrono::Days::new(u64::from(cfg.horizon_days.max(1)) - 1);
            Ok((ari(c, &map, today, last)?, today, last))
        })
        .await
}

/// Records a read-back: the nights that differed.
pub async fn checked(
    svc: &Services,
    found: &[crate::domain::channel::Difference],
) -> AppResult<()> {
    let words: Vec<String> = found.iter().take(5).map(|d| d.said()).collect();
    let (n, words) = (found.len() as i64, words.join("; "));
    svc.db()
        .write(move |tx| store::channel::checked(tx, n, &words))
        .await
}

/// Rooms in service of each room type (all less those out of order): what moves
/// availability without an event.
pub async fn rooms_in_service(svc: &Services) -> AppResult<Vec<(String, i64)>> {
    svc.db()
        .read(|c| {
            let mut out = Vec::new();
            for t in store::room_types::all(c)? {
                let (total, out_of_order) = store::rooms::count_of_type(c, &t.id)?;
                out.push((t.id, total - out_of_order));
            }
            Ok(out)
        })
        .await
}

/// The availability call of `room_types` (innkeep ids; the mapped ones) over the horizon.
pub async fn rooms_due(
    svc: &Services,
    cfg: crate::config::channel::ChannelConfig,
    room_types: Vec<String>,
) -> AppResult<Vec<Call>> {
    let (property, adapter) = (cfg.property_id.clone(), cfg.adapter());
    let (mut ari, _, _) = horizon(svc, cfg.clone()).await?;
    let map = svc.db().read(move |c| Mapping::of(c, &cfg)).await?;
    let wanted: Vec<&String> = room_types
        .iter()
        .filter_map(|t| map.room_types.get(t))
        .collect();
    ari.rooms.retain(|(remote, _)| wanted.contains(&remote));
    ari.plans.clear();
    Ok(calls(adapter, &property, &ari))
}

/// Records the booking feed read to its end, or (`why`) what stopped it or what a held
/// booking waits for.
pub async fn pull_done(svc: &Services, why: Option<String>) -> AppResult<()> {
    svc.db()
        .write(move |tx| match &why {
            None => store::channel::pulled(tx),
            Some(why) => store::channel::pull_failed(tx, why),
        })
        .await
}

/// How the connection to the channel manager is doing (`GET /v1/channel/health`).
pub async fn health(
    svc: &Services,
    p: &crate::model::Principal,
) -> AppResult<crate::model::ChannelHealth> {
    p.require(crate::domain::scopes::Scope::ChannelManage)?;
    let provider = svc.channel().map(|c| c.provider.clone());
    svc.db()
        .read(move |c| {
            let s = store::channel::get(c)?;
            let (last_pull_at, pulled, pull_error) = store::channel::pull_state(c)?;
            let queue_depth = match (&provider, s.cursor) {
                (None, _) => 0,
                (Some(_), Some(cursor)) => store::channel::waiting(c, cursor)?,
                (Some(_), None) => store::channel::waiting(c, 0)?,
            };
            let overbooked = still_overbooked(c)?;
            let (checked_at, differences, first_differences) = match s.checked {
                Some((at, n, words)) => (Some(at), Some(n), Some(words).filter(|w| !w.is_empty())),
                None => (None, None, None),
            };
            Ok(crate::model::ChannelHealth {
                connected: provider.is_some(),
                provider,
                last_push_at: s.last_push_at,
                last_pull_at,
                queue_depth,
                full_sync_pending: s.full_requested_at.is_some() || s.cursor.is_none(),
                pushes: s.pushes,
                bookings_pulled: pulled,
                push_error: s.last_error,
                pull_error,
                checked_at,
                differences,
                first_differences,
                overbooked,
            })
        })
        .await
}

/// Asks for everything to be sent again over the whole horizon (the health page's button,
/// `POST /v1/channel/sync`); 409 `not_connected` without a channel manager.
pub async fn resend(svc: &Services, p: &crate::model::Principal) -> AppResult<()> {
    p.require(crate::domain::scopes::Scope::ChannelManage)?;
    if svc.channel().is_none() {
        return Err(crate::error::AppError::conflict(
            "not_connected",
            "No channel manager is connected: set [channel] in innkeep.toml first.",
        ));
    }
    ask_full(svc.db()).await
}

/// The booking sites' bookings taken with no room free, still holding rooms (Today).
pub async fn overbooked(
    svc: &Services,
    p: &crate::model::Principal,
) -> AppResult<Vec<crate::model::OverbookedReservation>> {
    p.require(crate::domain::scopes::Scope::ReservationsRead)?;
    svc.db().read(still_overbooked).await
}

/// The reservations flagged overbooked when taken whose room type is still short of a
/// room on some night of their stay (one that fits now, because a booking was moved or
/// cancelled, is left out).
fn still_overbooked(
    c: &rusqlite::Connection,
) -> AppResult<Vec<crate::model::OverbookedReservation>> {
    let mut out = Vec::new();
    for o in store::channel::overbooked(c)? {
        let Some(r) = store::reservations::get(c, &o.id)? else {
            continue;
        };
        let Ok(stay) = crate::domain::stay::StayDates::new(r.arrival.0, r.departure.0) else {
            continue;
        };
        if !crate::service::reservations::full_for(c, &r, &stay)?.is_empty() {
            out.push(o);
        }
    }
    Ok(out)
}
