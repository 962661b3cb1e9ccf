//! The database's part of a backup: a consistent copy of the live database taken through
//! SQLite's backup API in steps, from one read transaction (so every step sees the same
//! moment while the server keeps writing), with each table's row count at that moment; and
//! the check of a copy: `integrity_check` and the same counts.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags, OptionalExtension};

/// What a snapshot holds.
pub struct Snapshot {
    /// Its schema version.
    pub schema_version: i64,
    /// Rows per table.
    pub rows: BTreeMap<String, i64>,
    /// The last invoice number in it.
    pub last_invoice: Option<String>,
}

fn sql(e: rusqlite::Error) -> String {
    format!("the database could not be read: {e}")
}

/// Every table's row count, the schema version and the last invoice, as `conn` sees them.
fn describe(conn: &Connection) -> Result<Snapshot, String> {
    let names: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
              ORDER BY name",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(sql)?;
    let mut rows = BTreeMap::new();
    for name in names {
        let n: i64 = conn
            .query_row(
                &format!("SELECT count(*) FROM \"{}\"", name.replace('"', "\"\"")),
                [],
                |r| r.get(0),
            )
            .map_err(sql)?;
        rows.insert(name, n);
    }
    let schema_version = crate::db::migration_status(conn)
        .map_err(|e| e.operator_message())?
        .applied;
    let last_invoice = conn
        .query_row(
            "SELECT number FROM invoices ORDER BY rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql)?;
    Ok(Snapshot {
        schema_version,
        rows,
        last_invoice,
    })
}

/// Copies the database at `from` to `to`, reporting (pages copied, pages in all).
pub fn take(
    from: &Path,
    to: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Snapshot, String> {
    if !from.exists() {
        return Err(format!(
            "there is no database at {}; check --data-dir (or the data_dir setting)",
            from.display()
        ));
    }
    let src = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(sql)?;
    src.busy_timeout(Duration::from_secs(10)).map_err(sql)?;
    // One read transaction for the counts and every step of the copy: one moment.
    src.execute_batch("BEGIN").map_err(sql)?;
    let shot = describe(&src)?;
    let mut dst = Connection::open(to).map_err(sql)?;
    {
        let backup = Backup::new(&src, &mut dst).map_err(sql)?;
        loop {
            match backup.step(1024).map_err(sql)? {
                StepResult::Done => break,
                StepResult::More => {}
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
            let p = backup.progress();
            progress((p.pagecount - p.remaining) as u64, p.pagecount as u64);
        }
        let p = backup.progress();
        progress(p.pagecount as u64, p.pagecount as u64);
    }
    src.execute_batch("COMMIT").map_err(sql)?;
    dst.execute_batch("PRAGMA journal_mode = DELETE")
        .map_err(sql)?;
    drop(dst);
    Ok(shot)
}

/// Checks a copy: SQLite's `integrity_check`, then its description.
pub fn check(path: &Path) -> Result<Snapshot, String> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(sql)?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("the database in the backup is damaged: {e}"))?;
    if verdict != "ok" {
        return Err(format!("the database in the backup is damaged: {verdict}"));
    }
    describe(&conn)
}
