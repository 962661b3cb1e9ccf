//! Sealed fiscal receipts and their gapless numbers.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::{AppError, AppResult};
use crate::model::outcome::{ReceiptSeries, SealedReceipt};

/// The next receipt number of a year, premises and device (inside the issuing transaction,
/// so a rollback gives the number back).
pub fn next_number(tx: &Tx, s: &ReceiptSeries) -> AppResult<i64> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO fiscal_counters (year, premises, device, last) VALUES (?1, ?2, ?3, 1)
             ON CONFLICT (year, premises, device) DO UPDATE SET last = last + 1 RETURNING last",
        )?
        .query_row((s.year, &s.premises, &s.device), |r| r.get(0))?)
}

/// Stores a sealed receipt.
pub fn insert(tx: &Tx, s: &SealedReceipt) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO fiscal_receipts (invoice_id, scheme, year, number, premises, device, issued_at,
             total, zki, receipt, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(rusqlite::params![
        s.invoice_id,
        s.scheme,
        s.series.year,
        s.number,
        s.series.premises,
        s.series.device,
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
