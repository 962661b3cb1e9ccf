-- Prices as hotels set them (issue 33): rate plans per room type, the price calendar with
-- its restrictions per plan and night, and the price of each booked night.
CREATE TABLE rate_plans (
    id TEXT PRIMARY KEY,
    room_type_id TEXT NOT NULL REFERENCES room_types (id),
    code TEXT NOT NULL,
    -- JSON: {en, it, hr}
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES rate_plans (id),
    -- JSON {kind, value}, for a derived plan
    derivation TEXT,
    -- an own plan's price for a night the calendar has none (NULL: the room type's base_rate)
    default_price INTEGER,
    -- JSON: occupancy prices, included breakfast, policies
    occupancy TEXT NOT NULL,
    breakfast TEXT,
    cancellation TEXT NOT NULL,
    no_show TEXT NOT NULL,
    deposit TEXT,
    sold INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (room_type_id, code)
);
CREATE INDEX rate_plans_parent ON rate_plans (parent_id) WHERE parent_id IS NOT NULL;

-- One row per plan and night that differs from the plan's defaults.
CREATE TABLE rates (
    rate_plan_id TEXT NOT NULL REFERENCES rate_plans (id),
    date TEXT NOT NULL,
    price INTEGER,
    min_stay_arrival INTEGER,
    min_stay_through INTEGER,
    max_stay INTEGER,
    closed_to_arrival INTEGER NOT NULL DEFAULT 0,
    closed_to_departure INTEGER NOT NULL DEFAULT 0,
    stop_sell INTEGER NOT NULL DEFAULT 0,
    min_advance INTEGER,
    max_advance INTEGER,
    PRIMARY KEY (rate_plan_id, date)
) WITHOUT ROWID;

-- A reservation's plan, and the price of each of its nights fixed at booking (JSON
-- [{date, price}]; NULL: every night at its nightly_rate, as before plans).
ALTER TABLE reservations ADD COLUMN rate_plan_id TEXT REFERENCES rate_plans (id);
ALTER TABLE reservations ADD COLUMN night_prices TEXT;
