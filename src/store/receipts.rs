//! The registration authority's receipts of each day (Alloggiati Web's ricevute), kept five
//! years.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// A receipt kept: (day, scheme, SHA-256, when fetched, its size in bytes).
pub type Kept = (String, String, String, String, i64);

/// Keeps `day`'s receipt (a second fetch of the same day replaces it).
pub fn keep(tx: &Tx, day: &str, scheme: &str, body: &[u8]) -> AppResult<()> {
    let sha = crate::domain::digest::sha256_hex(body);
    tx.prepare_cached(
        "INSERT INTO registration_receipts (day, scheme, body, sha256, fetched_at)
              VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (day) DO UPDATE SET scheme = ?2, body = ?3, sha256 = ?4, fetched_at = ?5",
    )?
    .execute((day, scheme, body, sha, tx.now_text()))?;
    Ok(())
}

/// The receipts kept from `from` to `to` (exclusive), newest first.
pub fn list(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<Kept>> {
    let mut stmt = conn.prepare_cached(
        "SELECT day, scheme, sha256, fetched_at, length(body) FROM registration_receipts
          WHERE day >= ?1 AND day < ?2 ORDER BY day DESC",
    )?;
    let rows = stmt.query_map([from, to], |r| Kept::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// `day`'s receipt.
pub fn get(conn: &Connection, day: &str) -> AppResult<Option<Vec<u8>>> {
    Ok(conn
        .prepare_cached("SELECT body FROM registration_receipts WHERE day = ?1")?
        .query_row([day], |r| r.get(0))
        .optional()?)
}

/// The days from `from` to `to` (exclusive) whose guests the authority accepted and whose
/// receipt is not kept yet.
pub fn wanted(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT s.record_date FROM compliance_submissions s
          WHERE s.kind = 'guest_registration' AND s.status = 'accepted'
            AND s.record_date >= ?1 AND s.record_date < ?2
            AND NOT EXISTS (SELECT 1 FROM registration_receipts r WHERE r.day = s.record_date)
          ORDER BY 1",
    )?;
    let rows = stmt.query_map([from, to], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
