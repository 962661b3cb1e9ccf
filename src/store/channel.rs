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
}

/// The state.
pub fn get(c: &Connection) -> AppResult<SyncState> {
    Ok(c.prepare_cached(
        "SELECT cursor, full_requested_at, last_push_at, last_error, pushes, checked_at,
                differences, first_differences FROM channel_sync WHERE id = 1",
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
        })
    })?)
}

/// A push taken up to event `cursor`; `full` when it was the full sync asked for at
/// `asked` (cleared unless asked again since).
pub fn pushed(tx: &Tx, cursor: i64, asked: Option<&str>) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE channel_sync SET cursor = ?1, last_push_at = ?2, last_error = NULL,
            pushes = pushes + 1,
            full_requested_at = CASE WHEN full_requested_at IS ?3 THEN NULL ELSE full_requested_at END
          WHERE id = 1",
    )?
    .execute((cursor, tx.now_text(), asked))?;
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
