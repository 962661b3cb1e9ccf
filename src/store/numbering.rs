//! Invoice numbering's state: the last number of each series, and the hold a restore puts on
//! issuing until an admin confirms where each series stands.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// The hold, when there is one: (since, reason).
pub fn hold(conn: &Connection) -> AppResult<Option<(String, String)>> {
    Ok(conn
        .prepare_cached("SELECT since, reason FROM numbering_hold WHERE id = 1")?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// Holds issuing from `since`, for `reason`.
pub fn set_hold(tx: &Tx, since: &str, reason: &str) -> AppResult<()> {
    tx.execute(
        "INSERT INTO numbering_hold (id, since, reason) VALUES (1, ?1, ?2)
         ON CONFLICT (id) DO UPDATE SET since = excluded.since, reason = excluded.reason",
        [since, reason],
    )?;
    Ok(())
}

/// Lifts the hold.
pub fn release(tx: &Tx) -> AppResult<()> {
    tx.execute("DELETE FROM numbering_hold", [])?;
    Ok(())
}

/// Every series with the last number it issued, by name.
pub fn series(conn: &Connection) -> AppResult<Vec<(String, i64)>> {
    let mut stmt =
        conn.prepare_cached("SELECT series, last_seq FROM invoice_series ORDER BY series")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Sets the last number `series` issued (creating the series).
pub fn set_last(tx: &Tx, series: &str, last: i64) -> AppResult<()> {
    tx.execute(
        "INSERT INTO invoice_series (series, last_seq) VALUES (?1, ?2)
         ON CONFLICT (series) DO UPDATE SET last_seq = excluded.last_seq",
        rusqlite::params![series, last],
    )?;
    Ok(())
}
