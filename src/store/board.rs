//! The room board's reads: every room with its type, the stays that overlap a window of
//! days, and the names of the stays it draws, in one query each (never one per cell). Short
//! stays are read from the `reservations_board` index alone (by arrival, with the departure
//! and status in the entry, so the stays that left before the window are passed over without
//! a row read), longer ones (over
//! [`LONG`] nights) through the `reservations_long_stays` index.

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

/// A stay as a bar on the board, read ([`drawn`]) only for the stays the board draws.
#[derive(Debug, Clone)]
pub struct BoardStay {
    /// `res_…`
    pub id: String,
    /// The primary guest's name.
    pub guest: String,
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

/// A stay as the board's layout needs it, read without allocating: the reservation's row
/// id, and its room and type as indexes into the board's rooms and types.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    /// The reservation's SQLite row id.
    pub rowid: i64,
    /// Its room's index in the rooms given, if it has one the board shows.
    pub room: Option<usize>,
    /// Its room type's index in the types given.
    pub room_type: usize,
    /// Arrival day.
    pub arrival: chrono::NaiveDate,
    /// Departure day.
    pub departure: chrono::NaiveDate,
    /// Booked or in the house (not checked out).
    pub active: bool,
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

/// The board's stays, from the index alone for the short ones: `?1` from, `?2` to, `?3` from
/// less [`LONG`] days.
const STAYS: &str = "SELECT r.rowid, r.room_type_id, r.room_id, r.arrival, r.departure, r.status
           FROM reservations r INDEXED BY reservations_board
          WHERE r.arrival >= ?3 AND r.arrival < ?2 AND r.departure > ?1
            AND r.status IN ('confirmed', 'checked_in', 'checked_out')
         UNION ALL
         SELECT r.rowid, r.room_type_id, r.room_id, r.arrival, r.departure, r.status
           FROM reservations r INDEXED BY reservations_long_stays
          WHERE julianday(r.departure) - julianday(r.arrival) > 28
            AND r.departure > ?1 AND r.arrival < ?3
            AND r.status IN ('confirmed', 'checked_in', 'checked_out')";

/// The stays (booked, in house or gone) that overlap the days `from` to `to` (exclusive) in
/// one of `types` (room type ids); `long_from` is `from` less [`LONG`] days.
pub fn slots(
    conn: &Connection,
    (from, to, long_from): (&str, &str, &str),
    rooms: &[BoardRoom],
    types: &[&str],
) -> AppResult<Vec<Slot>> {
    let room_at: std::collections::HashMap<&str, usize> = rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let mut stmt = conn.prepare_cached(STAYS)?;
    let mut rows = stmt.query([from, to, long_from])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let text = |i: usize| r.get_ref(i).and_then(|v| Ok(v.as_str()?));
        let day = |i: usize| -> rusqlite::Result<chrono::NaiveDate> {
            crate::domain::rules::date(text(i)?).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    i,
                    rusqlite::types::Type::Text,
                    e.message.into(),
                )
            })
        };
        let type_id = text(1)?;
        let Some(room_type) = types.iter().position(|t| *t == type_id) else {
            continue; // a type without rooms has no row on the board
        };
        let room = match r.get_ref(2)? {
            rusqlite::types::ValueRef::Text(id) => std::str::from_utf8(id)
                .ok()
                .and_then(|id| room_at.get(id).copied()),
            _ => None,
        };
        out.push(Slot {
            rowid: r.get(0)?,
            room,
            room_type,
            arrival: day(3)?,
            departure: day(4)?,
            active: text(5)? != "checked_out",
        });
    }
    Ok(out)
}

/// The stays with these row ids, with their guests' names and notes, in one query.
pub fn drawn(
    conn: &Connection,
    rowids: &[i64],
) -> AppResult<std::collections::HashMap<i64, BoardStay>> {
    let ids = serde_json::to_string(rowids)?;
    let mut stmt = conn.prepare_cached(
        "SELECT r.rowid, r.id, g.first_name || ' ' || g.last_name, r.room_id, r.arrival,
                r.departure, r.status, concat_ws(' · ', r.notes, g.notes), r.version
           FROM reservations r JOIN guests g ON g.id = r.primary_guest_id
          WHERE r.rowid IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = stmt.query_map([ids], |r| {
        Ok((
            r.get(0)?,
            BoardStay {
                id: r.get(1)?,
                guest: r.get(2)?,
                room_id: r.get(3)?,
                arrival: r.get(4)?,
                departure: r.get(5)?,
                status: r.get(6)?,
                notes: r
                    .get::<_, Option<String>>(7)?
                    .filter(|n| !n.trim().is_empty()),
                version: r.get(8)?,
            },
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::STAYS;

    /// The board's stays are found through indexes, never by reading every reservation, and
    /// the short ones from the index alone.
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
            plan.iter()
                .any(|s| s
                    .contains("USING COVERING INDEX reservations_board (arrival>? AND arrival<?)")),
            "{plan:?}"
        );
    }

    /// The indexes V49 merged still serve what the dropped ones served: a booking's
    /// availability check reads no row, and the lists come in their order (arrival, id)
    /// from an index, whole or by room type, with nothing sorted.
    #[test]
    fn availability_and_list_order_come_from_indexes() {
        let check = crate::store::plan_of(
            &crate::store::reservations::OF_TYPE,
            ("rt", "2026-11-15", "2026-11-01", "res", "2026-10-04"),
        );
        assert!(
            check
                .iter()
                .any(|s| s.contains("USING COVERING INDEX reservations_type (room_type_id=?")),
            "{check:?}"
        );
        let page = "SELECT t.* FROM reservations t WHERE (t.arrival, t.id) > (?1, ?2) {} \
                    ORDER BY t.arrival, t.id LIMIT 51";
        for (filter, index) in [
            ("", "reservations_board"),
            ("AND t.room_type_id = 'rt'", "reservations_type"),
        ] {
            let plan = crate::store::plan_of(&page.replace("{}", filter), ("2026-11-01", "res"));
            assert!(plan.iter().any(|s| s.contains(index)), "{plan:?}");
            assert!(plan.iter().all(|s| !s.contains("TEMP B-TREE")), "{plan:?}");
        }
    }
}
