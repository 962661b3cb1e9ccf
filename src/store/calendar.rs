//! What the compliance calendar and the inspection pack read: the submissions due in a
//! range (the newest of each subject and kind), the closed days and the cash register's
//! closures.

use rusqlite::Connection;

use crate::error::AppResult;

/// A submission in the pack: id, kind, scheme, subject, status, due, reference, the
/// payload's SHA-256, the payload, made, last changed.
pub type Proof = (
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    String,
    String,
);

/// The submissions due between the instants `from` and `to`, and with `made` also those
/// made between them (the newest of each subject and kind; an earlier one sent again is
/// replaced by it), by deadline.
pub fn due(conn: &Connection, from: &str, to: &str, made: bool) -> AppResult<Vec<Proof>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.kind, s.scheme, s.subject_id, s.status, s.due_at,
                s.authority_reference, s.payload_sha256, s.payload, s.created_at, s.updated_at
           FROM compliance_submissions s
          WHERE ((s.due_at >= ?1 AND s.due_at < ?2)
                 OR (?3 AND s.created_at >= ?1 AND s.created_at < ?2))
            AND NOT EXISTS (SELECT 1 FROM compliance_submissions n
                             WHERE n.subject_id = s.subject_id AND n.kind = s.kind
                               AND (n.created_at, n.id) > (s.created_at, s.id))
          ORDER BY s.due_at, s.id",
    )?;
    let rows = stmt.query_map((from, to, made), |r| Proof::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A closed day in the pack: (day, certificate body, hash).
pub type Closed = (String, String, String);

/// The closed days from `from` to `to` (exclusive).
pub fn closes(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<Closed>> {
    let mut stmt = conn.prepare_cached(
        "SELECT date, body, hash FROM day_closes WHERE date >= ?1 AND date < ?2 ORDER BY date",
    )?;
    let rows = stmt.query_map([from, to], |r| Closed::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The first day the property issued an invoice or closed a day (its cash register's
/// closures are owed from then on).
pub fn first_day(conn: &Connection) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT MIN(d) FROM (SELECT MIN(issue_date) AS d FROM invoices
                                 UNION ALL SELECT MIN(date) FROM day_closes)",
        )?
        .query_row([], |r| r.get(0))?)
}

/// Records that the cash register closed `day`'s takings, saying `message`.
pub fn register_closed(tx: &crate::db::Tx, day: &str, message: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO register_closures (day, closed_at, message) VALUES (?1, ?2, ?3)",
    )?
    .execute((day, tx.now_text(), message))?;
    Ok(())
}

/// The days from `from` to `to` (exclusive) whose takings the cash register closed.
pub fn register_days(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT day FROM register_closures WHERE day >= ?1 AND day < ?2 ORDER BY day",
    )?;
    let rows = stmt.query_map([from, to], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
