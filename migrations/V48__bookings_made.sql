-- The bookings made each property-local day, by source and booking site, kept as a running
-- total: how many were made, how many of them are cancelled or not shown now, their nights
-- and booked room price (gross, minor units), and their days from the day made to arrival.
-- Every write of a reservation's row applies its change in the same transaction
-- (store::reservation_row), and a change of the property's time zone counts them again
-- (store::settings), so the bookings report reads a row a day and source instead of every
-- booking of the month (at a million reservations a month's report read about 8,800
-- bookings: 7.6 ms of CPU, most of the desk's reports page). `site` is '' when there is
-- none. The fill below is store::bookings_made::FRESH as of this migration; a later
-- migration that rewrites reservations must refill it.
CREATE TABLE bookings_made (
    day          TEXT NOT NULL,
    source       TEXT NOT NULL,
    site         TEXT NOT NULL,
    bookings     INTEGER NOT NULL,
    cancelled    INTEGER NOT NULL,
    no_shows     INTEGER NOT NULL,
    nights       INTEGER NOT NULL,
    room_revenue INTEGER NOT NULL,
    lead_days    INTEGER NOT NULL,
    PRIMARY KEY (day, source, site)
) WITHOUT ROWID;

INSERT INTO bookings_made (day, source, site, bookings, cancelled, no_shows, nights,
                           room_revenue, lead_days)
WITH made (day, source, site, status, arrival, nights, revenue) AS (
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
  FROM made WHERE day IS NOT NULL GROUP BY day, source, site;
