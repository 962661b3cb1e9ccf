//! What the reports read: the stays holding nights in a range, and the rooms.

use rusqlite::Connection;

use crate::domain::report::Sold;
use crate::error::AppResult;
use crate::model::NightPrice;

/// The nights of every stay that is `confirmed`, `checked_in` or `checked_out` and holds a
/// night from `from` to `to` (exclusive), each at its booked price.
pub fn sold(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<Sold>> {
    let mut stmt = conn.prepare_cached(
        "SELECT arrival, departure, nightly_rate, night_prices FROM reservations
          WHERE arrival < ?2 AND departure > ?1
            AND status IN ('confirmed', 'checked_in', 'checked_out')",
    )?;
    let rows = stmt.query_map([from, to], |r| {
        let (arrival, departure): (crate::model::Date, crate::model::Date) = (r.get(0)?, r.get(1)?);
        let rate: i64 = r.get(2)?;
        let nights = match r.get::<_, Option<String>>(3)? {
            Some(j) => serde_json::from_str::<Vec<NightPrice>>(&j).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    3,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                )
            })?,
            None => crate::model::at_rate(arrival.0, departure.0, rate),
        };
        Ok(Sold {
            nights: nights.into_iter().map(|n| (n.date.0, n.price)).collect(),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// How many rooms the property has (the hub's `rooms_available`).
pub fn rooms(conn: &Connection) -> AppResult<i64> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM rooms")?
        .query_row([], |r| r.get(0))?)
}
