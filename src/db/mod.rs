//! The embedded SQLite database: pragmas, migrations, a read pool and the one writer.
//!
//! Reads run on pooled read-only connections on tokio's blocking pool. Every write goes
//! through [`Db::write`] to a single writer thread (see [`writer`]), which runs each job in
//! `BEGIN IMMEDIATE` and commits with `synchronous=FULL`, so a client is only told "done"
//! once the change is on disk. With one writer, availability checks and number allocation
//! need no further locking. rusqlite never runs on an async worker thread.

mod checkpoints;
mod migrate;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

use crate::clock::Clock;
use crate::error::{AppError, AppResult};

pub use migrate::{MigrationStatus, SCHEMA_VERSION, migrate, status as migration_status};
pub use writer::{Committed, Tx, Wake, WriteHook, with_write_hook};

/// A read's or a write's answer on its way back, boxed.
type Any = Box<dyn std::any::Any + Send>;

/// A read as `Db::read` hands it to the blocking pool: its answer boxed.
type AnyRead = Box<dyn FnOnce(&Connection) -> AppResult<Any> + Send>;

fn boxed<T: Send + 'static>(value: T) -> Any {
    Box::new(value)
}

/// The answer boxed by `read` or `write` for a `T`: always a `T`.
fn unbox<T: 'static>(value: Any) -> AppResult<T> {
    value
        .downcast::<T>()
        .map(|v| *v)
        .map_err(|_| AppError::internal("a database job answered with another type"))
}

/// The database file name inside the data directory.
pub const DB_FILE: &str = "innkeep.sqlite3";

/// How much of a savepoint's copy of the pages it changes SQLite keeps in memory before
/// spilling it to a temporary file: 128 KiB less one byte, twice SQLite's default.
///
/// Each of the writer's jobs runs in a savepoint, and at the default (64 KiB) a batch
/// spilled into a file opened, written, unlinked and closed in every transaction. It cannot
/// go higher: when SQLite spills, it writes everything it held in one write, and its unix
/// file layer writes at most 128 KiB less one byte at a time (it masks the length with
/// `0x1ffff`), so a larger spill wrote nothing and failed the statement with "database or
/// disk is full" (4 MiB did, 2026-12-06/07; `tests/savepoints.rs` holds this bound).
/// Measured over one round of 200 bookings, check-ins and check-outs (strace): 204
/// temporary files at the default, 97 at this bound. The copy only serves to roll one job
/// back inside its transaction: durability is unchanged.
const SAVEPOINT_IN_MEMORY: i32 = 0x1ffff;
// A larger bound would compile and pass most tests, and fail only a large statement.
const _: () = assert!(SAVEPOINT_IN_MEMORY > 0 && SAVEPOINT_IN_MEMORY <= 0x1ffff);

/// Sets what SQLite can only be told for the whole process, before its first connection:
/// [`SAVEPOINT_IN_MEMORY`]. `innkeep`'s `main` calls it first, before any thread starts.
/// Called later (SQLite already in use), it changes nothing and says so (`false`); SQLite
/// then keeps its default, which is slower but as safe.
pub fn before_any_connection() -> bool {
    // SAFETY: sqlite3_config must not run while another thread uses SQLite, and has effect
    // only before SQLite initialises. `main` calls this before starting any thread or
    // opening any connection; called later, SQLite refuses with SQLITE_MISUSE and nothing
    // changes. The argument is the one `int` that SQLITE_CONFIG_STMTJRNL_SPILL takes.
    let rc = unsafe {
        rusqlite::ffi::sqlite3_config(
            rusqlite::ffi::SQLITE_CONFIG_STMTJRNL_SPILL,
            SAVEPOINT_IN_MEMORY as std::ffi::c_int,
        )
    };
    rc == rusqlite::ffi::SQLITE_OK
}

/// How long a connection waits for a lock another connection holds.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Applies the pragmas every connection needs.
pub fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Room for every statement a request runs (the default 16 evicted some on each list).
    conn.set_prepared_statement_cache_capacity(64);
    // The query planner's stability guarantee: a plan never depends on bound values, so a
    // cached statement is not recompiled each time a parameter changes (without it SQLite
    // re-prepared every list query for its `LIMIT ?`: a sixth of a list request's CPU).
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    functions(conn)
}

/// Registers innkeep's own SQL functions on `conn`: `innkeep_name_key(first, last)` and
/// `innkeep_phone_key(phone)`, the code's own rules (`domain::search`), with which
/// migrations key stored names and phone numbers; and `innkeep_local_day(instant,
/// time_zone)`, the property-local date of a stored instant as [`crate::clock::local_time`]
/// places it (NULL for an instant it cannot read), with which the bookings made are counted
/// by day (`store::bookings_made`).
pub fn functions(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "innkeep_name_key",
        2,
        rusqlite::functions::FunctionFlags::SQLITE_UTF8
            | rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let (first, last) = (ctx.get::<String>(0)?, ctx.get::<String>(1)?);
            Ok(crate::domain::search::name_keys(&first, &last).0)
        },
    )?;
    conn.create_scalar_function(
        "innkeep_phone_key",
        1,
        rusqlite::functions::FunctionFlags::SQLITE_UTF8
            | rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let phone = ctx.get::<Option<String>>(0)?;
            Ok(phone.and_then(|p| crate::domain::search::phone_key(&p)))
        },
    )?;
    conn.create_scalar_function(
        "innkeep_local_day",
        2,
        rusqlite::functions::FunctionFlags::SQLITE_UTF8
            | rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let instant = ctx.get_raw(0).as_str_or_null().ok().flatten();
            let zone = ctx.get_raw(1).as_str_or_null().ok().flatten();
            Ok(instant
                .zip(zone)
                .and_then(|(i, z)| crate::clock::local_time(i, z))
                .map(|(day, _)| day.to_string()))
        },
    )?;
    Ok(())
}

/// Opens a writable connection with WAL enabled (used by the writer and by the CLI).
pub fn open_writable(path: &Path) -> AppResult<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    configure(&conn)?;
    Ok(conn)
}

/// A handle to the database, cheap to clone.
#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    clock: Clock,
    path: PathBuf,
    pool: r2d2::Pool<SqliteConnectionManager>,
    writer: writer::Writer,
    commits: tokio::sync::watch::Receiver<Committed>,
    /// A connection that never writes, for [`Db::data_version`].
    watch: std::sync::Mutex<Connection>,
}

impl Db {
    /// Opens (creating if needed) the database, applies migrations and starts the writer.
    /// Refuses a database migrated by a newer innkeep.
    pub fn open(path: &Path) -> AppResult<Db> {
        let mut conn = open_writable(path)?;
        migrate(&mut conn)?;
        // The writer checkpoints from a background thread instead of inside a COMMIT.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        let manager = SqliteConnectionManager::file(path).with_init(|c| {
            configure(c)?;
            c.pragma_update(None, "query_only", "ON")
        });
        // r2d2 opens and retires connections on a pool of three threads by default; one is
        // plenty for eight connections, and an idle server keeps two threads fewer.
        let pool = r2d2::Pool::builder()
            .max_size(8)
            .min_idle(Some(1))
            // r2d2 tests a connection each time it is handed out (an empty statement: 1.4 %
            // of a create's CPU, perf). A connection to a local file does not go stale, and a
            // broken one fails its query with the error the request reports anyway.
            .test_on_check_out(false)
            .thread_pool(Arc::new(
                scheduled_thread_pool::ScheduledThreadPool::builder()
                    .num_threads(1)
                    .thread_name_pattern("r2d2-worker-{}")
                    .build(),
            ))
            .build(manager)?;
        let (commits_tx, commits) = tokio::sync::watch::channel(Committed::default());
        let writer = writer::Writer::start(conn, path.to_path_buf(), commits_tx)?;
        let watch = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        watch.busy_timeout(BUSY_TIMEOUT)?;
        Ok(Db {
            inner: Arc::new(Inner {
                clock: Clock::default(),
                path: path.to_path_buf(),
                pool,
                writer,
                commits,
                watch: std::sync::Mutex::new(watch),
            }),
        })
    }

    /// The clock every use case reads "now" and "today" from (settable by tests).
    pub fn clock(&self) -> &Clock {
        &self.inner.clock
    }

    /// Counts the committed transactions that recorded events and that queued jobs (see
    /// [`Tx::wake_queue`]): what the job queue waits on.
    pub fn commits(&self) -> tokio::sync::watch::Receiver<Committed> {
        self.inner.commits.clone()
    }

    /// A number that changes whenever anything commits to the database, in this process or
    /// in another (the CLI): SQLite's `PRAGMA data_version` on a connection of its own that
    /// never writes. Read it *before* reading what is to be kept, and what was read stays
    /// current for as long as the number does. A few microseconds (it reads the WAL index).
    pub fn data_version(&self) -> AppResult<i64> {
        let conn = self.inner.watch.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` on a read-only connection on the blocking pool.
    ///
    /// `f` and its answer travel boxed (`read_any`): one blocking task serves every read,
    /// where a task per closure type put a copy of tokio's task machinery in the binary for
    /// each of the hundred-odd reads.
    pub async fn read<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        unbox(
            self.read_any(Box::new(move |conn| f(conn).map(boxed)))
                .await?,
        )
    }

    async fn read_any(&self, f: AnyRead) -> AppResult<Any> {
        let pool = self.inner.pool.clone();
        tokio::task::spawn_blocking(move || {
            let conn = pool.get()?;
            f(&conn)
        })
        .await
        .map_err(AppError::internal)?
    }

    /// Runs `f` inside a write transaction on the writer thread and waits until it is
    /// durably committed. An `Err` from `f` rolls back only `f`'s own changes. (`f` and its
    /// answer travel boxed, as a read's do.)
    pub async fn write<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Tx) -> AppResult<T> + Send + 'static,
    {
        let job: writer::AnyJob = Box::new(move |tx| f(tx).map(boxed));
        unbox(
            self.inner
                .writer
                .submit(self.inner.clock.clone(), job)
                .await?,
        )
    }

    /// Checks that the database answers and is fully migrated (for `/ready`).
    pub async fn ready(&self) -> AppResult<()> {
        self.read(|c| {
            let s = migrate::status(c)?;
            if s.applied == SCHEMA_VERSION {
                Ok(())
            } else {
                Err(AppError::internal(format!(
                    "schema version {} but this binary expects {}",
                    s.applied, SCHEMA_VERSION
                )))
            }
        })
        .await
    }
}
