//! The job queue: enqueue, claim with a lease, finish, reschedule, and the dispatch cursor.

use rusqlite::{Connection, OptionalExtension, Row};

use crate::db::Tx;
use crate::domain::enums::JobKind;
use crate::domain::enums::JobStatus;
use crate::error::AppResult;

/// A claimed (or listed) job.
#[derive(Debug, Clone)]
pub struct Job {
    /// Row id.
    pub id: i64,
    /// Handler name, such as `webhook`.
    pub kind: String,
    /// What it is about.
    pub subject_id: String,
    /// Kind-specific JSON.
    pub payload: String,
    /// `pending`, `running`, `done` or `failed`.
    pub status: JobStatus,
    /// Attempts started so far (including the claimed one).
    pub attempts: i64,
    /// When it is (or was) due.
    pub run_at: String,
    /// The last failure.
    pub last_error: Option<String>,
    /// When it was queued.
    pub created_at: String,
}

fn map(r: &Row) -> rusqlite::Result<Job> {
    Ok(Job {
        id: r.get("id")?,
        kind: r.get("kind")?,
        subject_id: r.get("subject_id")?,
        payload: r.get("payload")?,
        status: r.get("status")?,
        attempts: r.get("attempts")?,
        run_at: r.get("run_at")?,
        last_error: r.get("last_error")?,
        created_at: r.get("created_at")?,
    })
}

/// Queues a job, due at `run_at`.
pub fn enqueue(
    tx: &Tx,
    kind: JobKind,
    subject_id: &str,
    payload: &str,
    run_at: &str,
) -> AppResult<i64> {
    let now = tx.now_text();
    tx.wake_queue(crate::db::Wake::Jobs);
    Ok(tx
        .prepare_cached(
            "INSERT INTO jobs (kind, subject_id, payload, status, run_at, created_at, updated_at)
             VALUES (?1, ?2, ?3, 'pending', ?4, ?5, ?5) RETURNING id",
        )?
        .query_row((kind, subject_id, payload, run_at, &now), |r| r.get(0))?)
}

/// The condition of a claimable job: pending and due, or running with an expired lease and
/// not among `?2`, the JSON array of the ids this process is still running (a lease measured
/// on the wall clock runs out when the clock jumps; the job in flight must not run twice).
const DUE: &str = "(status = 'pending' AND run_at <= ?1)
     OR (status = 'running' AND lease_until < ?1 AND id NOT IN (SELECT value FROM json_each(?2)))";

/// Claims up to `limit` due jobs (see [`DUE`]; `in_flight` is a JSON array of job ids),
/// leasing them until `lease_until` and counting the attempt.
pub fn claim(
    tx: &Tx,
    now: &str,
    in_flight: &str,
    lease_until: &str,
    limit: usize,
) -> AppResult<Vec<Job>> {
    let sql = format!(
        "UPDATE jobs SET status = 'running', lease_until = ?3, attempts = attempts + 1, updated_at = ?1
         WHERE id IN (SELECT id FROM jobs WHERE {DUE} ORDER BY run_at, id LIMIT ?4)
         RETURNING *"
    );
    let mut stmt = tx.prepare_cached(&sql)?;
    let rows = stmt.query_map((now, in_flight, lease_until, limit as i64), map)?;
    let mut jobs = rows.collect::<Result<Vec<_>, _>>()?;
    jobs.sort_by(|a, b| (&a.run_at, a.id).cmp(&(&b.run_at, b.id)));
    Ok(jobs)
}

/// Marks a job done.
pub fn finish(tx: &Tx, id: i64) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached("UPDATE jobs SET status = 'done', lease_until = NULL, last_error = NULL, updated_at = ?2 WHERE id = ?1")?
        .execute((id, &now))?;
    Ok(())
}

/// Schedules the next attempt.
pub fn retry_at(tx: &Tx, id: i64, run_at: &str, error: &str) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "UPDATE jobs SET status = 'pending', run_at = ?2, lease_until = NULL, last_error = ?3, updated_at = ?4 WHERE id = ?1",
    )?
    .execute((id, run_at, error, &now))?;
    Ok(())
}

/// Gives up on a job.
pub fn fail(tx: &Tx, id: i64, error: &str) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached("UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute((id, error, &now))?;
    Ok(())
}

/// At start-up nothing runs yet: every job left `running` by a previous process is pending
/// again (its lease would expire anyway). Returns how many.
pub fn release_all_running(tx: &Tx) -> AppResult<usize> {
    let now = tx.now_text();
    Ok(tx
        .prepare_cached("UPDATE jobs SET status = 'pending', lease_until = NULL, updated_at = ?1 WHERE status = 'running'")?
        .execute([&now])?)
}

/// Puts failed jobs (one, or all of them) back in the queue, due now; returns how many.
pub fn requeue_failed(tx: &Tx, id: Option<i64>) -> AppResult<usize> {
    let now = tx.now_text();
    Ok(tx
        .prepare_cached(
            "UPDATE jobs SET status = 'pending', attempts = 0, run_at = ?1, last_error = NULL, updated_at = ?1
             WHERE status = 'failed' AND (?2 IS NULL OR id = ?2)",
        )?
        .execute((&now, id))?)
}

/// Fails every unfinished job about `subject_id` (its webhook was disabled or deleted).
pub fn fail_for_subject(tx: &Tx, subject_id: &str, error: &str) -> AppResult<usize> {
    let now = tx.now_text();
    Ok(tx
        .prepare_cached(
            "UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = ?2, updated_at = ?3
             WHERE subject_id = ?1 AND status = 'pending'",
        )?
        .execute((subject_id, error, &now))?)
}

/// Whether any job is claimable at `now` (the condition of [`claim`]), read without a
/// write transaction.
pub fn has_due(conn: &Connection, now: &str, in_flight: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached(&format!("SELECT EXISTS(SELECT 1 FROM jobs WHERE {DUE})"))?
        .query_row([now, in_flight], |r| r.get(0))?)
}

/// Jobs, newest first, optionally of one status.
pub fn list(conn: &Connection, status: Option<&str>, limit: usize) -> AppResult<Vec<Job>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM jobs WHERE (?1 IS NULL OR status = ?1) ORDER BY id DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map((status, limit as i64), map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Queue depth and the `created_at` of the oldest pending job.
pub fn pending_stats(conn: &Connection) -> AppResult<(i64, Option<String>)> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*), MIN(created_at) FROM jobs WHERE status IN ('pending', 'running')",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// The last event sequence fanned out.
pub fn dispatch_cursor(conn: &Connection) -> AppResult<i64> {
    Ok(conn
        .prepare_cached("SELECT sequence FROM dispatch_cursor WHERE id = 1")?
        .query_row([], |r| r.get(0))?)
}

/// Moves the dispatch cursor (in the transaction that wrote the jobs).
pub fn set_dispatch_cursor(tx: &Tx, sequence: i64) -> AppResult<()> {
    tx.prepare_cached("UPDATE dispatch_cursor SET sequence = ?1 WHERE id = 1")?
        .execute([sequence])?;
    Ok(())
}

/// Deletes at most `limit` of the finished jobs (done or failed) last changed before
/// `cutoff`; returns how many.
pub fn prune(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    super::Aged {
        table: "jobs",
        key: "id",
        older: "status IN ('done', 'failed') AND updated_at < ?1",
        order: "",
    }
    .delete(tx, cutoff, limit)
}

/// One job by id.
pub fn get(conn: &Connection, id: i64) -> AppResult<Option<Job>> {
    Ok(conn
        .prepare_cached("SELECT * FROM jobs WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// Brings the pending jobs about `subject_id` forward to now; returns how many.
pub fn run_now(tx: &Tx, subject_id: &str) -> AppResult<usize> {
    let now = tx.now_text();
    Ok(tx
        .prepare_cached(
            "UPDATE jobs SET run_at = ?2, updated_at = ?2 WHERE subject_id = ?1 AND status = 'pending'",
        )?
        .execute((subject_id, &now))?)
}

/// Whether a job is (or was) queued for `subject_id`.
pub fn exists_for_subject(conn: &Connection, subject_id: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM jobs WHERE subject_id = ?1)")?
        .query_row([subject_id], |r| r.get(0))?)
}

/// When the newest job whose subject starts with `prefix` finished well, if one did (read
/// through the subject index, not the whole queue).
pub fn last_done(conn: &Connection, prefix: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT max(updated_at) FROM jobs
              WHERE subject_id >= ?1 AND subject_id < ?1 || '~' AND status = 'done'",
        )?
        .query_row([prefix], |r| r.get(0))?)
}
