-- innkeep foundation: settings, room types, rooms, guests, reservations, events,
-- idempotency keys and the sort-key log that keeps list cursors stable.
-- Instants are TEXT in RFC 3339 UTC with milliseconds and a Z; dates are TEXT YYYY-MM-DD.

CREATE TABLE settings (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    name             TEXT    NOT NULL,
    time_zone        TEXT    NOT NULL,
    currency         TEXT    NOT NULL,
    country          TEXT,
    city_tax         TEXT,              -- JSON object, or NULL when the property has none
    invoice_series   TEXT    NOT NULL,
    default_tax_rate INTEGER NOT NULL,
    version          INTEGER NOT NULL,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL
) STRICT;

INSERT INTO settings (id, name, time_zone, currency, country, city_tax, invoice_series,
                      default_tax_rate, version, created_at, updated_at)
VALUES (1, 'My hotel', 'UTC', 'EUR', NULL, NULL, '{year}', 0, 1,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE TABLE room_types (
    id            TEXT    PRIMARY KEY,
    code          TEXT    NOT NULL UNIQUE,
    name          TEXT    NOT NULL,
    description   TEXT,
    max_occupancy INTEGER NOT NULL CHECK (max_occupancy BETWEEN 1 AND 20),
    base_rate     INTEGER NOT NULL CHECK (base_rate >= 0),
    currency      TEXT    NOT NULL,
    version       INTEGER NOT NULL,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
) STRICT;

CREATE TABLE rooms (
    id                  TEXT    PRIMARY KEY,
    number              TEXT    NOT NULL UNIQUE,
    room_type_id        TEXT    NOT NULL REFERENCES room_types (id),
    floor               INTEGER,
    housekeeping_status TEXT    NOT NULL
        CHECK (housekeeping_status IN ('clean', 'dirty', 'inspected', 'out_of_order')),
    version             INTEGER NOT NULL,
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL
) STRICT;
CREATE INDEX rooms_by_type ON rooms (room_type_id, housekeeping_status);

CREATE TABLE guests (
    id          TEXT    PRIMARY KEY,
    first_name  TEXT    NOT NULL,
    last_name   TEXT    NOT NULL,
    email       TEXT,
    email_key   TEXT,                   -- lower-cased email, for the exact filter
    phone       TEXT,
    birth_date  TEXT,
    gender      TEXT CHECK (gender IN ('male', 'female', 'other')),
    nationality TEXT,
    birth_place TEXT,                   -- JSON object
    document    TEXT,                   -- JSON object
    address     TEXT,                   -- JSON object
    notes       TEXT,
    name_key    TEXT    NOT NULL,       -- lower-cased "first last", for the name filter
    sort_key    TEXT    NOT NULL,       -- lower-cased last_name, US, first_name: list order
    version     INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
) STRICT;
CREATE INDEX guests_order ON guests (sort_key, id);
CREATE INDEX guests_email ON guests (email_key) WHERE email_key IS NOT NULL;

CREATE TABLE reservations (
    id               TEXT    PRIMARY KEY,
    code             TEXT    NOT NULL UNIQUE,
    status           TEXT    NOT NULL
        CHECK (status IN ('confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show')),
    primary_guest_id TEXT    NOT NULL REFERENCES guests (id),
    room_type_id     TEXT    NOT NULL REFERENCES room_types (id),
    room_id          TEXT    REFERENCES rooms (id),
    arrival          TEXT    NOT NULL,
    departure        TEXT    NOT NULL,
    adults           INTEGER NOT NULL CHECK (adults >= 1),
    children         INTEGER NOT NULL CHECK (children >= 0),
    nightly_rate     INTEGER NOT NULL,
    currency         TEXT    NOT NULL,
    source           TEXT    NOT NULL,
    notes            TEXT,
    checked_in_at    TEXT,
    checked_out_at   TEXT,
    cancelled_at     TEXT,
    invoice_id       TEXT,
    version          INTEGER NOT NULL,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    CHECK (departure > arrival)
) STRICT;
-- List order and the arrival filters.
CREATE INDEX reservations_arrival ON reservations (arrival, id);
CREATE INDEX reservations_departure ON reservations (departure, id);
CREATE INDEX reservations_status ON reservations (status, arrival, id);
CREATE INDEX reservations_type ON reservations (room_type_id, arrival, id);
-- Availability: active stays of a room type, and of a room, by date.
CREATE INDEX reservations_type_stay ON reservations (room_type_id, arrival, departure)
    WHERE status IN ('confirmed', 'checked_in');
CREATE INDEX reservations_room_stay ON reservations (room_id, arrival, departure)
    WHERE room_id IS NOT NULL AND status IN ('confirmed', 'checked_in');

CREATE TABLE reservation_guests (
    reservation_id TEXT    NOT NULL REFERENCES reservations (id),
    guest_id       TEXT    NOT NULL REFERENCES guests (id),
    position       INTEGER NOT NULL,
    PRIMARY KEY (reservation_id, guest_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX reservation_guests_by_guest ON reservation_guests (guest_id, reservation_id);

-- The durable event feed (an outbox): written in the same transaction as the change.
-- AUTOINCREMENT: a sequence is never reused, even after old events are pruned.
CREATE TABLE events (
    sequence    INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    subject_id  TEXT    NOT NULL,
    occurred_at TEXT    NOT NULL,
    data        TEXT    NOT NULL
) STRICT;
CREATE INDEX events_by_type ON events (type, sequence);
CREATE INDEX events_by_time ON events (occurred_at);

-- Idempotency-Key records. state: in_progress -> committed (same transaction as the
-- change) -> complete (response stored). instance tells a crashed owner from a live one.
CREATE TABLE idempotency_keys (
    scope        TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('in_progress', 'committed', 'complete')),
    instance     TEXT    NOT NULL,
    status       INTEGER,
    headers      TEXT,
    body         BLOB,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (scope, key)
) STRICT;
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

-- When a record's list sort key changes, its old key is logged here, so a cursor taken
-- before the change keeps placing the record where it was: no repeats, no skips.
CREATE TABLE list_moves (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    entity     TEXT    NOT NULL,
    entity_id  TEXT    NOT NULL,
    old_key    TEXT    NOT NULL,
    created_at TEXT    NOT NULL
) STRICT;
CREATE INDEX list_moves_by_entity ON list_moves (entity, seq);
CREATE INDEX list_moves_by_record ON list_moves (entity_id, seq);
