//! Compliance submissions (delivered by the job queue in a later issue).

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// Inserts a queued submission; returns its id.
pub fn insert(
    tx: &Tx,
    kind: &str,
    scheme: &str,
    subject_id: &str,
    due_at: &str,
) -> AppResult<String> {
    let id = crate::ids::new("sub");
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO compliance_submissions (id, kind, scheme, subject_id, status, due_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6, ?6)",
    )?
    .execute((&id, kind, scheme, subject_id, due_at, &now))?;
    Ok(id)
}

/// The newest submission of a kind for a subject: (id, status).
pub fn latest_for(
    conn: &Connection,
    kind: &str,
    subject_id: &str,
) -> AppResult<Option<(String, String)>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, status FROM compliance_submissions WHERE subject_id = ?1 AND kind = ?2
             ORDER BY created_at DESC, id DESC LIMIT 1",
        )?
        .query_row((subject_id, kind), |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}
