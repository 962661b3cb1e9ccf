//! Kiosk sessions: a device code waiting for approval, then an approved kiosk with the booking
//! a guest is completing and its failed look-ups.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// A kiosk session.
#[derive(Debug, Clone)]
pub struct KioskRow {
    /// The device code to poll with, while waiting.
    pub device_code: String,
    /// The code the kiosk shows.
    pub user_code: String,
    /// The scopes granted, once approved.
    pub scope: Option<String>,
    /// Who approved it.
    pub approved_by: Option<String>,
    /// The token its forms carry.
    pub csrf: String,
    /// The booking a guest is completing.
    pub reservation_id: Option<String>,
    /// Failed look-ups since `failures_since`.
    pub failures: i64,
    /// When the failures began to count.
    pub failures_since: Option<String>,
    /// Last request.
    pub last_seen_at: String,
}

/// Opens a kiosk session waiting for approval.
pub fn insert(
    tx: &Tx,
    id_hash: &str,
    device_code: &str,
    user_code: &str,
    csrf: &str,
) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO kiosk_sessions (id_hash, device_code, user_code, csrf, created_at, last_seen_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
    )?
    .execute((id_hash, device_code, user_code, csrf, &now))?;
    Ok(())
}

/// The session behind a cookie's hash.
pub fn get(conn: &Connection, id_hash: &str) -> AppResult<Option<KioskRow>> {
    Ok(conn
        .prepare_cached(
            "SELECT device_code, user_code, scope, approved_by, csrf, reservation_id, failures,
                    failures_since, last_seen_at
               FROM kiosk_sessions WHERE id_hash = ?1",
        )?
        .query_row([id_hash], |r| {
            Ok(KioskRow {
                device_code: r.get(0)?,
                user_code: r.get(1)?,
                scope: r.get(2)?,
                approved_by: r.get(3)?,
                csrf: r.get(4)?,
                reservation_id: r.get(5)?,
                failures: r.get(6)?,
                failures_since: r.get(7)?,
                last_seen_at: r.get(8)?,
            })
        })
        .optional()?)
}

/// Marks the session approved with `scope`, by `who`.
pub fn approve(tx: &Tx, id_hash: &str, scope: &str, who: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE kiosk_sessions SET scope = ?2, approved_by = ?3 WHERE id_hash = ?1")?
        .execute((id_hash, scope, who))?;
    Ok(())
}

/// Sets (or clears) the booking in progress and notes the request.
pub fn set_reservation(tx: &Tx, id_hash: &str, reservation: Option<&str>) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE kiosk_sessions SET reservation_id = ?2, last_seen_at = ?3 WHERE id_hash = ?1",
    )?
    .execute((id_hash, reservation, tx.now_text()))?;
    Ok(())
}

/// Counts a failed look-up, starting a new count at `since` when asked.
pub fn fail(tx: &Tx, id_hash: &str, restart: Option<&str>) -> AppResult<()> {
    match restart {
        Some(since) => tx
            .prepare_cached(
                "UPDATE kiosk_sessions SET failures = 1, failures_since = ?2 WHERE id_hash = ?1",
            )?
            .execute((id_hash, since))?,
        None => tx
            .prepare_cached("UPDATE kiosk_sessions SET failures = failures + 1 WHERE id_hash = ?1")?
            .execute([id_hash])?,
    };
    Ok(())
}

/// Ends a kiosk session.
pub fn end(tx: &Tx, id_hash: &str) -> AppResult<()> {
    tx.prepare_cached("DELETE FROM kiosk_sessions WHERE id_hash = ?1")?
        .execute([id_hash])?;
    Ok(())
}

/// A booking found by its code: (id, the primary guest's last name, status, arrival day).
pub fn booking(
    conn: &Connection,
    code: &str,
) -> AppResult<Option<(String, String, String, String)>> {
    Ok(conn
        .prepare_cached(
            "SELECT r.id, g.last_name, r.status, r.arrival
               FROM reservations r JOIN guests g ON g.id = r.primary_guest_id
              WHERE r.code = ?1",
        )?
        .query_row([code], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?)
}
