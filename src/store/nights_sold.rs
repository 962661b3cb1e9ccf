//! What each night sold, as a running total (`nights_sold`, one row a night): the rooms sold
//! and their room revenue as `domain::report` defines them. Every write of a reservation's
//! row applies its change here in the same transaction (`reservation_row`), so the
//! occupancy report and the day close read a row a night instead of every stay.

use rusqlite::Connection;

use crate::db::Tx;
use crate::domain::report::NightSold;
use crate::error::AppResult;

/// Adds each night's change (counts and revenue may be negative).
pub fn add(tx: &Tx, changes: &[NightSold]) -> AppResult<()> {
    if changes.is_empty() {
        return Ok(());
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO nights_sold (night, rooms_sold, room_revenue) VALUES (?1, ?2, ?3)
         ON CONFLICT (night) DO UPDATE SET rooms_sold = rooms_sold + excluded.rooms_sold,
                                           room_revenue = room_revenue + excluded.room_revenue",
    )?;
    for (night, n, revenue) in changes {
        stmt.execute(rusqlite::params![night.to_string(), n, revenue])?;
    }
    Ok(())
}

/// What the nights from `from` to `to` (exclusive) sold, in order; a night that sold
/// nothing may be missing.
pub fn between(conn: &Connection, from: &str, to: &str) -> AppResult<Vec<NightSold>> {
    let mut stmt = conn.prepare_cached(
        "SELECT night, rooms_sold, room_revenue FROM nights_sold
          WHERE night >= ?1 AND night < ?2 ORDER BY night",
    )?;
    let rows = stmt.query_map([from, to], |r| {
        Ok((r.get::<_, crate::model::Date>(0)?.0, r.get(1)?, r.get(2)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every night's figures counted afresh from the reservations (the nights of a stay
/// without stored prices at its nightly rate), as `(night, rooms_sold, room_revenue)`
/// rows in order of the nights.
const FRESH: &str = "WITH RECURSIVE uniform (night, departure, price) AS (
        SELECT arrival, departure, nightly_rate FROM reservations
         WHERE status IN ('confirmed', 'checked_in', 'checked_out')
           AND night_prices IS NULL AND arrival < departure
        UNION ALL
        SELECT date(night, '+1 day'), departure, price FROM uniform
         WHERE date(night, '+1 day') < departure
    ), every_night (night, price) AS (
        SELECT night, price FROM uniform
        UNION ALL
        SELECT json_extract(j.value, '$.date'), json_extract(j.value, '$.price')
          FROM reservations r, json_each(r.night_prices) j
         WHERE r.status IN ('confirmed', 'checked_in', 'checked_out')
           AND r.night_prices IS NOT NULL
    )
    SELECT night, COUNT(*), SUM(price) FROM every_night GROUP BY night ORDER BY night";

/// Counts every night afresh from the reservations, replacing the running totals (for
/// rows written around the store, as `innkeep-bench` seeds them).
pub fn rebuild(conn: &Connection) -> AppResult<()> {
    conn.execute("DELETE FROM nights_sold", [])?;
    conn.execute(
        &format!("INSERT INTO nights_sold (night, rooms_sold, room_revenue) {FRESH}"),
        [],
    )?;
    Ok(())
}

/// A night whose running total is off: (night, kept, counted afresh), each as (rooms sold,
/// room revenue).
pub type Difference = (String, (i64, i64), (i64, i64));

/// The nights whose running totals differ from a fresh count of the reservations (none
/// when they agree).
pub fn differences(conn: &Connection) -> AppResult<Vec<Difference>> {
    let mut stmt = conn.prepare(&format!(
        "WITH fresh (night, n, revenue) AS ({FRESH})
         SELECT COALESCE(k.night, f.night), COALESCE(k.rooms_sold, 0),
                COALESCE(k.room_revenue, 0), COALESCE(f.n, 0), COALESCE(f.revenue, 0)
           FROM nights_sold k FULL JOIN fresh f ON f.night = k.night
          WHERE COALESCE(k.rooms_sold, 0) IS NOT COALESCE(f.n, 0)
             OR COALESCE(k.room_revenue, 0) IS NOT COALESCE(f.revenue, 0)
          ORDER BY 1"
    ))?;
    let rows = stmt.query_map([], |r| {
        Ok((r.get(0)?, (r.get(1)?, r.get(2)?), (r.get(3)?, r.get(4)?)))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reservations written around the store (as a database upgraded to V47 holds them):
    /// uniform stays, one with its own prices, one cancelled.
    fn raw_stays(conn: &Connection) {
        conn.execute_batch("PRAGMA foreign_keys = OFF;").unwrap();
        let mut stmt = conn
            .prepare(
                "INSERT INTO reservations (id, code, status, primary_guest_id, room_type_id,
                     arrival, departure, adults, children, nightly_rate, night_prices,
                     currency, source, version, created_at, updated_at)
                 VALUES (?1, ?1, ?2, 'gst', 'rt', ?3, ?4, 1, 0, ?5, ?6, 'EUR', 'direct', 1,
                     '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
            )
            .unwrap();
        let prices = r#"[{"date":"2026-03-02","price":100},{"date":"2026-03-03","price":250}]"#;
        for (id, status, arrival, departure, rate, prices) in [
            ("a", "checked_out", "2026-02-27", "2026-03-03", 9000, None),
            (
                "b",
                "confirmed",
                "2026-03-02",
                "2026-03-04",
                5000,
                Some(prices),
            ),
            ("c", "cancelled", "2026-03-01", "2026-03-05", 7000, None),
            ("d", "checked_in", "2026-03-03", "2026-03-04", 8000, None),
        ] {
            stmt.execute(rusqlite::params![
                id, status, arrival, departure, rate, prices
            ])
            .unwrap();
        }
    }

    /// The migration's fill and [`rebuild`] count the same nights, as the report defines
    /// them; [`differences`] finds a night that is off and one that is missing.
    #[test]
    fn the_migration_and_a_rebuild_count_the_same_and_differences_are_found() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        raw_stays(&conn);
        let migration = include_str!("../../migrations/V47__nights_sold.sql");
        let fill = &migration[migration.find("INSERT INTO nights_sold").unwrap()..];
        conn.execute_batch(fill).unwrap();
        assert_eq!(differences(&conn).unwrap(), vec![]);
        let night = |d: &str| d.parse::<chrono::NaiveDate>().unwrap();
        assert_eq!(
            between(&conn, "2026-02-28", "2026-03-05").unwrap(),
            vec![
                (night("2026-02-28"), 1, 9000),
                (night("2026-03-01"), 1, 9000),
                (night("2026-03-02"), 2, 9100),
                (night("2026-03-03"), 2, 8250),
            ]
        );
        conn.execute_batch(
            "UPDATE nights_sold SET room_revenue = 1 WHERE night = '2026-03-01';
             DELETE FROM nights_sold WHERE night = '2026-03-03';",
        )
        .unwrap();
        assert_eq!(
            differences(&conn).unwrap(),
            vec![
                ("2026-03-01".into(), (1, 1), (1, 9000)),
                ("2026-03-03".into(), (0, 0), (2, 8250)),
            ]
        );
        rebuild(&conn).unwrap();
        assert_eq!(differences(&conn).unwrap(), vec![]);
    }
}
