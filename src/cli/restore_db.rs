//! `innkeep restore BACKUP --database FILE`: the database comes from continuous replication
//! (a file `litestream restore` wrote, newer than the backup) and everything the replica
//! does not carry (signing keys, configuration, certificates) from the last backup file.
//! The database is checked before anything changes: it must be whole (`integrity_check`)
//! and of a schema this innkeep knows.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::db::{DB_FILE, SCHEMA_VERSION, migration_status};

/// What a replicated database holds, for the restore's summary.
#[derive(Debug)]
pub struct Replica {
    /// The newest event's sequence.
    pub newest_event: i64,
    /// When it happened (the last write the replica carries).
    pub newest_at: Option<String>,
    /// Invoices in it.
    pub invoices: i64,
}

/// Opens `path` read-only and checks it; what it holds.
pub fn check(path: &Path) -> Result<Replica, String> {
    if !path.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("{} cannot be opened as a database: {e}", path.display()))?;
    let said = |e: rusqlite::Error| format!("{} cannot be read as a database: {e}", path.display());
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(said)?;
    if integrity != "ok" {
        return Err(format!(
            "{} is damaged (SQLite's integrity check says: {integrity}); restore it again from the replica",
            path.display()
        ));
    }
    let status = migration_status(&conn).map_err(|e| e.operator_message())?;
    if status.applied == 0 {
        return Err(format!("{} is not an innkeep database", path.display()));
    }
    if status.applied > SCHEMA_VERSION {
        return Err(format!(
            "{} was written by a newer innkeep (schema {}, this one knows up to {SCHEMA_VERSION}); restore it with that version",
            path.display(),
            status.applied
        ));
    }
    let (newest_event, newest_at) = conn
        .query_row(
            "SELECT coalesce(max(sequence), 0), max(occurred_at) FROM events",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(said)?;
    let invoices = conn
        .query_row("SELECT count(*) FROM invoices", [], |r| r.get(0))
        .map_err(said)?;
    Ok(Replica {
        newest_event,
        newest_at,
        invoices,
    })
}

/// Puts a copy of `path` in the unpacked backup in `staging`, in place of the backup's
/// database (and any WAL beside it).
pub fn put(staging: &Path, path: &Path) -> Result<(), String> {
    let target = staging.join(DB_FILE);
    for suffix in ["-wal", "-shm"] {
        let side = staging.join(format!("{DB_FILE}{suffix}"));
        if side.exists() {
            std::fs::remove_file(&side)
                .map_err(|e| format!("cannot remove {}: {e}", side.display()))?;
        }
    }
    std::fs::copy(path, &target)
        .map_err(|e| format!("cannot copy {} into place: {e}", path.display()))?;
    std::fs::File::open(&target)
        .and_then(|f| f.sync_all())
        .map_err(|e| format!("cannot write {} to disk: {e}", target.display()))
}
