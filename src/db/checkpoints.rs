//! Who copies the WAL back into the database file: innkeep, or Litestream when it replicates.
//!
//! Alone, innkeep checkpoints: a passive checkpoint every [`CHECKPOINT_EVERY`] on a thread of
//! its own, and the writer restarts the WAL between batches once it grew past its limit.
//! Litestream (0.3) replicates by copying the WAL before SQLite reuses it, and asks
//! applications to leave checkpoints to it: a checkpoint that races the moment it swaps its
//! read lock can wrap the WAL under it (litestream.io/tips, "Disable autocheckpoints";
//! benbjohnson/litestream#547). So while the database carries
//! Litestream's `_litestream_seq` table, innkeep checkpoints only once the WAL passed
//! [`ABANDONED_WAL`], a size Litestream never lets it reach while it runs (it restarts the
//! WAL at 10,000 pages, 40 MB), so that a replication someone stopped for good cannot grow
//! the WAL without end. Whether the table is there is looked at on each tick: replication
//! started or removed while innkeep runs is followed within a second. (Litestream 0.3.13 now
//! and then restores a damaged replica after a power cut even so, benbjohnson/litestream#582;
//! `innkeep restore` refuses such a replica, see `tests/api/replication.rs`.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

use crate::error::{AppError, AppResult};

/// How often the checkpointer copies the WAL back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(1000);
/// The WAL size past which innkeep checkpoints even though Litestream's table is there.
const ABANDONED_WAL: i64 = 256 * 1024 * 1024;

/// What the checkpointer and the writer share: whether Litestream replicates, and the WAL's
/// size after the writer's last commit.
#[derive(Debug, Default)]
pub(super) struct Checkpoints {
    replicated: AtomicBool,
    wal_bytes: AtomicI64,
}

impl Checkpoints {
    /// Notes the WAL's size after a commit.
    pub(super) fn wal_is(&self, bytes: i64) {
        self.wal_bytes.store(bytes, Ordering::Relaxed);
    }

    /// Whether innkeep should checkpoint now: it is alone, or the WAL passed
    /// [`ABANDONED_WAL`].
    pub(super) fn ours(&self) -> bool {
        !self.replicated.load(Ordering::Relaxed)
            || self.wal_bytes.load(Ordering::Relaxed) > ABANDONED_WAL
    }

    /// Looks whether Litestream's table is in the database `conn` opens; logs a change.
    fn look(&self, conn: &Connection) {
        let now = litestream_replicates(conn);
        if self.replicated.swap(now, Ordering::Relaxed) != now {
            if now {
                tracing::info!("Litestream replicates this database: it does the checkpoints");
            } else {
                tracing::info!("no Litestream table: innkeep does the checkpoints");
            }
        }
    }
}

/// Whether the database carries the table Litestream creates when it starts replicating.
pub(super) fn litestream_replicates(conn: &Connection) -> bool {
    conn.query_row(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '_litestream_seq'",
        [],
        |_| Ok(()),
    )
    .is_ok()
}

/// Starts the checkpointer on `conn`; it stops when `stop`'s sender is dropped.
pub(super) fn spawn(
    conn: Connection,
    shared: Arc<Checkpoints>,
    stop: mpsc::Receiver<()>,
) -> AppResult<JoinHandle<()>> {
    shared.look(&conn);
    std::thread::Builder::new()
        .name("innkeep-checkpoint".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
                shared.look(&conn);
                if !shared.ours() {
                    continue;
                }
                if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE)") {
                    tracing::warn!(error = %e, "WAL checkpoint failed; will retry");
                }
            }
        })
        .map_err(AppError::internal)
}

/// Copies the whole WAL into the database so that the next commit starts it again from the
/// beginning, waiting at most `wait` for readers; false when readers kept it from finishing
/// (the WAL then just goes on).
pub(super) fn restart_wal(conn: &Connection, wait: Duration) -> bool {
    let _ = conn.busy_timeout(wait);
    let done = conn
        .query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get::<_, i64>(0))
        .map(|busy| busy == 0);
    let _ = conn.busy_timeout(super::BUSY_TIMEOUT);
    match done {
        Ok(done) => done,
        Err(e) => {
            tracing::warn!(error = %e, "restarting the WAL failed; will retry");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn innkeep_leaves_checkpoints_to_litestream_until_the_wal_is_abandoned() {
        let conn = Connection::open_in_memory().unwrap();
        let shared = Checkpoints::default();
        shared.look(&conn);
        assert!(shared.ours(), "alone, innkeep checkpoints");
        conn.execute_batch("CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER)")
            .unwrap();
        shared.look(&conn);
        assert!(!shared.ours(), "Litestream's table: Litestream checkpoints");
        shared.wal_is(ABANDONED_WAL + 1);
        assert!(
            shared.ours(),
            "a WAL that large means nobody else checkpoints"
        );
        conn.execute_batch("DROP TABLE _litestream_seq").unwrap();
        shared.wal_is(0);
        shared.look(&conn);
        assert!(shared.ours(), "the table gone, innkeep checkpoints again");
    }
}
