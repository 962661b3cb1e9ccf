//! Folio charges. List order: creation, then id (charges never move).

use rusqlite::types::Value;
use rusqlite::{Connection, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::AppResult;
use crate::model::Charge;

const CURRENCY: &str =
    ", (SELECT r.currency FROM reservations r WHERE r.id = t.reservation_id) AS currency";

fn map(row: &Row) -> rusqlite::Result<Charge> {
    let r = super::Named::new(row);
    let (quantity, unit_price): (i64, i64) = (r.get("quantity")?, r.get("unit_price")?);
    Ok(Charge {
        id: r.get("id")?,
        reservation_id: r.get("reservation_id")?,
        description: r.get("description")?,
        quantity,
        unit_price,
        tax_rate: r.get("tax_rate")?,
        gross_amount: quantity.saturating_mul(unit_price),
        currency: r.get("currency")?,
        service_date: r.get("service_date")?,
        invoice_id: r.get("invoice_id")?,
        kpd_code: r.get("kpd_code")?,
        created_at: r.get("created_at")?,
    })
}

/// Adds a charge.
pub fn insert(tx: &Tx, c: &Charge) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO folio_charges (id, reservation_id, description, quantity, unit_price, tax_rate,
             service_date, created_at, kpd_code) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute((
        &c.id,
        &c.reservation_id,
        &c.description,
        c.quantity,
        c.unit_price,
        c.tax_rate,
        c.service_date,
        &c.created_at.0,
        &c.kpd_code,
    ))?;
    Ok(())
}

/// The reservation's charges not yet invoiced, oldest first.
pub fn uninvoiced(conn: &Connection, reservation_id: &str) -> AppResult<Vec<Charge>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.*{CURRENCY} FROM folio_charges t WHERE t.reservation_id = ?1 AND t.invoice_id IS NULL
         ORDER BY t.created_at, t.id"
    ))?;
    let rows = stmt.query_map([reservation_id], map)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Records that a charge was billed by `invoice_id`; false if it already was.
pub fn mark_invoiced(tx: &Tx, charge_id: &str, invoice_id: &str) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE folio_charges SET invoice_id = ?2 WHERE id = ?1 AND invoice_id IS NULL",
        )?
        .execute((charge_id, invoice_id))?
        == 1)
}

/// A page of a reservation's charges.
pub fn list(
    conn: &Connection,
    reservation_id: &str,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Charge, Position)>> {
    let mut q = ListQuery::new("charge", "folio_charges", "created_at");
    q.extra_columns = CURRENCY;
    q.filter(
        "t.reservation_id = ?",
        [Value::Text(reservation_id.to_string())],
    );
    page::fetch(conn, &q, after, as_of, limit, map)
}

/// Notes that charge `id` was put on from the extras catalogue's `extra_id`.
pub fn mark_extra(tx: &Tx, id: &str, extra_id: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE folio_charges SET extra_id = ?2 WHERE id = ?1")?
        .execute((id, extra_id))?;
    Ok(())
}
