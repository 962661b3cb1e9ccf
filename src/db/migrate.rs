//! Schema migrations, embedded from `migrations/` with refinery.
//!
//! Before migrating, the applied version is compared with the newest this binary knows: a
//! database touched by a newer innkeep is refused rather than half-understood.

use rusqlite::Connection;

use crate::error::{AppError, AppResult, Kind};

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = 49;

/// Applied versus known schema versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MigrationStatus {
    /// The highest applied migration (0 for a new database).
    pub applied: i64,
    /// The highest migration this binary carries.
    pub known: i64,
}

/// Reads the applied schema version without changing anything.
pub fn status(conn: &Connection) -> AppResult<MigrationStatus> {
    let has_table: bool = conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type='table' AND name='refinery_schema_history')",
        [],
        |r| r.get(0),
    )?;
    let applied = if has_table {
        conn.query_row(
            "SELECT COALESCE(MAX(version), 0) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )?
    } else {
        0
    };
    Ok(MigrationStatus {
        applied,
        known: SCHEMA_VERSION,
    })
}

/// Applies pending migrations; refuses a database from a newer innkeep.
pub fn migrate(conn: &mut Connection) -> AppResult<MigrationStatus> {
    // Migrations may call innkeep's own SQL functions, whoever opened the connection.
    super::functions(conn)?;
    let before = status(conn)?;
    if before.applied > SCHEMA_VERSION {
        return Err(AppError::new(
            Kind::Internal,
            "schema_too_new",
            format!(
                "This database was migrated by a newer innkeep (schema version {}, this binary \
                 knows up to {}). Install that newer innkeep, or restore a backup made by this one.",
                before.applied, SCHEMA_VERSION
            ),
        ));
    }
    embedded::migrations::runner().run(conn).map_err(|e| {
        AppError::new(
            Kind::Internal,
            "migration_failed",
            format!(
                "The database could not be migrated: {e}. If it was made by another build of \
                 innkeep, use that build or restore a backup."
            ),
        )
    })?;
    status(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_migrations_match_schema_version() {
        let runner = embedded::migrations::runner();
        let newest = runner
            .get_migrations()
            .iter()
            .map(|m| i64::from(m.version()))
            .max();
        assert_eq!(newest, Some(SCHEMA_VERSION));
    }
}
