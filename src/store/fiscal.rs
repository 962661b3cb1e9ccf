//! Sealed fiscal receipts and their gapless numbers.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::{AppError, AppResult};

/// The next receipt number of a year, premises and device (inside the issuing transaction,
/// so a rollback gives the number back).
pub fn next_number(tx: &Tx, year: i32, premises: &str, device: &str) -> AppResult<i64> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO fiscal_counters (year, premises, device, last) VALUES (?1, ?2, ?3, 1)
             ON CONFLICT (year, premises, device) DO UPDATE SET last = last + 1 RETURNING last",
        )?
        .query_row((year, premises, device), |r| r.get(0))?)
}

/// A receipt to store as sealed.
pub struct Sealed<'a> {
    /// The invoice.
    pub invoice_id: &'a str,
    /// The scheme.
    pub scheme: &'a str,
    /// Year of the number.
    pub year: i32,
    /// The number.
    pub number: i64,
    /// Premises mark.
    pub premises: &'a str,
    /// Device mark.
    pub device: &'a str,
    /// Local time of issue.
    pub issued_at: &'a str,
    /// Total in cents.
    pub total: i64,
    /// The protective code.
    pub zki: &'a str,
    /// The sealed receipt (JSON).
    pub receipt: &'a str,
}

/// Stores a sealed receipt.
pub fn insert(tx: &Tx, s: &Sealed) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO fiscal_receipts (invoice_id, scheme, year, number, premises, device, issued_at,
             total, zki, receipt, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(rusqlite::params![
        s.invoice_id,
        s.scheme,
        s.year,
        s.number,
        s.premises,
        s.device,
        s.issued_at,
        s.total,
        s.zki,
        s.receipt,
        tx.now_text()
    ])?;
    Ok(())
}

/// Writes the authority's reference (once; the trigger refuses a second, different one).
pub fn set_reference(tx: &Tx, invoice_id: &str, jir: &str) -> AppResult<()> {
    let n = tx
        .prepare_cached("UPDATE fiscal_receipts SET jir = ?2 WHERE invoice_id = ?1")?
        .execute((invoice_id, jir))?;
    if n == 1 {
        Ok(())
    } else {
        Err(AppError::internal(format!(
            "the fiscal receipt of {invoice_id} vanished"
        )))
    }
}

/// The sealed receipt JSON of an invoice.
pub fn receipt(conn: &Connection, invoice_id: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT receipt FROM fiscal_receipts WHERE invoice_id = ?1")?
        .query_row([invoice_id], |r| r.get(0))
        .optional()?)
}
