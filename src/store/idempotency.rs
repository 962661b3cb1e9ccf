//! Idempotency-Key records: claimed before the request runs, marked committed in the same
//! transaction as its change, completed with the response once it is known.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::error::AppResult;

/// Where a key's request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Claimed; the request is running (or its server died before committing).
    InProgress,
    /// The request's change committed; its response is not stored yet.
    Committed,
    /// The response is stored for replay.
    Complete,
}

/// A stored key.
#[derive(Debug, Clone)]
pub struct Record {
    /// Hash of method, path and body.
    pub request_hash: String,
    /// Progress.
    pub state: State,
    /// The server instance that claimed it.
    pub instance: String,
    /// Stored response status.
    pub status: Option<u16>,
    /// Stored response headers.
    pub headers: Vec<(String, String)>,
    /// Stored response body.
    pub body: Vec<u8>,
    /// When it was claimed.
    pub created_at: String,
}

/// Reads a key.
pub fn get(conn: &Connection, scope: &str, key: &str) -> AppResult<Option<Record>> {
    Ok(conn
        .prepare_cached(
            "SELECT request_hash, state, instance, status, headers, body, created_at
             FROM idempotency_keys WHERE scope = ?1 AND key = ?2",
        )?
        .query_row((scope, key), |r| {
            let state: String = r.get(1)?;
            let headers: Option<String> = r.get(4)?;
            Ok(Record {
                request_hash: r.get(0)?,
                state: match state.as_str() {
                    "complete" => State::Complete,
                    "committed" => State::Committed,
                    _ => State::InProgress,
                },
                instance: r.get(2)?,
                status: r.get(3)?,
                headers: headers
                    .and_then(|h| serde_json::from_str(&h).ok())
                    .unwrap_or_default(),
                body: r.get::<_, Option<Vec<u8>>>(5)?.unwrap_or_default(),
                created_at: r.get(6)?,
            })
        })
        .optional()?)
}

/// Claims a key for this instance, replacing any expired or abandoned record.
pub fn claim(tx: &Tx, scope: &str, key: &str, hash: &str, instance: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO idempotency_keys (scope, key, request_hash, state, instance, created_at)
         VALUES (?1, ?2, ?3, 'in_progress', ?4, ?5)",
    )?
    .execute((scope, key, hash, instance, tx.now_text()))?;
    Ok(())
}

/// Marks the key committed (runs inside the request's own write transaction).
pub fn mark_committed(conn: &Connection, scope: &str, key: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE idempotency_keys SET state = 'committed'
         WHERE scope = ?1 AND key = ?2 AND state = 'in_progress'",
    )?
    .execute((scope, key))?;
    Ok(())
}

/// Stores the response for replay.
pub fn complete(
    tx: &Tx,
    scope: &str,
    key: &str,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE idempotency_keys SET state = 'complete', status = ?3, headers = ?4, body = ?5
         WHERE scope = ?1 AND key = ?2",
    )?
    .execute((scope, key, status, serde_json::to_string(headers)?, body))?;
    Ok(())
}

/// Forgets a key whose request may be retried (it failed without a change).
pub fn release(tx: &Tx, scope: &str, key: &str) -> AppResult<()> {
    tx.prepare_cached(
        "DELETE FROM idempotency_keys WHERE scope = ?1 AND key = ?2 AND state = 'in_progress'",
    )?
    .execute((scope, key))?;
    Ok(())
}

/// Deletes at most `limit` of the keys claimed before `cutoff`; returns how many.
pub fn prune(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    super::Aged {
        table: "idempotency_keys",
        key: "rowid",
        older: "created_at < ?1",
        order: "",
    }
    .delete(tx, cutoff, limit)
}
