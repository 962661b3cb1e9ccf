-- The front desk's sign-in (a backend-for-frontend): logins in progress (the PKCE verifier
-- kept on the server, found by a hash of the state), and sessions (found by a hash of the
-- cookie; the tokens stay here, never in the browser).
CREATE TABLE desk_logins (
    state_hash TEXT PRIMARY KEY,
    verifier   TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE desk_sessions (
    id_hash       TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id),
    scope         TEXT NOT NULL,
    csrf          TEXT NOT NULL,
    refresh_token TEXT,
    created_at    TEXT NOT NULL,
    last_seen_at  TEXT NOT NULL,
    expires_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX desk_sessions_by_user ON desk_sessions (user_id);
