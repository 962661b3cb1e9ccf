//! The single writer: one thread, one connection, group commit.
//!
//! Jobs arrive on a channel. The thread takes every job already waiting (up to
//! [`MAX_BATCH`]), opens one `BEGIN IMMEDIATE` transaction, runs each job inside its own
//! `SAVEPOINT` (so a failing job rolls back alone), and commits once. With
//! `synchronous=FULL` that one commit is one fsync shared by the whole batch. Results go
//! back to the callers only after the COMMIT succeeded: nobody is told "done" early.
//! A job that panics is rolled back and its caller gets an internal error; the thread lives on.
//! WAL checkpoints run on a separate thread so that no client's COMMIT pays for them.

use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

use crate::clock::Clock;
use crate::error::{AppError, AppResult};

/// The most jobs one transaction carries.
const MAX_BATCH: usize = 64;
/// How often the checkpointer copies the WAL back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(1000);

/// A connection inside a write transaction; store functions that write take `&Tx`. It also
/// carries the clock, so a change reads "now" and "today" from one settable source.
pub struct Tx<'a> {
    conn: &'a Connection,
    clock: &'a Clock,
}

impl Tx<'_> {
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

type Deliver = Box<dyn FnOnce(Option<String>) + Send>;
type Job = Box<dyn FnOnce(&Connection) -> (bool, Deliver) + Send>;

pub(super) struct Writer {
    sender: Mutex<Option<mpsc::Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    stop_checkpoints: Mutex<Option<mpsc::Sender<()>>>,
}

impl Writer {
    pub(super) fn start(conn: Connection, path: PathBuf) -> AppResult<Writer> {
        conn.pragma_update(None, "journal_size_limit", 64 * 1024 * 1024)?;
        let (sender, receiver) = mpsc::channel::<Job>();
        let writer = std::thread::Builder::new()
            .name("innkeep-writer".into())
            .spawn(move || run(conn, receiver))
            .map_err(AppError::internal)?;
        let checkpoint_conn = super::open_writable(&path)?;
        let (stop, stopped) = mpsc::channel::<()>();
        let checkpointer = std::thread::Builder::new()
            .name("innkeep-checkpoint".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(CHECKPOINT_EVERY)
                {
                    if let Err(e) = checkpoint_conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE)")
                    {
                        tracing::warn!(error = %e, "WAL checkpoint failed; will retry");
                    }
                }
            })
            .map_err(AppError::internal)?;
        Ok(Writer {
            sender: Mutex::new(Some(sender)),
            threads: Mutex::new(vec![writer, checkpointer]),
            stop_checkpoints: Mutex::new(Some(stop)),
        })
    }

    pub(super) async fn submit<T, F>(&self, clock: Clock, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Tx) -> AppResult<T> + Send + 'static,
    {
        let hook = WRITE_HOOK.try_with(Arc::clone).ok();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<AppResult<T>>();
        let job: Job = Box::new(move |conn| {
            let result = f(&Tx {
                conn,
                clock: &clock,
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

fn run(conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        run_batch(&conn, batch);
    }
    if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA optimize;") {
        tracing::warn!(error = %e, "final checkpoint failed");
    }
}

fn run_batch(conn: &Connection, batch: Vec<Job>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        tracing::error!(error = %e, "cannot begin a write transaction");
        // Run nothing; callers see their sender dropped as an internal error.
        return;
    }
    let mut committed: Vec<Deliver> = Vec::with_capacity(batch.len());
    for job in batch {
        if let Err(e) = conn.execute_batch("SAVEPOINT job") {
            tracing::error!(error = %e, "cannot open a savepoint");
            continue;
        }
        match catch_unwind(AssertUnwindSafe(|| job(conn))) {
            Ok((true, deliver)) => {
                if let Err(e) = conn.execute_batch("RELEASE job") {
                    tracing::error!(error = %e, "cannot release a savepoint");
                }
                committed.push(deliver);
            }
            outcome => {
                if let Err(e) = conn.execute_batch("ROLLBACK TO job; RELEASE job") {
                    tracing::error!(error = %e, "cannot roll back a savepoint");
                }
                match outcome {
                    Ok((_, deliver)) => deliver(None),
                    Err(_) => tracing::error!("a write job panicked; its changes were rolled back"),
                }
            }
        }
    }
    match conn.execute_batch("COMMIT") {
        Ok(()) => committed.into_iter().for_each(|d| d(None)),
        Err(e) => {
            tracing::error!(error = %e, "COMMIT failed; the batch was rolled back");
            let _ = conn.execute_batch("ROLLBACK");
            let msg = format!("the database could not commit: {e}");
            committed.into_iter().for_each(|d| d(Some(msg.clone())));
        }
    }
}
