//! The process-wide savepoint setting `innkeep` runs with ([`innkeep::db::before_any_connection`])
//! must never fail a large statement. SQLite writes an in-memory savepoint copy out in one
//! write when it spills, and its unix file layer writes at most 128 KiB less one byte at a
//! time: with a larger bound (4 MiB was tried) an UPDATE of a few hundred thousand rows
//! inside a transaction failed with "database or disk is full". This test runs in its own
//! process (its own test target), so it can set the bound before SQLite is first used, as
//! `main` does.

use rusqlite::Connection;

#[test]
fn a_statement_larger_than_the_in_memory_bound_spills_and_succeeds() {
    assert!(
        innkeep::db::before_any_connection(),
        "SQLite was used before the test set it up"
    );
    let dir = tempfile::tempdir().unwrap();
    let conn = Connection::open(dir.path().join("spill.sqlite3")).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.execute_batch(
        "CREATE TABLE t (id TEXT PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL);
         CREATE INDEX t_a ON t (a, id);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
         INSERT INTO t SELECT printf('res_%020d', i), printf('%010d', (i * 7919) % 1000003),
                              hex(randomblob(16)) FROM n;",
    )
    .unwrap();
    // Two statements in one transaction, each rewriting pages the transaction already
    // holds: the second one's savepoint copy runs to megabytes.
    conn.execute_batch(
        "BEGIN;
         UPDATE t SET b = 'x' WHERE rowid % 2 = 0;
         UPDATE t SET b = hex(randomblob(16));
         COMMIT;",
    )
    .unwrap();
    let changed: i64 = conn
        .query_row("SELECT count(*) FROM t WHERE b != 'x'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(changed, 200_000);
}
