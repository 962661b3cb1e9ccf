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
        r.arrival, r.departure, t.name, m.number
   FROM reservations r
   JOIN guests g ON g.id = r.primary_guest_id
   JOIN room_types t ON t.id = r.room_type_id
   LEFT JOIN rooms m ON m.id = r.room_id";

fn stays(conn: &Connection, condition: &str, day: &str) -> AppResult<Vec<StayRow>> {
    let sql =
        format!("{STAY} WHERE {condition} ORDER BY m.number IS NULL, m.number, g.sort_key, r.id");
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
