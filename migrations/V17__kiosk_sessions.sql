-- Self check-in kiosks (screen 11). A kiosk's browser holds only a cookie; the row behind it
-- (found by the cookie's hash) first waits for staff to approve its device code, then keeps
-- the scopes granted, who approved it, the booking a guest is completing (never in a URL),
-- and the failed look-ups that rate-limit guessing.
CREATE TABLE kiosk_sessions (
    id_hash        TEXT PRIMARY KEY,
    device_code    TEXT NOT NULL,
    user_code      TEXT NOT NULL,
    scope          TEXT,
    approved_by    TEXT,
    csrf           TEXT NOT NULL,
    reservation_id TEXT,
    failures       INTEGER NOT NULL DEFAULT 0,
    failures_since TEXT,
    created_at     TEXT NOT NULL,
    last_seen_at   TEXT NOT NULL
) WITHOUT ROWID;
