//! Rate plans. List order: `code`, then id. Names, occupancy prices and policies are JSON
//! columns with their own stored names.

use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use super::{Named, nested_text};
use crate::db::Tx;
use crate::error::{AppError, AppResult};
use crate::model::RatePlan;

const ENTITY: &str = "rate_plan";

fn required<T>(v: Option<T>, column: &str) -> rusqlite::Result<T> {
    v.ok_or_else(|| {
        rusqlite::Error::InvalidColumnType(0, column.into(), rusqlite::types::Type::Null)
    })
}

fn map(row: &Row) -> rusqlite::Result<RatePlan> {
    let r = Named::new(row);
    Ok(RatePlan {
        id: r.get("id")?,
        room_type_id: r.get("room_type_id")?,
        code: r.get("code")?,
        name: required(r.nested("name")?, "name")?,
        parent_id: r.get("parent_id")?,
        derivation: r.nested("derivation")?,
        default_price: r.get("default_price")?,
        occupancy: required(r.nested("occupancy")?, "occupancy")?,
        breakfast: r.nested("breakfast")?,
        cancellation: required(r.nested("cancellation")?, "cancellation")?,
        no_show: required(r.nested("no_show")?, "no_show")?,
        deposit: r.nested("deposit")?,
        sold: r.get("sold")?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// One plan.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<RatePlan>> {
    Ok(conn
        .prepare_cached("SELECT * FROM rate_plans WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// The id of room type `room_type_id`'s plan with this code, if any.
pub fn id_by_code(conn: &Connection, room_type_id: &str, code: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT id FROM rate_plans WHERE room_type_id = ?1 AND code = ?2")?
        .query_row([room_type_id, code], |r| r.get(0))
        .optional()?)
}

/// The codes of the plans derived from `id`.
pub fn children(conn: &Connection, id: &str) -> AppResult<Vec<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT code FROM rate_plans WHERE parent_id = ?1 ORDER BY code")?;
    let rows = stmt.query_map([id], |r| r.get(0))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn write(tx: &Tx, sql: &str, p: &RatePlan) -> AppResult<()> {
    let json = |v: serde_json::Result<String>| v.map_err(|e| AppError::internal(e.to_string()));
    tx.prepare_cached(sql)?.execute(rusqlite::named_params! {
        ":id": &p.id,
        ":room_type_id": &p.room_type_id,
        ":code": &p.code,
        ":name": json(serde_json::to_string(&p.name))?,
        ":parent_id": &p.parent_id,
        ":derivation": nested_text(&p.derivation),
        ":default_price": p.default_price,
        ":occupancy": json(serde_json::to_string(&p.occupancy))?,
        ":breakfast": nested_text(&p.breakfast),
        ":cancellation": json(serde_json::to_string(&p.cancellation))?,
        ":no_show": json(serde_json::to_string(&p.no_show))?,
        ":deposit": nested_text(&p.deposit),
        ":sold": p.sold,
        ":version": p.version,
        ":created_at": &p.created_at.0,
        ":updated_at": &p.updated_at.0,
    })?;
    Ok(())
}

/// Inserts a plan.
pub fn insert(tx: &Tx, p: &RatePlan) -> AppResult<()> {
    write(
        tx,
        "INSERT INTO rate_plans (id, room_type_id, code, name, parent_id, derivation,
                default_price, occupancy, breakfast, cancellation, no_show, deposit, sold,
                version, created_at, updated_at)
         VALUES (:id, :room_type_id, :code, :name, :parent_id, :derivation, :default_price,
                 :occupancy, :breakfast, :cancellation, :no_show, :deposit, :sold, :version,
                 :created_at, :updated_at)",
        p,
    )
}

/// Stores a changed plan, logging a code change for stable cursors.
pub fn update(tx: &Tx, old: &RatePlan, p: &RatePlan) -> AppResult<()> {
    if old.code != p.code {
        page::record_move(tx, ENTITY, &p.id, &old.code)?;
    }
    write(
        tx,
        "UPDATE rate_plans SET room_type_id = :room_type_id, code = :code, name = :name,
                parent_id = :parent_id, derivation = :derivation, default_price = :default_price,
                occupancy = :occupancy, breakfast = :breakfast, cancellation = :cancellation,
                no_show = :no_show, deposit = :deposit, sold = :sold, version = :version,
                created_at = :created_at, updated_at = :updated_at
         WHERE id = :id",
        p,
    )
}

/// Every plan, by code then id.
pub fn all(conn: &Connection) -> AppResult<Vec<RatePlan>> {
    let mut stmt = conn.prepare_cached("SELECT * FROM rate_plans ORDER BY code, id")?;
    let rows = stmt.query_map([], map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// A page of plans.
pub fn list(
    conn: &Connection,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(RatePlan, Position)>> {
    let q = ListQuery::new(ENTITY, "rate_plans", "code");
    page::fetch(conn, &q, after, as_of, limit, map)
}
