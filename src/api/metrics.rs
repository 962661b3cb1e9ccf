//! `GET /metrics`: Prometheus text for monitoring (needs the `admin` scope).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use poem::web::Data;
use poem::{Response, handler};

use crate::db::Db;

/// Counters the edge updates on every request.
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    by_class: [AtomicU64; 5],
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            started: Instant::now(),
            by_class: Default::default(),
        }
    }
}

impl Metrics {
    /// Counts an answered request.
    pub fn record(&self, status: u16) {
        let class = (status / 100).clamp(1, 5) as usize - 1;
        self.by_class[class].fetch_add(1, Ordering::Relaxed);
    }
}

/// The Prometheus exposition.
#[handler]
pub async fn metrics(m: Data<&std::sync::Arc<Metrics>>, db: Data<&Db>) -> Response {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# HELP innkeep_http_requests_total HTTP requests answered, by status class."
    );
    let _ = writeln!(out, "# TYPE innkeep_http_requests_total counter");
    for (i, c) in m.by_class.iter().enumerate() {
        let _ = writeln!(
            out,
            "innkeep_http_requests_total{{class=\"{}xx\"}} {}",
            i + 1,
            c.load(Ordering::Relaxed)
        );
    }
    let _ = writeln!(
        out,
        "# HELP innkeep_uptime_seconds Seconds since the server started."
    );
    let _ = writeln!(out, "# TYPE innkeep_uptime_seconds gauge");
    let _ = writeln!(
        out,
        "innkeep_uptime_seconds {}",
        m.started.elapsed().as_secs()
    );
    let stats = db
        .read(|c| {
            let last: i64 =
                c.query_row("SELECT COALESCE(MAX(sequence), 0) FROM events", [], |r| {
                    r.get(0)
                })?;
            let mut stmt =
                c.prepare_cached("SELECT status, COUNT(*) FROM reservations GROUP BY status")?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
            Ok((last, rows.collect::<Result<Vec<_>, _>>()?))
        })
        .await;
    if let Ok((last, by_status)) = stats {
        let _ = writeln!(
            out,
            "# HELP innkeep_events_last_sequence Sequence of the newest event."
        );
        let _ = writeln!(out, "# TYPE innkeep_events_last_sequence counter");
        let _ = writeln!(out, "innkeep_events_last_sequence {last}");
        let _ = writeln!(out, "# HELP innkeep_reservations Reservations by status.");
        let _ = writeln!(out, "# TYPE innkeep_reservations gauge");
        for (status, n) in by_status {
            let _ = writeln!(out, "innkeep_reservations{{status=\"{status}\"}} {n}");
        }
    }
    Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(out)
}
