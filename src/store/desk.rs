//! The front desk's logins in progress and sessions (see migration V12). Both are found by a
//! hash of their secret, never by the secret itself.

use rusqlite::{Connection, OptionalExtension};

use crate::db::Tx;
use crate::domain::scopes::Role;
use crate::error::AppResult;

/// A session as the desk reads it on each request, with its staff member.
#[derive(Debug, Clone)]
pub struct Session {
    /// `usr_…`
    pub user_id: String,
    /// Their user name.
    pub username: String,
    /// Their role.
    pub role: Role,
    /// Whether they were disabled.
    pub disabled: bool,
    /// The scopes granted at sign-in, space-separated.
    pub scope: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// The refresh token of the sign-in.
    pub refresh_token: Option<String>,
    /// Last request.
    pub last_seen_at: String,
    /// The absolute end.
    pub expires_at: String,
    /// Their language (`en`, `it`, `hr`), or `None` to follow the browser.
    pub language: Option<String>,
}

/// Keeps a login in progress; logins older than `stale_before` are dropped.
pub fn begin_login(tx: &Tx, state_hash: &str, verifier: &str, stale_before: &str) -> AppResult<()> {
    tx.prepare_cached("DELETE FROM desk_logins WHERE created_at < ?1")?
        .execute([stale_before])?;
    tx.prepare_cached(
        "INSERT INTO desk_logins (state_hash, verifier, created_at) VALUES (?1, ?2, ?3)",
    )?
    .execute((state_hash, verifier, tx.now_text()))?;
    Ok(())
}

/// Takes a login in progress (once): its verifier and when it began.
pub fn take_login(tx: &Tx, state_hash: &str) -> AppResult<Option<(String, String)>> {
    Ok(tx
        .prepare_cached(
            "DELETE FROM desk_logins WHERE state_hash = ?1 RETURNING verifier, created_at",
        )?
        .query_row([state_hash], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// A new session.
pub struct NewSession<'a> {
    /// Hash of the cookie value.
    pub id_hash: &'a str,
    /// `usr_…`
    pub user_id: &'a str,
    /// Granted scopes.
    pub scope: &'a str,
    /// CSRF token.
    pub csrf: &'a str,
    /// Refresh token.
    pub refresh_token: Option<&'a str>,
    /// The absolute end.
    pub expires_at: &'a str,
}

/// Stores a session.
pub fn insert_session(tx: &Tx, s: &NewSession) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO desk_sessions (id_hash, user_id, scope, csrf, refresh_token, created_at,
             last_seen_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
    )?
    .execute((
        s.id_hash,
        s.user_id,
        s.scope,
        s.csrf,
        s.refresh_token,
        &now,
        s.expires_at,
    ))?;
    Ok(())
}

/// A session and its staff member.
pub fn session(conn: &Connection, id_hash: &str) -> AppResult<Option<Session>> {
    Ok(conn
        .prepare_cached(
            "SELECT s.user_id, u.username, u.role, u.disabled_at IS NOT NULL, s.scope, s.csrf,
                    s.refresh_token, s.last_seen_at, s.expires_at, u.language
               FROM desk_sessions s JOIN users u ON u.id = s.user_id
              WHERE s.id_hash = ?1",
        )?
        .query_row([id_hash], |r| {
            let role: String = r.get(2)?;
            Ok(Session {
                user_id: r.get(0)?,
                username: r.get(1)?,
                role: Role::parse(&role).unwrap_or(Role::Housekeeping),
                disabled: r.get(3)?,
                scope: r.get(4)?,
                csrf: r.get(5)?,
                refresh_token: r.get(6)?,
                last_seen_at: r.get(7)?,
                expires_at: r.get(8)?,
                language: r.get(9)?,
            })
        })
        .optional()?)
}

/// Notes a request on a session.
pub fn touch(tx: &Tx, id_hash: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE desk_sessions SET last_seen_at = ?2 WHERE id_hash = ?1")?
        .execute((id_hash, tx.now_text()))?;
    Ok(())
}

/// Ends a session; returns its refresh token, to revoke.
pub fn end(tx: &Tx, id_hash: &str) -> AppResult<Option<Option<String>>> {
    Ok(tx
        .prepare_cached("DELETE FROM desk_sessions WHERE id_hash = ?1 RETURNING refresh_token")?
        .query_row([id_hash], |r| r.get(0))
        .optional()?)
}

/// Ends every session of a staff member (disabled, or their password reset).
pub fn end_for_user(tx: &Tx, user_id: &str) -> AppResult<usize> {
    Ok(tx
        .prepare_cached("DELETE FROM desk_sessions WHERE user_id = ?1")?
        .execute([user_id])?)
}
