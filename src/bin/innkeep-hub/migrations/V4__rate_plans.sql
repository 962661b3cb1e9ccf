-- Prices (issue 33): a reservation's `nights` became the price of each night
-- ([{date, price}]) and `night_count` the number; reservations gain their rate plan. The
-- read model keeps the number from the dates, lists each booked night's price, counts room
-- revenue from those prices (the nightly rate where a snapshot has none) and keeps the
-- plans from their events.
CREATE OR REPLACE FUNCTION hub_put_reservation(p text, d jsonb) RETURNS boolean LANGUAGE sql AS $$
    INSERT INTO reservations VALUES (p, d->>'id', d->>'code', d->>'status',
        (d->>'arrival')::date, (d->>'departure')::date,
        (d->>'departure')::date - (d->>'arrival')::date,
        (d->>'nightly_rate')::bigint, d->>'currency', d->>'room_type_id', d->>'room_id',
        d->>'primary_guest_id', d->>'invoice_id', (d->>'adults')::integer,
        (d->>'children')::integer, d->>'source', (d->>'created_at')::timestamptz,
        (d->>'updated_at')::timestamptz, (d->>'checked_in_at')::timestamptz,
        (d->>'checked_out_at')::timestamptz, (d->>'cancelled_at')::timestamptz,
        (d->>'version')::integer, d)
    ON CONFLICT (property, id) DO UPDATE SET code = EXCLUDED.code, status = EXCLUDED.status,
        arrival = EXCLUDED.arrival, departure = EXCLUDED.departure, nights = EXCLUDED.nights,
        nightly_rate = EXCLUDED.nightly_rate, currency = EXCLUDED.currency,
        room_type_id = EXCLUDED.room_type_id, room_id = EXCLUDED.room_id,
        primary_guest_id = EXCLUDED.primary_guest_id, invoice_id = EXCLUDED.invoice_id,
        adults = EXCLUDED.adults, children = EXCLUDED.children, source = EXCLUDED.source,
        updated_at = EXCLUDED.updated_at, checked_in_at = EXCLUDED.checked_in_at,
        checked_out_at = EXCLUDED.checked_out_at, cancelled_at = EXCLUDED.cancelled_at,
        version = EXCLUDED.version, data = EXCLUDED.data
    WHERE reservations.version <= EXCLUDED.version
    RETURNING true
$$;

ALTER TABLE reservations
    ADD COLUMN rate_plan_id text GENERATED ALWAYS AS (data->>'rate_plan_id') STORED;

-- The price of each booked night, from the reservation's snapshot.
CREATE VIEW reservation_nights AS
SELECT r.property, r.id AS reservation_id, (n->>'date')::date AS date,
       (n->>'price')::bigint AS price
FROM reservations r,
     jsonb_array_elements(CASE WHEN jsonb_typeof(r.data->'nights') = 'array'
                               THEN r.data->'nights' ELSE '[]'::jsonb END) AS n;

CREATE OR REPLACE VIEW daily_occupancy AS
WITH span AS (
    SELECT property, min(arrival) AS first_night, max(departure) - 1 AS last_night
    FROM reservations GROUP BY property
), nights AS (
    SELECT s.property, d::date AS date
    FROM span s, generate_series(s.first_night, s.last_night, interval '1 day') AS d
), sold AS (
    SELECT r.property, d::date AS date, count(*) AS rooms_sold,
           sum(coalesce(np.price, r.nightly_rate)) AS room_revenue, max(r.currency) AS currency
    FROM reservations r
    CROSS JOIN generate_series(r.arrival, r.departure - 1, interval '1 day') AS d
    LEFT JOIN reservation_nights np
        ON np.property = r.property AND np.reservation_id = r.id AND np.date = d::date
    WHERE r.status IN ('confirmed', 'checked_in', 'checked_out')
    GROUP BY 1, 2
), inventory AS (
    SELECT property, count(*) AS rooms FROM rooms GROUP BY property
)
SELECT n.property, n.date,
       coalesce(i.rooms, 0)::integer AS rooms_available,
       coalesce(s.rooms_sold, 0)::integer AS rooms_sold,
       coalesce(s.room_revenue, 0)::bigint AS room_revenue,
       s.currency,
       CASE WHEN s.rooms_sold > 0 THEN round(s.room_revenue::numeric / s.rooms_sold)::bigint END AS adr,
       CASE WHEN i.rooms > 0 THEN round(coalesce(s.room_revenue, 0)::numeric / i.rooms)::bigint END AS revpar,
       CASE WHEN i.rooms > 0 THEN round(100.0 * coalesce(s.rooms_sold, 0) / i.rooms, 1) END AS occupancy_percent
FROM nights n
LEFT JOIN sold s ON s.property = n.property AND s.date = n.date
LEFT JOIN inventory i ON i.property = n.property;

CREATE TABLE rate_plans (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    id text NOT NULL,
    room_type_id text NOT NULL,
    code text NOT NULL,
    parent_id text,
    sold boolean NOT NULL,
    version integer NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (property, id)
);

CREATE FUNCTION hub_put_rate_plan(p text, d jsonb) RETURNS boolean LANGUAGE sql AS $$
    INSERT INTO rate_plans VALUES (p, d->>'id', d->>'room_type_id', d->>'code',
        d->>'parent_id', (d->>'sold')::boolean, (d->>'version')::integer, d)
    ON CONFLICT (property, id) DO UPDATE SET room_type_id = EXCLUDED.room_type_id,
        code = EXCLUDED.code, parent_id = EXCLUDED.parent_id, sold = EXCLUDED.sold,
        version = EXCLUDED.version, data = EXCLUDED.data
    WHERE rate_plans.version <= EXCLUDED.version
    RETURNING true
$$;

CREATE OR REPLACE FUNCTION hub_apply(p text, e jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    CASE split_part(e->>'type', '.', 1)
        WHEN 'guest' THEN PERFORM hub_put_guest(p, e->'data');
        WHEN 'reservation' THEN PERFORM hub_put_reservation(p, e->'data');
        WHEN 'invoice' THEN PERFORM hub_put_invoice(p, e->'data');
        WHEN 'rate_plan' THEN PERFORM hub_put_rate_plan(p, e->'data');
        ELSE NULL;
    END CASE;
END
$$;
