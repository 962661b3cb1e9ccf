//! The job queue as operators see it: listing jobs and putting failed ones back.

use std::time::Duration;

use crate::clock::format_instant;
use crate::db::{Db, Tx};
use crate::domain::enums::{JobKind, JobStatus};
use crate::domain::events::matches;
use crate::error::{AppError, AppResult};
use crate::service::deliveries::payload;
use crate::store::{self, jobs::Job};

/// Events fanned out per dispatcher transaction.
const DISPATCH_BATCH: usize = 500;

/// At start-up: jobs a previous process left running are pending again. How many.
pub async fn release_all_running(db: &Db) -> AppResult<usize> {
    db.write(store::jobs::release_all_running).await
}

/// Whether events wait to be fanned out to webhook endpoints.
pub async fn dispatch_pending(db: &Db) -> AppResult<bool> {
    db.read(|c| Ok(store::events::last_sequence(c)? > store::jobs::dispatch_cursor(c)?))
        .await
}

/// What one fan-out did.
#[derive(Debug, Clone, Copy)]
pub struct Dispatched {
    /// Delivery jobs written.
    pub jobs: usize,
    /// Whether any endpoint was enabled.
    pub endpoints: bool,
}

/// Fans one batch of events out: a delivery job per matching enabled endpoint, and the
/// cursor moved, in one transaction.
pub async fn dispatch_batch(db: &Db) -> AppResult<Dispatched> {
    db.write(dispatch_in).await
}

/// Claims up to `free` due jobs, leased for `lease`, never one of `in_flight` (the jobs this
/// process is running now). Looks first, so that an idle queue costs a read, not a turn of
/// the one writer.
pub async fn claim(
    db: &Db,
    lease: Duration,
    free: usize,
    in_flight: &[i64],
) -> AppResult<Vec<Job>> {
    let now = db.clock().now();
    let until = format_instant(now + chrono::Duration::from_std(lease).unwrap_or_default());
    let now_text = format_instant(now);
    let running = serde_json::to_string(in_flight).map_err(AppError::internal)?;
    let (probe, probe_running) = (now_text.clone(), running.clone());
    if !db
        .read(move |c| store::jobs::has_due(c, &probe, &probe_running))
        .await?
    {
        return Ok(Vec::new());
    }
    db.write(move |tx| store::jobs::claim(tx, &now_text, &running, &until, free))
        .await
}

fn dispatch_in(tx: &Tx) -> AppResult<Dispatched> {
    let cursor = store::jobs::dispatch_cursor(tx)?;
    let events = store::events::kinds_after(tx, cursor, DISPATCH_BATCH)?;
    let endpoints = store::webhooks::enabled(tx)?;
    let Some(last) = events.last().map(|(sequence, ..)| *sequence) else {
        return Ok(Dispatched {
            jobs: 0,
            endpoints: !endpoints.is_empty(),
        });
    };
    let now = tx.now_text();
    let mut n = 0;
    for (_, id, kind) in events.iter().filter(|(.., kind)| kind != "webhook.test") {
        for ep in endpoints
            .iter()
            .filter(|ep| matches(&ep.webhook.events, kind))
        {
            store::jobs::enqueue(tx, JobKind::Webhook, &ep.webhook.id, &payload(id), &now)?;
            n += 1;
        }
    }
    store::jobs::set_dispatch_cursor(tx, last)?;
    Ok(Dispatched {
        jobs: n,
        endpoints: !endpoints.is_empty(),
    })
}

/// Jobs, newest first, optionally of one status.
pub async fn list(db: &Db, status: Option<String>, limit: usize) -> AppResult<Vec<Job>> {
    if let Some(s) = &status
        && JobStatus::parse(s).is_none()
    {
        return Err(AppError::invalid_field(
            "status",
            "invalid_value",
            format!("must be one of {}", JobStatus::NAMES.join(", ")),
        ));
    }
    db.read(move |c| store::jobs::list(c, status.as_deref(), limit))
        .await
}

/// Puts one failed job (or, without an id, every failed job) back in the queue, due now.
/// Returns how many. Retrying a job that is not failed is refused with the reason.
pub async fn retry(db: &Db, id: Option<i64>) -> AppResult<usize> {
    db.write(move |tx| {
        if let Some(id) = id {
            match store::jobs::get(tx, id)? {
                None => return Err(AppError::not_found("job", &id.to_string())),
                Some(j) if j.status != JobStatus::Failed => {
                    return Err(AppError::conflict(
                        "job_not_failed",
                        format!("job {id} is {}; only failed jobs can be retried", j.status),
                    ));
                }
                Some(_) => {}
            }
        }
        store::jobs::requeue_failed(tx, id)
    })
    .await
}
