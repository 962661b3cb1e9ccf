//! The bookings made each property-local day, by source and booking site, as a running total
//! (`bookings_made`, one row a day, source and site): how many were made, how many of them
//! are cancelled or not shown now, their nights, booked room price and days of lead time.
//! Every write of a reservation's row applies its change here in the same transaction
//! (`reservation_row`), and a change of the property's time zone counts them all again
//! (`settings::save`), so the bookings report reads a row a day and source instead of
//! every booking of the month.
//!
//! That recount reads every reservation inside the settings' write: seconds at a million
//! reservations, during which other writes wait (a property changes its time zone once,
//! when it is set up). A booking site of `""` counts as none. Should a newer `chrono-tz`
//! move a zone's rules, bookings made near midnight in the changed span may sit on another
//! day than a fresh count puts them: `innkeep doctor` says so and `--recount` mends it.

use chrono::NaiveDate;
use rusqlite::Connection;

use crate::db::Tx;
use crate::error::AppResult;

/// A booking as the report counts it: what it adds to the row of the day it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booked {
    /// When it was made (RFC 3339, UTC).
    pub at: String,
    /// How it came (`direct`, `ota`, …).
    pub source: String,
    /// The booking site, for `ota`; empty when none.
    pub site: String,
    /// Its status now.
    pub status: String,
    /// Its arrival.
    pub arrival: NaiveDate,
    /// Its nights.
    pub nights: i64,
    /// Their booked price, gross (the stored prices, else every night at the nightly rate).
    pub room_revenue: i64,
}

/// A row's figures: bookings, cancelled, not shown, nights, room revenue, lead days.
pub type Counts = [i64; 6];

/// Applies a write of a reservation's row: takes away what it counted `before` (none for a
/// new row) and adds what it counts `after`, each on the day it was made in the property's
/// time zone. When both fall on the same row (a check-in, say) only the difference is
/// written, and nothing when there is none. A booking whose instant cannot be read counts
/// on no day, as the fresh count leaves it out.
pub fn apply(tx: &Tx, before: Option<&Booked>, after: &Booked) -> AppResult<()> {
    let zone = super::settings::time_zone(tx)?;
    let counted = |b: &Booked| {
        crate::clock::local_time(&b.at, &zone).map(|(day, _)| {
            let counts = [
                1,
                i64::from(b.status == "cancelled"),
                i64::from(b.status == "no_show"),
                b.nights,
                b.room_revenue,
                (b.arrival - day).num_days().max(0),
            ];
            ((day.to_string(), b.source.clone(), b.site.clone()), counts)
        })
    };
    let mut changes = Vec::with_capacity(2);
    let old = before.and_then(counted);
    let new = counted(after);
    match (old, new) {
        (Some((k, was)), Some((key, now))) if k == key => {
            changes.push((key, std::array::from_fn(|i| now[i] - was[i])));
        }
        (old, new) => {
            changes.extend(old.map(|(k, was)| (k, was.map(|n| -n))));
            changes.extend(new);
        }
    }
    for ((day, source, site), counts) in changes {
        if counts != [0; 6] {
            add_counts(tx, &day, &source, &site, counts)?;
        }
    }
    Ok(())
}

/// Adds `counts` to the row of `day`, `source` and `site`.
pub fn add_counts(tx: &Tx, day: &str, source: &str, site: &str, counts: Counts) -> AppResult<()> {
    let [bookings, cancelled, no_shows, nights, revenue, lead] = counts;
    tx.prepare_cached(
        "INSERT INTO bookings_made (day, source, site, bookings, cancelled, no_shows, nights,
                                    room_revenue, lead_days)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (day, source, site) DO UPDATE SET
             bookings = bookings + excluded.bookings,
             cancelled = cancelled + excluded.cancelled,
             no_shows = no_shows + excluded.no_shows,
             nights = nights + excluded.nights,
             room_revenue = room_revenue + excluded.room_revenue,
             lead_days = lead_days + excluded.lead_days",
    )?
    .execute(rusqlite::params![
        day, source, site, bookings, cancelled, no_shows, nights, revenue, lead
    ])?;
    Ok(())
}

/// The bookings made on the days from `from` to `to` (exclusive), summed by source and
/// site (`None` when none), in that order; a source and site with no booking left out.
pub fn between(
    conn: &Connection,
    from: &str,
    to: &str,
) -> AppResult<Vec<(String, Option<String>, Counts)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT source, site, SUM(bookings), SUM(cancelled), SUM(no_shows), SUM(nights),
                SUM(room_revenue), SUM(lead_days)
           FROM bookings_made WHERE day >= ?1 AND day < ?2
          GROUP BY source, site HAVING SUM(bookings) <> 0 ORDER BY source, site",
    )?;
    let rows = stmt.query_map([from, to], |r| {
        let site: String = r.get(1)?;
        let mut counts = [0; 6];
        for (i, n) in counts.iter_mut().enumerate() {
            *n = r.get(i + 2)?;
        }
        Ok((r.get(0)?, (!site.is_empty()).then_some(site), counts))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every day's figures counted afresh from the reservations, as `(day, source, site, …)`
/// rows in the columns' order (the same count as migration V48's fill).
const FRESH: &str = "WITH made (day, source, site, status, arrival, nights, revenue) AS (
        SELECT innkeep_local_day(r.created_at, s.time_zone), r.source,
               COALESCE(json_extract(r.channel, '$.ota'), ''), r.status, r.arrival,
               CASE WHEN r.night_prices IS NULL
                    THEN max(0, CAST(julianday(r.departure) - julianday(r.arrival) AS INTEGER))
                    ELSE json_array_length(r.night_prices) END,
               CASE WHEN r.night_prices IS NULL
                    THEN max(0, CAST(julianday(r.departure) - julianday(r.arrival) AS INTEGER))
                         * r.nightly_rate
                    ELSE (SELECT COALESCE(SUM(json_extract(j.value, '$.price')), 0)
                            FROM json_each(r.night_prices) j) END
          FROM reservations r, settings s WHERE s.id = 1
    )
    SELECT day, source, site, COUNT(*), SUM(status = 'cancelled'), SUM(status = 'no_show'),
           SUM(nights), SUM(revenue),
           SUM(max(0, CAST(julianday(arrival) - julianday(day) AS INTEGER)))
      FROM made WHERE day IS NOT NULL GROUP BY day, source, site";

/// Counts every day afresh from the reservations, replacing the running totals (after a
/// change of time zone, and for rows written around the store, as `innkeep-bench` seeds
/// them).
pub fn rebuild(conn: &Connection) -> AppResult<()> {
    conn.execute("DELETE FROM bookings_made", [])?;
    conn.execute(
        &format!(
            "INSERT INTO bookings_made (day, source, site, bookings, cancelled, no_shows,
                 nights, room_revenue, lead_days) {FRESH}"
        ),
        [],
    )?;
    Ok(())
}

/// A day, source and site whose running total is off: (day, source, site, kept, counted
/// afresh).
pub type Difference = (String, String, String, Counts, Counts);

/// The rows whose running totals differ from a fresh count of the reservations (none when
/// they agree; a kept row of nothing but zeros agrees with no booking).
pub fn differences(conn: &Connection) -> AppResult<Vec<Difference>> {
    const COLUMNS: [&str; 6] = [
        "bookings",
        "cancelled",
        "no_shows",
        "nights",
        "room_revenue",
        "lead_days",
    ];
    let pick = |t: &str| {
        COLUMNS
            .iter()
            .map(|c| format!("COALESCE({t}.{c}, 0)"))
            .collect::<Vec<_>>()
    };
    let (kept, fresh) = (pick("k"), pick("f"));
    let differ: Vec<String> = kept
        .iter()
        .zip(&fresh)
        .map(|(k, f)| format!("{k} IS NOT {f}"))
        .collect();
    let mut stmt = conn.prepare(&format!(
        "WITH f (day, source, site, {cols}) AS ({FRESH})
         SELECT COALESCE(k.day, f.day), COALESCE(k.source, f.source),
                COALESCE(k.site, f.site), {kept}, {fresh}
           FROM bookings_made k
           FULL JOIN f ON f.day = k.day AND f.source = k.source AND f.site = k.site
          WHERE {differ}
          ORDER BY 1, 2, 3",
        cols = COLUMNS.join(", "),
        kept = kept.join(", "),
        fresh = fresh.join(", "),
        differ = differ.join(" OR "),
    ))?;
    let rows = stmt.query_map([], |r| {
        let mut counts = [[0; 6]; 2];
        for (i, n) in counts.iter_mut().flatten().enumerate() {
            *n = r.get(i + 3)?;
        }
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, counts[0], counts[1]))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reservations written around the store (as a database upgraded to V48 holds them): a
    /// direct stay at one rate made just before midnight UTC, one through a booking site
    /// with its own prices, a cancelled one and one not shown.
    fn raw_bookings(conn: &Connection) {
        conn.execute_batch("PRAGMA foreign_keys = OFF;").unwrap();
        let mut stmt = conn
            .prepare(
                "INSERT INTO reservations (id, code, status, primary_guest_id, room_type_id,
                     arrival, departure, adults, children, nightly_rate, night_prices,
                     currency, source, channel, version, created_at, updated_at)
                 VALUES (?1, ?1, ?2, 'gst', 'rt', ?3, ?4, 1, 0, ?5, ?6, 'EUR', ?7, ?8, 1,
                     ?9, ?9)",
            )
            .unwrap();
        let prices = r#"[{"date":"2026-03-02","price":100},{"date":"2026-03-03","price":250}]"#;
        let site = r#"{"ota":"Booking.com","reference":"1"}"#;
        for (id, status, arrival, departure, rate, prices, source, channel, at) in [
            (
                "a",
                "checked_out",
                "2026-02-27",
                "2026-03-03",
                9000,
                None,
                "direct",
                None,
                "2026-02-01T23:30:00Z",
            ),
            (
                "b",
                "confirmed",
                "2026-03-02",
                "2026-03-04",
                5000,
                Some(prices),
                "ota",
                Some(site),
                "2026-02-01T10:00:00Z",
            ),
            (
                "c",
                "cancelled",
                "2026-03-01",
                "2026-03-05",
                7000,
                None,
                "direct",
                None,
                "2026-02-01T08:00:00Z",
            ),
            (
                "d",
                "no_show",
                "2026-01-30",
                "2026-01-31",
                8000,
                None,
                "direct",
                None,
                "2026-02-01T09:00:00Z",
            ),
        ] {
            stmt.execute(rusqlite::params![
                id, status, arrival, departure, rate, prices, source, channel, at
            ])
            .unwrap();
        }
    }

    /// The migration's fill and [`rebuild`] count the same bookings on the same days, as the
    /// report defines them; [`differences`] finds a row that is off; a new time zone moves a
    /// booking made near midnight to the next day once counted again.
    #[test]
    fn the_migration_and_a_rebuild_count_the_same_and_the_time_zone_moves_days() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        raw_bookings(&conn);
        let migration = include_str!("../../migrations/V48__bookings_made.sql");
        let fill = &migration[migration.find("INSERT INTO bookings_made").unwrap()..];
        conn.execute_batch(fill).unwrap();
        assert_eq!(differences(&conn).unwrap(), vec![]);
        // Lead days: a 26 (to 27 Feb), b 29, c 28, d 0 (arrived before it was made).
        assert_eq!(
            between(&conn, "2026-02-01", "2026-02-02").unwrap(),
            vec![
                (
                    "direct".into(),
                    None,
                    [3, 1, 1, 9, 36000 + 28000 + 8000, 54]
                ),
                (
                    "ota".into(),
                    Some("Booking.com".into()),
                    [1, 0, 0, 2, 350, 29]
                ),
            ]
        );
        conn.execute_batch("UPDATE bookings_made SET nights = 1 WHERE source = 'ota'")
            .unwrap();
        let off = differences(&conn).unwrap();
        assert_eq!(off.len(), 1);
        assert_eq!(off[0].3, [1, 0, 0, 1, 350, 29]);
        assert_eq!(off[0].4, [1, 0, 0, 2, 350, 29]);
        conn.execute_batch("UPDATE settings SET time_zone = 'Europe/Rome'")
            .unwrap();
        rebuild(&conn).unwrap();
        assert_eq!(differences(&conn).unwrap(), vec![]);
        let day = |d: &str| {
            let next = (d.parse::<NaiveDate>().unwrap() + chrono::Days::new(1)).to_string();
            between(&conn, d, &next).unwrap()
        };
        assert_eq!(day("2026-02-02")[0].2, [1, 0, 0, 4, 36000, 25]);
        assert_eq!(day("2026-02-01")[0].2[0], 2, "the others stay on the 1st");
    }
}
