//! A reservation as its row: every column written for a new reservation, and for a changed
//! one only the columns whose stored value differs. SQLite rewrites every index over a
//! column an UPDATE sets, even to the same value, and `reservations` has more than a dozen:
//! setting every column made a check-in rewrite all of them (a quarter of its CPU, perf).
//! Each write also applies what it changes in the nights sold (`nights_sold`) and in the
//! bookings made (`bookings_made`).

use rusqlite::ToSql;
use rusqlite::types::{ToSqlOutput, Value, ValueRef};

use crate::db::Tx;
use crate::domain::report::{self, Sold};
use crate::error::{AppError, AppResult};
use crate::model::Reservation;

/// The columns besides `id`, in the order of [`values`].
const NAMES: [&str; 28] = [
    "code",
    "status",
    "primary_guest_id",
    "room_type_id",
    "room_id",
    "arrival",
    "departure",
    "adults",
    "children",
    "children_ages",
    "extra_beds",
    "cots",
    "nightly_rate",
    "rate_note",
    "currency",
    "source",
    "notes",
    "rate_plan_id",
    "night_prices",
    "deposit",
    "channel",
    "checked_in_at",
    "checked_out_at",
    "cancelled_at",
    "invoice_id",
    "version",
    "created_at",
    "updated_at",
];

/// `v` as an owned SQL value.
fn value(v: &dyn ToSql) -> AppResult<Value> {
    Ok(match v.to_sql()? {
        ToSqlOutput::Borrowed(r) => match r {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Integer(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        },
        ToSqlOutput::Owned(v) => v,
        _ => {
            return Err(AppError::internal(
                "a reservation column of an unexpected kind",
            ));
        }
    })
}

/// What `r` stores in each of [`NAMES`].
fn values(r: &Reservation) -> AppResult<[Value; 28]> {
    let json = |v: Option<String>| v.map_or(Value::Null, Value::Text);
    let time = |t: &Option<crate::model::Instant>| json(t.as_ref().map(|t| t.0.clone()));
    Ok([
        value(&r.code)?,
        value(&r.status)?,
        value(&r.primary_guest_id)?,
        value(&r.room_type_id)?,
        value(&r.room_id)?,
        value(&r.arrival)?,
        value(&r.departure)?,
        value(&r.adults)?,
        value(&r.children)?,
        json(
            r.children_ages
                .as_ref()
                .map(|a| serde_json::json!(a).to_string()),
        ),
        value(&r.extra_beds)?,
        value(&r.cots)?,
        value(&r.nightly_rate)?,
        value(&r.rate_note)?,
        value(&r.currency)?,
        value(&r.source)?,
        value(&r.notes)?,
        value(&r.rate_plan_id)?,
        json(stored_nights(r)),
        json(r.deposit.as_ref().map(serde_json::to_string).transpose()?),
        json(r.channel.as_ref().map(serde_json::to_string).transpose()?),
        time(&r.checked_in_at),
        time(&r.checked_out_at),
        time(&r.cancelled_at),
        value(&r.invoice_id)?,
        value(&r.version)?,
        Value::Text(r.created_at.0.clone()),
        Value::Text(r.updated_at.0.clone()),
    ])
}

/// The night prices to store: none when every night is at the nightly rate.
fn stored_nights(r: &Reservation) -> Option<String> {
    let uniform = crate::model::at_rate(r.arrival.0, r.departure.0, r.nightly_rate);
    (r.nights != uniform).then(|| serde_json::json!(r.nights).to_string())
}

/// Writes a new reservation's row.
pub(super) fn insert(tx: &Tx, r: &Reservation) -> AppResult<()> {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        let marks: Vec<String> = (1..=NAMES.len() + 1).map(|i| format!("?{i}")).collect();
        format!(
            "INSERT INTO reservations (id, {}) VALUES ({})",
            NAMES.join(", "),
            marks.join(", ")
        )
    });
    let values = values(r)?;
    let mut params: Vec<&dyn ToSql> = Vec::with_capacity(NAMES.len() + 1);
    params.push(&r.id);
    params.extend(values.iter().map(|v| v as &dyn ToSql));
    tx.prepare_cached(sql)?.execute(params.as_slice())?;
    let nights = nights(&values)?;
    super::nights_sold::add(tx, &report::change(&[], &sold(&values, &nights)))?;
    super::bookings_made::apply(tx, None, &booked(&values, &nights)?)
}

/// The positions in [`NAMES`] of what the nights sold depend on: status, arrival,
/// departure, nightly rate and night prices.
const SELLING: [usize; 5] = [1, 5, 6, 12, 18];

/// The positions in [`NAMES`] of what the bookings made depend on: status, arrival,
/// departure, nightly rate, source, night prices, channel and when it was made (all of
/// [`SELLING`] among them).
const MADE: [usize; 8] = [1, 5, 6, 12, 15, 18, 20, 26];

/// The text stored in column `i` of `values`, if text.
fn text(values: &[Value], i: usize) -> Option<&str> {
    match &values[i] {
        Value::Text(t) => Some(t.as_str()),
        _ => None,
    }
}

/// The nights sold by a row with `values` and `nights` (none unless its status sells).
fn sold(values: &[Value], nights: &[crate::model::NightPrice]) -> Vec<Sold> {
    if !text(values, 1).is_some_and(report::sells) {
        return Vec::new();
    }
    vec![Sold {
        nights: nights.iter().map(|n| (n.date.0, n.price)).collect(),
    }]
}

/// What a row with `values` and `nights` counts in the bookings made.
fn booked(
    values: &[Value],
    nights: &[crate::model::NightPrice],
) -> AppResult<super::bookings_made::Booked> {
    let site = text(values, 20)
        .and_then(|c| serde_json::from_str::<serde_json::Value>(c).ok())
        .and_then(|c| c["ota"].as_str().map(str::to_string));
    Ok(super::bookings_made::Booked {
        at: text(values, 26).unwrap_or_default().to_string(),
        source: text(values, 15).unwrap_or_default().to_string(),
        site: site.unwrap_or_default(),
        status: text(values, 1).unwrap_or_default().to_string(),
        arrival: date(values, 5)?,
        nights: nights.len() as i64,
        room_revenue: nights.iter().map(|n| n.price).sum(),
    })
}

/// The date stored in column `i` of `values`.
fn date(values: &[Value], i: usize) -> AppResult<chrono::NaiveDate> {
    text(values, i)
        .and_then(|t| t.parse::<chrono::NaiveDate>().ok())
        .ok_or_else(|| AppError::internal(format!("a reservation's {} is not a date", NAMES[i])))
}

/// Every night of a row with `values`, at its stored price or else at the nightly rate.
fn nights(values: &[Value]) -> AppResult<Vec<crate::model::NightPrice>> {
    let Value::Integer(rate) = values[12] else {
        return Err(AppError::internal(
            "a reservation's nightly rate is not a number",
        ));
    };
    let (arrival, departure) = (date(values, 5)?, date(values, 6)?);
    Ok(crate::model::stored_or_at_rate(
        arrival,
        departure,
        rate,
        text(values, 18),
    )?)
}

/// Writes the columns of `r` whose stored value differs (compared with the row itself, so
/// nothing the transaction wrote before is missed).
pub(super) fn update(tx: &Tx, r: &Reservation) -> AppResult<()> {
    static READ: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let read = READ.get_or_init(|| {
        format!(
            "SELECT {} FROM reservations WHERE id = ?1",
            NAMES.join(", ")
        )
    });
    let stored: Vec<Value> = tx.prepare_cached(read)?.query_row([&r.id], |row| {
        (0..NAMES.len()).map(|i| row.get::<_, Value>(i)).collect()
    })?;
    let values = values(r)?;
    let changed: Vec<usize> = (0..NAMES.len())
        .filter(|&i| stored[i] != values[i])
        .collect();
    if changed.is_empty() {
        return Ok(());
    }
    let sets: Vec<String> = changed
        .iter()
        .enumerate()
        .map(|(k, &i)| format!("{} = ?{}", NAMES[i], k + 2))
        .collect();
    let sql = format!("UPDATE reservations SET {} WHERE id = ?1", sets.join(", "));
    let mut params: Vec<&dyn ToSql> = Vec::with_capacity(changed.len() + 1);
    params.push(&r.id);
    params.extend(changed.iter().map(|&i| &values[i] as &dyn ToSql));
    tx.prepare_cached(&sql)?.execute(params.as_slice())?;
    if !changed.iter().any(|i| MADE.contains(i)) {
        return Ok(());
    }
    let (was, now) = (nights(&stored)?, nights(&values)?);
    if changed.iter().any(|i| SELLING.contains(i)) {
        let change = report::change(&sold(&stored, &was), &sold(&values, &now));
        super::nights_sold::add(tx, &change)?;
    }
    let before = booked(&stored, &was)?;
    super::bookings_made::apply(tx, Some(&before), &booked(&values, &now)?)
}
