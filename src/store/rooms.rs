//! Rooms. List order: `number`, then id. `occupied` is derived from checked-in stays.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::domain::enums::HousekeepingStatus;
use crate::error::AppResult;
use crate::model::Room;

const ENTITY: &str = "room";
const OCCUPIED: &str = ", EXISTS (SELECT 1 FROM reservations r \
    WHERE r.room_id = t.id AND r.status = 'checked_in') AS occupied";

fn map(row: &Row) -> rusqlite::Result<Room> {
    let r = super::Named::new(row);
    Ok(Room {
        id: r.get("id")?,
        number: r.get("number")?,
        room_type_id: r.get("room_type_id")?,
        floor: r.get("floor")?,
        housekeeping_status: r.get("housekeeping_status")?,
        occupied: r.get("occupied")?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// One room.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Room>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT t.*{OCCUPIED} FROM rooms t WHERE t.id = ?1"
        ))?
        .query_row([id], map)
        .optional()?)
}

/// The id of the room with this number, if any.
pub fn id_by_number(conn: &Connection, number: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT id FROM rooms WHERE number = ?1")?
        .query_row([number], |r| r.get(0))
        .optional()?)
}

/// Rooms of a type: (all, out of order).
pub fn count_of_type(conn: &Connection, room_type_id: &str) -> AppResult<(i64, i64)> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*), COALESCE(SUM(housekeeping_status = 'out_of_order'), 0)
             FROM rooms WHERE room_type_id = ?1",
        )?
        .query_row([room_type_id], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

fn write(tx: &Tx, sql: &str, room: &Room) -> AppResult<()> {
    tx.prepare_cached(sql)?.execute(rusqlite::named_params! {
        ":id": &room.id,
        ":number": &room.number,
        ":room_type_id": &room.room_type_id,
        ":floor": room.floor,
        ":housekeeping_status": room.housekeeping_status,
        ":version": room.version,
        ":created_at": &room.created_at.0,
        ":updated_at": &room.updated_at.0,
    })?;
    Ok(())
}

/// Inserts a room.
pub fn insert(tx: &Tx, room: &Room) -> AppResult<()> {
    write(
        tx,
        "INSERT INTO rooms (id, number, room_type_id, floor, housekeeping_status, version,
                            created_at, updated_at)
         VALUES (:id, :number, :room_type_id, :floor, :housekeeping_status, :version,
                 :created_at, :updated_at)",
        room,
    )
}

/// Stores a changed room, logging a number change for stable cursors.
pub fn update(tx: &Tx, old: &Room, room: &Room) -> AppResult<()> {
    if old.number != room.number {
        page::record_move(tx, ENTITY, &room.id, &old.number)?;
    }
    write(
        tx,
        "UPDATE rooms SET number = :number, room_type_id = :room_type_id, floor = :floor,
                housekeeping_status = :housekeeping_status, version = :version,
                created_at = :created_at, updated_at = :updated_at
         WHERE id = :id",
        room,
    )
}

/// Room list filters.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct RoomFilter {
    /// Only rooms of this type.
    pub room_type_id: Option<String>,
    /// Only rooms in one of these states.
    pub housekeeping_status: Vec<HousekeepingStatus>,
}

/// A page of rooms.
pub fn list(
    conn: &Connection,
    f: &RoomFilter,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Room, Position)>> {
    let mut q = ListQuery::new(ENTITY, "rooms", "number");
    q.extra_columns = OCCUPIED;
    if let Some(rt) = &f.room_type_id {
        q.filter("t.room_type_id = ?", [Value::Text(rt.clone())]);
    }
    if !f.housekeeping_status.is_empty() {
        let marks = vec!["?"; f.housekeeping_status.len()].join(", ");
        q.filter(
            format!("t.housekeeping_status IN ({marks})"),
            f.housekeeping_status
                .iter()
                .map(|s| Value::Text(s.as_str().into())),
        );
    }
    page::fetch(conn, &q, after, as_of, limit, map)
}

#[cfg(test)]
mod tests {
    /// Whether a room is occupied is read from the partial index of the stays in the house,
    /// never from the room's whole history.
    #[test]
    fn occupancy_comes_from_the_stays_in_the_house() {
        let sql = format!("SELECT t.*{} FROM rooms t WHERE t.id = ?1", super::OCCUPIED);
        let plan = crate::store::plan_of(&sql, ["room"]);
        assert!(
            plan.iter().any(|s| s.contains("reservations_in_house")),
            "{plan:?}"
        );
    }
}
