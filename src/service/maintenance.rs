//! Housekeeping of the database itself: expired idempotency keys, old events, finished jobs
//! and delivery log rows as old as the events they carried, old sort-key log entries,
//! expired OAuth codes and tokens, and kiosks whose pairing expired are deleted on a
//! schedule.

use std::time::Duration;

use crate::clock::format_instant;
use crate::db::Db;
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
    /// Expired authorization and device codes, refresh tokens and revocations.
    pub grants: usize,
}

/// How many rows of each kind one write job of a maintenance pass deletes at most. A pass
/// after a long pause, or the first after the retention was shortened, may have hundreds
/// of thousands of rows to delete: in one job that held the writer (every booking and
/// check-out waiting behind it) for seconds; in jobs of this size the requests go in
/// between, and the copy SQLite keeps of the pages a job changes stays a few MiB.
pub const PRUNE_CHUNK: usize = 5_000;

/// One maintenance pass: as many write jobs of at most [`PRUNE_CHUNK`] rows of each kind as
/// it takes; what they removed together.
pub async fn prune(db: &Db, event_retention: Duration) -> AppResult<Pruned> {
    let now = db.clock().now();
    let ago = |d: Duration| format_instant(now - chrono::Duration::from_std(d).unwrap_or_default());
    let (keys_cutoff, events_cutoff) = (ago(IDEMPOTENCY_TTL), ago(event_retention));
    let moves_cutoff = ago(CURSOR_TTL + Duration::from_secs(3600));
    let now_text = format_instant(now);
    let mut total = Pruned::default();
    loop {
        let (keys, events, moves, now) = (
            keys_cutoff.clone(),
            events_cutoff.clone(),
            moves_cutoff.clone(),
            now_text.clone(),
        );
        let n = PRUNE_CHUNK;
        let step = db
            .write(move |tx| {
                Ok(Pruned {
                    keys: store::idempotency::prune(tx, &keys, n)?,
                    events: store::events::prune(tx, &events, n)?,
                    jobs: store::jobs::prune(tx, &events, n)?
                        + store::webhooks::prune_deliveries(tx, &events, n)?,
                    moves: store::page::prune_moves(tx, &moves, n)?,
                    grants: store::grants::prune(tx, &now, n)?,
                })
            })
            .await?;
        let more = [step.keys, step.events, step.jobs, step.moves, step.grants]
            .iter()
            .any(|&k| k >= PRUNE_CHUNK);
        total.keys += step.keys;
        total.events += step.events;
        total.jobs += step.jobs;
        total.moves += step.moves;
        total.grants += step.grants;
        if !more {
            return Ok(total);
        }
    }
}

/// Forgets kiosks that never finished pairing (their code expired) and paired ones past
/// `lifetime` (`[desk] kiosk_days`); how many went.
pub async fn prune_kiosks(db: &Db, lifetime: Duration) -> AppResult<usize> {
    let now = db.clock().now();
    let ago = |d: Duration| {
        format_instant(
            chrono::Duration::from_std(d)
                .ok()
                .and_then(|d| now.checked_sub_signed(d))
                .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC),
        )
    };
    let (waiting, paired) = (ago(crate::service::oauth::DEVICE_TTL), ago(lifetime));
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
