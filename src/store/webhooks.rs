//! Webhook endpoints and delivery attempts. List orders: creation, then id.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::AppResult;
use crate::model::{Delivery, Instant, Webhook};

/// An endpoint with what only the server sees.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The public view.
    pub webhook: Webhook,
    /// The current signing secret.
    pub secret: String,
    /// The previous secret, while it still signs.
    pub previous_secret: Option<String>,
    /// The first failure of the current streak.
    pub failing_since: Option<String>,
}

fn map(r: &Row) -> rusqlite::Result<Endpoint> {
    let events: String = r.get("events")?;
    Ok(Endpoint {
        webhook: Webhook {
            id: r.get("id")?,
            url: r.get("url")?,
            events: serde_json::from_str(&events).unwrap_or_default(),
            description: r.get("description")?,
            enabled: r.get::<_, i64>("enabled")? == 1,
            disabled_reason: r.get("disabled_reason")?,
            previous_secret_until: r.get::<_, Option<String>>("previous_until")?.map(Instant),
            version: r.get("version")?,
            created_at: r.get("created_at")?,
            updated_at: r.get("updated_at")?,
        },
        secret: r.get("secret")?,
        previous_secret: r.get("previous_secret")?,
        failing_since: r.get("failing_since")?,
    })
}

/// One endpoint.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Endpoint>> {
    Ok(conn
        .prepare_cached("SELECT * FROM webhooks WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// Every enabled endpoint.
pub fn enabled(conn: &Connection) -> AppResult<Vec<Endpoint>> {
    let mut stmt =
        conn.prepare_cached("SELECT * FROM webhooks WHERE enabled = 1 ORDER BY created_at, id")?;
    let rows = stmt.query_map([], map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Every endpoint.
pub fn all(conn: &Connection) -> AppResult<Vec<Endpoint>> {
    let mut stmt = conn.prepare_cached("SELECT * FROM webhooks ORDER BY created_at, id")?;
    let rows = stmt.query_map([], map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Inserts or replaces an endpoint.
pub fn save(tx: &Tx, e: &Endpoint) -> AppResult<()> {
    let w = &e.webhook;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO webhooks (id, url, events, description, enabled, secret, previous_secret,
             previous_until, disabled_reason, failing_since, version, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(rusqlite::params![
        &w.id,
        &w.url,
        serde_json::to_string(&w.events)?,
        &w.description,
        i64::from(w.enabled),
        &e.secret,
        &e.previous_secret,
        w.previous_secret_until.as_ref().map(|t| &t.0),
        &w.disabled_reason,
        &e.failing_since,
        w.version,
        &w.created_at.0,
        &w.updated_at.0,
    ])?;
    Ok(())
}

/// Deletes an endpoint and its delivery log; returns whether it existed.
pub fn delete(tx: &Tx, id: &str) -> AppResult<bool> {
    tx.prepare_cached("DELETE FROM webhook_deliveries WHERE webhook_id = ?1")?
        .execute([id])?;
    Ok(tx
        .prepare_cached("DELETE FROM webhooks WHERE id = ?1")?
        .execute([id])?
        == 1)
}

/// Records a delivery attempt.
pub fn insert_delivery(tx: &Tx, webhook_id: &str, job_id: i64, d: &Delivery) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, job_id, attempt, status,
             response_status, duration_ms, error, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(rusqlite::params![
        &d.id,
        webhook_id,
        &d.event_id,
        &d.event_type,
        job_id,
        d.attempt,
        &d.status,
        d.response_status,
        d.duration_ms,
        &d.error,
        d.next_attempt_at.as_ref().map(|t| &t.0),
        &d.created_at.0,
    ])?;
    Ok(())
}

fn map_delivery(r: &Row) -> rusqlite::Result<Delivery> {
    Ok(Delivery {
        id: r.get("id")?,
        event_id: r.get("event_id")?,
        event_type: r.get("event_type")?,
        attempt: r.get("attempt")?,
        status: r.get("status")?,
        response_status: r.get("response_status")?,
        duration_ms: r.get("duration_ms")?,
        error: r.get("error")?,
        next_attempt_at: r.get::<_, Option<String>>("next_attempt_at")?.map(Instant),
        created_at: r.get("created_at")?,
    })
}

/// One delivery attempt of an endpoint.
pub fn get_delivery(conn: &Connection, webhook_id: &str, id: &str) -> AppResult<Option<Delivery>> {
    Ok(conn
        .prepare_cached("SELECT * FROM webhook_deliveries WHERE webhook_id = ?1 AND id = ?2")?
        .query_row((webhook_id, id), map_delivery)
        .optional()?)
}

/// A page of an endpoint's delivery log, oldest first, optionally of some statuses.
pub fn deliveries(
    conn: &Connection,
    webhook_id: &str,
    statuses: &[String],
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Delivery, Position)>> {
    let mut q = ListQuery::new("delivery", "webhook_deliveries", "created_at");
    q.filter("t.webhook_id = ?", [Value::Text(webhook_id.to_string())]);
    if !statuses.is_empty() {
        q.filter(
            format!("t.status IN ({})", vec!["?"; statuses.len()].join(", ")),
            statuses.iter().map(|s| Value::Text(s.clone())),
        );
    }
    page::fetch(conn, &q, after, as_of, limit, map_delivery)
}

/// A page of endpoints.
pub fn list(
    conn: &Connection,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Webhook, Position)>> {
    let q = ListQuery::new("webhook", "webhooks", "created_at");
    page::fetch(conn, &q, after, as_of, limit, |r| map(r).map(|e| e.webhook))
}

/// Delivery attempts by status.
pub fn delivery_counts(conn: &Connection) -> AppResult<Vec<(String, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT status, COUNT(*) FROM webhook_deliveries GROUP BY status ORDER BY status",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Deletes at most `limit` of the delivery log rows written before `cutoff` (their events
/// are gone too); returns how many.
pub fn prune_deliveries(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    super::Aged {
        table: "webhook_deliveries",
        key: "rowid",
        older: "created_at < ?1",
        order: "",
    }
    .delete(tx, cutoff, limit)
}
