//! What the crash loop checks in the database file after each SIGKILL, with the server
//! dead: acknowledged writes, gapless invoice numbers, events and webhook jobs against the
//! business rows, and SQLite's own integrity check.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::Connection;

/// Writes that got a 2xx answer.
#[derive(Default)]
pub struct Acked {
    pub guests: Vec<String>,
    pub reservations: Vec<String>,
    pub checked_in: Vec<String>,
    /// (reservation, invoice id, invoice number)
    pub checked_out: Vec<(String, String, String)>,
    pub cancelled: Vec<String>,
}

fn strings(conn: &Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn pairs(conn: &Connection, sql: &str) -> HashMap<String, String> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn count(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Checks the database at `db` against what was acknowledged; panics on the first breach.
/// Returns a one-line summary of what it found.
pub fn verify(db: &Path, acked: &Acked, webhook: &str) -> String {
    let conn = Connection::open(db).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    assert_eq!(
        count(&conn, "SELECT count(*) FROM pragma_foreign_key_check"),
        0
    );
    acknowledged_writes_survive(&conn, acked);
    invoice_numbers_are_gapless(&conn);
    events_match_the_rows(&conn);
    jobs_match_the_events(&conn, webhook);
    messages_match_the_bookings(&conn);
    format!(
        "{} invoices, {} events, {} jobs ({} done), {} messages ({} sent), dispatch cursor {}",
        count(&conn, "SELECT count(*) FROM invoices"),
        count(&conn, "SELECT count(*) FROM events"),
        count(&conn, "SELECT count(*) FROM jobs"),
        count(&conn, "SELECT count(*) FROM jobs WHERE status = 'done'"),
        count(&conn, "SELECT count(*) FROM messages"),
        count(&conn, "SELECT count(*) FROM messages WHERE status = 'sent'"),
        count(&conn, "SELECT sequence FROM dispatch_cursor"),
    )
}

fn acknowledged_writes_survive(conn: &Connection, acked: &Acked) {
    let guests: HashSet<String> = strings(conn, "SELECT id FROM guests").into_iter().collect();
    for g in &acked.guests {
        assert!(guests.contains(g), "acknowledged guest {g} is missing");
    }
    let status = pairs(conn, "SELECT id, status FROM reservations");
    let status_of = |r: &str| {
        status
            .get(r)
            .unwrap_or_else(|| panic!("acknowledged reservation {r} is missing"))
            .as_str()
    };
    for r in &acked.reservations {
        status_of(r);
    }
    for r in &acked.checked_in {
        let s = status_of(r);
        assert!(
            s == "checked_in" || s == "checked_out",
            "{r} checked in, now {s}"
        );
    }
    for r in &acked.cancelled {
        assert_eq!(status_of(r), "cancelled", "{r}");
    }
    let invoices = pairs(conn, "SELECT id, number FROM invoices");
    let billed = pairs(conn, "SELECT id, reservation_id FROM invoices");
    for (r, inv, number) in &acked.checked_out {
        assert_eq!(status_of(r), "checked_out", "{r}");
        assert_eq!(
            invoices.get(inv),
            Some(number),
            "acknowledged invoice {inv}"
        );
        assert_eq!(billed.get(inv), Some(r), "invoice {inv} bills {r}");
    }
}

fn invoice_numbers_are_gapless(conn: &Connection) {
    let mut stmt = conn
        .prepare("SELECT series, seq FROM invoices ORDER BY series, seq")
        .unwrap();
    let mut by_series: HashMap<String, Vec<i64>> = HashMap::new();
    for row in stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .unwrap()
    {
        let (series, seq) = row.unwrap();
        by_series.entry(series).or_default().push(seq);
    }
    for (series, seqs) in &by_series {
        let expected: Vec<i64> = (1..=seqs.len() as i64).collect();
        assert_eq!(seqs, &expected, "series {series} has a gap or a repeat");
        let last: i64 = conn
            .query_row(
                "SELECT last_seq FROM invoice_series WHERE series = ?1",
                [series],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            last,
            seqs.len() as i64,
            "series {series}: counter and invoices"
        );
    }
}

/// Each business row has exactly the events its state implies, and each event names a row
/// that exists: both are written in one transaction, so neither can exist alone.
fn events_match_the_rows(conn: &Connection) {
    let rules = [
        ("guest.created", "SELECT id FROM guests"),
        ("reservation.created", "SELECT id FROM reservations"),
        (
            "reservation.checked_in",
            "SELECT id FROM reservations WHERE status IN ('checked_in', 'checked_out')",
        ),
        (
            "reservation.checked_out",
            "SELECT id FROM reservations WHERE status = 'checked_out'",
        ),
        (
            "reservation.cancelled",
            "SELECT id FROM reservations WHERE status = 'cancelled'",
        ),
        ("invoice.created", "SELECT id FROM invoices"),
    ];
    for (event, rows) in rules {
        let mut subjects = strings(
            conn,
            &format!("SELECT subject_id FROM events WHERE type = '{event}'"),
        );
        let mut expected = strings(conn, rows);
        subjects.sort();
        expected.sort();
        assert_eq!(subjects, expected, "{event} events against their rows");
    }
}

/// Every event the dispatcher has passed has exactly one delivery job for the endpoint (it
/// listens to `*`), none beyond it has one, and every finished job has its log row.
fn jobs_match_the_events(conn: &Connection, webhook: &str) {
    let cursor = count(conn, "SELECT sequence FROM dispatch_cursor");
    let mut jobs: HashMap<String, i64> = HashMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT json_extract(payload, '$.event_id') FROM jobs
             WHERE kind = 'webhook' AND subject_id = ?1",
        )
        .unwrap();
    for event in stmt
        .query_map([webhook], |r| r.get::<_, String>(0))
        .unwrap()
    {
        *jobs.entry(event.unwrap()).or_default() += 1;
    }
    let mut stmt = conn
        .prepare("SELECT sequence, id FROM events ORDER BY sequence")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .unwrap();
    for row in rows {
        let (sequence, event) = row.unwrap();
        let want = i64::from(sequence <= cursor);
        assert_eq!(
            jobs.get(&event).copied().unwrap_or(0),
            want,
            "event {event} (sequence {sequence}, cursor {cursor})"
        );
    }
    let unlogged = count(
        conn,
        "SELECT count(*) FROM jobs WHERE kind = 'webhook' AND status = 'done' AND id NOT IN
             (SELECT job_id FROM webhook_deliveries WHERE status = 'succeeded')",
    );
    assert_eq!(unlogged, 0, "finished deliveries without a log row");
    let orphans = count(
        conn,
        "SELECT count(*) FROM jobs WHERE kind = 'webhook'
             AND json_extract(payload, '$.event_id') NOT IN (SELECT id FROM events)",
    );
    assert_eq!(orphans, 0, "delivery jobs for events that do not exist");
}

/// Every booking whose guest has an address has its confirmation in the outbox (made in the
/// booking's transaction), one only, each with its mail job.
fn messages_match_the_bookings(conn: &Connection) {
    let missing = count(
        conn,
        "SELECT count(*) FROM reservations r JOIN guests g ON g.id = r.primary_guest_id
          WHERE g.email IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m
                WHERE m.reservation_id = r.id AND m.kind = 'confirmation')",
    );
    assert_eq!(missing, 0, "bookings without their confirmation");
    let twice = count(
        conn,
        "SELECT count(*) FROM (SELECT 1 FROM messages GROUP BY reservation_id, kind
          HAVING count(*) > 1)",
    );
    assert_eq!(twice, 0, "a change with two messages");
    let unqueued = count(
        conn,
        "SELECT count(*) FROM messages m WHERE NOT EXISTS
             (SELECT 1 FROM jobs j WHERE j.kind = 'mail' AND j.subject_id = m.id)",
    );
    assert_eq!(unqueued, 0, "messages without a mail job");
}
