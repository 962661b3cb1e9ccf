//! E-invoices: each invoice's document as issued (never changed) and where it stands.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::domain::enums::EInvoiceStatus;
use crate::error::AppResult;

/// A stored e-invoice.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The invoice.
    pub invoice_id: String,
    /// `hr-eracun`.
    pub scheme: String,
    /// The intermediary carrying it.
    pub intermediary: String,
    /// The document.
    pub document: String,
    /// Its SHA-256.
    pub sha256: String,
    /// Where it stands.
    pub status: EInvoiceStatus,
    /// The intermediary's id of it.
    pub reference: Option<String>,
    /// The last problem.
    pub last_error: Option<String>,
}

/// Stores a new e-invoice (in the issuing transaction).
pub fn insert(tx: &Tx, e: &Stored) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO einvoices (invoice_id, scheme, intermediary, document, sha256, status,
             reference, last_error, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
    )?
    .execute(rusqlite::params![
        e.invoice_id,
        e.scheme,
        e.intermediary,
        e.document,
        e.sha256,
        e.status.as_str(),
        e.reference,
        e.last_error,
        now
    ])?;
    Ok(())
}

/// How many e-invoices the property has issued: the highest rowid, since triggers refuse
/// every delete (a lookup, where `COUNT(*)` would read the whole table at each issue).
pub fn count(conn: &Connection) -> AppResult<u64> {
    let n: i64 = conn
        .prepare_cached("SELECT COALESCE(MAX(rowid), 0) FROM einvoices")?
        .query_row([], |r| r.get(0))?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Records where an e-invoice stands.
pub fn set_status(
    tx: &Tx,
    invoice_id: &str,
    status: EInvoiceStatus,
    reference: Option<&str>,
    last_error: Option<&str>,
) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE einvoices SET status = ?2, reference = coalesce(?3, reference), last_error = ?4,
             updated_at = ?5 WHERE invoice_id = ?1",
    )?
    .execute(rusqlite::params![
        invoice_id,
        status.as_str(),
        reference,
        last_error,
        tx.now_text()
    ])?;
    Ok(())
}

/// An invoice's e-invoice.
pub fn get(conn: &Connection, invoice_id: &str) -> AppResult<Option<Stored>> {
    Ok(conn
        .prepare_cached(
            "SELECT invoice_id, scheme, intermediary, document, sha256, status, reference,
                    last_error FROM einvoices WHERE invoice_id = ?1",
        )?
        .query_row([invoice_id], |r| {
            let status: String = r.get(5)?;
            Ok(Stored {
                invoice_id: r.get(0)?,
                scheme: r.get(1)?,
                intermediary: r.get(2)?,
                document: r.get(3)?,
                sha256: r.get(4)?,
                status: EInvoiceStatus::parse(&status).unwrap_or(EInvoiceStatus::Queued),
                reference: r.get(6)?,
                last_error: r.get(7)?,
            })
        })
        .optional()?)
}

/// How many e-invoices are not yet fiscalized, by status (for the compliance centre and
/// `innkeep doctor`).
pub fn open_counts(conn: &Connection) -> AppResult<Vec<(EInvoiceStatus, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.status, count(*) FROM einvoices e JOIN invoices i ON i.id = e.invoice_id
         WHERE e.status != 'fiscalized' AND i.status != 'cancelled'
         GROUP BY e.status ORDER BY e.status",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (s, n) = row?;
        if let Some(s) = EInvoiceStatus::parse(&s) {
            out.push((s, n));
        }
    }
    Ok(out)
}
