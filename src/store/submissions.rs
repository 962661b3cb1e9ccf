//! Compliance submissions, their rows, and the append-only exchange log. List order:
//! `created_at`, then id.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::domain::digest::sha256_hex;
use crate::domain::enums::SubmissionKind;
use crate::error::AppResult;
use crate::model::outcome::{Exchange, NewSubmission};
use crate::model::{Date, ExchangeRecord, Instant, Submission};

fn json_error(e: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
}

fn map(r: &Row) -> rusqlite::Result<Submission> {
    let rows: String = r.get("rows")?;
    Ok(Submission {
        id: r.get("id")?,
        kind: r.get("kind")?,
        scheme: r.get("scheme")?,
        subject_id: r.get("subject_id")?,
        status: r.get("status")?,
        attempts: r.get("attempts")?,
        due_at: Instant(r.get("due_at")?),
        overdue: false,
        due_soon: false,
        next_attempt_at: r.get::<_, Option<String>>("next_attempt_at")?.map(Instant),
        authority_reference: r.get("authority_reference")?,
        last_error: r.get("last_error")?,
        record_date: r.get("record_date")?,
        payload_sha256: r.get("payload_sha256")?,
        rows: serde_json::from_str(&rows).map_err(json_error)?,
        exchanges: None,
        created_at: Instant(r.get("created_at")?),
        updated_at: Instant(r.get("updated_at")?),
    })
}

/// Inserts a queued submission; returns its id.
pub fn insert(tx: &Tx, s: &NewSubmission) -> AppResult<String> {
    let id = crate::ids::new("sub");
    let now = tx.now_text();
    let rows = serde_json::to_string(&s.rows).map_err(crate::error::AppError::internal)?;
    tx.prepare_cached(
        "INSERT INTO compliance_submissions (id, kind, scheme, subject_id, status, due_at, payload,
             payload_sha256, rows, record_date, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
    )?
    .execute((
        &id,
        s.kind,
        s.scheme,
        &s.subject_id,
        &s.due_at,
        &s.payload,
        sha256_hex(s.payload.as_bytes()),
        rows,
        s.record_date,
        &now,
    ))?;
    Ok(id)
}

/// A submission (without its exchange log).
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Submission>> {
    Ok(conn
        .prepare_cached("SELECT * FROM compliance_submissions WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// The newest submission of `kind` about `subject_id`.
pub fn newest_of(
    conn: &Connection,
    subject_id: &str,
    kind: crate::domain::enums::SubmissionKind,
) -> AppResult<Option<Submission>> {
    Ok(conn
        .prepare_cached(
            "SELECT * FROM compliance_submissions WHERE subject_id = ?1 AND kind = ?2
             ORDER BY created_at DESC, id DESC LIMIT 1",
        )?
        .query_row((subject_id, kind), map)
        .optional()?)
}

/// Every submission of `kind` about `subject_id`, oldest first.
pub fn of_subject(
    conn: &Connection,
    subject_id: &str,
    kind: SubmissionKind,
) -> AppResult<Vec<Submission>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM compliance_submissions WHERE subject_id = ?1 AND kind = ?2
         ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map((subject_id, kind), map)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether a submission about `subject_id` older than `id` (created before it) is still on
/// its way (queued, sending or retrying) or waits for an operator (its outcome unknown):
/// what follows it must not overtake it.
pub fn earlier_open(
    conn: &Connection,
    subject_id: &str,
    id: &str,
    created_at: &str,
) -> AppResult<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM compliance_submissions WHERE subject_id = ?1 AND id != ?2
               AND (created_at < ?3 OR (created_at = ?3 AND id < ?2))
               AND status IN ('queued', 'sending', 'retrying', 'unknown', 'manual_required')
             LIMIT 1",
        )?
        .query_row((subject_id, id, created_at), |_| Ok(()))
        .optional()?
        .is_some())
}

/// A submission's stored payload.
pub fn payload(conn: &Connection, id: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT payload FROM compliance_submissions WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// Writes a submission's changeable state back (status, attempts, rows and payload,
/// reference, error, next attempt).
pub fn save(tx: &Tx, s: &Submission, payload: &str) -> AppResult<()> {
    let rows = serde_json::to_string(&s.rows).map_err(crate::error::AppError::internal)?;
    tx.prepare_cached(
        "UPDATE compliance_submissions SET status = ?2, attempts = ?3, rows = ?4, payload = ?5,
             payload_sha256 = ?6, authority_reference = ?7, last_error = ?8, next_attempt_at = ?9,
             updated_at = ?10
         WHERE id = ?1",
    )?
    .execute((
        &s.id,
        &s.status,
        s.attempts,
        rows,
        payload,
        sha256_hex(payload.as_bytes()),
        &s.authority_reference,
        &s.last_error,
        s.next_attempt_at.as_ref().map(|i| &i.0),
        tx.now_text(),
    ))?;
    Ok(())
}

/// Saves where a submission stands, leaving its rows and payload as they are (an e-invoice's
/// document is not read, hashed and written again at each look at the intermediary).
pub fn save_state(tx: &Tx, s: &Submission) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE compliance_submissions SET status = ?2, attempts = ?3, authority_reference = ?4,
             last_error = ?5, next_attempt_at = ?6, updated_at = ?7
         WHERE id = ?1",
    )?
    .execute((
        &s.id,
        &s.status,
        s.attempts,
        &s.authority_reference,
        &s.last_error,
        s.next_attempt_at.as_ref().map(|i| &i.0),
        tx.now_text(),
    ))?;
    Ok(())
}

/// Appends one exchange to the log.
pub fn append_exchange(tx: &Tx, submission_id: &str, attempt: i64, e: &Exchange) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO compliance_exchanges (submission_id, attempt, operation, request, response,
             http_status, error, started_at, duration_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute((
        submission_id,
        attempt,
        &e.operation,
        &e.request,
        &e.response,
        e.http_status.map(i64::from),
        &e.error,
        crate::clock::format_instant(e.started_at),
        e.duration_ms,
    ))?;
    Ok(())
}

/// A submission's exchange log, oldest first.
pub fn exchanges(conn: &Connection, submission_id: &str) -> AppResult<Vec<ExchangeRecord>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM compliance_exchanges WHERE submission_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([submission_id], |r| {
        Ok(ExchangeRecord {
            sequence: r.get("seq")?,
            attempt: r.get("attempt")?,
            operation: r.get("operation")?,
            request: r.get("request")?,
            response: r.get("response")?,
            http_status: r.get("http_status")?,
            error: r.get("error")?,
            started_at: Instant(r.get("started_at")?),
            duration_ms: r.get("duration_ms")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A page of submissions, filtered by kinds and statuses.
pub fn list(
    conn: &Connection,
    kinds: &[String],
    statuses: &[String],
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Submission, Position)>> {
    let mut q = ListQuery::new("submission", "compliance_submissions", "created_at");
    for (column, values) in [("kind", kinds), ("status", statuses)] {
        if !values.is_empty() {
            q.filter(
                format!("t.{column} IN ({})", vec!["?"; values.len()].join(", ")),
                values.iter().map(|s| Value::Text(s.clone())),
            );
        }
    }
    page::fetch(conn, &q, after, as_of, limit, map)
}

/// The submissions of a kind recorded for a day, oldest first.
pub fn for_record_date(
    conn: &Connection,
    kind: SubmissionKind,
    day: Date,
) -> AppResult<Vec<Submission>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM compliance_submissions WHERE kind = ?1 AND record_date = ?2
         ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map((kind, day), map)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Submissions by kind and status, and how many of them are past due and not accepted.
pub fn counts(conn: &Connection, now: &str, soon: &str) -> AppResult<Vec<Counts>> {
    let mut stmt = conn.prepare_cached(
        "SELECT kind, status, COUNT(*), SUM(status <> 'accepted' AND due_at < ?1),
                SUM(status <> 'accepted' AND due_at >= ?1 AND due_at < ?2)
         FROM compliance_submissions GROUP BY kind, status ORDER BY kind, status",
    )?;
    let rows = stmt.query_map([now, soon], |r| {
        Ok(Counts {
            kind: r.get(0)?,
            status: r.get(1)?,
            count: r.get(2)?,
            overdue: r.get(3)?,
            due_soon: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Submissions of one kind and status, with how many are past or near their deadline.
pub struct Counts {
    /// Kind.
    pub kind: String,
    /// Status.
    pub status: String,
    /// How many.
    pub count: i64,
    /// How many are past their deadline and not accepted.
    pub overdue: i64,
    /// How many are within a day of their deadline and not accepted.
    pub due_soon: i64,
}

/// Appends exchanges to the log, in order.
pub fn append_exchanges(
    tx: &Tx,
    submission_id: &str,
    attempt: i64,
    log: &[Exchange],
) -> AppResult<()> {
    for e in log {
        append_exchange(tx, submission_id, attempt, e)?;
    }
    Ok(())
}

/// Marks a submission `sending` as attempt `attempt`, committed before the rows leave: a
/// run that later finds it still `sending` knows the answer was lost.
pub fn mark_sending(tx: &Tx, id: &str, attempt: i64) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE compliance_submissions SET status = 'sending', attempts = ?2, updated_at = ?3 WHERE id = ?1",
    )?
    .execute((id, attempt, tx.now_text()))?;
    Ok(())
}
