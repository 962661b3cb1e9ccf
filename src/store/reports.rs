//! What the reports read: the stays holding nights in a range, and the rooms (what each
//! night sold is kept in `nights_sold`).

use rusqlite::Connection;

use crate::error::AppResult;

/// The stays booked, in house or gone that hold a night from `?1` to `?2` (exclusive), as
/// the board finds them: those of up to [`super::board::LONG`] nights by their arrival in a
/// bounded range (`?3` is `?1` less that many days) through `reservations_board`, the few
/// longer ones through `reservations_long_stays`; never a scan of the whole history. The
/// columns are `cols`, each prefixed `r.`.
macro_rules! holding {
    ($cols:literal, $departs:literal) => {
        concat!(
            "SELECT ",
            $cols,
            " FROM reservations r INDEXED BY reservations_board
              WHERE r.arrival >= ?3 AND r.arrival < ?2 AND r.departure ",
            $departs,
            " ?1
                AND r.status IN ('confirmed', 'checked_in', 'checked_out')
             UNION ALL
             SELECT ",
            $cols,
            " FROM reservations r INDEXED BY reservations_long_stays
              WHERE julianday(r.departure) - julianday(r.arrival) > 28
                AND r.departure ",
            $departs,
            " ?1 AND r.arrival < ?3
                AND r.status IN ('confirmed', 'checked_in', 'checked_out')"
        )
    };
}

/// `from` less [`super::board::LONG`] days, for [`holding!`]'s `?3`.
fn long_from(from: &str) -> String {
    from.parse::<chrono::NaiveDate>()
        .map(|d| (d - chrono::Days::new(super::board::LONG as u64)).to_string())
        .unwrap_or_else(|_| from.to_string())
}

/// How many rooms the property has (the hub's `rooms_available`).
pub fn rooms(conn: &Connection) -> AppResult<i64> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM rooms")?
        .query_row([], |r| r.get(0))?)
}

/// One invoice line for the revenue report: (department, its extra's code and name as
/// stored, VAT rate, net, tax, gross). Credit notes' lines carry their negative amounts.
pub type RevenueLine = (String, Option<String>, Option<String>, i64, i64, i64, i64);

/// Every line of the invoices and credit notes issued from `from` to `to` (exclusive,
/// a credit note's line counted in the department of the line it reverses;
/// property-local issue dates; read through `sort_key`, which starts with the issue date,
/// so the invoices' index serves the range).
pub fn revenue_lines(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<RevenueLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT l.kind, x.code, x.name, l.tax_rate, l.net_amount, l.tax_amount, l.gross_amount
           FROM invoices i
           JOIN invoice_lines l ON l.invoice_id = i.id
           LEFT JOIN invoice_lines o ON o.invoice_id = i.corrects_invoice_id
                 AND o.position = l.position AND o.description = l.description
           LEFT JOIN folio_charges c ON c.id = COALESCE(l.charge_id, o.charge_id)
           LEFT JOIN extras x ON x.id = c.extra_id
          WHERE i.sort_key >= ?1 AND i.sort_key < ?2",
    )?;
    let rows = stmt.query_map([from, to], |r| RevenueLine::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Payments and refunds recorded between the instants `from` and `to` (RFC 3339, UTC):
/// (when, method, signed amount: a refund negative).
pub fn payments(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<(String, String, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT paid_at, method, CASE kind WHEN 'refund' THEN -amount ELSE amount END
           FROM payments WHERE paid_at >= ?1 AND paid_at < ?2 ORDER BY paid_at, id",
    )?;
    let rows = stmt.query_map([from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Who stayed the night of `day` (checked in, or since left): (reservation id, code, room
/// number, guest id, whether the primary guest, arrival, departure), by room then party.
pub type Staying = (String, String, Option<String>, String, bool, String, String);

/// Every guest of every stay checked in (or since checked out) that held the night of
/// `day`, by room number, then stay, then the party's order.
pub fn staying(conn: &Connection, day: &str) -> AppResult<Vec<Staying>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, r.code, m.number, g.guest_id, g.guest_id = r.primary_guest_id,
                r.arrival, r.departure
           FROM reservations r
           JOIN reservation_guests g ON g.reservation_id = r.id
           LEFT JOIN rooms m ON m.id = r.room_id
          WHERE r.arrival <= ?1 AND r.departure > ?1
            AND r.status IN ('checked_in', 'checked_out')
          ORDER BY m.number IS NULL, m.number, r.id, g.position",
    )?;
    let rows = stmt.query_map([day], |r| Staying::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A guest of a stay holding a night from `from` to `to` (exclusive), checked in or since
/// left: (arrival, departure, room, address country, address region, nationality).
pub type IstatGuest = (
    crate::model::Date,
    crate::model::Date,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// Every guest of every stay checked in (or since left) holding a night from `from` to
/// `to`, or leaving inside it.
pub fn istat_guests(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<IstatGuest>> {
    let mut stmt = conn.prepare_cached(concat!(
        "WITH r AS (",
        holding!("r.id, r.arrival, r.departure, r.room_id, r.status", ">="),
        ")
         SELECT r.arrival, r.departure, r.room_id, json_extract(u.address, '$.country'),
                json_extract(u.address, '$.region'), u.nationality
           FROM r
           JOIN reservation_guests g ON g.reservation_id = r.id
           JOIN guests u ON u.id = g.guest_id
          WHERE r.status IN ('checked_in', 'checked_out')"
    ))?;
    let rows = stmt.query_map([from, to, &long_from(from)], |r| IstatGuest::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The property's beds: each room's type's `max_occupancy`, summed.
pub fn beds(conn: &Connection) -> AppResult<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT COALESCE(SUM(t.max_occupancy), 0) FROM rooms m
               JOIN room_types t ON t.id = m.room_type_id",
        )?
        .query_row([], |r| r.get(0))?)
}

/// The stays checked in (or since left) that arrive or leave from `from` to `to`
/// (exclusive), by arrival.
pub fn istat_stays(
    conn: &Connection,
    from: &str,
    to: &str,
) -> AppResult<Vec<crate::model::Reservation>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM reservations
          WHERE ((arrival >= ?1 AND arrival < ?2) OR (departure >= ?1 AND departure < ?2))
            AND status IN ('checked_in', 'checked_out')
          ORDER BY arrival, code",
    )?;
    let ids: Vec<String> = stmt
        .query_map([from, to], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.extend(super::reservations::get(conn, &id)?);
    }
    Ok(out)
}

/// The stays checked out between the instants `from` and `to`: (checked out at, arrival,
/// nights, persons, the guests' birth dates as stored).
pub type TaxedStay = (String, crate::model::Date, i64, i64, Option<String>);

/// The stays checked out between the instants `from` and `to`, each with its guests' birth
/// dates (a JSON array).
pub fn checked_out_stays(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<TaxedStay>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.checked_out_at, r.arrival,
                CAST(julianday(r.departure) - julianday(r.arrival) AS INTEGER),
                r.adults + r.children,
                (SELECT json_group_array(u.birth_date) FROM reservation_guests g
                   JOIN guests u ON u.id = g.guest_id WHERE g.reservation_id = r.id)
           FROM reservations r
          WHERE r.checked_out_at >= ?1 AND r.checked_out_at < ?2 AND r.status = 'checked_out'",
    )?;
    let rows = stmt.query_map([from, to], |r| TaxedStay::try_from(r))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The city tax on the invoices (less the credit notes) issued from `from` to `to`
/// (property-local days, exclusive), by issue month: (`2026-10`, person-nights, gross).
pub fn city_tax_billed(
    conn: &Connection,
    from: &str,
    to: &str,
) -> AppResult<Vec<(String, i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT substr(i.issue_date, 1, 7),
                SUM(CASE i.kind WHEN 'credit_note' THEN -abs(l.quantity) ELSE l.quantity END),
                SUM(l.gross_amount)
           FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id
          WHERE l.kind = 'city_tax' AND i.sort_key >= ?1 AND i.sort_key < ?2
          GROUP BY 1",
    )?;
    let rows = stmt.query_map([from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
