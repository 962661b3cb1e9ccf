//! What OAuth grants leave behind: authorization codes, device codes, refresh tokens and
//! revoked access tokens. Only hashes of codes and tokens are stored.

use rusqlite::{Connection, OptionalExtension, Row};

use crate::db::Tx;
use crate::domain::enums::DeviceCodeStatus;
use crate::error::AppResult;

/// An authorization code (single use, short-lived).
#[derive(Debug, Clone)]
pub struct AuthCode {
    /// SHA-256 of the code.
    pub code_hash: String,
    /// The client it was issued to.
    pub client_id: String,
    /// The staff member who signed in.
    pub user_id: String,
    /// The exact redirect URI of the request.
    pub redirect_uri: String,
    /// Granted scopes, space-separated.
    pub scope: String,
    /// PKCE S256 challenge.
    pub code_challenge: String,
    /// Expiry instant.
    pub expires_at: String,
    /// When it was redeemed.
    pub used_at: Option<String>,
}

/// Stores a code.
pub fn insert_code(tx: &Tx, c: &AuthCode) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope,
             code_challenge, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute((
        &c.code_hash,
        &c.client_id,
        &c.user_id,
        &c.redirect_uri,
        &c.scope,
        &c.code_challenge,
        &c.expires_at,
    ))?;
    Ok(())
}

/// Reads a code and marks it used in the same step; the record shows any earlier use.
pub fn redeem_code(tx: &Tx, code_hash: &str, at: &str) -> AppResult<Option<AuthCode>> {
    let code = tx
        .prepare_cached("SELECT * FROM authorization_codes WHERE code_hash = ?1")?
        .query_row([code_hash], |r| {
            Ok(AuthCode {
                code_hash: r.get("code_hash")?,
                client_id: r.get("client_id")?,
                user_id: r.get("user_id")?,
                redirect_uri: r.get("redirect_uri")?,
                scope: r.get("scope")?,
                code_challenge: r.get("code_challenge")?,
                expires_at: r.get("expires_at")?,
                used_at: r.get("used_at")?,
            })
        })
        .optional()?;
    if code.as_ref().is_some_and(|c| c.used_at.is_none()) {
        tx.prepare_cached("UPDATE authorization_codes SET used_at = ?2 WHERE code_hash = ?1")?
            .execute((code_hash, at))?;
    }
    Ok(code)
}

/// The state of a device authorization.
#[derive(Debug, Clone)]
pub struct DeviceCode {
    /// SHA-256 of the device code.
    pub device_code_hash: String,
    /// What staff type in, such as `BDKT-QWMX`.
    pub user_code: String,
    /// The kiosk's client.
    pub client_id: String,
    /// Requested scopes.
    pub scope: String,
    /// `pending`, `approved`, `denied` or `used`.
    pub status: DeviceCodeStatus,
    /// Who approved: a user id or, from the CLI, the client itself.
    pub subject: Option<String>,
    /// The approving user, if a person approved on /device.
    pub user_id: Option<String>,
    /// What was granted on approval.
    pub granted_scope: Option<String>,
    /// Minimum seconds between polls.
    pub interval_seconds: i64,
    /// Last poll instant.
    pub last_polled_at: Option<String>,
    /// Expiry instant.
    pub expires_at: String,
}

fn map_device(r: &Row) -> rusqlite::Result<DeviceCode> {
    Ok(DeviceCode {
        device_code_hash: r.get("device_code_hash")?,
        user_code: r.get("user_code")?,
        client_id: r.get("client_id")?,
        scope: r.get("scope")?,
        status: r.get("status")?,
        subject: r.get("subject")?,
        user_id: r.get("user_id")?,
        granted_scope: r.get("granted_scope")?,
        interval_seconds: r.get("interval_seconds")?,
        last_polled_at: r.get("last_polled_at")?,
        expires_at: r.get("expires_at")?,
    })
}

/// Stores a new pending device authorization.
pub fn insert_device(tx: &Tx, d: &DeviceCode, at: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO device_codes (device_code_hash, user_code, client_id, scope, status,
             interval_seconds, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6, ?7)",
    )?
    .execute((
        &d.device_code_hash,
        &d.user_code,
        &d.client_id,
        &d.scope,
        d.interval_seconds,
        &d.expires_at,
        at,
    ))?;
    Ok(())
}

/// A device authorization by its device code hash.
pub fn device_by_hash(conn: &Connection, hash: &str) -> AppResult<Option<DeviceCode>> {
    Ok(conn
        .prepare_cached("SELECT * FROM device_codes WHERE device_code_hash = ?1")?
        .query_row([hash], map_device)
        .optional()?)
}

/// A device authorization by the code staff type.
pub fn device_by_user_code(conn: &Connection, user_code: &str) -> AppResult<Option<DeviceCode>> {
    Ok(conn
        .prepare_cached("SELECT * FROM device_codes WHERE user_code = ?1")?
        .query_row([user_code], map_device)
        .optional()?)
}

/// Records a poll and the (possibly slowed) interval.
pub fn record_poll(tx: &Tx, hash: &str, at: &str, interval: i64) -> AppResult<()> {
    tx.prepare_cached(
        "UPDATE device_codes SET last_polled_at = ?2, interval_seconds = ?3 WHERE device_code_hash = ?1",
    )?
    .execute((hash, at, interval))?;
    Ok(())
}

/// Decides a pending device authorization; returns whether it was pending.
pub fn decide_device(
    tx: &Tx,
    user_code: &str,
    approve: bool,
    subject: &str,
    user_id: Option<&str>,
    granted: &str,
) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE device_codes SET status = ?2, subject = ?3, user_id = ?4, granted_scope = ?5
             WHERE user_code = ?1 AND status = 'pending'",
        )?
        .execute((
            user_code,
            if approve {
                DeviceCodeStatus::Approved
            } else {
                DeviceCodeStatus::Denied
            },
            subject,
            user_id,
            granted,
        ))?
        == 1)
}

/// Marks an approved device authorization as exchanged; returns whether it was approved.
pub fn use_device(tx: &Tx, hash: &str) -> AppResult<bool> {
    Ok(tx
        .prepare_cached("UPDATE device_codes SET status = 'used' WHERE device_code_hash = ?1 AND status = 'approved'")?
        .execute([hash])?
        == 1)
}

/// A refresh token.
#[derive(Debug, Clone)]
pub struct RefreshToken {
    /// SHA-256 of the token.
    pub token_hash: String,
    /// The login it belongs to; reuse revokes the family.
    pub family_id: String,
    /// The client it was issued to.
    pub client_id: String,
    /// The access tokens' `sub`.
    pub subject: String,
    /// The staff member, if a person signed in.
    pub user_id: Option<String>,
    /// Granted scopes.
    pub scope: String,
    /// When it was issued.
    pub created_at: String,
    /// Unused after this instant, it is dead.
    pub idle_expires_at: String,
    /// The family dies at this instant whatever happens.
    pub family_expires_at: String,
    /// When it was exchanged (it is single-use).
    pub used_at: Option<String>,
    /// When it was revoked.
    pub revoked_at: Option<String>,
}

/// Stores a refresh token.
pub fn insert_refresh(tx: &Tx, t: &RefreshToken) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO refresh_tokens (token_hash, family_id, client_id, subject, user_id, scope,
             created_at, idle_expires_at, family_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute((
        &t.token_hash,
        &t.family_id,
        &t.client_id,
        &t.subject,
        &t.user_id,
        &t.scope,
        &t.created_at,
        &t.idle_expires_at,
        &t.family_expires_at,
    ))?;
    Ok(())
}

/// A refresh token by hash.
pub fn get_refresh(conn: &Connection, hash: &str) -> AppResult<Option<RefreshToken>> {
    Ok(conn
        .prepare_cached("SELECT * FROM refresh_tokens WHERE token_hash = ?1")?
        .query_row([hash], |r| {
            Ok(RefreshToken {
                token_hash: r.get("token_hash")?,
                family_id: r.get("family_id")?,
                client_id: r.get("client_id")?,
                subject: r.get("subject")?,
                user_id: r.get("user_id")?,
                scope: r.get("scope")?,
                created_at: r.get("created_at")?,
                idle_expires_at: r.get("idle_expires_at")?,
                family_expires_at: r.get("family_expires_at")?,
                used_at: r.get("used_at")?,
                revoked_at: r.get("revoked_at")?,
            })
        })
        .optional()?)
}

/// Marks a refresh token used.
pub fn use_refresh(tx: &Tx, hash: &str, at: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE refresh_tokens SET used_at = ?2 WHERE token_hash = ?1")?
        .execute((hash, at))?;
    Ok(())
}

/// Revokes every token of a family, the access tokens it issued included; returns how many
/// refresh tokens were still live.
pub fn revoke_family(tx: &Tx, family_id: &str, at: &str) -> AppResult<usize> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO revoked_access_tokens (jti, expires_at)
         SELECT jti, expires_at FROM grant_access_tokens WHERE family_id = ?1 AND expires_at >= ?2",
    )?
    .execute((family_id, at))?;
    Ok(tx
        .prepare_cached(
            "UPDATE refresh_tokens SET revoked_at = ?2 WHERE family_id = ?1 AND revoked_at IS NULL",
        )?
        .execute((family_id, at))?)
}

/// Records an access token issued by a login, so that revoking the login revokes it.
pub fn record_access(tx: &Tx, jti: &str, family_id: &str, expires_at: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO grant_access_tokens (jti, family_id, expires_at) VALUES (?1, ?2, ?3)",
    )?
    .execute((jti, family_id, expires_at))?;
    Ok(())
}

/// Whether a login was ended (any of its tokens revoked: sign-out, reuse, revocation).
pub fn family_revoked(conn: &Connection, family_id: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS(SELECT 1 FROM refresh_tokens WHERE family_id = ?1 AND revoked_at IS NOT NULL)",
        )?
        .query_row([family_id], |r| r.get(0))?)
}

/// Revokes an access token until it would have expired.
pub fn revoke_access(tx: &Tx, jti: &str, expires_at: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO revoked_access_tokens (jti, expires_at) VALUES (?1, ?2)",
    )?
    .execute((jti, expires_at))?;
    Ok(())
}

/// Whether an access token was revoked.
pub fn access_revoked(conn: &Connection, jti: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM revoked_access_tokens WHERE jti = ?1)")?
        .query_row([jti], |r| r.get(0))?)
}

/// Deletes what expired before `cutoff`, at most `limit` rows of each kind; returns how many
/// rows went.
pub fn prune(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    let mut n = 0;
    for (table, key, older) in [
        ("authorization_codes", "rowid", "expires_at < ?1"),
        ("device_codes", "rowid", "expires_at < ?1"),
        ("refresh_tokens", "rowid", "family_expires_at < ?1"),
        ("revoked_access_tokens", "rowid", "expires_at < ?1"),
        // Without a rowid: named by its primary key.
        ("grant_access_tokens", "jti", "expires_at < ?1"),
    ] {
        let aged = super::Aged {
            table,
            key,
            older,
            order: "",
        };
        n += aged.delete(tx, cutoff, limit)?;
    }
    Ok(n)
}
