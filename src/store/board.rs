//! The room board's reads: every room with its type, and the stays that overlap a window of
//! days, in one query each (never one per cell). Short stays are found through their
//! arrival, departure and status together (`reservations_board`, so the stays that left
//! before the window are passed over in the index), longer ones (over [`LONG`] nights)
//! through the `reservations_long_stays` index.

use rusqlite::Connection;

use crate::error::AppResult;

/// Stays longer than this many nights are read through their own index.
pub const LONG: i64 = 28;

/// A room as a board row.
#[derive(Debug, Clone)]
pub struct BoardRoom {
    /// `rom_…`
    pub id: String,
    /// Its number.
    pub number: String,
    /// Its type.
    pub room_type_id: String,
    /// Its type's name.
    pub room_type: String,
    /// Housekeeping state.
    pub status: String,
}

/// A stay as a bar on the board.
#[derive(Debug, Clone)]
pub struct BoardStay {
    /// `res_…`
    pub id: String,
    /// The primary guest's name.
    pub guest: String,
    /// Its room type.
    pub room_type_id: String,
    /// Its room, once assigned.
    pub room_id: Option<String>,
    /// Arrival day.
    pub arrival: String,
    /// Departure day.
    pub departure: String,
    /// `confirmed`, `checked_in` or `checked_out`.
    pub status: String,
    /// The booking's notes and the guest's, where there are any.
    pub notes: Option<String>,
    /// The reservation's version, so a move from the board is refused when it changed
    /// meanwhile.
    pub version: i64,
}

/// Every room, by type name and number.
pub fn rooms(conn: &Connection) -> AppResult<Vec<BoardRoom>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.id, m.number, m.room_type_id, t.name, m.housekeeping_status
           FROM rooms m JOIN room_types t ON t.id = m.room_type_id
          ORDER BY t.name, t.id, length(m.number), m.number",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(BoardRoom {
            id: r.get(0)?,
            number: r.get(1)?,
            room_type_id: r.get(2)?,
            room_type: r.get(3)?,
            status: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The board's stays: `?1` from, `?2` to, `?3` from less [`LONG`] days.
const STAYS: &str = "SELECT r.id, g.first_name || ' ' || g.last_name, r.room_type_id, r.room_id,
                r.arrival, r.departure, r.status, concat_ws(' · ', r.notes, g.notes), r.version
           FROM reservations r INDEXED BY reservations_board
           JOIN guests g ON g.id = r.primary_guest_id
          WHERE r.arrival >= ?3 AND r.arrival < ?2 AND r.departure > ?1
            AND r.status IN ('confirmed', 'checked_in', 'checked_out')
         UNION ALL
         SELECT r.id, g.first_name || ' ' || g.last_name, r.room_type_id, r.room_id,
                r.arrival, r.departure, r.status, concat_ws(' · ', r.notes, g.notes), r.version
           FROM reservations r INDEXED BY reservations_long_stays
           JOIN guests g ON g.id = r.primary_guest_id
          WHERE julianday(r.departure) - julianday(r.arrival) > 28
            AND r.departure > ?1 AND r.arrival < ?3
            AND r.status IN ('confirmed', 'checked_in', 'checked_out')
         ORDER BY 5, 1";

/// The stays (booked, in house or gone) that overlap the days `from` to `to` (exclusive);
/// `long_from` is `from` less [`LONG`] days.
pub fn stays(
    conn: &Connection,
    from: &str,
    to: &str,
    long_from: &str,
) -> AppResult<Vec<BoardStay>> {
    let mut stmt = conn.prepare_cached(STAYS)?;
    let rows = stmt.query_map([from, to, long_from], |r| {
        Ok(BoardStay {
            id: r.get(0)?,
            guest: r.get(1)?,
            room_type_id: r.get(2)?,
            room_id: r.get(3)?,
            arrival: r.get(4)?,
            departure: r.get(5)?,
            status: r.get(6)?,
            notes: r
                .get::<_, Option<String>>(7)?
                .filter(|n| !n.trim().is_empty()),
            version: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::STAYS;

    /// The board's stays are found through indexes, never by reading every reservation.
    #[test]
    fn the_board_never_scans_reservations() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        let query = format!("EXPLAIN QUERY PLAN {STAYS}");
        let mut stmt = conn.prepare(&query).unwrap();
        let plan: Vec<String> = stmt
            .query_map(["2026-11-01", "2026-11-15", "2026-10-04"], |r| r.get(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            plan.iter().all(|step| !step.starts_with("SCAN r ")),
            "{plan:?}"
        );
        assert!(
            plan.iter().any(|s| s.contains("reservations_long_stays")),
            "{plan:?}"
        );
        assert!(
            plan.iter().any(|s| s
                .contains("USING COVERING INDEX reservations_board (arrival>? AND arrival<?)")
                || s.contains("USING INDEX reservations_board (arrival>? AND arrival<?)")),
            "{plan:?}"
        );
    }
}
