//! The durable job queue that runs inside `innkeep serve`.
//!
//! - The **dispatcher** fans the event feed out to webhook endpoints: it reads events after
//!   its cursor, writes one delivery job per matching enabled endpoint, and moves the cursor,
//!   all in one transaction, so a crash neither loses nor repeats a fan-out.
//! - **Workers** (at most `[webhooks] workers` at once) claim due jobs with a lease in a
//!   write transaction, run them, and record the outcome. A lease that runs out (a crash, a
//!   hang) makes the job claimable again; at start-up every job left running is released.
//!   A job may therefore run twice (a webhook receiver deduplicates on `webhook-id`), never
//!   zero times.
//! - They wake as soon as a transaction that concerns them commits (the writer counts
//!   commits that recorded events and that queued jobs, see `Db::commits`), so a webhook
//!   leaves within milliseconds of the change. The dispatcher listens for events only while
//!   an enabled endpoint exists; otherwise it moves its cursor at each poll, so that a quiet
//!   hotel without webhooks does not pay a second transaction for every change. The poll
//!   also picks up retries that come due, and so does a move of the clock (a test or drill).
//! - Job kinds are generic: a [`Handler`] per kind. Time comes from the database's settable
//!   clock, so tests can run a retry schedule of hours in seconds.

pub mod backup;
pub mod channel;
pub mod destination;
pub mod einvoice;
pub mod fiscal;
pub mod hub;
pub mod mail;
pub mod registration;
pub mod webhook;

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, watch};

use crate::db::{Committed, Db};
use crate::error::AppResult;
use crate::service;
use crate::store::jobs::Job;

/// How long a claimed job is leased (longer than the 15 s delivery timeout).
const LEASE: Duration = Duration::from_secs(60);
/// How often idle loops look for work that came due (new work wakes them at once).
const POLL: Duration = Duration::from_millis(200);

/// Runs jobs of one kind and records their outcome.
pub trait Handler: Send + Sync {
    /// The `jobs.kind` it runs.
    fn kind(&self) -> &'static str;
    /// Runs one claimed job; it records success, retry or failure itself.
    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>>;
}

/// Waits (at most `idle`) until `commits` counts a transaction that recorded events since
/// `seen`: how the pushers (hub, channel manager) sleep between rounds.
pub(crate) async fn events_after(
    commits: &mut watch::Receiver<Committed>,
    seen: u64,
    idle: Duration,
) {
    let _ = tokio::time::timeout(idle, async {
        while commits.borrow_and_update().events == seen {
            if commits.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    })
    .await;
}

/// A running queue.
pub struct Queue {
    stop: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Queue {
    /// Starts the dispatcher and the workers.
    pub async fn start(
        db: Db,
        handlers: Vec<Arc<dyn Handler>>,
        workers: usize,
    ) -> AppResult<Queue> {
        let released = service::jobs::release_all_running(&db).await?;
        if released > 0 {
            tracing::info!(
                released,
                "jobs left running by a previous process are pending again"
            );
        }
        let (stop, stopped) = watch::channel(false);
        let wake = Arc::new(Notify::new());
        let handlers: HashMap<&'static str, Arc<dyn Handler>> =
            handlers.into_iter().map(|h| (h.kind(), h)).collect();
        let waits = |count: fn(&Committed) -> u64| Waits {
            wake: wake.clone(),
            commits: db.commits(),
            count,
            seen: 0,
            stopped: stopped.clone(),
            clock: db.clock().clone(),
        };
        let dispatcher = tokio::spawn(dispatch_loop(db.clone(), waits(|c| c.events)));
        let runner = tokio::spawn(work_loop(
            db.clone(),
            Arc::new(handlers),
            workers.max(1),
            waits(|c| c.jobs),
        ));
        Ok(Queue {
            stop,
            tasks: vec![dispatcher, runner],
        })
    }

    /// Stops claiming work and waits (up to `grace`) for jobs in flight. Jobs still running
    /// after that keep their lease and are released at the next start.
    pub async fn stop(self, grace: Duration) {
        let _ = self.stop.send(true);
        let all = futures_join(self.tasks);
        if tokio::time::timeout(grace, all).await.is_err() {
            tracing::warn!("jobs still running at shutdown; they will run again after restart");
        }
    }
}

async fn futures_join(tasks: Vec<tokio::task::JoinHandle<()>>) {
    for t in tasks {
        let _ = t.await;
    }
}

/// What an idle loop waits for: its poll, a wake-up, a commit of its kind of work, or the
/// stop.
struct Waits {
    wake: Arc<Notify>,
    commits: watch::Receiver<Committed>,
    /// Which count of `commits` concerns this loop.
    count: fn(&Committed) -> u64,
    /// That count when the loop last looked for work.
    seen: u64,
    stopped: watch::Receiver<bool>,
    /// The business clock.
    clock: crate::clock::Clock,
}

impl Waits {
    /// Notes the commits so far: call before looking for work, so that a commit made while
    /// looking still wakes the next pause.
    fn mark(&mut self) {
        self.seen = (self.count)(&self.commits.borrow());
    }

    /// Sleeps for `d`, or until woken, stopped, the clock moved, or (when `listen`) a commit
    /// of new work since [`Waits::mark`].
    async fn pause(&mut self, d: Duration, listen: bool) {
        let (count, seen) = (self.count, self.seen);
        let mut commits = self.commits.clone();
        let committed = async move {
            if listen {
                let _ = commits.wait_for(|c| count(c) != seen).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(d) => {}
            _ = self.wake.notified() => {}
            // A test or drill moved the clock: retries may have come due.
            _ = self.clock.moved() => {}
            _ = committed => {}
            _ = self.stopped.changed() => {}
        }
    }

    fn stopped(&self) -> bool {
        *self.stopped.borrow()
    }
}

/// Fans new events out to matching enabled endpoints, one batch per transaction.
async fn dispatch_loop(db: Db, mut waits: Waits) {
    // Whether an enabled endpoint existed at the last fan-out (then events wake us).
    let mut live = true;
    while !waits.stopped() {
        waits.mark();
        match service::jobs::dispatch_pending(&db).await {
            Ok(true) => match service::jobs::dispatch_batch(&db).await {
                Ok(done) => {
                    live = done.endpoints;
                    if done.jobs > 0 {
                        waits.wake.notify_waiters();
                    }
                    continue;
                }
                Err(e) => tracing::error!(error = %e, "dispatching events failed; will retry"),
            },
            Ok(false) => {}
            Err(e) => tracing::error!(error = %e, "reading the event feed failed; will retry"),
        }
        waits.pause(POLL, live).await;
    }
}

/// Claims due jobs and runs them, at most `workers` at once. It claims up to `workers`
/// jobs at a time and starts each as a worker frees, claiming again only when none is left
/// waiting: while the queue is busy, one claim (a turn of the writer, a commit) serves
/// several deliveries instead of each waiting for its own.
async fn work_loop(
    db: Db,
    handlers: Arc<HashMap<&'static str, Arc<dyn Handler>>>,
    workers: usize,
    mut waits: Waits,
) {
    let slots = Arc::new(Semaphore::new(workers));
    let running = InFlight::default();
    let mut claimed: VecDeque<(Job, Running)> = VecDeque::new();
    while !waits.stopped() {
        if claimed.is_empty() {
            waits.mark();
            match service::jobs::claim(&db, LEASE, workers, &running.ids()).await {
                Ok(jobs) if jobs.is_empty() => waits.pause(POLL, true).await,
                Ok(jobs) => claimed.extend(jobs.into_iter().map(|j| {
                    let mark = running.start(j.id);
                    (j, mark)
                })),
                Err(e) => {
                    tracing::error!(error = %e, "claiming jobs failed; will retry");
                    waits.pause(POLL, true).await;
                }
            }
            continue;
        }
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => p,
            _ = waits.stopped.changed() => continue,
        };
        let (Ok(permit), Some((job, mark))) = (permit, claimed.pop_front()) else {
            break;
        };
        let (db, handlers) = (db.clone(), handlers.clone());
        tokio::spawn(async move {
            let _mark = mark;
            match handlers.get(job.kind.as_str()) {
                Some(h) => h.run(&db, job).await,
                None => {
                    let why = format!("no handler for jobs of kind {}", job.kind);
                    let _ = service::deliveries::fail(&db, job.id, &why).await;
                }
            }
            drop(permit);
        });
    }
    // Jobs claimed but not started keep their lease and are released at the next start;
    // let jobs in flight finish (the caller bounds the wait).
    drop(claimed);
    let _ = slots.acquire_many(workers as u32).await;
}

/// The ids of the jobs this process is running now: their lease may run out on the wall
/// clock (a clock jump, a long hang), but a job in flight is never claimed a second time.
#[derive(Clone, Default)]
struct InFlight(Arc<std::sync::Mutex<std::collections::HashSet<i64>>>);

impl InFlight {
    fn ids(&self) -> Vec<i64> {
        self.lock().iter().copied().collect()
    }

    /// Marks `id` running until the returned mark is dropped (also when the job panics).
    fn start(&self, id: i64) -> Running {
        self.lock().insert(id);
        Running(self.clone(), id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<i64>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A job in flight; dropping it ends the mark.
struct Running(InFlight, i64);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.lock().remove(&self.1);
    }
}

/// Runs a blocking call (an authority's protocol over ureq) off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> AppResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(crate::error::AppError::internal)
}
