//! The price calendar: one row per plan and night that differs from the plan's defaults
//! (a price, a restriction).

use std::collections::HashMap;

use chrono::NaiveDate;
use rusqlite::Connection;

use crate::db::Tx;
use crate::domain::pricing::Restrictions;
use crate::error::AppResult;

/// A night as stored: its own price, if any, and its restrictions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stored {
    pub price: Option<i64>,
    pub restrictions: Restrictions,
}

/// The stored nights of plan `plan` from `from` to `to` (inclusive), by date.
pub fn range(
    conn: &Connection,
    plan: &str,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<HashMap<NaiveDate, Stored>> {
    let mut stmt = conn.prepare_cached(
        "SELECT date, price, min_stay_arrival, min_stay_through, max_stay, closed_to_arrival,
                closed_to_departure, stop_sell, min_advance, max_advance
         FROM rates WHERE rate_plan_id = ?1 AND date BETWEEN ?2 AND ?3",
    )?;
    let rows = stmt.query_map(
        (plan, from.to_string(), to.to_string()),
        |r| -> rusqlite::Result<(String, Stored)> {
            Ok((
                r.get(0)?,
                Stored {
                    price: r.get(1)?,
                    restrictions: Restrictions {
                        min_stay_arrival: r.get(2)?,
                        min_stay_through: r.get(3)?,
                        max_stay: r.get(4)?,
                        closed_to_arrival: r.get(5)?,
                        closed_to_departure: r.get(6)?,
                        stop_sell: r.get(7)?,
                        min_advance: r.get(8)?,
                        max_advance: r.get(9)?,
                    },
                },
            ))
        },
    )?;
    let mut out = HashMap::new();
    for row in rows {
        let (date, stored) = row?;
        if let Ok(d) = date.parse() {
            out.insert(d, stored);
        }
    }
    Ok(out)
}

/// A column's new value in a bulk edit: an integer (or NULL) or a flag.
#[derive(Debug, Clone, Copy)]
pub enum Set {
    Number(Option<i64>),
    Flag(bool),
}

/// The columns a bulk edit may set.
pub const COLUMNS: [&str; 9] = [
    "price",
    "min_stay_arrival",
    "min_stay_through",
    "max_stay",
    "closed_to_arrival",
    "closed_to_departure",
    "stop_sell",
    "min_advance",
    "max_advance",
];

/// Sets `changes` (column, value; columns from [`COLUMNS`]) on plan `plan`'s `nights`, then
/// forgets the nights left with nothing of their own.
pub fn edit(tx: &Tx, plan: &str, nights: &[NaiveDate], changes: &[(&str, Set)]) -> AppResult<()> {
    let sets: Vec<String> = changes
        .iter()
        .enumerate()
        .map(|(i, (c, _))| format!("{c} = ?{}", i + 3))
        .collect();
    if sets.is_empty() {
        return Ok(());
    }
    let mut ensure =
        tx.prepare_cached("INSERT OR IGNORE INTO rates (rate_plan_id, date) VALUES (?1, ?2)")?;
    let sql = format!(
        "UPDATE rates SET {} WHERE rate_plan_id = ?1 AND date = ?2",
        sets.join(", ")
    );
    let mut update = tx.prepare_cached(&sql)?;
    for night in nights {
        let day = night.to_string();
        ensure.execute((plan, &day))?;
        let mut params: Vec<rusqlite::types::Value> =
            vec![plan.to_string().into(), day.clone().into()];
        for (_, v) in changes {
            params.push(match v {
                Set::Number(Some(n)) => (*n).into(),
                Set::Number(None) => rusqlite::types::Value::Null,
                Set::Flag(f) => i64::from(*f).into(),
            });
        }
        update.execute(rusqlite::params_from_iter(params))?;
    }
    if let (Some(first), Some(last)) = (nights.first(), nights.last()) {
        tx.prepare_cached(
            "DELETE FROM rates WHERE rate_plan_id = ?1 AND date BETWEEN ?2 AND ?3
               AND price IS NULL AND min_stay_arrival IS NULL AND min_stay_through IS NULL
               AND max_stay IS NULL AND closed_to_arrival = 0 AND closed_to_departure = 0
               AND stop_sell = 0 AND min_advance IS NULL AND max_advance IS NULL",
        )?
        .execute((plan, first.to_string(), last.to_string()))?;
    }
    Ok(())
}
