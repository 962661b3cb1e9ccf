//! The single writer: one thread, one connection, group commit.
//!
//! Jobs arrive on a channel. The thread takes every job already waiting (up to
//! [`MAX_BATCH`]), opens one `BEGIN IMMEDIATE` transaction, runs each job inside its own
//! `SAVEPOINT` (so a failing job rolls back alone), and commits once. With
//! `synchronous=FULL` that one commit is one fsync shared by the whole batch. Results go
//! back to the callers only after the COMMIT succeeded: nobody is told "done" early.
//! A job that panics is rolled back and its caller gets an internal error; the thread lives on.
//! WAL checkpoints run on a separate thread so that no client's COMMIT pays for them (or not
//! at all while Litestream replicates: see [`super::checkpoints`]). That passive checkpoint cannot wrap the WAL while readers keep arriving, so under
//! continuous load the writer itself, between batches, restarts the WAL from the beginning
//! once a commit left more than [`WAL_LIMIT`] in it (SQLite's WAL hook counts the pages): a
//! `RESTART` checkpoint, which finishes what the passive one left, waits at most
//! [`WAL_WAIT`] for readers, and otherwise is tried again after [`WAL_RETRY`].

use std::cell::Cell;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::watch;

use super::checkpoints::{self, Checkpoints};
use crate::clock::Clock;
use crate::error::{AppError, AppResult};

/// The most jobs one transaction carries.
const MAX_BATCH: usize = 64;
/// The writer's page cache, KiB: room for a whole batch's pages (64 jobs, each touching a
/// dozen indexes at random places) and the hot ones between batches. At SQLite's default
/// (2 MiB) a batch spilled dirty pages into the WAL before its COMMIT and read pages back
/// from the file (a seventh of a create's CPU, perf). Pages are taken only as used.
const CACHE_KIB: i64 = 32 * 1024;
/// The WAL content past which the writer restarts it between batches.
const WAL_LIMIT: u64 = 8 * 1024 * 1024;
/// How long that checkpoint waits for readers still using the WAL.
const WAL_WAIT: Duration = Duration::from_millis(20);
/// How long after a checkpoint that readers kept from finishing the writer tries again (a
/// reader preempted on a busy core can hold its snapshot for longer than [`WAL_WAIT`]).
const WAL_RETRY: Duration = Duration::from_millis(100);

/// A connection inside a write transaction; store functions that write take `&Tx`. It also
/// carries the clock, so a change reads "now" and "today" from one settable source.
pub struct Tx<'a> {
    conn: &'a Connection,
    clock: &'a Clock,
    wake: &'a Cell<u8>,
}

impl Tx<'_> {
    /// Asks for the job queue to be told once this transaction commits (it recorded an
    /// event, or queued a job), so that the work reaches it at once rather than at its next
    /// look.
    pub fn wake_queue(&self, what: Wake) {
        self.wake.set(self.wake.get() | what as u8);
    }

    /// Now, in the stored format.
    pub fn now_text(&self) -> String {
        self.clock.now_text()
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        self.clock
    }
}

impl Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

/// Extra work to run in the same transaction after every successful write of a request
/// (the idempotency layer uses it to mark its key as committed atomically with the change).
pub type WriteHook = Arc<dyn Fn(&Connection) -> rusqlite::Result<()> + Send + Sync>;

tokio::task_local! {
    static WRITE_HOOK: WriteHook;
}

/// Runs `fut` with `hook` applied to each write it makes.
pub async fn with_write_hook<F: Future>(hook: WriteHook, fut: F) -> F::Output {
    WRITE_HOOK.scope(hook, fut).await
}

/// What a committed transaction wrote that the job queue waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// An event (for the webhook dispatcher).
    Events = 1,
    /// A job (for the workers).
    Jobs = 2,
}

/// Counts of committed transactions that recorded events and that queued jobs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Committed {
    /// Transactions that recorded at least one event.
    pub events: u64,
    /// Transactions that queued at least one job.
    pub jobs: u64,
}

/// A write as `Db::write` hands it over: its answer boxed.
pub(super) type AnyJob = Box<dyn FnOnce(&Tx) -> AppResult<super::Any> + Send>;
type Deliver = Box<dyn FnOnce(Option<String>) + Send>;
type Job = Box<dyn FnOnce(&Connection, &Cell<u8>) -> (bool, Deliver) + Send>;

pub(super) struct Writer {
    sender: Mutex<Option<mpsc::Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    stop_checkpoints: Mutex<Option<mpsc::Sender<()>>>,
}

impl Writer {
    /// Starts the writer on `conn` (the database at `path`); every commit of a transaction
    /// that asked to wake the queue counts up `commits` (see [`Tx::wake_queue`]).
    pub(super) fn start(
        conn: Connection,
        path: PathBuf,
        commits: watch::Sender<Committed>,
    ) -> AppResult<Writer> {
        tune(&conn)?;
        let (sender, receiver) = mpsc::channel::<Job>();
        let shared = Arc::new(Checkpoints::default());
        let ours = Arc::clone(&shared);
        let writer = std::thread::Builder::new()
            .name("innkeep-writer".into())
            .spawn(move || run(conn, receiver, commits, &ours))
            .map_err(AppError::internal)?;
        let (stop, stopped) = mpsc::channel::<()>();
        let checkpointer = checkpoints::spawn(super::open_writable(&path)?, shared, stopped)?;
        Ok(Writer {
            sender: Mutex::new(Some(sender)),
            threads: Mutex::new(vec![writer, checkpointer]),
            stop_checkpoints: Mutex::new(Some(stop)),
        })
    }

    pub(super) async fn submit(&self, clock: Clock, f: AnyJob) -> AppResult<super::Any> {
        let hook = WRITE_HOOK.try_with(Arc::clone).ok();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<AppResult<super::Any>>();
        let job: Job = Box::new(move |conn, wake| {
            let result = f(&Tx {
                conn,
                clock: &clock,
                wake,
            })
            .and_then(|value| {
                if let Some(hook) = &hook {
                    hook(conn)?;
                }
                Ok(value)
            });
            match result {
                Ok(value) => (
                    true,
                    Box::new(move |commit_error: Option<String>| {
                        let _ = done_tx.send(match commit_error {
                            None => Ok(value),
                            Some(msg) => Err(AppError::internal(msg)),
                        });
                    }),
                ),
                Err(e) => (
                    false,
                    Box::new(move |_| {
                        let _ = done_tx.send(Err(e));
                    }),
                ),
            }
        });
        let sent = match self.sender.lock() {
            Ok(guard) => guard.as_ref().map(|s| s.send(job).is_ok()).unwrap_or(false),
            Err(_) => false,
        };
        if !sent {
            return Err(AppError::internal("the database writer has stopped"));
        }
        done_rx
            .await
            .map_err(|_| AppError::internal("the database writer abandoned a job (it panicked)"))?
    }
}

impl Drop for Writer {
    /// Lets the writer finish queued jobs, then joins it and the checkpointer.
    fn drop(&mut self) {
        if let Ok(mut s) = self.sender.lock() {
            s.take();
        }
        if let Ok(mut s) = self.stop_checkpoints.lock() {
            s.take();
        }
        if let Ok(mut threads) = self.threads.lock() {
            for t in threads.drain(..) {
                let _ = t.join();
            }
        }
    }
}

thread_local! {
    /// Pages in the WAL after the writer's last commit (set by SQLite's WAL hook).
    static WAL_PAGES: Cell<i32> = const { Cell::new(0) };
}

fn count_wal_pages(_: &rusqlite::hooks::Wal, pages: std::ffi::c_int) -> rusqlite::Result<()> {
    WAL_PAGES.set(pages);
    Ok(())
}

fn run(
    conn: Connection,
    jobs: mpsc::Receiver<Job>,
    commits: watch::Sender<Committed>,
    checkpoints: &Checkpoints,
) {
    conn.wal_hook(Some(count_wal_pages));
    let page_size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap_or(4096);
    let limit_pages = (WAL_LIMIT / page_size.max(512) as u64) as i32;
    let mut next_restart = Instant::now();
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let woke = run_batch(&conn, batch);
        if woke != 0 {
            commits.send_modify(|c| {
                c.events += u64::from(woke & Wake::Events as u8 != 0);
                c.jobs += u64::from(woke & Wake::Jobs as u8 != 0);
            });
        }
        let pages = WAL_PAGES.get();
        checkpoints.wal_is(i64::from(pages) * page_size);
        if pages > limit_pages && Instant::now() >= next_restart && checkpoints.ours() {
            if checkpoints::restart_wal(&conn, WAL_WAIT) {
                tracing::debug!(pages, "WAL restarted");
                WAL_PAGES.set(0);
            } else {
                tracing::debug!(pages, "readers kept the WAL from restarting");
                next_restart = Instant::now() + WAL_RETRY;
            }
        }
    }
    // Litestream, stopped after innkeep, copies what is left in the WAL itself.
    let last = if checkpoints.ours() {
        "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA optimize;"
    } else {
        "PRAGMA optimize;"
    };
    if let Err(e) = conn.execute_batch(last) {
        tracing::warn!(error = %e, "final checkpoint failed");
    }
}

/// The writer connection's settings: WAL size kept, page cache, and every statement any
/// write runs kept prepared (updates name the columns they set). Where a savepoint keeps
/// its pages is set for the whole process, before any connection: see
/// [`super::before_any_connection`].
fn tune(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "journal_size_limit", 64 * 1024 * 1024)?;
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    conn.set_prepared_statement_cache_capacity(256);
    Ok(())
}

/// Runs `batch` in one transaction; what its committed jobs asked to wake (see [`Wake`]).
///
/// Each job of a batch runs in its own savepoint so that a failing job rolls back alone.
/// A job alone in its batch (a quiet moment: the usual case at a hotel's desk) runs without
/// one, since rolling back the transaction rolls back exactly that job; a savepoint makes
/// SQLite copy each page before its first change (a tenth of a booking's CPU).
fn run_batch(conn: &Connection, batch: Vec<Job>) -> u8 {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        tracing::error!(error = %e, "cannot begin a write transaction");
        // Run nothing; callers see their sender dropped as an internal error.
        return 0;
    }
    let alone = batch.len() == 1;
    let wake = Cell::new(0u8);
    let mut committed: Vec<Deliver> = Vec::with_capacity(batch.len());
    for job in batch {
        if !alone && let Err(e) = conn.execute_batch("SAVEPOINT job") {
            tracing::error!(error = %e, "cannot open a savepoint");
            continue;
        }
        let asked = Cell::new(0u8);
        match catch_unwind(AssertUnwindSafe(|| job(conn, &asked))) {
            Ok((true, deliver)) => {
                if !alone && let Err(e) = conn.execute_batch("RELEASE job") {
                    tracing::error!(error = %e, "cannot release a savepoint");
                }
                committed.push(deliver);
                wake.set(wake.get() | asked.get());
            }
            outcome => {
                let undo = if alone {
                    "ROLLBACK"
                } else {
                    "ROLLBACK TO job; RELEASE job"
                };
                if let Err(e) = conn.execute_batch(undo) {
                    tracing::error!(error = %e, "cannot roll back a failed job");
                }
                match outcome {
                    Ok((_, deliver)) => deliver(None),
                    Err(_) => tracing::error!("a write job panicked; its changes were rolled back"),
                }
                if alone {
                    return 0;
                }
            }
        }
    }
    match conn.execute_batch("COMMIT") {
        Ok(()) => {
            committed.into_iter().for_each(|d| d(None));
            wake.get()
        }
        Err(e) => {
            tracing::error!(error = %e, "COMMIT failed; the batch was rolled back");
            let _ = conn.execute_batch("ROLLBACK");
            let msg = format!("the database could not commit: {e}");
            committed.into_iter().for_each(|d| d(Some(msg.clone())));
            0
        }
    }
}

#[cfg(test)]
mod tests;
