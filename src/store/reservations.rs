//! Reservations and their guests. List order: `arrival`, then id.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::domain::enums::SubmissionStatus;
use crate::domain::reservation::Status;
use crate::domain::stay::StayDates;
use crate::error::AppResult;
use crate::model::{Date, Deposit, Registration, Reservation};

const ENTITY: &str = "reservation";
const GUEST_IDS: &str = ", (SELECT json_group_array(guest_id) FROM (SELECT guest_id \
    FROM reservation_guests WHERE reservation_id = t.id ORDER BY position)) AS guest_ids_json, \
    (SELECT json_array(s.id, s.status) FROM compliance_submissions s WHERE s.subject_id = t.id \
    AND s.kind = 'guest_registration' ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS registration_json, \
    (SELECT json_group_array(json_object('extra_id', x.extra_id, 'charge_id', x.id, \
    'quantity', x.quantity, 'gross_amount', x.quantity * x.unit_price)) FROM (SELECT c.* \
    FROM folio_charges c WHERE c.reservation_id = t.id AND c.extra_id IS NOT NULL \
    ORDER BY c.created_at, c.id) x) AS extras_json, t.channel, \
    (SELECT json_object('completed_at', p.completed_at, 'arrival_time', p.arrival_time) \
    FROM pre_check_ins p WHERE p.reservation_id = t.id) AS pre_check_in_json";
const HOLDS_INVENTORY: &str = "status IN ('confirmed', 'checked_in')";

/// The columns [`map`] reads, by position (naming each column on every row was a fifth of
/// a list's CPU time), followed by the three of [`GUEST_IDS`], the channel and the
/// pre-check-in.
const COLUMNS: &str = "t.id, t.code, t.status, t.primary_guest_id, t.room_type_id, t.room_id, \
    t.arrival, t.departure, t.adults, t.children, t.nightly_rate, t.currency, t.source, t.notes, \
    t.checked_in_at, t.checked_out_at, t.cancelled_at, t.invoice_id, t.version, t.created_at, \
    t.updated_at, t.rate_note, t.children_ages, t.extra_beds, t.cots, t.rate_plan_id, \
    t.night_prices, t.deposit";

/// A row of `SELECT {COLUMNS}{GUEST_IDS}`.
fn map(r: &Row) -> rusqlite::Result<Reservation> {
    let guest_ids: String = r.get(28)?;
    let guest_ids: Vec<String> = serde_json::from_str(&guest_ids).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(28, rusqlite::types::Type::Text, Box::new(e))
    })?;
    let deposit = match r.get::<_, Option<String>>(27)? {
        Some(j) => Some(serde_json::from_str::<Deposit>(&j).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(27, rusqlite::types::Type::Text, Box::new(e))
        })?),
        None => None,
    };
    let nightly_rate: i64 = r.get(10)?;
    let children_ages = match r.get::<_, Option<String>>(22)? {
        Some(j) => Some(serde_json::from_str::<Vec<i64>>(&j).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(22, rusqlite::types::Type::Text, Box::new(e))
        })?),
        None => None,
    };
    let arrival: Date = r.get(6)?;
    let departure: Date = r.get(7)?;
    let stored = r.get_ref(26)?.as_str_or_null()?;
    let nights = crate::model::stored_or_at_rate(arrival.0, departure.0, nightly_rate, stored)
        .map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(26, rusqlite::types::Type::Text, Box::new(e))
        })?;
    Ok(Reservation {
        id: r.get(0)?,
        code: r.get(1)?,
        status: r.get(2)?,
        primary_guest_id: r.get(3)?,
        guest_ids,
        room_type_id: r.get(4)?,
        room_id: r.get(5)?,
        arrival,
        departure,
        night_count: (departure.0 - arrival.0).num_days(),
        nights,
        rate_plan_id: r.get(25)?,
        deposit,
        channel: match r.get::<_, Option<String>>(31)? {
            Some(j) => Some(serde_json::from_str(&j).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    31,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                )
            })?),
            None => None,
        },
        extras: serde_json::from_str(&r.get::<_, String>(30)?).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(30, rusqlite::types::Type::Text, Box::new(e))
        })?,
        adults: r.get(8)?,
        children: r.get(9)?,
        nightly_rate,
        rate_note: r.get(21)?,
        children_ages,
        extra_beds: r.get(23)?,
        cots: r.get(24)?,
        currency: r.get(11)?,
        source: r.get(12)?,
        notes: r.get(13)?,
        checked_in_at: r.get(14)?,
        checked_out_at: r.get(15)?,
        cancelled_at: r.get(16)?,
        invoice_id: r.get(17)?,
        registration: r
            .get::<_, Option<String>>(29)?
            .and_then(|j| serde_json::from_str::<(String, String)>(&j).ok())
            .and_then(|(submission_id, status)| {
                Some(Registration {
                    status: SubmissionStatus::parse(&status)?,
                    submission_id,
                })
            }),
        pre_check_in: match r.get::<_, Option<String>>(32)? {
            Some(j) => Some(serde_json::from_str(&j).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    32,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                )
            })?),
            None => None,
        },
        version: r.get(18)?,
        created_at: r.get(19)?,
        updated_at: r.get(20)?,
    })
}

/// One reservation.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Reservation>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}{GUEST_IDS} FROM reservations t WHERE t.id = ?1"
        ))?
        .query_row([id], map)
        .optional()?)
}

/// The checked-in reservations `guest_id` stays on.
pub fn in_house_with(conn: &Connection, guest_id: &str) -> AppResult<Vec<Reservation>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}{GUEST_IDS} FROM reservations t INDEXED BY reservations_in_house
          WHERE t.status = 'checked_in' AND t.id IN (SELECT reservation_id FROM reservation_guests WHERE guest_id = ?1)"
    ))?;
    let rows = stmt.query_map([guest_id], map)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The reservation with confirmation code `code`, if any.
pub fn by_code(conn: &Connection, code: &str) -> AppResult<Option<Reservation>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}{GUEST_IDS} FROM reservations t WHERE t.code = ?1"
        ))?
        .query_row([code], map)
        .optional()?)
}

/// Whether a confirmation code is already used.
pub fn code_exists(conn: &Connection, code: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM reservations WHERE code = ?1)")?
        .query_row([code], |r| r.get(0))?)
}

/// [`stays_of_type`]'s query: `?1` the room type, `?2` the window's departure, `?3` its
/// arrival, `?4` the reservation left out, `?5` the arrival less [`super::board::LONG`] days.
/// Written once: every booking's availability check runs it.
pub(super) static OF_TYPE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT arrival, departure FROM reservations WHERE room_type_id = ?1 AND {HOLDS_INVENTORY}
           AND arrival >= ?5 AND arrival < ?2 AND departure > ?3 AND id <> ?4
         UNION ALL
         SELECT arrival, departure FROM reservations INDEXED BY reservations_long_stays
          WHERE julianday(departure) - julianday(arrival) > 28
            AND departure > ?3 AND arrival < ?5
            AND room_type_id = ?1 AND {HOLDS_INVENTORY} AND id <> ?4"
    )
});

/// Stays of a room type that hold inventory and overlap `window`, except `exclude`.
///
/// Stays of up to [`super::board::LONG`] nights are found by their arrival in a bounded range
/// of the type's index (`reservations_type`, which carries the departure, status and id, so
/// no row is read); longer ones (few) by `reservations_long_stays`. Bounding
/// only the arrival from above read every future booking of the type on each booking.
pub fn stays_of_type(
    conn: &Connection,
    room_type_id: &str,
    window: &StayDates,
    exclude: Option<&str>,
) -> AppResult<Vec<StayDates>> {
    let mut stmt = conn.prepare_cached(&OF_TYPE)?;
    let long_from = window.arrival() - chrono::Days::new(super::board::LONG as u64);
    let rows = stmt.query_map(
        (
            room_type_id,
            Date(window.departure()),
            Date(window.arrival()),
            exclude.unwrap_or(""),
            Date(long_from),
        ),
        |r| Ok((r.get::<_, Date>(0)?, r.get::<_, Date>(1)?)),
    )?;
    let mut out = Vec::new();
    for row in rows {
        let (a, d) = row?;
        if let Ok(stay) = StayDates::new(a.0, d.0) {
            out.push(stay);
        }
    }
    Ok(out)
}

/// The code of a stay in `room_id` that overlaps `stay` and holds inventory, if any.
pub fn room_clash(
    conn: &Connection,
    room_id: &str,
    stay: &StayDates,
    exclude: Option<&str>,
) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT code FROM reservations WHERE room_id = ?1 AND {HOLDS_INVENTORY}
               AND arrival < ?2 AND departure > ?3 AND id <> ?4 LIMIT 1"
        ))?
        .query_row(
            (
                room_id,
                Date(stay.departure()),
                Date(stay.arrival()),
                exclude.unwrap_or(""),
            ),
            |r| r.get(0),
        )
        .optional()?)
}

/// The rooms that a stay holding inventory occupies on some night of `stay` (other than the
/// reservation `exclude`): rooms a page must not offer for it.
pub fn rooms_held(
    conn: &Connection,
    stay: &StayDates,
    exclude: Option<&str>,
) -> AppResult<std::collections::HashSet<String>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT DISTINCT room_id FROM reservations
          WHERE departure > ?2 AND arrival < ?1 AND room_id IS NOT NULL AND {HOLDS_INVENTORY}
            AND id <> ?3"
    ))?;
    let rows = stmt.query_map(
        (
            Date(stay.departure()),
            Date(stay.arrival()),
            exclude.unwrap_or(""),
        ),
        |r| r.get::<_, String>(0),
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// What housekeeping prepares a room for: the arriving booking's notes ("late arrival"),
/// extra beds and cots.
#[derive(Debug, Clone, Default)]
pub struct Arrival {
    /// The booking's notes.
    pub notes: Option<String>,
    /// Extra beds to put in.
    pub extra_beds: i64,
    /// Cots to put in.
    pub cots: i64,
}

/// The rooms of bookings arriving on `day` that are not in yet (the rooms to make ready
/// first), each with what to prepare.
pub fn arrival_rooms(
    conn: &Connection,
    day: chrono::NaiveDate,
) -> AppResult<std::collections::HashMap<String, Arrival>> {
    let mut stmt = conn.prepare_cached(
        "SELECT room_id, notes, extra_beds, cots FROM reservations
          WHERE arrival = ?1 AND status = 'confirmed' AND room_id IS NOT NULL",
    )?;
    let rows = stmt.query_map([Date(day)], |r| {
        let arrival = Arrival {
            notes: r.get(1)?,
            extra_beds: r.get(2)?,
            cots: r.get(3)?,
        };
        Ok((r.get::<_, String>(0)?, arrival))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn write_guests(tx: &Tx, r: &Reservation) -> AppResult<()> {
    tx.prepare_cached("DELETE FROM reservation_guests WHERE reservation_id = ?1")?
        .execute([&r.id])?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO reservation_guests (reservation_id, guest_id, position) VALUES (?1, ?2, ?3)",
    )?;
    for (i, g) in r.guest_ids.iter().enumerate() {
        stmt.execute((&r.id, g, i as i64))?;
    }
    Ok(())
}

/// Inserts a reservation and its guests.
pub fn insert(tx: &Tx, r: &Reservation) -> AppResult<()> {
    super::reservation_row::insert(tx, r)?;
    write_guests(tx, r)
}

/// Stores a changed reservation, logging an arrival change for stable cursors.
pub fn update(tx: &Tx, old: &Reservation, r: &Reservation) -> AppResult<()> {
    if old.arrival != r.arrival {
        page::record_move(tx, ENTITY, &r.id, &old.arrival.to_string())?;
    }
    super::reservation_row::update(tx, r)?;
    if old.guest_ids != r.guest_ids {
        write_guests(tx, r)?;
    }
    Ok(())
}

/// Reservation list filters; all optional, combined with AND.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct ReservationFilter {
    /// The stay overlaps the days from this date...
    pub from: Option<Date>,
    /// ...to this date (inclusive).
    pub to: Option<Date>,
    /// Arrival on or after.
    pub arrival_from: Option<Date>,
    /// Arrival on or before.
    pub arrival_to: Option<Date>,
    /// Departure on or after.
    pub departure_from: Option<Date>,
    /// Departure on or before.
    pub departure_to: Option<Date>,
    /// Any of these statuses.
    pub status: Vec<Status>,
    /// Of this room type.
    pub room_type_id: Option<String>,
    /// With this guest staying.
    pub guest_id: Option<String>,
    /// Booked through any of these (none: any).
    pub source: Vec<crate::domain::enums::Source>,
}

fn date_param(d: Date) -> Value {
    Value::Text(d.to_string())
}

/// A page of reservations.
pub fn list(
    conn: &Connection,
    f: &ReservationFilter,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Reservation, Position)>> {
    let mut q = ListQuery::new(ENTITY, "reservations", "arrival");
    q.columns = COLUMNS;
    q.extra_columns = GUEST_IDS;
    if let Some(to) = f.to {
        q.filter("t.arrival <= ?", [date_param(to)]);
    }
    if let Some(from) = f.from {
        q.filter("t.departure > ?", [date_param(from)]);
    }
    let ranges = [
        ("t.arrival >= ?", f.arrival_from),
        ("t.arrival <= ?", f.arrival_to),
        ("t.departure >= ?", f.departure_from),
        ("t.departure <= ?", f.departure_to),
    ];
    for (sql, value) in ranges {
        if let Some(d) = value {
            q.filter(sql, [date_param(d)]);
        }
    }
    match f.status.as_slice() {
        [] => {}
        // One status: the (status, arrival, id) index yields the list order directly.
        [one] => q.filter("t.status = ?", [Value::Text(one.as_str().into())]),
        // Several: walk the arrival index and filter (`+` keeps SQLite from sorting every
        // match of the status index on each page).
        many => {
            let marks = vec!["?"; many.len()].join(", ");
            q.filter(
                format!("+t.status IN ({marks})"),
                many.iter().map(|s| Value::Text(s.as_str().into())),
            );
        }
    }
    if let Some(rt) = &f.room_type_id {
        q.filter("t.room_type_id = ?", [Value::Text(rt.clone())]);
    }
    if !f.source.is_empty() {
        let marks = vec!["?"; f.source.len()].join(", ");
        q.filter(
            format!("t.source IN ({marks})"),
            f.source.iter().map(|s| Value::Text(s.as_str().into())),
        );
    }
    if let Some(g) = &f.guest_id {
        q.filter(
            "t.id IN (SELECT reservation_id FROM reservation_guests WHERE guest_id = ?)",
            [Value::Text(g.clone())],
        );
    }
    page::fetch(conn, &q, after, as_of, limit, map)
}

/// The code of a confirmed or checked-in reservation assigned to `room_id`, if any.
pub fn active_in_room(conn: &Connection, room_id: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT code FROM reservations WHERE room_id = ?1 AND {HOLDS_INVENTORY} LIMIT 1"
        ))?
        .query_row([room_id], |r| r.get(0))
        .optional()?)
}

/// How many reservations are in each status (for `/metrics`).
pub fn status_counts(conn: &Connection) -> AppResult<Vec<(String, i64)>> {
    let mut stmt =
        conn.prepare_cached("SELECT status, COUNT(*) FROM reservations GROUP BY status")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records reservation `id`'s online pre-check-in, now, with the arrival time given.
pub fn pre_checked_in(tx: &Tx, id: &str, arrival_time: Option<&str>) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO pre_check_ins (reservation_id, completed_at, arrival_time) VALUES (?1, ?2, ?3)
         ON CONFLICT (reservation_id) DO UPDATE SET completed_at = excluded.completed_at,
             arrival_time = excluded.arrival_time",
    )?
    .execute((id, tx.now_text(), arrival_time))?;
    Ok(())
}
