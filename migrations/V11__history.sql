-- The audit trail (GET /v1/{reservations,guests,invoices}/{id}/history): who changed what,
-- when, field by field. Unlike events it is never pruned. `position` is the total order
-- (zero-padded, so it sorts as text); `history_heads` keeps each record's latest snapshot,
-- the base of the next entry's changes.
CREATE TABLE history (
    id          TEXT PRIMARY KEY,
    subject_id  TEXT NOT NULL,
    position    TEXT NOT NULL,
    type        TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    actor       TEXT NOT NULL,
    changes     TEXT NOT NULL,
    event_id    TEXT
);
CREATE INDEX history_by_subject ON history (subject_id, position, id);

CREATE TABLE history_heads (
    subject_id TEXT PRIMARY KEY,
    snapshot   TEXT NOT NULL
) WITHOUT ROWID;
