//! Same-run baselines straight through rusqlite, with the server's own pragmas (WAL,
//! `synchronous=FULL`): what one durable single-row transaction costs on this disk, and
//! what the API's own list queries cost without HTTP, JSON or the pool.

use std::path::Path;
use std::time::{Duration, Instant};

use innkeep::model::Date;
use innkeep::store;

use crate::load::Stats;

/// Single-row durable INSERT transactions, one after another, for `secs`.
pub fn durable_inserts(db: &Path, secs: f64) -> Stats {
    let conn = innkeep::db::open_writable(db).expect("open the database");
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS bench_baseline (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT",
    )
    .expect("scratch table");
    let body = "x".repeat(300);
    let stats = timed(secs, |_| {
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        conn.prepare_cached("INSERT INTO bench_baseline (id, body) VALUES (?1, ?2)")
            .unwrap()
            .execute((innkeep::ids::new("bch"), &body))
            .unwrap();
        conn.execute_batch("COMMIT").unwrap();
    });
    conn.execute_batch("DROP TABLE bench_baseline").unwrap();
    stats
}

/// The store's reservation list for one arrival date (what `GET /v1/reservations` runs).
pub fn arrivals(db: &Path, secs: f64, first: chrono::NaiveDate, span_days: i64) -> Stats {
    let conn = innkeep::db::open_writable(db).expect("open the database");
    timed(secs, |i| {
        let d = Date(first + chrono::Duration::days((i as i64 * 7919) % span_days));
        let filter = store::reservations::ReservationFilter {
            arrival_from: Some(d),
            arrival_to: Some(d),
            ..Default::default()
        };
        let as_of = store::page::current_as_of(&conn).unwrap();
        store::reservations::list(&conn, &filter, None, as_of, 51).unwrap();
    })
}

/// The store's guest search by name (what `GET /v1/guests?name=` runs).
pub fn guest_search(db: &Path, secs: f64, names: &[String]) -> Stats {
    let conn = innkeep::db::open_writable(db).expect("open the database");
    timed(secs, |i| {
        let filter = store::guests::GuestFilter {
            name: Some(names[(i * 7919) % names.len()].clone()),
            ..Default::default()
        };
        let as_of = store::page::current_as_of(&conn).unwrap();
        store::guests::list(&conn, &filter, None, as_of, 21).unwrap();
    })
}

/// Runs `op` back to back for `secs` on this thread.
fn timed(secs: f64, mut op: impl FnMut(usize)) -> Stats {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let start = Instant::now();
    let mut latencies = Vec::new();
    let mut i = 0;
    while Instant::now() < deadline {
        let t = Instant::now();
        op(i);
        latencies.push(t.elapsed());
        i += 1;
    }
    Stats::new(latencies, start.elapsed(), 0)
}
