-- innkeep-hub's read model. docs/hub-schema.md is the contract for everything here; the
-- hub_* functions are how the hub writes it (from feed events and from resynchronisation).

-- One row per property in the hub's configuration: where the hub stands in its feed.
CREATE TABLE properties (
    name text PRIMARY KEY,
    mode text NOT NULL DEFAULT 'pull' CHECK (mode IN ('pull', 'push')),
    feed_id text,
    position bigint,
    caught_up_at timestamptz,
    last_contact_at timestamptz,
    last_error text,
    last_error_at timestamptz,
    resyncs integer NOT NULL DEFAULT 0,
    last_resync_at timestamptz,
    last_resync_reason text,
    events_ingested bigint NOT NULL DEFAULT 0,
    rooms_refreshed_at timestamptz
);

-- Every event the hub ingested (not its snapshot: the tables below hold the latest state,
-- and a guest erased at the property is erased here by the event that reports it).
CREATE TABLE events (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    feed_id text NOT NULL,
    sequence bigint NOT NULL,
    id text NOT NULL,
    type text NOT NULL,
    subject_id text,
    occurred_at timestamptz NOT NULL,
    actor_type text,
    actor_name text,
    ingested_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (property, feed_id, sequence)
);
CREATE INDEX events_by_time ON events (property, occurred_at);

CREATE TABLE rooms (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    id text NOT NULL,
    number text NOT NULL,
    room_type_id text NOT NULL,
    floor integer,
    version integer NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (property, id)
);

CREATE TABLE guests (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    id text NOT NULL,
    first_name text,
    last_name text,
    email text,
    phone text,
    nationality text,
    birth_date date,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    version integer NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (property, id)
);

CREATE TABLE reservations (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    id text NOT NULL,
    code text,
    status text NOT NULL,
    arrival date NOT NULL,
    departure date NOT NULL,
    nights integer NOT NULL,
    nightly_rate bigint NOT NULL,
    currency text NOT NULL,
    room_type_id text NOT NULL,
    room_id text,
    primary_guest_id text,
    invoice_id text,
    adults integer,
    children integer,
    source text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    checked_in_at timestamptz,
    checked_out_at timestamptz,
    cancelled_at timestamptz,
    version integer NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (property, id)
);
CREATE INDEX reservations_by_stay ON reservations (property, arrival, departure);

CREATE TABLE invoices (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    id text NOT NULL,
    number text NOT NULL,
    series text,
    kind text NOT NULL,
    status text NOT NULL,
    issue_date date NOT NULL,
    currency text NOT NULL,
    net bigint NOT NULL,
    tax bigint NOT NULL,
    gross bigint NOT NULL,
    paid_amount bigint NOT NULL,
    payment_method text,
    reservation_id text,
    guest_id text,
    corrects_invoice_id text,
    bill_to_name text,
    fiscal_scheme text,
    fiscal_status text,
    fiscal_receipt_number text,
    fiscal_reference text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    version integer NOT NULL,
    data jsonb NOT NULL,
    PRIMARY KEY (property, id)
);
CREATE INDEX invoices_by_date ON invoices (property, issue_date);

CREATE TABLE invoice_lines (
    property text NOT NULL,
    invoice_id text NOT NULL,
    position integer NOT NULL,
    description text NOT NULL,
    quantity integer NOT NULL,
    unit_price bigint NOT NULL,
    net_amount bigint NOT NULL,
    tax_rate integer NOT NULL,
    tax_amount bigint NOT NULL,
    gross_amount bigint NOT NULL,
    service_date date,
    PRIMARY KEY (property, invoice_id, position),
    FOREIGN KEY (property, invoice_id) REFERENCES invoices (property, id) ON DELETE CASCADE
);

-- The highest invoice number the hub has seen per series, kept through re-synchronisations
-- (which may bring an older copy of the property): what `innkeep numbering confirm
-- --from-hub` asks for after a restore.
CREATE TABLE invoice_numbers (
    property text NOT NULL REFERENCES properties (name) ON DELETE CASCADE,
    series text NOT NULL,
    last_seq bigint NOT NULL,
    last_number text NOT NULL,
    seen_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (property, series)
);

-- Rooms sold, room revenue, ADR and RevPAR per property and night, from the reservations
-- that hold a room that night (confirmed, checked in or checked out) at their nightly
-- rate (gross, minor units), over the inventory of rooms the property has now.
CREATE VIEW daily_occupancy AS
WITH span AS (
    SELECT property, min(arrival) AS first_night, max(departure) - 1 AS last_night
    FROM reservations GROUP BY property
), nights AS (
    SELECT s.property, d::date AS date
    FROM span s, generate_series(s.first_night, s.last_night, interval '1 day') AS d
), sold AS (
    SELECT r.property, d::date AS date, count(*) AS rooms_sold,
           sum(r.nightly_rate) AS room_revenue, max(r.currency) AS currency
    FROM reservations r, generate_series(r.arrival, r.departure - 1, interval '1 day') AS d
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

-- The writers: each takes a property and a snapshot (what the property's API returned) and
-- keeps the newer version; an older snapshot changes nothing. They return whether it did.
CREATE FUNCTION hub_put_room(p text, d jsonb) RETURNS boolean LANGUAGE sql AS $$
    INSERT INTO rooms VALUES (p, d->>'id', d->>'number', d->>'room_type_id',
        (d->>'floor')::integer, (d->>'version')::integer, d)
    ON CONFLICT (property, id) DO UPDATE SET number = EXCLUDED.number,
        room_type_id = EXCLUDED.room_type_id, floor = EXCLUDED.floor,
        version = EXCLUDED.version, data = EXCLUDED.data
    WHERE rooms.version <= EXCLUDED.version
    RETURNING true
$$;

CREATE FUNCTION hub_put_guest(p text, d jsonb) RETURNS boolean LANGUAGE sql AS $$
    INSERT INTO guests VALUES (p, d->>'id', d->>'first_name', d->>'last_name', d->>'email',
        d->>'phone', d->>'nationality', (d->>'birth_date')::date,
        (d->>'created_at')::timestamptz, (d->>'updated_at')::timestamptz,
        (d->>'version')::integer, d)
    ON CONFLICT (property, id) DO UPDATE SET first_name = EXCLUDED.first_name,
        last_name = EXCLUDED.last_name, email = EXCLUDED.email, phone = EXCLUDED.phone,
        nationality = EXCLUDED.nationality, birth_date = EXCLUDED.birth_date,
        updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, data = EXCLUDED.data
    WHERE guests.version <= EXCLUDED.version
    RETURNING true
$$;

CREATE FUNCTION hub_put_reservation(p text, d jsonb) RETURNS boolean LANGUAGE sql AS $$
    INSERT INTO reservations VALUES (p, d->>'id', d->>'code', d->>'status',
        (d->>'arrival')::date, (d->>'departure')::date, (d->>'nights')::integer,
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

CREATE FUNCTION hub_put_invoice(p text, d jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    changed boolean;
BEGIN
    INSERT INTO invoices VALUES (p, d->>'id', d->>'number', d->>'series', d->>'kind',
        d->>'status', (d->>'issue_date')::date, d->>'currency',
        (d->'totals'->>'net')::bigint, (d->'totals'->>'tax')::bigint,
        (d->'totals'->>'gross')::bigint, coalesce((d->>'paid_amount')::bigint, 0),
        d->>'payment_method', d->>'reservation_id', d->>'guest_id',
        d->>'corrects_invoice_id', d->'bill_to'->>'name', d->'fiscal'->>'scheme',
        d->'fiscal'->>'status', d->'fiscal'->>'receipt_number',
        d->'fiscal'->>'authority_reference', (d->>'created_at')::timestamptz,
        (d->>'updated_at')::timestamptz, (d->>'version')::integer, d)
    ON CONFLICT (property, id) DO UPDATE SET number = EXCLUDED.number,
        series = EXCLUDED.series, kind = EXCLUDED.kind, status = EXCLUDED.status,
        issue_date = EXCLUDED.issue_date, currency = EXCLUDED.currency, net = EXCLUDED.net,
        tax = EXCLUDED.tax, gross = EXCLUDED.gross, paid_amount = EXCLUDED.paid_amount,
        payment_method = EXCLUDED.payment_method, reservation_id = EXCLUDED.reservation_id,
        guest_id = EXCLUDED.guest_id, corrects_invoice_id = EXCLUDED.corrects_invoice_id,
        bill_to_name = EXCLUDED.bill_to_name, fiscal_scheme = EXCLUDED.fiscal_scheme,
        fiscal_status = EXCLUDED.fiscal_status,
        fiscal_receipt_number = EXCLUDED.fiscal_receipt_number,
        fiscal_reference = EXCLUDED.fiscal_reference, updated_at = EXCLUDED.updated_at,
        version = EXCLUDED.version, data = EXCLUDED.data
    WHERE invoices.version <= EXCLUDED.version
    RETURNING true INTO changed;
    INSERT INTO invoice_numbers (property, series, last_seq, last_number)
    SELECT p, coalesce(d->>'series', ''), substring(d->>'number' from '([0-9]+)$')::bigint,
           d->>'number'
    WHERE substring(d->>'number' from '([0-9]+)$') IS NOT NULL
    ON CONFLICT (property, series) DO UPDATE SET last_seq = EXCLUDED.last_seq,
        last_number = EXCLUDED.last_number, seen_at = now()
    WHERE invoice_numbers.last_seq < EXCLUDED.last_seq;
    IF changed THEN
        DELETE FROM invoice_lines WHERE property = p AND invoice_id = d->>'id';
        INSERT INTO invoice_lines
        SELECT p, d->>'id', (l->>'position')::integer, l->>'description',
               (l->>'quantity')::integer, (l->>'unit_price')::bigint,
               (l->>'net_amount')::bigint, (l->>'tax_rate')::integer,
               (l->>'tax_amount')::bigint, (l->>'gross_amount')::bigint,
               (l->>'service_date')::date
        FROM jsonb_array_elements(coalesce(d->'lines', '[]'::jsonb)) AS l;
    END IF;
    RETURN coalesce(changed, false);
END
$$;

-- One event into the tables its type names (registration and test events are kept in
-- `events` only).
CREATE FUNCTION hub_apply(p text, e jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    CASE split_part(e->>'type', '.', 1)
        WHEN 'guest' THEN PERFORM hub_put_guest(p, e->'data');
        WHEN 'reservation' THEN PERFORM hub_put_reservation(p, e->'data');
        WHEN 'invoice' THEN PERFORM hub_put_invoice(p, e->'data');
        ELSE NULL;
    END CASE;
END
$$;

-- A batch of feed events (a JSON array, as `GET /v1/events` answers them) for property p
-- standing at `after` in `feed`: each is recorded and applied, in order, and the property's
-- position moves to the last. The caller holds the property's row locked and commits.
CREATE FUNCTION hub_ingest(p text, feed text, after bigint, batch jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    e jsonb;
    last bigint := after;
BEGIN
    FOR e IN SELECT value FROM jsonb_array_elements(batch) LOOP
        IF (e->>'sequence')::bigint <= last THEN
            RAISE EXCEPTION 'event % does not come after %', e->>'sequence', last;
        END IF;
        last := (e->>'sequence')::bigint;
        INSERT INTO events (property, feed_id, sequence, id, type, subject_id, occurred_at,
                            actor_type, actor_name)
        VALUES (p, feed, last, e->>'id', e->>'type', e->'data'->>'id',
                (e->>'occurred_at')::timestamptz, e->'actor'->>'type', e->'actor'->>'name');
        PERFORM hub_apply(p, e);
    END LOOP;
    UPDATE properties SET position = last,
        events_ingested = events_ingested + jsonb_array_length(batch)
    WHERE name = p;
    RETURN last;
END
$$;
