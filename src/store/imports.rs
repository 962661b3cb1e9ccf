//! Records brought in by `innkeep import`, by the id they had in the old system.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// The record imported earlier under `external_id`, if any.
pub fn find(conn: &Connection, kind: &str, external_id: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT record_id FROM import_ids WHERE kind = ?1 AND external_id = ?2")?
        .query_row((kind, external_id), |r| r.get(0))
        .optional()?)
}

/// Remembers that `external_id` became `record_id`.
pub fn insert(tx: &Tx, kind: &str, external_id: &str, record_id: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO import_ids (kind, external_id, record_id, imported_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute((kind, external_id, record_id, tx.now_text()))?;
    Ok(())
}
