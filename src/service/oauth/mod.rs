//! OAuth use cases: registering clients and staff (the CLI), and the grants that issue
//! tokens (the token endpoint and the login pages).

pub(crate) mod device;
mod grants;
pub mod keys;
mod login;
mod tokens;

pub use device::*;
pub use grants::*;
pub use login::*;
pub use tokens::*;

use crate::auth::secrets;
use crate::db::Db;
use crate::domain::limits::Rate;
use crate::domain::scopes::Grant;
use crate::domain::scopes::{Role, ScopeSet};
use crate::error::{AppError, AppResult, FieldError, Kind};
use crate::refusal::AdminRefusal;
use crate::store::{self, clients::Client, clients::User};

/// The flows a client may use.
pub const GRANTS: &[&str] = Grant::NAMES;

/// Whether `client_id` is one of innkeep's own clients (the desk's, the kiosk's): used only by
/// its own pages in-process, refused at the OAuth endpoints, and their tokens refused on `/v1`.
pub fn first_party(client_id: &str) -> bool {
    client_id == crate::service::desk::CLIENT_ID || client_id == crate::service::kiosk::CLIENT_ID
}

/// An RFC 6749 section 5.2 error.
#[derive(Debug)]
pub struct OAuthError {
    /// `invalid_request`, `invalid_client`, `invalid_grant`, ...
    pub error: &'static str,
    /// Plain words for the developer.
    pub description: String,
    /// HTTP status.
    pub status: u16,
    /// Seconds to wait, for throttled requests.
    pub retry_after: Option<u64>,
}

impl OAuthError {
    /// An error with status 400.
    pub fn new(error: &'static str, description: impl Into<String>) -> OAuthError {
        OAuthError {
            error,
            description: description.into(),
            status: 400,
            retry_after: None,
        }
    }

    /// `invalid_client` (401).
    pub fn invalid_client(description: impl Into<String>) -> OAuthError {
        OAuthError {
            status: 401,
            ..OAuthError::new("invalid_client", description)
        }
    }

    /// Too many failures (429 with Retry-After).
    pub fn throttled(wait: std::time::Duration) -> OAuthError {
        let secs = wait.as_secs().max(1);
        OAuthError {
            status: 429,
            retry_after: Some(secs),
            ..OAuthError::new(
                "temporarily_unavailable",
                format!("Too many failed attempts; try again in {secs} seconds."),
            )
        }
    }
}

impl From<AppError> for OAuthError {
    fn from(e: AppError) -> OAuthError {
        tracing::error!(error = %e, "oauth request failed");
        OAuthError {
            status: 500,
            ..OAuthError::new(
                "server_error",
                "Something went wrong on the server; the log has details.",
            )
        }
    }
}

/// An instant `offset` from now, as stored.
pub(crate) fn at(offset: std::time::Duration) -> String {
    crate::clock::format_instant(
        chrono::Utc::now() + chrono::Duration::from_std(offset).unwrap_or_default(),
    )
}

/// argon2id on a blocking thread (it takes tens of milliseconds on purpose).
pub(crate) async fn hash_secret(secret: String) -> AppResult<String> {
    tokio::task::spawn_blocking(move || secrets::hash_password(&secret))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::internal)
}

/// A new client and, for confidential clients, its secret (shown once).
#[derive(Debug)]
pub struct NewClient {
    /// The stored client.
    pub client: Client,
    /// The secret in clear; never stored, never shown again.
    pub secret: Option<String>,
}

fn invalid(field: &str, code: &'static str, message: impl Into<String>) -> AppError {
    AppError::invalid_field(field, code, message)
}

/// Registers a client. `client_credentials` clients are confidential (they get a secret);
/// `authorization_code` and `device` clients are public (PKCE or the device flow protect them)
/// unless `confidential` asks for a secret.
pub async fn create_client(
    db: &Db,
    name: &str,
    scopes: &str,
    grants: &[String],
    redirect_uris: &[String],
    confidential: bool,
    rate: Option<Rate>,
) -> AppResult<NewClient> {
    let name = name.trim();
    if name.is_empty() || name.len() > 100 {
        return Err(invalid(
            "name",
            "invalid_length",
            "must be 1 to 100 characters",
        ));
    }
    if name
        .chars()
        .any(|c| c.is_control() || crate::domain::rules::is_invisible_format(c))
    {
        // The name is shown to staff when the client asks for their approval.
        return Err(invalid(
            "name",
            "invalid_characters",
            "must not contain control characters (nor invisible ones: bidirectional marks, zero-width spaces)",
        ));
    }
    let scope = ScopeSet::parse(scopes).map_err(|unknown| {
        invalid(
            "scopes",
            "unknown_scope",
            format!("unknown scopes: {}", unknown.join(", ")),
        )
    })?;
    if scope.is_empty() {
        return Err(invalid("scopes", "required", "name at least one scope"));
    }
    if let Some(bad) = grants.iter().find(|g| !GRANTS.contains(&g.as_str())) {
        return Err(invalid(
            "grant",
            "invalid_choice",
            format!("{bad:?} is not one of {}", GRANTS.join(", ")),
        ));
    }
    let grants = if grants.is_empty() {
        vec![Grant::ClientCredentials.as_str().to_string()]
    } else {
        grants.to_vec()
    };
    let code_flow = Grant::AuthorizationCode.among(&grants);
    if code_flow && redirect_uris.is_empty() {
        return Err(invalid(
            "redirect_uri",
            "required",
            "the authorization_code grant needs a redirect URI",
        ));
    }
    for uri in redirect_uris {
        let ok = (uri.starts_with("https://") || uri.starts_with("http://")) && !uri.contains('#');
        if !ok {
            return Err(invalid(
                "redirect_uri",
                "invalid_uri",
                format!("{uri:?} must be an absolute http(s) URI without a fragment"),
            ));
        }
    }
    let secret =
        (confidential || Grant::ClientCredentials.among(&grants)).then(|| secrets::token("cs"));
    let secret_hash = match &secret {
        Some(s) => Some(hash_secret(s.clone()).await?),
        None => None,
    };
    let client = Client {
        id: crate::ids::new("cli"),
        name: name.to_string(),
        secret_hash,
        grants,
        scopes: scope.to_string(),
        redirect_uris: redirect_uris.to_vec(),
        created_at: crate::clock::now_text(),
        revoked_at: None,
        rate,
    };
    let c = client.clone();
    db.write(move |tx| store::clients::insert_client(tx, &c))
        .await?;
    Ok(NewClient { client, secret })
}

/// Every client.
pub async fn list_clients(db: &Db) -> AppResult<Vec<Client>> {
    db.read(store::clients::list_clients).await
}

/// Revokes a client: its tokens stop working at once.
pub async fn revoke_client(db: &Db, id: &str) -> AppResult<()> {
    let (id, at) = (id.to_string(), crate::clock::now_text());
    db.write(move |tx| {
        if store::clients::revoke_client(tx, &id, &at)? {
            Ok(())
        } else {
            Err(AppError::new(
                Kind::NotFound,
                "not_found",
                format!("No active client has the id {id:?}."),
            ))
        }
    })
    .await
}

/// Gives a client its own request rate limit, or (`None`) returns it to `[limits]`. A
/// running server applies it to the client's next request.
pub async fn set_client_rate(db: &Db, id: &str, rate: Option<Rate>) -> AppResult<()> {
    let id = id.to_string();
    db.write(move |tx| {
        if store::clients::set_rate(tx, &id, rate)? {
            Ok(())
        } else {
            Err(AppError::not_found("client", &id))
        }
    })
    .await
}

/// The rule for a staff member's user name.
pub fn username_rule(username: &str) -> Option<FieldError> {
    let bad = username.is_empty()
        || username.len() > 64
        || username.chars().any(|c| {
            c.is_whitespace() || c.is_control() || crate::domain::rules::is_invisible_format(c)
        });
    bad.then(|| {
        FieldError::new(
            "username",
            "invalid_username",
            "must be 1 to 64 characters without spaces",
        )
        .said("problem-username", vec![])
    })
}

/// Why a role is refused: it is none of the roles.
pub fn role_rule() -> FieldError {
    FieldError::new(
        "role",
        "invalid_choice",
        format!("must be one of {}", Role::choices()),
    )
    .said(
        "rule-invalid_choice",
        vec![("list", crate::domain::said::Value::Text(Role::choices()))],
    )
}

/// Adds a staff member.
pub async fn create_user(db: &Db, username: &str, role: &str, password: &str) -> AppResult<User> {
    let username = crate::auth::throttle::canonical_username(username);
    let mut errs: Vec<FieldError> = username_rule(&username).into_iter().collect();
    let role = Role::parse(role);
    if role.is_none() {
        errs.push(role_rule());
    }
    errs.extend(password_rule("password", password));
    crate::service::fail_on(errs)?;
    let password_hash = hash_secret(password.to_string()).await?;
    let user = User {
        id: crate::ids::new("usr"),
        username,
        password_hash,
        role: role.unwrap_or(Role::Housekeeping),
        created_at: crate::clock::now_text(),
        disabled_at: None,
        language: None,
        operator_mark: None,
        oib: None,
    };
    let u = user.clone();
    db.write(move |tx| {
        if store::clients::user_by_name(tx, &u.username)?.is_some() {
            return Err(AdminRefusal::UserExists {
                name: u.username.clone(),
            }
            .into());
        }
        store::clients::insert_user(tx, &u)
    })
    .await?;
    Ok(user)
}

/// Every staff member.
pub async fn list_users(db: &Db) -> AppResult<Vec<User>> {
    db.read(store::clients::list_users).await
}

/// Disables a staff member: they cannot sign in, and their tokens stop working.
pub async fn disable_user(db: &Db, username: &str) -> AppResult<()> {
    let (name, at) = (
        crate::auth::throttle::canonical_username(username),
        crate::clock::now_text(),
    );
    db.write(move |tx| {
        if let Some(user) = store::clients::user_by_name(tx, &name)?
            && store::clients::disable_user(tx, &name, &at)?
        {
            // Their front-desk sessions end now, not at their next timeout.
            store::desk::end_for_user(tx, &user.id)?;
            Ok(())
        } else {
            Err(AppError::new(
                Kind::NotFound,
                "not_found",
                format!("No active user is named {name:?}."),
            ))
        }
    })
    .await
}

/// The rule every staff password keeps (a new one, or one set by an admin): at least 10
/// characters. The failing field is named `field`.
pub fn password_rule(field: &str, password: &str) -> Option<FieldError> {
    (password.chars().count() < 10).then(|| {
        FieldError::new(field, "too_short", "must be at least 10 characters")
            .said("problem-password-short", vec![])
    })
}
