//! Closed days and what the day close reads: the reservations it names, the day's counts,
//! the books' totals, the numbering and what the authorities have not accepted yet.

use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::domain::day_close::Books;
use crate::error::AppResult;
use crate::model::{Date, DayPending, DayReservation, Instant};

/// A closed day as stored: id, day, certificate body, hash.
pub type Stored = (String, Date, String, String);

/// The last day closed and its hash.
pub fn last(conn: &Connection) -> AppResult<Option<(NaiveDate, String)>> {
    Ok(conn
        .prepare_cached("SELECT date, hash FROM day_closes ORDER BY date DESC LIMIT 1")?
        .query_row([], |r| Ok((r.get::<_, Date>(0)?.0, r.get(1)?)))
        .optional()?)
}

/// Every closed day, oldest first.
pub fn chain(conn: &Connection) -> AppResult<Vec<Stored>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, date, body, hash FROM day_closes ORDER BY date")?;
    let rows = stmt.query_map([], |r| Stored::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records a closed day.
pub fn insert(tx: &Tx, id: &str, day: NaiveDate, body: &str, hash: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO day_closes (id, date, body, hash, closed_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute((id, day.to_string(), body, hash, tx.now_text()))?;
    Ok(())
}

/// Which reservations of the day to name.
#[derive(Debug, Clone, Copy)]
pub enum Named {
    /// Arrivals of the day still `confirmed`.
    Waiting,
    /// Guests in the house due to leave by the day.
    Overdue,
}

/// The reservations the close names, by arrival then code.
pub fn named(conn: &Connection, which: Named, day: NaiveDate) -> AppResult<Vec<DayReservation>> {
    // The guests in the house come from their partial index (a few rows), never from a
    // walk of the history's departures.
    let (filter, index) = match which {
        Named::Waiting => ("r.status = 'confirmed' AND r.arrival = ?1", ""),
        Named::Overdue => (
            "r.status = 'checked_in' AND r.departure <= ?1",
            " INDEXED BY reservations_in_house",
        ),
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT r.id, r.code, g.first_name || ' ' || g.last_name, m.number, r.arrival, r.departure
           FROM reservations r{index}
           JOIN guests g ON g.id = r.primary_guest_id
           LEFT JOIN rooms m ON m.id = r.room_id
          WHERE {filter} ORDER BY r.arrival, r.code"
    ))?;
    let rows = stmt.query_map([day.to_string()], |r| {
        Ok(DayReservation {
            reservation_id: r.get(0)?,
            code: r.get(1)?,
            guest: r.get(2)?,
            room: r.get(3)?,
            arrival: r.get(4)?,
            departure: r.get(5)?,
            fee: None,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The rooms guests are in now: (room id, number).
pub fn in_house_rooms(conn: &Connection) -> AppResult<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.id, m.number FROM reservations r INDEXED BY reservations_in_house
           JOIN rooms m ON m.id = r.room_id
          WHERE r.status = 'checked_in' ORDER BY m.number",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The day's stay counts: (arrived, left, no-shows, in the house that night).
pub fn counts(conn: &Connection, day: NaiveDate) -> AppResult<(i64, i64, i64, i64)> {
    Ok(conn
        .prepare_cached(
            "SELECT
               COUNT(*) FILTER (WHERE arrival = ?1 AND status IN ('checked_in', 'checked_out')),
               COUNT(*) FILTER (WHERE departure = ?1 AND status = 'checked_out'),
               COUNT(*) FILTER (WHERE arrival = ?1 AND status = 'no_show'),
               COUNT(*) FILTER (WHERE arrival <= ?1 AND departure > ?1
                                  AND status IN ('checked_in', 'checked_out'))
             FROM reservations WHERE arrival <= ?1 AND departure >= ?1",
        )?
        .query_row([day.to_string()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?)
}

/// Invoices and credit notes issued on the day: (invoices, their gross, credit notes, their
/// gross as a positive amount).
pub fn issued(conn: &Connection, day: NaiveDate) -> AppResult<(i64, i64, i64, i64)> {
    let next = day.succ_opt().unwrap_or(day);
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*) FILTER (WHERE kind = 'invoice'),
                    COALESCE(SUM(gross) FILTER (WHERE kind = 'invoice'), 0),
                    COUNT(*) FILTER (WHERE kind = 'credit_note'),
                    -COALESCE(SUM(gross) FILTER (WHERE kind = 'credit_note'), 0)
               FROM invoices WHERE sort_key >= ?1 AND sort_key < ?2",
        )?
        .query_row([day.to_string(), next.to_string()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?)
}

/// The books' totals over every invoice and payment.
pub fn books(conn: &Connection) -> AppResult<Books> {
    let (invoiced, credited, paid, outstanding) = conn
        .prepare_cached(
            "SELECT COALESCE(SUM(gross) FILTER (WHERE kind = 'invoice'), 0),
                    -COALESCE(SUM(gross) FILTER (WHERE kind = 'credit_note'), 0),
                    COALESCE(SUM(paid_amount), 0),
                    COALESCE(SUM(gross - paid_amount)
                             FILTER (WHERE kind = 'invoice' AND status = 'issued'), 0)
               FROM invoices",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    let recorded = conn
        .prepare_cached(
            "SELECT COALESCE(SUM(CASE p.kind WHEN 'refund' THEN -p.amount ELSE p.amount END), 0)
               FROM payments p",
        )?
        .query_row([], |r| r.get(0))?;
    Ok(Books {
        invoiced,
        credited,
        paid,
        outstanding,
        recorded,
    })
}

/// Each numbering series: (series, numbers issued, highest number).
pub fn series(conn: &Connection) -> AppResult<Vec<(String, i64, i64)>> {
    let mut stmt =
        conn.prepare_cached("SELECT series, COUNT(*), MAX(seq) FROM invoices GROUP BY series")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The stays checked out between the instants `from` and `to`: (code, nights, nights on
/// their invoices still standing).
pub fn checked_out(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<(String, i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.code, CAST(julianday(r.departure) - julianday(r.arrival) AS INTEGER),
                (SELECT COALESCE(SUM(l.quantity), 0)
                   FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id
                  WHERE i.reservation_id = r.id AND i.kind = 'invoice'
                    AND i.status != 'cancelled' AND l.kind = 'accommodation')
           FROM reservations r
          WHERE r.checked_out_at >= ?1 AND r.checked_out_at < ?2 AND r.status = 'checked_out'",
    )?;
    let rows = stmt.query_map([from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Submissions not accepted yet that were made before the instant `until`, by deadline:
/// the newest of each subject and kind (one sent again after a refusal replaces it), and
/// none about an invoice since cancelled by a credit note (its correction is a new one).
pub fn pending(conn: &Connection, until: &str, now: &str) -> AppResult<Vec<DayPending>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.kind, s.status, s.due_at, s.due_at < ?2 FROM compliance_submissions s
          WHERE s.status != 'accepted' AND s.created_at < ?1
            AND NOT EXISTS (SELECT 1 FROM compliance_submissions n
                             WHERE n.subject_id = s.subject_id AND n.kind = s.kind
                               AND (n.created_at, n.id) > (s.created_at, s.id))
            AND NOT EXISTS (SELECT 1 FROM invoices i
                             WHERE i.id = s.subject_id AND i.status = 'cancelled')
          ORDER BY s.due_at, s.id",
    )?;
    let rows = stmt.query_map([until, now], |r| {
        Ok(DayPending {
            submission_id: r.get(0)?,
            kind: r.get(1)?,
            status: r.get(2)?,
            due_at: Instant(r.get(3)?),
            overdue: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
