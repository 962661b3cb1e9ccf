-- Records brought in by `innkeep import`, by the id they had in the system they came from,
-- so that importing the same file again adds nothing.
CREATE TABLE import_ids (
    kind        TEXT NOT NULL CHECK (kind IN ('guest', 'reservation')),
    external_id TEXT NOT NULL,
    record_id   TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    PRIMARY KEY (kind, external_id)
) STRICT, WITHOUT ROWID;
