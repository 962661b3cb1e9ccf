-- Extras (issue 33): the catalogue of what a hotel sells beside the room (breakfast,
-- parking, an extra bed, a late check-out, a pet), each with its price, tax rate and unit.
CREATE TABLE extras (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    -- JSON: {en, it, hr}
    name TEXT NOT NULL,
    price INTEGER NOT NULL,
    tax_rate INTEGER NOT NULL,
    unit TEXT NOT NULL,
    active INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
