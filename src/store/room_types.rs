//! Room types. List order: `code`, then id.

use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::AppResult;
use crate::model::RoomType;

const ENTITY: &str = "room_type";

fn map(r: &Row) -> rusqlite::Result<RoomType> {
    Ok(RoomType {
        id: r.get("id")?,
        code: r.get("code")?,
        name: r.get("name")?,
        description: r.get("description")?,
        max_occupancy: r.get("max_occupancy")?,
        base_rate: r.get("base_rate")?,
        currency: r.get("currency")?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// One room type.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<RoomType>> {
    Ok(conn
        .prepare_cached("SELECT * FROM room_types WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// The id of the room type with this code, if any.
pub fn id_by_code(conn: &Connection, code: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT id FROM room_types WHERE code = ?1")?
        .query_row([code], |r| r.get(0))
        .optional()?)
}

/// Inserts a room type.
pub fn insert(tx: &Tx, t: &RoomType) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO room_types (id, code, name, description, max_occupancy, base_rate,
                                 currency, version, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute((
        &t.id,
        &t.code,
        &t.name,
        &t.description,
        t.max_occupancy,
        t.base_rate,
        &t.currency,
        t.version,
        &t.created_at.0,
        &t.updated_at.0,
    ))?;
    Ok(())
}

/// Stores a changed room type, logging a code change for stable cursors.
pub fn update(tx: &Tx, old: &RoomType, t: &RoomType) -> AppResult<()> {
    if old.code != t.code {
        page::record_move(tx, ENTITY, &t.id, &old.code)?;
    }
    tx.prepare_cached(
        "UPDATE room_types SET code = ?2, name = ?3, description = ?4, max_occupancy = ?5,
                base_rate = ?6, currency = ?7, version = ?8, updated_at = ?9 WHERE id = ?1",
    )?
    .execute((
        &t.id,
        &t.code,
        &t.name,
        &t.description,
        t.max_occupancy,
        t.base_rate,
        &t.currency,
        t.version,
        &t.updated_at.0,
    ))?;
    Ok(())
}

/// A page of room types.
pub fn list(
    conn: &Connection,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(RoomType, Position)>> {
    let q = ListQuery::new(ENTITY, "room_types", "code");
    page::fetch(conn, &q, after, as_of, limit, map)
}
