//! The writer's batches: a failing or panicking job rolls back alone, with or without a
//! savepoint.

use super::*;

/// A job that inserts `value` and rewrites the 400 KB row `big` already in the file (so its
/// savepoint must keep a copy of those pages, past the 64 KiB at which SQLite spills the
/// copy to a file by default), then succeeds or fails (or panics), reporting its outcome.
fn job(value: i64, outcome: &'static str, log: &Arc<Mutex<Vec<String>>>) -> Job {
    let log = log.clone();
    Box::new(move |conn, _| {
        conn.execute("INSERT INTO t (v) VALUES (?1)", [value])
            .unwrap();
        conn.execute(
            "UPDATE big SET last = ?1, pad = randomblob(400000)",
            [value],
        )
        .unwrap();
        if outcome == "panic" {
            panic!("job {value} panics");
        }
        let ok = outcome == "ok";
        let deliver: Deliver = Box::new(move |error| {
            log.lock().unwrap().push(format!("{value}: {ok} {error:?}"));
        });
        (ok, deliver)
    })
}

/// The last job that rewrote `big`, and whether the file is sound.
fn big(conn: &Connection) -> (i64, String) {
    let last = conn
        .query_row("SELECT last FROM big", [], |r| r.get(0))
        .unwrap();
    let check = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    (last, check)
}

fn rows(conn: &Connection) -> Vec<i64> {
    let mut stmt = conn.prepare("SELECT v FROM t ORDER BY v").unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn a_failing_job_rolls_back_alone_with_or_without_a_savepoint() {
    let dir = tempfile::tempdir().unwrap();
    let conn = Connection::open(dir.path().join("w.sqlite3")).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER);
         CREATE TABLE big (last INTEGER, pad BLOB);
         INSERT INTO big VALUES (0, randomblob(400000));",
    )
    .unwrap();
    tune(&conn).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    // Alone in its batch (no savepoint): a failure or a panic leaves nothing behind.
    run_batch(&conn, vec![job(1, "fail", &log)]);
    run_batch(&conn, vec![job(2, "panic", &log)]);
    run_batch(&conn, vec![job(3, "ok", &log)]);
    assert_eq!(rows(&conn), vec![3]);
    assert_eq!(big(&conn), (3, "ok".into()));
    // Among others (savepoints): only the failing and the panicking job are undone.
    let batch = vec![
        job(4, "ok", &log),
        job(5, "fail", &log),
        job(6, "panic", &log),
        job(7, "ok", &log),
    ];
    run_batch(&conn, batch);
    assert_eq!(rows(&conn), vec![3, 4, 7]);
    assert_eq!(big(&conn), (7, "ok".into()));
    assert!(conn.is_autocommit(), "no transaction is left open");
    let log = log.lock().unwrap().clone();
    assert_eq!(
        log,
        [
            "1: false None",
            "3: true None",
            "5: false None",
            "4: true None",
            "7: true None"
        ]
    );
}
