-- OAuth 2.0: signing keys (public halves; private keys live in files readable by the
-- owner only), clients, staff users, authorization and device codes, refresh tokens and
-- revoked access tokens. Secrets and tokens are stored hashed, never in clear.

CREATE TABLE signing_keys (
    kid        TEXT PRIMARY KEY,
    algorithm  TEXT NOT NULL CHECK (algorithm IN ('EdDSA')),
    public_key TEXT NOT NULL,            -- base64url of the raw public key (JWK "x")
    created_at TEXT NOT NULL,
    retired_at TEXT                      -- set when a newer key takes over signing
) STRICT;

CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,      -- cli_…
    name          TEXT NOT NULL,
    secret_hash   TEXT,                  -- argon2id PHC string; NULL for public clients
    grant_types   TEXT NOT NULL,         -- space-separated
    scopes        TEXT NOT NULL,         -- space-separated: the most it may ever get
    redirect_uris TEXT NOT NULL,         -- JSON array, matched exactly
    created_at    TEXT NOT NULL,
    revoked_at    TEXT
) STRICT;

CREATE TABLE users (
    id            TEXT PRIMARY KEY,      -- usr_…
    username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,         -- argon2id PHC string
    role          TEXT NOT NULL CHECK (role IN ('admin', 'manager', 'front_desk', 'housekeeping')),
    created_at    TEXT NOT NULL,
    disabled_at   TEXT
) STRICT;

CREATE TABLE authorization_codes (
    code_hash      TEXT PRIMARY KEY,     -- SHA-256 of the code
    client_id      TEXT NOT NULL REFERENCES oauth_clients (id),
    user_id        TEXT NOT NULL REFERENCES users (id),
    redirect_uri   TEXT NOT NULL,
    scope          TEXT NOT NULL,
    code_challenge TEXT NOT NULL,        -- PKCE S256
    expires_at     TEXT NOT NULL,
    used_at        TEXT
) STRICT;
CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at);

CREATE TABLE device_codes (
    device_code_hash TEXT PRIMARY KEY,
    user_code        TEXT NOT NULL UNIQUE,
    client_id        TEXT NOT NULL REFERENCES oauth_clients (id),
    scope            TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'used')),
    subject          TEXT,               -- who approved: a user id, or the client itself (CLI)
    user_id          TEXT REFERENCES users (id),
    granted_scope    TEXT,
    interval_seconds INTEGER NOT NULL,
    last_polled_at   TEXT,
    expires_at       TEXT NOT NULL,
    created_at       TEXT NOT NULL
) STRICT;
CREATE INDEX device_codes_expiry ON device_codes (expires_at);

-- One row per refresh token ever issued; a family is one login's chain of rotations.
CREATE TABLE refresh_tokens (
    token_hash        TEXT PRIMARY KEY,  -- SHA-256 of the token
    family_id         TEXT NOT NULL,
    client_id         TEXT NOT NULL REFERENCES oauth_clients (id),
    subject           TEXT NOT NULL,
    user_id           TEXT REFERENCES users (id),
    scope             TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    idle_expires_at   TEXT NOT NULL,
    family_expires_at TEXT NOT NULL,
    used_at           TEXT,
    revoked_at        TEXT
) STRICT;
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (family_expires_at);

-- Access tokens revoked before they expire (RFC 7009); kept until they would expire.
CREATE TABLE revoked_access_tokens (
    jti        TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
) STRICT;
