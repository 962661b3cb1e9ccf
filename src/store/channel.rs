//! Where the channel manager's ARI pushes stand (`channel_sync`, one row).

use rusqlite::Connection;

use crate::db::Tx;
use crate::error::AppResult;

/// The push's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncState {
    /// The last event pushed (none: never synced).
    pub cursor: Option<i64>,
    /// When a full sync was asked for, not yet done.
    pub full_requested_at: Option<String>,
    /// When the last push was taken.
    pub last_push_at: Option<String>,
    /// The last problem, in words (none after a push is taken).
    pub last_error: Option<String>,
    /// Pushes taken since the database was made.
    pub pushes: i64,
    /// The last read-back: when, how many nights differed, the first of them in words.
    pub checked: Option<(String, i64, String)>,
    /// The last night the channel manager was sent.
    pub pushed_to: Option<chrono::NaiveDate>,
}

/// The state.
pub fn get(c: &Connection) -> AppResult<SyncState> {
    Ok(c.prepare_cached(
        "SELECT cursor, full_requested_at, last_push_at, last_error, pushes, checked_at,
                differences, first_differences, pushed_to FROM channel_sync WHERE id = 1",
    )?
    .query_row([], |r| {
        Ok(SyncState {
            cursor: r.get(0)?,
            full_requested_at: r.get(1)?,
            last_push_at: r.get(2)?,
            last_error: r.get(3)?,
            pushes: r.get(4)?,
            checked: match r.get::<_, Option<String>>(5)? {
                Some(at) => Some((at, r.get(6)?, r.get(7)?)),
                None => None,
            },
            pushed_to: r.get::<_, Option<String>>(8)?.and_then(|d| d.parse().ok()),
        })
    })?)
}

/// A push taken up to event `cursor` and night `to`; `full` when it was the full sync
/// asked for at `asked` (cleared unless asked again since).
pub fn pushed(tx: &Tx, cursor: i64, asked: Option<&str>, to: chrono::NaiveDate) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE channel_sync SET cursor = ?1, last_push_at = ?2, last_error = NULL,
            pushes = pushes + 1, pushed_to = ?4,
            full_requested_at = CASE WHEN full_requested_at IS ?3 THEN NULL ELSE full_requested_at END
          WHERE id = 1",
    )?
    .execute((cursor, tx.now_text(), asked, to.to_string()))?;
    Ok(())
}

/// The last problem, in words.
pub fn failed(tx: &Tx, why: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE channel_sync SET last_error = ?1 WHERE id = 1")?
        .execute([why])?;
    Ok(())
}

/// Asks for a full sync at the next push.
pub fn ask_full(tx: &Tx) -> AppResult<()> {
    tx.prepare_cached("UPDATE channel_sync SET full_requested_at = ?1 WHERE id = 1")?
        .execute([tx.now_text()])?;
    Ok(())
}

/// A read-back done: `differences` nights differed, the first of them `words`.
pub fn checked(tx: &Tx, differences: i64, words: &str) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE channel_sync SET checked_at = ?1, differences = ?2, first_differences = ?3 WHERE id = 1",
    )?
    .execute((tx.now_text(), differences, words))?;
    Ok(())
}

/// What applying revision `id` did, in words, when it was applied.
pub fn applied(c: &Connection, id: &str) -> AppResult<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(
        c.prepare_cached("SELECT outcome FROM channel_revisions WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?,
    )
}

/// Revision `id` of booking `booking` applied: `kind` and what it did; the feed's read is
/// dated at the same moment.
pub fn record_revision(
    tx: &Tx,
    id: &str,
    booking: &str,
    kind: &str,
    outcome: &str,
) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO channel_revisions (id, booking_id, kind, applied_at, outcome)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute((id, booking, kind, &now, outcome))?;
    tx.prepare_cached(
        "UPDATE channel_sync SET pulled = pulled + 1, last_pull_at = ?1, pull_error = NULL
          WHERE id = 1",
    )?
    .execute([&now])?;
    Ok(())
}

/// The reservations booking `booking` became, by the room's position in it.
pub fn booking_rooms(c: &Connection, booking: &str) -> AppResult<Vec<(i64, String)>> {
    let mut stmt = c.prepare_cached(
        "SELECT room, reservation_id FROM channel_bookings WHERE booking_id = ?1 ORDER BY room",
    )?;
    let rows = stmt.query_map([booking], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Room `room` of booking `booking` became reservation `reservation`.
pub fn add_booking_room(tx: &Tx, booking: &str, room: i64, reservation: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO channel_bookings (booking_id, room, reservation_id) VALUES (?1, ?2, ?3)",
    )?
    .execute((booking, room, reservation))?;
    Ok(())
}

/// The feed read to its end: the pull's problem, if any, cleared, and its time kept.
pub fn pulled(tx: &Tx) -> AppResult<()> {
    tx.prepare_cached("UPDATE channel_sync SET last_pull_at = ?1, pull_error = NULL WHERE id = 1")?
        .execute([tx.now_text()])?;
    Ok(())
}

/// The last problem taking bookings, in words.
pub fn pull_failed(tx: &Tx, why: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE channel_sync SET pull_error = ?1 WHERE id = 1")?
        .execute([why])?;
    Ok(())
}

/// The pulls' state: last pull, revisions applied, last problem.
pub fn pull_state(c: &Connection) -> AppResult<(Option<String>, i64, Option<String>)> {
    Ok(
        c.prepare_cached("SELECT last_pull_at, pulled, pull_error FROM channel_sync WHERE id = 1")?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?,
    )
}

/// The channel reservations flagged overbooked that still hold rooms (through the partial
/// index `reservations_overbooked`, which holds only those).
pub fn overbooked(c: &Connection) -> AppResult<Vec<crate::model::OverbookedReservation>> {
    let mut stmt = c.prepare_cached(OVERBOOKED)?;
    let rows = stmt.query_map([], |r| {
        Ok(crate::model::OverbookedReservation {
            id: r.get(0)?,
            code: r.get(1)?,
            source: r.get(2)?,
            arrival: r.get(3)?,
            departure: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The query of [`overbooked`]: its conditions are the partial index's.
const OVERBOOKED: &str =
    "SELECT id, code, json_extract(channel, '$.ota') || ' ' || json_extract(channel, '$.ota_code'),
                arrival, departure
           FROM reservations INDEXED BY reservations_overbooked
          WHERE channel IS NOT NULL AND json_extract(channel, '$.overbooked') = 1
            AND status IN ('confirmed', 'checked_in')
          ORDER BY arrival, id";

/// Changes recorded after event `cursor` that move availability, prices or restrictions.
pub fn waiting(c: &Connection, cursor: i64) -> AppResult<i64> {
    Ok(c.prepare_cached(
        "SELECT COUNT(*) FROM events WHERE sequence > ?1
            AND (type LIKE 'reservation.%' OR type LIKE 'rate%')",
    )?
    .query_row([cursor], |r| r.get(0))?)
}

/// innkeep's `local` (`kind` `room_type` or `rate_plan`) mapped to the channel manager's
/// `remote` (empty: explicitly not mapped, over the configuration file's mapping).
pub fn map(tx: &Tx, kind: &str, local: &str, remote: &str, title: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO channel_mappings (kind, local_id, remote_id, remote_title) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (kind, local_id) DO UPDATE SET remote_id = ?3, remote_title = ?4",
    )?
    .execute((kind, local, remote, title))?;
    Ok(())
}

/// The mapping chosen at the desk: (kind, innkeep id, the channel manager's id or empty).
pub fn mappings(c: &Connection) -> AppResult<Vec<(String, String, String)>> {
    let mut stmt = c.prepare_cached("SELECT kind, local_id, remote_id FROM channel_mappings")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    /// Today's list of overbooked bookings is read from its partial index, never by reading
    /// every reservation.
    #[test]
    fn overbooked_bookings_come_from_their_index() {
        let plan = crate::store::plan_of(super::OVERBOOKED, []);
        assert!(
            plan.iter().any(|s| s.contains("reservations_overbooked")),
            "{plan:?}"
        );
    }
}
