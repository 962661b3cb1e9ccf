//! Staff members as an admin changes them: role, password, enabled or not, and ending what
//! they hold (front-desk sessions, refresh tokens) when their standing changes.

use crate::db::Tx;
use crate::domain::scopes::Role;
use crate::error::AppResult;

/// Sets a staff member's role; returns whether they exist.
pub fn set_role(tx: &Tx, id: &str, role: Role) -> AppResult<bool> {
    Ok(tx
        .prepare_cached("UPDATE users SET role = ?2 WHERE id = ?1")?
        .execute((id, role.as_str()))?
        == 1)
}

/// Sets a staff member's desk language (`None`: follow the browser); whether they exist.
pub fn set_language(tx: &Tx, id: &str, language: Option<&str>) -> AppResult<bool> {
    Ok(tx
        .prepare_cached("UPDATE users SET language = ?2 WHERE id = ?1")?
        .execute((id, language))?
        == 1)
}

/// Sets a staff member's operator mark and OIB (`None`: none); whether they exist. A mark
/// another member holds breaks the unique index: [`mark_holder`] says who, first.
pub fn set_operator(tx: &Tx, id: &str, mark: Option<&str>, oib: Option<&str>) -> AppResult<bool> {
    Ok(tx
        .prepare_cached("UPDATE users SET operator_mark = ?2, oib = ?3 WHERE id = ?1")?
        .execute((id, mark, oib))?
        == 1)
}

/// Who else holds operator mark `mark` (its user name), if anyone but `id` does.
pub fn mark_holder(tx: &Tx, id: &str, mark: &str) -> AppResult<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(tx
        .prepare_cached(
            "SELECT username FROM users WHERE operator_mark = ?2 COLLATE NOCASE AND id <> ?1",
        )?
        .query_row((id, mark), |r| r.get(0))
        .optional()?)
}

/// Replaces a staff member's password hash; returns whether they exist.
pub fn set_password(tx: &Tx, id: &str, hash: &str) -> AppResult<bool> {
    Ok(tx
        .prepare_cached("UPDATE users SET password_hash = ?2 WHERE id = ?1")?
        .execute((id, hash))?
        == 1)
}

/// Disables (`Some(at)`) or enables (`None`) a staff member; returns whether that changed
/// anything.
pub fn set_disabled(tx: &Tx, id: &str, at: Option<&str>) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE users SET disabled_at = ?2 WHERE id = ?1 AND (disabled_at IS NULL) = (?2 IS NOT NULL)",
        )?
        .execute((id, at))?
        == 1)
}

/// How many enabled admins there are.
pub fn active_admins(tx: &Tx) -> AppResult<i64> {
    Ok(tx
        .prepare_cached("SELECT count(*) FROM users WHERE role = 'admin' AND disabled_at IS NULL")?
        .query_row([], |r| r.get(0))?)
}

/// Ends what a staff member holds: every front-desk session but `keep` (a session id hash)
/// and every refresh token, so new sign-ins get their new role or password. Access tokens
/// already issued run out by themselves (minutes).
pub fn end_standing(tx: &Tx, id: &str, keep: Option<&str>) -> AppResult<()> {
    tx.prepare_cached("DELETE FROM desk_sessions WHERE user_id = ?1 AND id_hash IS NOT ?2")?
        .execute((id, keep))?;
    tx.prepare_cached(
        "UPDATE refresh_tokens SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL",
    )?
    .execute((id, tx.now_text()))?;
    Ok(())
}
