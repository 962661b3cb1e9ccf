//! Identity checks in person (Italy): a kiosk check-in waiting for staff, and who confirmed.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// One reservation's identity check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityCheck {
    /// The reservation.
    pub reservation_id: String,
    /// The room the kiosk chose.
    pub room_id: String,
    /// When the kiosk asked.
    pub requested_at: String,
    /// Who confirmed, once someone has.
    pub confirmed_by: Option<String>,
}

fn map(r: &rusqlite::Row<'_>) -> rusqlite::Result<IdentityCheck> {
    Ok(IdentityCheck {
        reservation_id: r.get("reservation_id")?,
        room_id: r.get("room_id")?,
        requested_at: r.get("requested_at")?,
        confirmed_by: r.get("confirmed_by")?,
    })
}

/// Asks for (again) the check of a reservation's guests, for `room_id`.
pub fn request(tx: &Tx, reservation_id: &str, room_id: &str, by: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO identity_checks (reservation_id, room_id, requested_at, requested_by)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (reservation_id) DO UPDATE SET room_id = ?2, requested_at = ?3,
             requested_by = ?4, confirmed_at = NULL, confirmed_by = NULL",
    )?
    .execute(rusqlite::params![
        reservation_id,
        room_id,
        tx.now_text(),
        by
    ])?;
    Ok(())
}

/// Records that `by` confirmed the check.
pub fn confirm(tx: &Tx, reservation_id: &str, by: &str) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE identity_checks SET confirmed_at = ?2, confirmed_by = ?3 WHERE reservation_id = ?1",
    )?
    .execute(rusqlite::params![reservation_id, tx.now_text(), by])?;
    Ok(())
}

/// A reservation's check, if one was asked for.
pub fn get(conn: &Connection, reservation_id: &str) -> AppResult<Option<IdentityCheck>> {
    Ok(conn
        .prepare_cached("SELECT * FROM identity_checks WHERE reservation_id = ?1")?
        .query_row([reservation_id], map)
        .optional()?)
}

/// The checks waiting for staff, oldest first.
pub fn waiting(conn: &Connection) -> AppResult<Vec<IdentityCheck>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM identity_checks WHERE confirmed_at IS NULL ORDER BY requested_at",
    )?;
    let rows = stmt.query_map([], map)?;
    Ok(rows.collect::<Result<_, _>>()?)
}
