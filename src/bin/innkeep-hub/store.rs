//! The hub's PostgreSQL side: connecting, migrating (refinery, `migrations/`), and the
//! transactions that move a property's position. Each batch of events and the position it
//! leads to commit together (`hub_ingest`), so a hub killed at any moment neither loses nor
//! repeats an event; a resynchronisation replaces a property's records and position in one
//! transaction, so readers never see half of one.

use serde_json::Value;
use tokio_postgres::{Client, NoTls, Transaction};

use crate::config::{Config, Property};

mod embedded {
    refinery::embed_migrations!("src/bin/innkeep-hub/migrations");
}

/// Where a property stands in its feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The feed the position belongs to.
    pub feed_id: String,
    /// The last sequence ingested.
    pub sequence: i64,
}

/// A PostgreSQL error as one line.
pub fn said(e: tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("PostgreSQL: {}", db.message()),
        None => format!("PostgreSQL: {e}"),
    }
}

/// Opens a connection (its driver runs on the runtime until the client is dropped).
pub async fn connect(url: &str) -> Result<Client, String> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| format!("cannot connect to PostgreSQL ({url}): {}", said(e)))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "PostgreSQL connection ended");
        }
    });
    Ok(client)
}

/// Applies the hub's migrations; returns the versions applied now.
pub async fn migrate(client: &mut Client) -> Result<Vec<i32>, String> {
    let report = embedded::migrations::runner()
        .run_async(client)
        .await
        .map_err(|e| format!("migrating the hub's schema failed: {e}"))?;
    Ok(report
        .applied_migrations()
        .iter()
        .map(|m| m.version())
        .collect())
}

/// Makes sure every configured property has its row (and its mode is current).
pub async fn register(client: &Client, config: &Config) -> Result<(), String> {
    for p in &config.properties {
        client
            .execute(
                "INSERT INTO properties (name, mode) VALUES ($1, $2)
                 ON CONFLICT (name) DO UPDATE SET mode = EXCLUDED.mode",
                &[&p.name, &p.mode.as_str()],
            )
            .await
            .map_err(said)?;
    }
    Ok(())
}

/// The property's position, if it has one (none: never synchronised).
pub async fn position(client: &Client, name: &str) -> Result<Option<Position>, String> {
    let row = client
        .query_opt(
            "SELECT feed_id, position FROM properties WHERE name = $1",
            &[&name],
        )
        .await
        .map_err(said)?;
    Ok(row.and_then(|r| {
        Some(Position {
            feed_id: r.get::<_, Option<String>>(0)?,
            sequence: r.get::<_, Option<i64>>(1)?,
        })
    }))
}

/// The outcome of offering a batch.
pub enum Ingested {
    /// Applied: the new position.
    At(i64),
    /// The hub stands elsewhere (another writer moved it): nothing applied.
    Elsewhere(Option<Position>),
}

/// Records and applies `events` (a JSON array) for `name` if it stands at `at`; marks it
/// caught up when `caught_up`; replaces its rooms when `rooms` (a JSON array) is given.
/// One transaction.
pub async fn ingest(
    client: &mut Client,
    name: &str,
    at: &Position,
    events: &Value,
    caught_up: bool,
    rooms: Option<&Value>,
) -> Result<Ingested, String> {
    let tx = client.transaction().await.map_err(said)?;
    let row = tx
        .query_opt(
            "SELECT feed_id, position FROM properties WHERE name = $1 FOR UPDATE",
            &[&name],
        )
        .await
        .map_err(said)?
        .ok_or_else(|| format!("{name} is not a property of this hub"))?;
    let (feed, pos): (Option<String>, Option<i64>) = (row.get(0), row.get(1));
    if feed.as_deref() != Some(&at.feed_id) || pos != Some(at.sequence) {
        let held = feed
            .zip(pos)
            .map(|(feed_id, sequence)| Position { feed_id, sequence });
        return Ok(Ingested::Elsewhere(held));
    }
    let last: i64 = tx
        .query_one(
            "SELECT hub_ingest($1, $2, $3, $4)",
            &[&name, &at.feed_id, &at.sequence, events],
        )
        .await
        .map_err(said)?
        .get(0);
    if let Some(rooms) = rooms {
        replace_rooms(&tx, name, rooms).await?;
    }
    contact(&tx, name, caught_up).await?;
    tx.commit().await.map_err(said)?;
    Ok(Ingested::At(last))
}

/// Replaces the property's rooms with `rooms` (a JSON array, as `GET /v1/rooms` lists
/// them) in `tx`: rooms have no events, so the hub takes the whole list now and then.
pub async fn replace_rooms(tx: &Transaction<'_>, name: &str, rooms: &Value) -> Result<(), String> {
    tx.execute("DELETE FROM rooms WHERE property = $1", &[&name])
        .await
        .map_err(said)?;
    tx.execute(put_page("/v1/rooms"), &[&name, rooms])
        .await
        .map_err(said)?;
    tx.execute(
        "UPDATE properties SET rooms_refreshed_at = now() WHERE name = $1",
        &[&name],
    )
    .await
    .map_err(said)?;
    Ok(())
}

/// Notes a successful contact (and, when caught up, that the hub held every event).
async fn contact(tx: &Transaction<'_>, name: &str, caught_up: bool) -> Result<(), String> {
    tx.execute(
        "UPDATE properties SET last_contact_at = now(), last_error = NULL,
             caught_up_at = CASE WHEN $2 THEN now() ELSE caught_up_at END
         WHERE name = $1",
        &[&name, &caught_up],
    )
    .await
    .map_err(said)?;
    Ok(())
}

/// Notes a successful contact that brought nothing new.
pub async fn idle(client: &mut Client, name: &str) -> Result<(), String> {
    let tx = client.transaction().await.map_err(said)?;
    contact(&tx, name, true).await?;
    tx.commit().await.map_err(said)
}

/// Notes a failure (the position does not move).
pub async fn failed(client: &Client, name: &str, error: &str) -> Result<(), String> {
    client
        .execute(
            "UPDATE properties SET last_error = $2, last_error_at = now() WHERE name = $1",
            &[&name, &error],
        )
        .await
        .map_err(said)?;
    Ok(())
}

/// The statement that writes one page of a list (a JSON array) for a property: `$1` the
/// property, `$2` the page.
pub fn put_page(list: &str) -> &'static str {
    match list {
        "/v1/guests" => "SELECT count(hub_put_guest($1, value)) FROM jsonb_array_elements($2)",
        "/v1/reservations" => {
            "SELECT count(hub_put_reservation($1, value)) FROM jsonb_array_elements($2)"
        }
        "/v1/invoices" => "SELECT count(hub_put_invoice($1, value)) FROM jsonb_array_elements($2)",
        _ => "SELECT count(hub_put_room($1, value)) FROM jsonb_array_elements($2)",
    }
}

/// The lists a resynchronisation reads, each replacing the property's records of a table.
pub const LISTS: [(&str, &str); 4] = [
    ("/v1/rooms", "rooms"),
    ("/v1/guests", "guests"),
    ("/v1/reservations", "reservations"),
    ("/v1/invoices", "invoices"),
];

/// Starts a resynchronisation of `p`: its records are removed in `tx` (the caller writes
/// them again from the lists and then calls [`finish_resync`]).
pub async fn begin_resync(tx: &Transaction<'_>, p: &Property) -> Result<(), String> {
    tx.query_opt(
        "SELECT 1 FROM properties WHERE name = $1 FOR UPDATE",
        &[&p.name],
    )
    .await
    .map_err(said)?;
    for (_, table) in LISTS.iter().rev() {
        tx.execute(
            &format!("DELETE FROM {table} WHERE property = $1"),
            &[&p.name],
        )
        .await
        .map_err(said)?;
    }
    Ok(())
}

/// Ends a resynchronisation: the property now stands at `head`; `reason` is kept for the
/// status.
pub async fn finish_resync(
    tx: &Transaction<'_>,
    name: &str,
    head: &Position,
    reason: &str,
) -> Result<(), String> {
    tx.execute(
        "UPDATE properties SET feed_id = $2, position = $3, resyncs = resyncs + 1,
             last_resync_at = now(), last_resync_reason = $4, rooms_refreshed_at = now()
         WHERE name = $1",
        &[&name, &head.feed_id, &head.sequence, &reason],
    )
    .await
    .map_err(said)?;
    contact(tx, name, false).await
}
