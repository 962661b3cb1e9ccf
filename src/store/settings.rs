//! The single settings row.

use rusqlite::Connection;

use crate::db::Tx;
use crate::error::AppResult;
use crate::model::Settings;

/// Reads the settings; `compliance` comes from the configuration, not the row, and is left
/// at `none` here for the service to fill in.
pub fn get(conn: &Connection) -> AppResult<Settings> {
    Ok(conn
        .prepare_cached(
            "SELECT name, time_zone, currency, country, city_tax, invoice_series,
                    default_tax_rate, seller, version, created_at, updated_at, cin
             FROM settings WHERE id = 1",
        )?
        .query_row([], |row| {
            let r = super::Named::new(row);
            Ok(Settings {
                name: r.get("name")?,
                time_zone: r.get("time_zone")?,
                currency: r.get("currency")?,
                country: r.get("country")?,
                city_tax: r.nested("city_tax")?,
                invoice_series: r.get("invoice_series")?,
                default_tax_rate: r.get("default_tax_rate")?,
                seller: r.nested("seller")?,
                cin: r.get("cin")?,
                compliance: Default::default(),
                version: r.get("version")?,
                created_at: r.get("created_at")?,
                updated_at: r.get("updated_at")?,
            })
        })?)
}

/// The property's time zone alone (what a write placing an instant on a local day needs,
/// without reading and parsing the whole row).
pub fn time_zone(conn: &Connection) -> AppResult<String> {
    Ok(conn
        .prepare_cached("SELECT time_zone FROM settings WHERE id = 1")?
        .query_row([], |r| r.get(0))?)
}

/// Stores changed settings (version and updated_at as given). A new time zone moves the
/// bookings made onto other days, so they are counted again (`bookings_made`), in the same
/// transaction.
pub fn save(tx: &Tx, s: &Settings) -> AppResult<()> {
    let zone = time_zone(tx)?;
    tx.prepare_cached(
        "UPDATE settings SET name = ?1, time_zone = ?2, currency = ?3, country = ?4,
                city_tax = ?5, invoice_series = ?6, default_tax_rate = ?7, version = ?8,
                updated_at = ?9, seller = ?10, cin = ?11 WHERE id = 1",
    )?
    .execute((
        &s.name,
        &s.time_zone,
        &s.currency,
        &s.country,
        super::nested_text(&s.city_tax),
        &s.invoice_series,
        s.default_tax_rate,
        s.version,
        &s.updated_at.0,
        super::nested_text(&s.seller),
        &s.cin,
    ))?;
    if zone != s.time_zone {
        super::bookings_made::rebuild(tx)?;
    }
    Ok(())
}
