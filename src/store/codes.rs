//! Imported compliance code tables (see `compliance::codes`).

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;
use crate::model::codes::{CodeLookup, CodeRow, Found, name_key};

/// A loaded table's version.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TableVersion {
    /// Scheme, such as `it-alloggiati`.
    pub scheme: String,
    /// Table, such as `Luoghi`.
    pub table: String,
    /// Rows loaded.
    pub rows: i64,
    /// SHA-256 of the file imported.
    pub sha256: String,
    /// Where it came from.
    pub source: String,
    /// When.
    pub imported_at: String,
}

/// Replaces a whole table (one transaction: readers see the old or the new one).
pub fn replace(
    tx: &Tx,
    scheme: &str,
    table: &str,
    rows: &[CodeRow],
    sha256: &str,
    source: &str,
) -> AppResult<()> {
    tx.execute(
        "DELETE FROM compliance_codes WHERE scheme = ?1 AND table_name = ?2",
        (scheme, table),
    )?;
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO compliance_codes (scheme, table_name, code, description, name_key, province, valid_to)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for r in rows {
        insert.execute((
            scheme,
            table,
            &r.code,
            &r.description,
            name_key(&r.description),
            &r.province,
            &r.valid_to,
        ))?;
    }
    tx.execute(
        "INSERT OR REPLACE INTO compliance_code_tables (scheme, table_name, rows, sha256, source, imported_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        (scheme, table, rows.len() as i64, sha256, source, tx.now_text()),
    )?;
    Ok(())
}

/// Places whose name key matches, current ones first.
pub fn by_name(conn: &Connection, scheme: &str, table: &str, key: &str) -> AppResult<Vec<Found>> {
    let mut stmt = conn.prepare_cached(
        "SELECT code, province, valid_to FROM compliance_codes
         WHERE scheme = ?1 AND table_name = ?2 AND name_key = ?3
         ORDER BY valid_to = '' DESC, code",
    )?;
    let rows = stmt.query_map((scheme, table, key), |r| {
        Ok(Found {
            code: r.get(0)?,
            province: r.get(1)?,
            valid_to: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Up to `limit` current places outside the province `except` (the foreign states' mark)
/// whose name key starts with `prefix` (a [`name_key`]), by name: (description, province).
pub fn starting(
    conn: &Connection,
    (scheme, table): (&str, &str),
    (prefix, except): (&str, &str),
    limit: usize,
) -> AppResult<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT description, province FROM compliance_codes
         WHERE scheme = ?1 AND table_name = ?2 AND name_key >= ?3 AND name_key < ?3 || char(127)
           AND valid_to = '' AND province != ?4
         ORDER BY name_key, province LIMIT ?5",
    )?;
    let rows = stmt.query_map((scheme, table, prefix, except, limit as i64), |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every row of a table, (code, description), by description.
pub fn rows(conn: &Connection, scheme: &str, table: &str) -> AppResult<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT code, description FROM compliance_codes WHERE scheme = ?1 AND table_name = ?2
         ORDER BY name_key, code",
    )?;
    let rows = stmt.query_map((scheme, table), |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether a code exists in a table.
pub fn exists(conn: &Connection, scheme: &str, table: &str, code: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM compliance_codes WHERE scheme = ?1 AND table_name = ?2 AND code = ?3",
        )?
        .query_row((scheme, table, code), |_| Ok(()))
        .optional()?
        .is_some())
}

/// The tables loaded, by scheme and name.
pub fn versions(conn: &Connection) -> AppResult<Vec<TableVersion>> {
    let mut stmt = conn.prepare_cached(
        "SELECT scheme, table_name, rows, sha256, source, imported_at FROM compliance_code_tables
         ORDER BY scheme, table_name",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(TableVersion {
            scheme: r.get(0)?,
            table: r.get(1)?,
            rows: r.get(2)?,
            sha256: r.get(3)?,
            source: r.get(4)?,
            imported_at: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The tables as adapters read them, over any connection or transaction.
impl CodeLookup for Connection {
    fn by_name(&self, scheme: &str, table: &str, key: &str) -> AppResult<Vec<Found>> {
        by_name(self, scheme, table, key)
    }

    fn exists(&self, scheme: &str, table: &str, code: &str) -> AppResult<bool> {
        exists(self, scheme, table, code)
    }
}
