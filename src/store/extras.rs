//! The extras catalogue. List order: `code`, then id.

use rusqlite::{Connection, OptionalExtension, Row};

use super::Named;
use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::{AppError, AppResult};
use crate::model::Extra;

const ENTITY: &str = "extra";

fn map(row: &Row) -> rusqlite::Result<Extra> {
    let r = Named::new(row);
    Ok(Extra {
        id: r.get("id")?,
        code: r.get("code")?,
        name: r.nested("name")?.ok_or_else(|| {
            rusqlite::Error::InvalidColumnType(0, "name".into(), rusqlite::types::Type::Null)
        })?,
        price: r.get("price")?,
        tax_rate: r.get("tax_rate")?,
        unit: r.get("unit")?,
        active: r.get("active")?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// One extra.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Extra>> {
    Ok(conn
        .prepare_cached("SELECT * FROM extras WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// The id of the extra with this code, if any.
pub fn id_by_code(conn: &Connection, code: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT id FROM extras WHERE code = ?1")?
        .query_row([code], |r| r.get(0))
        .optional()?)
}

fn write(tx: &Tx, sql: &str, e: &Extra) -> AppResult<()> {
    let name = serde_json::to_string(&e.name).map_err(|x| AppError::internal(x.to_string()))?;
    tx.prepare_cached(sql)?.execute(rusqlite::named_params! {
        ":id": &e.id,
        ":code": &e.code,
        ":name": name,
        ":price": e.price,
        ":tax_rate": e.tax_rate,
        ":unit": e.unit,
        ":active": e.active,
        ":version": e.version,
        ":created_at": &e.created_at.0,
        ":updated_at": &e.updated_at.0,
    })?;
    Ok(())
}

/// Inserts an extra.
pub fn insert(tx: &Tx, e: &Extra) -> AppResult<()> {
    write(
        tx,
        "INSERT INTO extras (id, code, name, price, tax_rate, unit, active, version,
                             created_at, updated_at)
         VALUES (:id, :code, :name, :price, :tax_rate, :unit, :active, :version, :created_at,
                 :updated_at)",
        e,
    )
}

/// Stores a changed extra, logging a code change for stable cursors.
pub fn update(tx: &Tx, old: &Extra, e: &Extra) -> AppResult<()> {
    if old.code != e.code {
        page::record_move(tx, ENTITY, &e.id, &old.code)?;
    }
    write(
        tx,
        "UPDATE extras SET code = :code, name = :name, price = :price, tax_rate = :tax_rate,
                unit = :unit, active = :active, version = :version, created_at = :created_at,
                updated_at = :updated_at
         WHERE id = :id",
        e,
    )
}

/// A page of extras.
pub fn list(
    conn: &Connection,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Extra, Position)>> {
    let q = ListQuery::new(ENTITY, "extras", "code");
    page::fetch(conn, &q, after, as_of, limit, map)
}
