//! The audit trail: entries per record (never pruned) and each record's latest snapshot,
//! the base of its next entry's changes. List order: `position` (the order of recording).

use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::domain::history::{Change, changes};
use crate::error::AppResult;
use crate::model::{Actor, FieldChange, HistoryEntry, Instant};

/// Records that `actor` did `kind` to `subject_id`, leaving it as `snapshot`: the changes
/// since its previous snapshot (every field, for a new record) are computed and kept, and
/// `snapshot` becomes the base of the next entry. A record that has no base yet (it was
/// last changed before innkeep kept history) is compared with its newest event still kept.
pub fn record(
    tx: &Tx,
    actor: &Actor,
    kind: &str,
    subject_id: &str,
    snapshot: &serde_json::Value,
    event_id: Option<&str>,
) -> AppResult<()> {
    record_text(
        tx,
        actor,
        kind,
        subject_id,
        snapshot,
        &snapshot.to_string(),
        event_id,
    )
}

/// [`record`] with the snapshot already written out as JSON (`text`), as the event that
/// carries it was.
pub fn record_text(
    tx: &Tx,
    actor: &Actor,
    kind: &str,
    subject_id: &str,
    snapshot: &serde_json::Value,
    text: &str,
    event_id: Option<&str>,
) -> AppResult<()> {
    let head: Option<String> = tx
        .prepare_cached("SELECT snapshot FROM history_heads WHERE subject_id = ?1")?
        .query_row([subject_id], |r| r.get(0))
        .optional()?;
    let head = match head {
        Some(h) => Some(h),
        None => tx
            .prepare_cached(
                "SELECT data FROM events WHERE subject_id = ?1 AND id IS NOT ?2
                 ORDER BY sequence DESC LIMIT 1",
            )?
            .query_row((subject_id, event_id), |r| r.get(0))
            .optional()?,
    };
    let before: Option<serde_json::Value> = head.and_then(|h| serde_json::from_str(&h).ok());
    let found = changes(before.as_ref(), snapshot);
    tx.prepare_cached(
        "INSERT INTO history_heads (subject_id, snapshot) VALUES (?1, ?2)
         ON CONFLICT (subject_id) DO UPDATE SET snapshot = excluded.snapshot",
    )?
    .execute((subject_id, text))?;
    note(tx, actor, kind, subject_id, &found, event_id)
}

/// Records an entry with the given changes, leaving the record's base snapshot as it is
/// (for changes outside the record itself, such as a charge added to a folio).
pub fn note(
    tx: &Tx,
    actor: &Actor,
    kind: &str,
    subject_id: &str,
    changes: &[Change],
    event_id: Option<&str>,
) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO history (id, subject_id, position, type, occurred_at, actor, changes, event_id)
         VALUES (?1, ?2, printf('%016d', (SELECT COALESCE(MAX(rowid), 0) + 1 FROM history)),
                 ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute((
        crate::ids::new("hst"),
        subject_id,
        kind,
        tx.now_text(),
        serde_json::to_string(actor)?,
        serde_json::to_string(changes)?,
        event_id,
    ))?;
    Ok(())
}

fn map(r: &Row) -> rusqlite::Result<HistoryEntry> {
    let json = |i: &str| -> rusqlite::Result<String> { r.get(i) };
    let bad = |e: serde_json::Error| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    };
    let changes: Vec<Change> = serde_json::from_str(&json("changes")?).map_err(bad)?;
    Ok(HistoryEntry {
        id: r.get("id")?,
        kind: r.get("type")?,
        occurred_at: Instant(r.get("occurred_at")?),
        actor: serde_json::from_str(&json("actor")?).map_err(bad)?,
        changes: changes.into_iter().map(FieldChange::from).collect(),
        event_id: r.get("event_id")?,
    })
}

/// A page of a record's history, oldest first.
pub fn list(
    conn: &Connection,
    subject_id: &str,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(HistoryEntry, Position)>> {
    let mut q = ListQuery::new("history", "history", "position");
    q.filter(
        "t.subject_id = ?",
        [rusqlite::types::Value::Text(subject_id.to_string())],
    );
    page::fetch(conn, &q, after, as_of, limit, map)
}
