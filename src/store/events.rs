//! The event feed (outbox). Events are appended in the same transaction as the change
//! they report; with a single writer, sequences become visible in commit order, so a reader
//! polling with `after` never misses one.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::domain::events::EventType;
use crate::error::AppResult;
use crate::model::{Actor, Event};

/// Appends an event; returns its sequence and id.
pub fn record(
    tx: &Tx,
    actor: &Actor,
    kind: EventType,
    subject_id: &str,
    data: &serde_json::Value,
) -> AppResult<(i64, String)> {
    let id = crate::ids::new("evt");
    let text = data.to_string();
    tx.wake_queue(crate::db::Wake::Events);
    let sequence = tx
        .prepare_cached(
            "INSERT INTO events (id, type, subject_id, occurred_at, data, actor)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING sequence",
        )?
        .query_row(
            (
                &id,
                kind.as_str(),
                subject_id,
                tx.now_text(),
                &text,
                serde_json::to_string(actor)?,
            ),
            |r| r.get(0),
        )?;
    if kind != EventType::WebhookTest {
        super::history::record_text(tx, actor, kind.as_str(), subject_id, data, &text, Some(&id))?;
    }
    Ok((sequence, id))
}

/// A type filter: an exact type, or a `prefix.*` wildcard, or `*`.
fn type_condition(pattern: &str, params: &mut Vec<Value>) -> String {
    if pattern == "*" {
        "1".into()
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        params.push(Value::Text(prefix.to_string()));
        "substr(type, 1, length(?1)) = ?1".replace("?1", &format!("?{}", params.len()))
    } else {
        params.push(Value::Text(pattern.to_string()));
        format!("type = ?{}", params.len())
    }
}

/// Up to `limit` events after `after`, optionally of the given types, in sequence order.
pub fn list(
    conn: &Connection,
    after: i64,
    limit: usize,
    types: &[String],
) -> AppResult<Vec<Event>> {
    let mut params = vec![Value::Integer(after)];
    let type_sql = if types.is_empty() {
        String::new()
    } else {
        let any: Vec<String> = types
            .iter()
            .map(|t| type_condition(t, &mut params))
            .collect();
        format!(" AND ({})", any.join(" OR "))
    };
    params.push(Value::Integer(limit as i64));
    let sql = format!(
        "SELECT sequence, id, type, occurred_at, data, actor FROM events WHERE sequence > ?1{type_sql}
         ORDER BY sequence LIMIT ?{}",
        params.len()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(params), map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Up to `limit` events after `after`, in sequence order, as (sequence, id, type) alone:
/// what the webhook dispatch needs, without reading or parsing their data.
pub fn kinds_after(
    conn: &Connection,
    after: i64,
    limit: usize,
) -> AppResult<Vec<(i64, String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT sequence, id, type FROM events WHERE sequence > ?1 ORDER BY sequence LIMIT ?2",
    )?;
    let rows = stmt.query_map((after, limit as i64), |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// An event from `SELECT sequence, id, type, occurred_at, data, actor`.
fn map(r: &rusqlite::Row) -> rusqlite::Result<Event> {
    let data: String = r.get(4)?;
    Ok(Event {
        sequence: r.get(0)?,
        id: r.get(1)?,
        kind: r.get(2)?,
        occurred_at: r.get(3)?,
        data: serde_json::from_str(&data).unwrap_or(serde_json::Value::Null),
        actor: r
            .get::<_, Option<String>>(5)?
            .and_then(|a| serde_json::from_str(&a).ok()),
    })
}

/// One event by id.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Event>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached(
            "SELECT sequence, id, type, occurred_at, data, actor FROM events WHERE id = ?1",
        )?
        .query_row([id], map)
        .optional()?)
}

/// The last event of `subject` before sequence `before` (what it was before a change).
pub fn previous(conn: &Connection, subject: &str, before: i64) -> AppResult<Option<Event>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached(
            "SELECT sequence, id, type, occurred_at, data, actor FROM events
              WHERE subject_id = ?1 AND sequence < ?2 ORDER BY sequence DESC LIMIT 1",
        )?
        .query_row((subject, before), map)
        .optional()?)
}

/// The feed's identity.
pub fn feed_id(conn: &Connection) -> AppResult<String> {
    Ok(conn
        .prepare_cached("SELECT feed_id FROM event_feed WHERE id = 1")?
        .query_row([], |r| r.get(0))?)
}

/// Gives the feed a new identity.
pub fn set_feed_id(tx: &Tx, feed_id: &str) -> AppResult<()> {
    tx.execute("UPDATE event_feed SET feed_id = ?1 WHERE id = 1", [feed_id])?;
    Ok(())
}

/// The feed's extent: the oldest kept sequence (`None` when none is kept) and the newest
/// sequence ever issued (kept or pruned; 0 before the first event).
pub fn extent(conn: &Connection) -> AppResult<(Option<i64>, i64)> {
    Ok(conn
        .prepare_cached(
            "SELECT (SELECT MIN(sequence) FROM events),
                    COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// When the newest event occurred, if there is one.
pub fn newest_at(conn: &Connection) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT occurred_at FROM events ORDER BY sequence DESC LIMIT 1")?
        .query_row([], |r| r.get(0))
        .optional()?)
}

/// The newest sequence.
pub fn last_sequence(conn: &Connection) -> AppResult<i64> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(sequence), 0) FROM events")?
        .query_row([], |r| r.get(0))?)
}

/// The events a prune deletes, oldest first, found in the `events_by_time` index alone
/// (ordered by sequence instead, SQLite scanned every event the feed keeps).
const AGED: super::Aged = super::Aged {
    table: "events",
    key: "sequence",
    older: "occurred_at < ?1",
    order: "occurred_at, sequence",
};

/// Deletes at most `limit` of the events that occurred before `cutoff`, the oldest first;
/// returns how many.
pub fn prune(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    AGED.delete(tx, cutoff, limit)
}

#[cfg(test)]
mod tests {
    /// A prune finds what it deletes in the time index, never by reading every event kept
    /// (each maintenance pass runs it at least once, with nothing to delete most times).
    #[test]
    fn a_prune_reads_only_what_it_deletes() {
        let plan =
            crate::store::plan_of(&super::AGED.keys_sql(), ("2026-11-01T00:00:00.000Z", 5000));
        assert!(
            plan.iter()
                .any(|s| s.contains("USING COVERING INDEX events_by_time (occurred_at<?)")),
            "{plan:?}"
        );
        assert!(plan.iter().all(|s| !s.starts_with("SCAN")), "{plan:?}");
        assert!(plan.iter().all(|s| !s.contains("TEMP B-TREE")), "{plan:?}");
    }
}
