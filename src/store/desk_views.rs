//! The desk's screens read in one query per list (never one per row): Today's arrivals,
//! in-house stays and departures with their guest, room type and room, and the day's counts.

use rusqlite::Connection;

use crate::error::AppResult;

/// One stay on a desk list.
#[derive(Debug, Clone)]
pub struct StayRow {
    /// `res_…`
    pub id: String,
    /// The booking code.
    pub code: String,
    /// The primary guest's first and last name.
    pub guest: String,
    /// Adults.
    pub adults: i64,
    /// Children.
    pub children: i64,
    /// Arrival day.
    pub arrival: String,
    /// Departure day.
    pub departure: String,
    /// The room type's name.
    pub room_type: String,
    /// The room's number, once assigned.
    pub room: Option<String>,
    /// The room's id, once assigned.
    pub room_id: Option<String>,
    /// The bill so far: the booked nights at the rate and the folio not yet invoiced
    /// (minor units; the city tax comes at check-out).
    pub bill: i64,
    /// Its currency.
    pub currency: String,
    /// The booking's notes and the primary guest's, where there are any.
    pub notes: Vec<String>,
    /// Whether the guest pre-checked-in online, and the arrival time they gave.
    pub pre_checked_in: (bool, Option<String>),
}

/// Counts for the day's header.
#[derive(Debug, Clone, Default)]
pub struct DayCounts {
    /// Rooms in service (not out of order).
    pub in_service: i64,
    /// Rooms marked dirty.
    pub dirty: i64,
}

const STAY: &str = "SELECT r.id, r.code, g.first_name || ' ' || g.last_name, r.adults, r.children,
        r.arrival, r.departure, t.name, m.number, r.room_id,
        COALESCE((SELECT SUM(json_extract(n.value, '$.price')) FROM json_each(r.night_prices) n),
                 r.nightly_rate * CAST(julianday(r.departure) - julianday(r.arrival) AS INTEGER))
          + COALESCE((SELECT SUM(c.quantity * c.unit_price) FROM folio_charges c
                       WHERE c.reservation_id = r.id AND c.invoice_id IS NULL), 0),
        r.currency, r.notes, g.notes, pc.reservation_id IS NOT NULL, pc.arrival_time
   FROM reservations r
   JOIN guests g ON g.id = r.primary_guest_id
   JOIN room_types t ON t.id = r.room_type_id
   LEFT JOIN rooms m ON m.id = r.room_id
   LEFT JOIN pre_check_ins pc ON pc.reservation_id = r.id";

/// The stays checked in are read from their partial index (a few rows): left to itself the
/// planner could walk every departure in the history instead (95 ms per Today page at a
/// million reservations, innkeep-bench).
const IN_HOUSE: &str = "FROM reservations r INDEXED BY reservations_in_house";

fn stays(conn: &Connection, condition: &str, day: &str) -> AppResult<Vec<StayRow>> {
    let from = if condition.starts_with("r.status = 'checked_in'") {
        STAY.replacen("FROM reservations r", IN_HOUSE, 1)
    } else {
        STAY.to_string()
    };
    let sql =
        format!("{from} WHERE {condition} ORDER BY m.number IS NULL, m.number, g.sort_key, r.id");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([day], |r| {
        Ok(StayRow {
            id: r.get(0)?,
            code: r.get(1)?,
            guest: r.get(2)?,
            adults: r.get(3)?,
            children: r.get(4)?,
            arrival: r.get(5)?,
            departure: r.get(6)?,
            room_type: r.get(7)?,
            room: r.get(8)?,
            room_id: r.get(9)?,
            bill: r.get(10)?,
            currency: r.get(11)?,
            notes: [r.get::<_, Option<String>>(12)?, r.get(13)?]
                .into_iter()
                .flatten()
                .filter(|n| !n.trim().is_empty())
                .collect(),
            pre_checked_in: (r.get(14)?, r.get(15)?),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Confirmed stays due by `day` and not yet in (late arrivals included).
pub fn arrivals(conn: &Connection, day: &str) -> AppResult<Vec<StayRow>> {
    stays(
        conn,
        "r.status = 'confirmed' AND r.arrival <= ?1 AND r.departure > ?1",
        day,
    )
}

/// Stays checked in that stay past `day`.
pub fn in_house(conn: &Connection, day: &str) -> AppResult<Vec<StayRow>> {
    stays(conn, "r.status = 'checked_in' AND r.departure > ?1", day)
}

/// Stays checked in that are due to leave by `day`.
pub fn departures(conn: &Connection, day: &str) -> AppResult<Vec<StayRow>> {
    stays(conn, "r.status = 'checked_in' AND r.departure <= ?1", day)
}

/// Rooms in service, and dirty rooms, now.
pub fn counts(conn: &Connection) -> AppResult<DayCounts> {
    Ok(conn
        .prepare_cached(
            "SELECT
               COUNT(*) FILTER (WHERE m.housekeeping_status != 'out_of_order'),
               COUNT(*) FILTER (WHERE m.housekeeping_status = 'dirty')
             FROM rooms m",
        )?
        .query_row([], |r| {
            Ok(DayCounts {
                in_service: r.get(0)?,
                dirty: r.get(1)?,
            })
        })?)
}

/// The credit note reversing invoice `id`, if any: its id and number.
pub fn reversed_by(conn: &Connection, id: &str) -> AppResult<Option<(String, String)>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached("SELECT id, number FROM invoices WHERE corrects_invoice_id = ?1 LIMIT 1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// The corrected invoice replacing a reversed one, when there is one: its id and number.
pub fn replaced_by(conn: &Connection, id: &str) -> AppResult<Option<(String, String)>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached("SELECT id, number FROM invoices WHERE reissues_invoice_id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// An invoice's number, by its id.
pub fn invoice_number(conn: &Connection, id: &str) -> AppResult<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached("SELECT number FROM invoices WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// A deposit Today lists: due by today or before and not yet paid in full.
#[derive(Debug, Clone)]
pub struct DueDeposit {
    /// `res_…`
    pub id: String,
    /// The booking code.
    pub code: String,
    /// The primary guest's first and last name.
    pub guest: String,
    /// Arrival day.
    pub arrival: String,
    /// The day it was due by.
    pub due_by: String,
    /// Still to pay, minor units.
    pub outstanding: i64,
    /// Its currency.
    pub currency: String,
}

/// Confirmed bookings whose deposit is due on `day` or before and not paid in full, the
/// longest overdue first (at most 200; the partial index `reservations_deposit_due` holds
/// exactly these rows).
pub fn deposits_due(c: &Connection, day: &str) -> AppResult<Vec<DueDeposit>> {
    let mut stmt = c.prepare_cached(
        "SELECT r.id, r.code, g.first_name || ' ' || g.last_name, r.arrival,
                json_extract(r.deposit, '$.due_by'), json_extract(r.deposit, '$.outstanding'),
                r.currency
           FROM reservations r JOIN guests g ON g.id = r.primary_guest_id
          WHERE r.status = 'confirmed' AND json_extract(r.deposit, '$.outstanding') > 0
            AND json_extract(r.deposit, '$.due_by') <= ?1
          ORDER BY json_extract(r.deposit, '$.due_by'), r.arrival, r.id
          LIMIT 200",
    )?;
    let rows = stmt.query_map([day], |r| {
        Ok(DueDeposit {
            id: r.get(0)?,
            code: r.get(1)?,
            guest: r.get(2)?,
            arrival: r.get(3)?,
            due_by: r.get(4)?,
            outstanding: r.get(5)?,
            currency: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    /// The stays in the house and the departures are read from the partial index of the
    /// stays checked in, never by walking the history's departures.
    #[test]
    fn stays_in_the_house_come_from_their_index() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        assert!(super::in_house(&conn, "2026-11-28").unwrap().is_empty());
        assert!(super::departures(&conn, "2026-11-28").unwrap().is_empty());
        let sql = format!(
            "{} WHERE r.status = 'checked_in' AND r.departure <= ?1",
            super::STAY.replacen("FROM reservations r", super::IN_HOUSE, 1)
        );
        let plan = crate::store::plan_of(&sql, ["2026-11-28"]);
        assert!(
            plan.iter().any(|s| s.contains("reservations_in_house")),
            "{plan:?}"
        );
    }
}
