//! `innkeep-hub status`: per property, where the hub stands and how fresh that is, read
//! from the `properties` table (so it works while `serve` runs elsewhere).

use serde::Serialize;
use tokio_postgres::Client;

use crate::store::said;

/// One property's line of the status.
#[derive(Debug, Serialize)]
pub struct PropertyStatus {
    /// The property's name.
    pub name: String,
    /// `pull` or `push`.
    pub mode: String,
    /// Whether the configuration still names it.
    pub configured: bool,
    /// The feed the position belongs to (none before the first synchronisation).
    pub feed_id: Option<String>,
    /// The last sequence ingested.
    pub position: Option<i64>,
    /// Seconds since the hub last held every event the property had (none: never).
    pub lag_seconds: Option<i64>,
    /// When the property last answered.
    pub last_contact_at: Option<String>,
    /// The last failure, cleared by the next success.
    pub last_error: Option<String>,
    /// When that failure happened.
    pub last_error_at: Option<String>,
    /// Re-synchronisations so far, the last one's time and reason.
    pub resyncs: i32,
    /// When the last re-synchronisation happened.
    pub last_resync_at: Option<String>,
    /// Why.
    pub last_resync_reason: Option<String>,
    /// Events ingested in all.
    pub events_ingested: i64,
}

/// Every property the hub has a row for.
pub async fn read(client: &Client, configured: &[String]) -> Result<Vec<PropertyStatus>, String> {
    let rows = client
        .query(
            "SELECT name, mode, feed_id, position,
                    extract(epoch FROM now() - caught_up_at)::bigint,
                    to_char(last_contact_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    last_error,
                    to_char(last_error_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    resyncs,
                    to_char(last_resync_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    last_resync_reason, events_ingested
             FROM properties ORDER BY name",
            &[],
        )
        .await
        .map_err(said)?;
    Ok(rows
        .iter()
        .map(|r| {
            let name: String = r.get(0);
            PropertyStatus {
                configured: configured.contains(&name),
                name,
                mode: r.get(1),
                feed_id: r.get(2),
                position: r.get(3),
                lag_seconds: r.get(4),
                last_contact_at: r.get(5),
                last_error: r.get(6),
                last_error_at: r.get(7),
                resyncs: r.get(8),
                last_resync_at: r.get(9),
                last_resync_reason: r.get(10),
                events_ingested: r.get(11),
            }
        })
        .collect())
}

/// The status as text for a person.
pub fn render(all: &[PropertyStatus]) -> String {
    if all.is_empty() {
        return "No properties yet: add [[property]] sections to the configuration and start `innkeep-hub serve`.\n".into();
    }
    let mut out = String::new();
    for s in all {
        let place = match (&s.feed_id, s.position) {
            (Some(f), Some(p)) => format!("at event {p} of feed {f}"),
            _ => "not synchronised yet".into(),
        };
        let lag = match s.lag_seconds {
            Some(n) => format!("held every event {n} s ago"),
            None => "never up to date".into(),
        };
        out.push_str(&format!(
            "{} ({}{}): {place}, {lag}; {} events ingested\n",
            s.name,
            s.mode,
            if s.configured {
                ""
            } else {
                ", no longer in the configuration"
            },
            s.events_ingested
        ));
        out.push_str(&format!(
            "    last contact: {}\n",
            s.last_contact_at.as_deref().unwrap_or("never")
        ));
        if let Some(e) = &s.last_error {
            out.push_str(&format!(
                "    last error ({}): {e}\n",
                s.last_error_at.as_deref().unwrap_or("")
            ));
        }
        if s.resyncs > 0 {
            out.push_str(&format!(
                "    re-synchronised {} time(s), last at {}: {}\n",
                s.resyncs,
                s.last_resync_at.as_deref().unwrap_or(""),
                s.last_resync_reason.as_deref().unwrap_or("")
            ));
        }
    }
    out
}
