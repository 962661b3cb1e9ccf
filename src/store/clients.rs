//! OAuth clients, staff users and signing-key metadata.

use rusqlite::{Connection, OptionalExtension, Row};

use crate::db::Tx;
use crate::domain::limits::Rate;
use crate::domain::scopes::Role;
use crate::error::AppResult;

/// A registered OAuth client.
#[derive(Debug, Clone)]
pub struct Client {
    /// `cli_…`
    pub id: String,
    /// Who it is, for people.
    pub name: String,
    /// argon2id hash of the secret; `None` for a public client.
    pub secret_hash: Option<String>,
    /// Allowed flows: `client_credentials`, `authorization_code`, `device`.
    pub grants: Vec<String>,
    /// The most it may ever get, space-separated.
    pub scopes: String,
    /// Exact redirect URIs (authorization code flow).
    pub redirect_uris: Vec<String>,
    /// When it was registered.
    pub created_at: String,
    /// When it was revoked, if it was.
    pub revoked_at: Option<String>,
    /// Its own request rate limit; `None` uses `[limits]`.
    pub rate: Option<Rate>,
}

fn map_client(r: &Row) -> rusqlite::Result<Client> {
    let grants: String = r.get("grant_types")?;
    let uris: String = r.get("redirect_uris")?;
    Ok(Client {
        id: r.get("id")?,
        name: r.get("name")?,
        secret_hash: r.get("secret_hash")?,
        grants: grants.split_whitespace().map(str::to_string).collect(),
        scopes: r.get("scopes")?,
        redirect_uris: serde_json::from_str(&uris).unwrap_or_default(),
        created_at: r.get("created_at")?,
        revoked_at: r.get("revoked_at")?,
        rate: Rate::from_columns(r.get("rate_per_second")?, r.get("rate_burst")?),
    })
}

/// One client.
pub fn get_client(conn: &Connection, id: &str) -> AppResult<Option<Client>> {
    Ok(conn
        .prepare_cached("SELECT * FROM oauth_clients WHERE id = ?1")?
        .query_row([id], map_client)
        .optional()?)
}

/// Every client, oldest first.
pub fn list_clients(conn: &Connection) -> AppResult<Vec<Client>> {
    let mut stmt = conn.prepare_cached("SELECT * FROM oauth_clients ORDER BY created_at, id")?;
    let rows = stmt.query_map([], map_client)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Registers a client.
pub fn insert_client(tx: &Tx, c: &Client) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO oauth_clients (id, name, secret_hash, grant_types, scopes, redirect_uris, created_at,
                                    rate_per_second, rate_burst)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute((
        &c.id,
        &c.name,
        &c.secret_hash,
        c.grants.join(" "),
        &c.scopes,
        serde_json::to_string(&c.redirect_uris)?,
        &c.created_at,
        c.rate.map(|r| r.per_second),
        c.rate.map(|r| r.burst),
    ))?;
    Ok(())
}

/// Sets or clears (`None`) a client's own rate limit; returns whether the client exists.
pub fn set_rate(tx: &Tx, id: &str, rate: Option<Rate>) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE oauth_clients SET rate_per_second = ?2, rate_burst = ?3 WHERE id = ?1",
        )?
        .execute((id, rate.map(|r| r.per_second), rate.map(|r| r.burst)))?
        == 1)
}

/// Revokes a client; returns whether it existed and was active.
pub fn revoke_client(tx: &Tx, id: &str, at: &str) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE oauth_clients SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        )?
        .execute((id, at))?
        == 1)
}

/// A staff member.
#[derive(Debug, Clone)]
pub struct User {
    /// `usr_…`
    pub id: String,
    /// Login name (case-insensitive).
    pub username: String,
    /// argon2id hash.
    pub password_hash: String,
    /// What they may grant.
    pub role: Role,
    /// When they were added.
    pub created_at: String,
    /// When they were disabled, if they were.
    pub disabled_at: Option<String>,
    /// Their desk language (`en`, `it`, `hr`), or `None` to follow the browser.
    pub language: Option<String>,
    /// The operator's mark printed on the invoices they issue, if set.
    pub operator_mark: Option<String>,
    /// Their own OIB (Croatia), sent to CIS as the operator of their receipts.
    pub oib: Option<String>,
}

fn map_user(r: &Row) -> rusqlite::Result<User> {
    let role: String = r.get("role")?;
    Ok(User {
        id: r.get("id")?,
        username: r.get("username")?,
        password_hash: r.get("password_hash")?,
        role: Role::parse(&role).unwrap_or(Role::Housekeeping),
        created_at: r.get("created_at")?,
        disabled_at: r.get("disabled_at")?,
        language: r.get("language")?,
        operator_mark: r.get("operator_mark")?,
        oib: r.get("oib")?,
    })
}

/// A user by login name.
pub fn user_by_name(conn: &Connection, username: &str) -> AppResult<Option<User>> {
    Ok(conn
        .prepare_cached("SELECT * FROM users WHERE username = ?1")?
        .query_row([username], map_user)
        .optional()?)
}

/// A user by id.
pub fn get_user(conn: &Connection, id: &str) -> AppResult<Option<User>> {
    Ok(conn
        .prepare_cached("SELECT * FROM users WHERE id = ?1")?
        .query_row([id], map_user)
        .optional()?)
}

/// Every user, by name.
pub fn list_users(conn: &Connection) -> AppResult<Vec<User>> {
    let mut stmt = conn.prepare_cached("SELECT * FROM users ORDER BY username")?;
    let rows = stmt.query_map([], map_user)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Adds a user.
pub fn insert_user(tx: &Tx, u: &User) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO users (id, username, password_hash, role, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute((&u.id, &u.username, &u.password_hash, u.role.as_str(), &u.created_at))?;
    Ok(())
}

/// Disables a user; returns whether they existed and were active.
pub fn disable_user(tx: &Tx, username: &str, at: &str) -> AppResult<bool> {
    Ok(tx
        .prepare_cached(
            "UPDATE users SET disabled_at = ?2 WHERE username = ?1 AND disabled_at IS NULL",
        )?
        .execute((username, at))?
        == 1)
}

/// A signing key's public half.
#[derive(Debug, Clone)]
pub struct KeyRecord {
    /// Key id (JWT `kid`).
    pub kid: String,
    /// base64url raw public key.
    pub public_key: String,
    /// When it was made.
    pub created_at: String,
    /// When a newer key took over, if one did.
    pub retired_at: Option<String>,
}

/// Keys still able to verify tokens: the active one and those retired after `since`.
pub fn live_keys(conn: &Connection, since: &str) -> AppResult<Vec<KeyRecord>> {
    let mut stmt = conn.prepare_cached(
        "SELECT kid, public_key, created_at, retired_at FROM signing_keys
         WHERE retired_at IS NULL OR retired_at > ?1 ORDER BY created_at DESC, kid DESC",
    )?;
    let rows = stmt.query_map([since], |r| {
        Ok(KeyRecord {
            kid: r.get(0)?,
            public_key: r.get(1)?,
            created_at: r.get(2)?,
            retired_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Records a new key and retires the others.
pub fn add_key(tx: &Tx, kid: &str, public_key: &str, at: &str) -> AppResult<()> {
    tx.prepare_cached("UPDATE signing_keys SET retired_at = ?1 WHERE retired_at IS NULL")?
        .execute([at])?;
    tx.prepare_cached(
        "INSERT INTO signing_keys (kid, algorithm, public_key, created_at) VALUES (?1, 'EdDSA', ?2, ?3)",
    )?
    .execute((kid, public_key, at))?;
    Ok(())
}

/// What the token guard reads in one query: the client's own rate limit (per second, burst),
/// its name and the staff member's user name, when the access token `jti` is not revoked,
/// its client not revoked and its staff member (`subject`) not disabled; `None` otherwise.
pub type StandingRow = (Option<u32>, Option<u32>, String, Option<String>);

/// See [`StandingRow`].
pub fn standing(
    conn: &Connection,
    jti: &str,
    client: &str,
    subject: &str,
) -> AppResult<Option<StandingRow>> {
    Ok(conn
        .prepare_cached(
            "SELECT rate_per_second, rate_burst, name,
                    (SELECT username FROM users WHERE id = ?3)
               FROM oauth_clients
              WHERE id = ?2 AND revoked_at IS NULL
                AND NOT EXISTS(SELECT 1 FROM revoked_access_tokens WHERE jti = ?1)
                AND NOT EXISTS(SELECT 1 FROM users WHERE id = ?3 AND disabled_at IS NOT NULL)",
        )?
        .query_row((jti, client, subject), |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?)
}
