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
    /// Who approved it: a staff member's id, or the kiosk client's from the command line.
    pub approved_by: Option<String>,
    /// When it was approved.
    pub approved_at: Option<String>,
    /// The login its approval opened.
    pub family_id: Option<String>,
    /// When its pairing began.
    pub created_at: String,
    /// Why it was ended (`unpaired`), to say at its next request.
    pub ended: Option<String>,
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
                    failures_since, last_seen_at, approved_at, family_id, created_at, ended
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
                approved_at: r.get(9)?,
                family_id: r.get(10)?,
                created_at: r.get(11)?,
                ended: r.get(12)?,
            })
        })
        .optional()?)
}

/// Marks the session approved with `scope`, by `who`, opening the login `family`; the device
/// code, spent now, is not kept.
pub fn approve(tx: &Tx, id_hash: &str, scope: &str, who: &str, family: &str) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE kiosk_sessions SET scope = ?2, approved_by = ?3, family_id = ?4, approved_at = ?5,
                device_code = '' WHERE id_hash = ?1",
    )?
    .execute((id_hash, scope, who, family, tx.now_text()))?;
    Ok(())
}

/// A paired kiosk, as Administration lists it.
#[derive(Debug, Clone)]
pub struct Paired {
    /// Its session's id (the hash of its cookie: naming it reveals nothing).
    pub id_hash: String,
    /// The code it showed when it was paired.
    pub user_code: String,
    /// Who approved it (a user name, or `None` from the command line).
    pub approved_by: Option<String>,
    /// When.
    pub approved_at: String,
    /// Its last request.
    pub last_seen_at: String,
    /// Its login.
    pub family_id: Option<String>,
}

/// Every paired kiosk (not unpaired since), the most recently approved first.
pub fn paired(conn: &Connection) -> AppResult<Vec<Paired>> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.id_hash, k.user_code, u.username, coalesce(k.approved_at, k.created_at),
                k.last_seen_at, k.family_id
           FROM kiosk_sessions k LEFT JOIN users u ON u.id = k.approved_by
          WHERE k.scope IS NOT NULL AND k.ended IS NULL
          ORDER BY 4 DESC",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Paired {
            id_hash: r.get(0)?,
            user_code: r.get(1)?,
            approved_by: r.get(2)?,
            approved_at: r.get(3)?,
            last_seen_at: r.get(4)?,
            family_id: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Forgets kiosks still waiting for approval that began before `waiting_before`, and paired
/// ones approved before `paired_before` (past their lifetime); how many went.
pub fn prune(tx: &Tx, waiting_before: &str, paired_before: &str) -> AppResult<usize> {
    Ok(tx
        .prepare_cached(
            "DELETE FROM kiosk_sessions
              WHERE (scope IS NULL AND created_at < ?1)
                 OR (scope IS NOT NULL AND coalesce(approved_at, created_at) < ?2)",
        )?
        .execute((waiting_before, paired_before))?)
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

/// Marks a kiosk ended for `why` (it is told, then forgotten, at its next request); its
/// login's family, if it had one; `None` when there is no such kiosk.
pub fn mark_ended(tx: &Tx, id_hash: &str, why: &str) -> AppResult<Option<Option<String>>> {
    Ok(tx
        .prepare_cached(
            "UPDATE kiosk_sessions SET ended = ?2 WHERE id_hash = ?1 RETURNING family_id",
        )?
        .query_row((id_hash, why), |r| r.get(0))
        .optional()?)
}

/// Ends a kiosk session; its login's family, if it had one.
pub fn end(tx: &Tx, id_hash: &str) -> AppResult<Option<Option<String>>> {
    Ok(tx
        .prepare_cached("DELETE FROM kiosk_sessions WHERE id_hash = ?1 RETURNING family_id")?
        .query_row([id_hash], |r| r.get(0))
        .optional()?)
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
