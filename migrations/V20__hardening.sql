-- Security hardening (issue 28).
--
-- Desk sessions kept their refresh token in clear, and so did every backup: those tokens are
-- revoked (the desk never uses them; its sessions go on) and a session now keeps only the
-- id of its login's family, to revoke it at sign-out. The kiosk's first-party tokens are
-- dropped the moment they are minted, so any still alive are revoked as well.
UPDATE refresh_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
 WHERE client_id IN ('cli_desk', 'cli_kiosk') AND revoked_at IS NULL;
ALTER TABLE desk_sessions DROP COLUMN refresh_token;
ALTER TABLE desk_sessions ADD COLUMN refresh_family TEXT;

-- A sign-in in progress is no longer written down (its PKCE verifier is derived from its
-- state under a key the process keeps).
DROP TABLE desk_logins;

-- A kiosk is tied to its grant: the login family its approval opened (unpairing revokes
-- it), when it was approved (its absolute lifetime counts from then), and why it was ended
-- (said to the kiosk at its next request, then the row goes).
ALTER TABLE kiosk_sessions ADD COLUMN family_id TEXT;
ALTER TABLE kiosk_sessions ADD COLUMN approved_at TEXT;
ALTER TABLE kiosk_sessions ADD COLUMN ended TEXT;
CREATE INDEX kiosk_sessions_by_age ON kiosk_sessions (created_at);

-- The access tokens a login (an authorization code, a device approval, and each refresh)
-- issued, so that revoking the login (a replayed code, a reused refresh token, sign-out)
-- revokes them too.
CREATE TABLE grant_access_tokens (
    jti        TEXT PRIMARY KEY,
    family_id  TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX grant_access_tokens_by_family ON grant_access_tokens (family_id);
CREATE INDEX grant_access_tokens_by_expiry ON grant_access_tokens (expires_at);
