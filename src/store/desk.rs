//! The front desk's sessions (see migrations V12 and V20), found by a hash of their cookie,
//! never by the cookie itself; a session keeps its login's family id, never a token.

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
    /// Last request.
    pub last_seen_at: String,
    /// The absolute end.
    pub expires_at: String,
    /// Their language (`en`, `it`, `hr`), or `None` to follow the browser.
    pub language: Option<String>,
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
    /// The login's family (to revoke at sign-out).
    pub refresh_family: Option<&'a str>,
    /// The absolute end.
    pub expires_at: &'a str,
}

/// Stores a session.
pub fn insert_session(tx: &Tx, s: &NewSession) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO desk_sessions (id_hash, user_id, scope, csrf, refresh_family, created_at,
             last_seen_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
    )?
    .execute((
        s.id_hash,
        s.user_id,
        s.scope,
        s.csrf,
        s.refresh_family,
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
                    s.last_seen_at, s.expires_at, u.language
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
                last_seen_at: r.get(6)?,
                expires_at: r.get(7)?,
                language: r.get(8)?,
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

/// Ends a session; returns its login's family, to revoke.
pub fn end(tx: &Tx, id_hash: &str) -> AppResult<Option<Option<String>>> {
    Ok(tx
        .prepare_cached("DELETE FROM desk_sessions WHERE id_hash = ?1 RETURNING refresh_family")?
        .query_row([id_hash], |r| r.get(0))
        .optional()?)
}

/// Ends every session of a staff member (disabled, or their password reset).
pub fn end_for_user(tx: &Tx, user_id: &str) -> AppResult<usize> {
    Ok(tx
        .prepare_cached("DELETE FROM desk_sessions WHERE user_id = ?1")?
        .execute([user_id])?)
}
