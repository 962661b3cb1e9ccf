//! Room types. List order: `code`, then id.

use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::AppResult;
use crate::model::RoomType;

const ENTITY: &str = "room_type";

fn map(row: &Row) -> rusqlite::Result<RoomType> {
    let r = super::Named::new(row);
    Ok(RoomType {
        id: r.get("id")?,
        code: r.get("code")?,
        name: r.get("name")?,
        description: r.get("description")?,
        max_occupancy: r.get("max_occupancy")?,
        base_rate: r.get("base_rate")?,
        currency: r.get("currency")?,
        kpd_code: r.get("kpd_code")?,
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

fn write(tx: &Tx, sql: &str, t: &RoomType) -> AppResult<()> {
    tx.prepare_cached(sql)?.execute(rusqlite::named_params! {
        ":id": &t.id,
        ":code": &t.code,
        ":name": &t.name,
        ":description": &t.description,
        ":max_occupancy": t.max_occupancy,
        ":base_rate": t.base_rate,
        ":currency": &t.currency,
        ":kpd_code": &t.kpd_code,
        ":version": t.version,
        ":created_at": &t.created_at.0,
        ":updated_at": &t.updated_at.0,
    })?;
    Ok(())
}

/// Inserts a room type.
pub fn insert(tx: &Tx, t: &RoomType) -> AppResult<()> {
    write(
        tx,
        "INSERT INTO room_types (id, code, name, description, max_occupancy, base_rate,
                                 currency, kpd_code, version, created_at, updated_at)
         VALUES (:id, :code, :name, :description, :max_occupancy, :base_rate, :currency,
                 :kpd_code, :version, :created_at, :updated_at)",
        t,
    )
}

/// Stores a changed room type, logging a code change for stable cursors.
pub fn update(tx: &Tx, old: &RoomType, t: &RoomType) -> AppResult<()> {
    if old.code != t.code {
        page::record_move(tx, ENTITY, &t.id, &old.code)?;
    }
    write(
        tx,
        "UPDATE room_types SET code = :code, name = :name, description = :description,
                max_occupancy = :max_occupancy, base_rate = :base_rate, currency = :currency,
                kpd_code = :kpd_code, version = :version, created_at = :created_at, updated_at = :updated_at
         WHERE id = :id",
        t,
    )
}

/// Every room type, in list order.
pub fn all(conn: &Connection) -> AppResult<Vec<RoomType>> {
    let mut stmt = conn.prepare_cached("SELECT * FROM room_types ORDER BY code, id")?;
    let rows = stmt.query_map([], map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
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
