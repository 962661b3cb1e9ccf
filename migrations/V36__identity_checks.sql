-- Italy (issue 32): a guest checking in at a kiosk waits until a member of staff has seen,
-- in person, that each guest holds the document they gave (Consiglio di Stato, sentenza
-- 9101/2025). One row per reservation: asked for by the kiosk, confirmed by whom and when.
CREATE TABLE identity_checks (
    reservation_id TEXT PRIMARY KEY REFERENCES reservations (id),
    room_id TEXT NOT NULL REFERENCES rooms (id),
    requested_at TEXT NOT NULL,
    requested_by TEXT NOT NULL,
    confirmed_at TEXT,
    confirmed_by TEXT
);
CREATE INDEX identity_checks_waiting ON identity_checks (requested_at)
    WHERE confirmed_at IS NULL;
