//! Housekeeping of the database itself: expired idempotency keys, old events, finished jobs
//! and delivery log rows as old as the events they carried, old sort-key log entries,
//! expired OAuth codes and tokens, and kiosks whose pairing expired are deleted on a
//! schedule.

use std::time::Duration;

use crate::clock::format_instant;
use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::service::Services;
use crate::store;

/// How long an Idempotency-Key is remembered.
pub const IDEMPOTENCY_TTL: Duration = Duration::from_secs(24 * 3600);
/// How long a list cursor stays valid (its sort-key log must outlive it).
pub const CURSOR_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// What one pass removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Idempotency keys.
    pub keys: usize,
    /// Events.
    pub events: usize,
    /// Finished jobs and webhook delivery log rows older than the event retention.
    pub jobs: usize,
    /// Sort-key log entries.
    pub moves: usize,
    /// Expired authorization and device codes, refresh tokens, revocations and the access
    /// tokens of grants.
    pub grants: usize,
}

/// How many rows of each table one write job of a maintenance pass deletes at most. A pass
/// after a long pause, or the first after the retention was shortened, may have hundreds
/// of thousands of rows to delete: in one job that held the writer (every booking and
/// check-out waiting behind it) for seconds; in jobs of this size the requests go in
/// between.
pub const PRUNE_CHUNK: usize = 5_000;

/// The instant `d` before `now`, stored form; the beginning of time when `d` reaches past
/// it (a retention of centuries keeps everything rather than nothing).
fn before(now: chrono::DateTime<chrono::Utc>, d: Duration) -> String {
    format_instant(
        chrono::Duration::from_std(d)
            .ok()
            .and_then(|d| now.checked_sub_signed(d))
            .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC),
    )
}

/// Runs `prune` (a store function deleting at most its limit of the rows older than its
/// cutoff, of each of its tables) in write jobs of [`PRUNE_CHUNK`] until one deletes less
/// than a chunk in all; how many went.
async fn in_chunks<F>(db: &Db, cutoff: &str, prune: F) -> AppResult<usize>
where
    F: Fn(&Tx, &str, usize) -> AppResult<usize> + Copy + Send + 'static,
{
    let mut total = 0;
    loop {
        let cutoff = cutoff.to_string();
        let n = db.write(move |tx| prune(tx, &cutoff, PRUNE_CHUNK)).await?;
        total += n;
        if n < PRUNE_CHUNK {
            return Ok(total);
        }
    }
}

/// One maintenance pass: each kind in write jobs of at most [`PRUNE_CHUNK`] rows of a
/// table; what they removed together.
pub async fn prune(db: &Db, event_retention: Duration) -> AppResult<Pruned> {
    let now = db.clock().now();
    let events = before(now, event_retention);
    Ok(Pruned {
        keys: in_chunks(db, &before(now, IDEMPOTENCY_TTL), store::idempotency::prune).await?,
        events: in_chunks(db, &events, store::events::prune).await?,
        jobs: in_chunks(db, &events, store::jobs::prune).await?
            + in_chunks(db, &events, store::webhooks::prune_deliveries).await?,
        moves: in_chunks(
            db,
            &before(now, CURSOR_TTL + Duration::from_secs(3600)),
            store::page::prune_moves,
        )
        .await?,
        grants: in_chunks(db, &format_instant(now), store::grants::prune).await?,
    })
}

/// Forgets kiosks that never finished pairing (their code expired) and paired ones past
/// `lifetime` (`[desk] kiosk_days`); how many went.
pub async fn prune_kiosks(db: &Db, lifetime: Duration) -> AppResult<usize> {
    let now = db.clock().now();
    let (waiting, paired) = (
        before(now, crate::service::oauth::DEVICE_TTL),
        before(now, lifetime),
    );
    db.write(move |tx| store::kiosk::prune(tx, &waiting, &paired))
        .await
}

/// Figures read from the database for one `/metrics` scrape.
pub struct Figures {
    /// Sequence of the newest event.
    pub last_sequence: i64,
    /// Reservations by status.
    pub reservations: Vec<(String, i64)>,
    /// Jobs not done, and when the oldest is due.
    pub jobs: (i64, Option<String>),
    /// Delivery attempts by outcome.
    pub deliveries: Vec<(String, i64)>,
    /// Submissions by kind and status, with deadlines.
    pub submissions: Vec<crate::store::submissions::Counts>,
}

fn stored(c: &rusqlite::Connection, now: &str, soon: &str) -> AppResult<Figures> {
    let last_sequence = crate::store::events::last_sequence(c)?;
    Ok(Figures {
        last_sequence,
        reservations: crate::store::reservations::status_counts(c)?,
        jobs: crate::store::jobs::pending_stats(c)?,
        deliveries: crate::store::webhooks::delivery_counts(c)?,
        submissions: crate::store::submissions::counts(c, now, soon)?,
    })
}

/// The figures of one `/metrics` scrape, and the time they were read at.
pub async fn figures(svc: &Services) -> AppResult<(Figures, chrono::DateTime<chrono::Utc>)> {
    let db = svc.db();
    let now = db.clock().now();
    let now_text = format_instant(now);
    let soon = format_instant(now + crate::service::submissions::DUE_SOON);
    let f = db.read(move |c| stored(c, &now_text, &soon)).await?;
    Ok((f, now))
}

/// Whether the database answers (for `/ready`): its schema version when it does.
pub async fn ready(svc: &Services) -> AppResult<i64> {
    svc.db().ready().await?;
    Ok(crate::db::SCHEMA_VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A retention longer than the calendar keeps everything: its cutoff sorts before every
    /// stored instant (it once became "now", which would have deleted everything).
    #[test]
    fn a_retention_past_the_calendar_keeps_everything() {
        let now = chrono::Utc::now();
        let cutoff = before(now, Duration::MAX);
        assert!(cutoff.as_str() < "0000-01-01T00:00:00.000Z", "{cutoff}");
        assert_eq!(
            before(now, Duration::from_secs(86_400)),
            format_instant(now - chrono::Duration::days(1))
        );
    }
}
