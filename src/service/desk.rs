//! The front desk's sign-in, as a backend-for-frontend (DESK.md): the authorization code
//! flow with PKCE against innkeep's own authorization server, the code exchanged in-process,
//! the tokens kept here, and a database session behind a cookie. Sessions end on logout, after
//! an idle time, at an absolute limit, and at once when the staff member is disabled.

use std::time::Duration;

use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::clock::format_instant;
pub use crate::config::desk::Timeouts;
use crate::domain::enums::ActorKind;
use crate::domain::scopes::{Grant, Role, Scope, ScopeSet};
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Principal};
use crate::service::Services;
use crate::store::{self, clients::Client};

/// The first-party desk client's id.
pub const CLIENT_ID: &str = "cli_desk";
/// Where the authorization server sends the desk's code back: a path on the server itself,
/// so the code never leaves the origin the staff member signed in on.
pub const CALLBACK: &str = "/login/callback";
/// How often a session's last request is written down (the idle timeout's resolution).
const TOUCH_EVERY: Duration = Duration::from_secs(60);
/// How long a sign-in may take between `/login` and the callback.
pub const LOGIN_TTL: Duration = Duration::from_secs(600);

/// A signed-in staff member, as a page sees them.
#[derive(Debug, Clone)]
pub struct DeskSession {
    /// Who acts, with the scopes granted at sign-in.
    pub principal: Principal,
    /// Their role.
    pub role: Role,
    /// The token every state-changing request must carry.
    pub csrf: String,
    /// The property's today, for the date bar and the pages' choices.
    pub today: chrono::NaiveDate,
    /// The property's time zone, for the times the pages show.
    pub time_zone: String,
    /// The staff member's language (`en`, `it`, `hr`), or `None` to follow the browser.
    pub language: Option<String>,
}

/// Creates the first-party desk client when it is missing (a new or upgraded installation):
/// public, authorization code with PKCE only, every scope (a staff member gets what their
/// role allows), returning to [`CALLBACK`].
pub async fn ensure_client(svc: &Services) -> AppResult<()> {
    ensure_first_party(
        svc,
        Client {
            id: CLIENT_ID.into(),
            name: "innkeep front desk".into(),
            secret_hash: None,
            grants: vec![Grant::AuthorizationCode.as_str().into()],
            scopes: Scope::NAMES.join(" "),
            redirect_uris: vec![CALLBACK.into()],
            created_at: String::new(),
            revoked_at: None,
            rate: None,
        },
    )
    .await
}

/// Registers one of innkeep's own clients (the desk, the kiosk) unless it exists; its
/// `created_at` is the moment of writing.
pub(crate) async fn ensure_first_party(svc: &Services, client: Client) -> AppResult<()> {
    svc.db()
        .write(move |tx| {
            if store::clients::get_client(tx, &client.id)?.is_some() {
                return Ok(());
            }
            let client = Client {
                created_at: tx.now_text(),
                ..client
            };
            store::clients::insert_client(tx, &client)
        })
        .await
}

/// The key under which a sign-in's PKCE verifier is derived from its state: made when the
/// process starts and never written anywhere, so that beginning a sign-in writes nothing (a
/// flood of `/login` requests costs no disk), and a restart only asks a half-done sign-in
/// to begin again.
fn login_key() -> &'static [u8; 32] {
    static KEY: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
    KEY.get_or_init(secrets::random_bytes::<32>)
}

/// The PKCE verifier of the sign-in whose state is `state`.
fn verifier_of(state: &str) -> AppResult<String> {
    use base64::Engine;
    use hmac::Mac;
    let mut mac = <hmac::Hmac<sha2::Sha256> as Mac>::new_from_slice(login_key())
        .map_err(AppError::internal)?;
    mac.update(b"innkeep desk sign-in\0");
    mac.update(state.as_bytes());
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
}

/// Starts a sign-in: the query of `/oauth/authorize` to send the browser to, and the state
/// the callback must bring back (kept in a short-lived cookie). The state carries when it
/// began; nothing is stored.
pub fn begin_login(svc: &Services) -> AppResult<(String, String)> {
    let began = svc.db().clock().now().timestamp();
    let state = format!("{}.{began}", secrets::token("st"));
    let verifier = verifier_of(&state)?;
    let query = serde_urlencoded::to_string([
        ("response_type", "code"),
        ("client_id", CLIENT_ID),
        ("redirect_uri", CALLBACK),
        ("scope", &Scope::NAMES.join(" ")),
        ("state", &state),
        ("code_challenge", &secrets::pkce_challenge(&verifier)),
        ("code_challenge_method", "S256"),
    ])
    .map_err(AppError::internal)?;
    Ok((query, state))
}

/// Why a sign-in did not finish.
#[derive(Debug)]
pub enum LoginFailed {
    /// The callback does not belong to a sign-in begun here (or it took too long).
    Unknown,
    /// The authorization server refused the code (its words).
    Refused(String),
    /// Something broke.
    Server(AppError),
}

/// Finishes a sign-in: checks that `state` is the one this browser began with
/// (`expected`), exchanges the code in-process, and opens a session. Returns the cookie value.
pub async fn finish_login(
    auth: &AuthServer,
    svc: &Services,
    expected: Option<&str>,
    state: &str,
    code: &str,
    timeouts: Timeouts,
) -> Result<String, LoginFailed> {
    if expected.is_none_or(|e| !secrets::constant_time_eq(e, state)) {
        return Err(LoginFailed::Unknown);
    }
    let began = state
        .rsplit_once('.')
        .and_then(|(_, t)| t.parse::<i64>().ok())
        .ok_or(LoginFailed::Unknown)?;
    let age = svc.db().clock().now().timestamp() - began;
    if !(0..=LOGIN_TTL.as_secs() as i64).contains(&age) {
        return Err(LoginFailed::Unknown);
    }
    let verifier = verifier_of(state).map_err(LoginFailed::Server)?;
    let client = svc
        .db()
        .read(|c| store::clients::get_client(c, CLIENT_ID))
        .await
        .map_err(LoginFailed::Server)?
        .ok_or_else(|| LoginFailed::Server(AppError::internal("the desk client is missing")))?;
    let tokens = crate::service::oauth::exchange_code(
        auth,
        svc,
        &client,
        code,
        Some(CALLBACK),
        Some(&verifier),
    )
    .await
    .map_err(|e| LoginFailed::Refused(e.description))?;
    // The login's family is the code's hash (see `exchange_code`): the session keeps that, to
    // end the login at sign-out, and never the refresh token itself.
    let family = secrets::token_hash(code);
    let claims = auth
        .verify(&tokens.access_token)
        .map_err(|_| LoginFailed::Server(AppError::internal("a fresh token did not verify")))?;
    let cookie = secrets::token("ds");
    let (id_hash, csrf) = (secrets::token_hash(&cookie), secrets::token("csrf"));
    let expires = format_instant(svc.db().clock().now() + chrono_of(timeouts.absolute));
    svc.db()
        .write(move |tx| {
            store::desk::insert_session(
                tx,
                &store::desk::NewSession {
                    id_hash: &id_hash,
                    user_id: &claims.sub,
                    scope: &tokens.scope,
                    csrf: &csrf,
                    refresh_family: tokens.refresh_token.as_ref().map(|_| family.as_str()),
                    expires_at: &expires,
                },
            )
        })
        .await
        .map_err(LoginFailed::Server)?;
    Ok(cookie)
}

/// The session behind a cookie value, if it is still good: not idle too long, not past its
/// absolute end, its staff member not disabled. A good session's last request is noted.
pub async fn session(
    svc: &Services,
    cookie: &str,
    timeouts: Timeouts,
) -> AppResult<Option<DeskSession>> {
    let id_hash = secrets::token_hash(cookie);
    let probe = id_hash.clone();
    let found = svc
        .db()
        .read(move |c| {
            let tz = store::settings::get(c)?.time_zone;
            Ok(store::desk::session(c, &probe)?.map(|s| (s, tz)))
        })
        .await?;
    let Some((s, tz)) = found else {
        return Ok(None);
    };
    let now = format_instant(svc.db().clock().now());
    if s.disabled || s.expires_at < now || s.last_seen_at < ago(svc, timeouts.idle) {
        svc.db()
            .write(move |tx| store::desk::end(tx, &id_hash).map(drop))
            .await?;
        return Ok(None);
    }
    // Note the request only once a minute: a page view should not cost a durable write.
    if s.last_seen_at < ago(svc, TOUCH_EVERY) {
        svc.db()
            .write(move |tx| store::desk::touch(tx, &id_hash))
            .await?;
    }
    Ok(Some(DeskSession {
        principal: Principal {
            actor: Actor {
                kind: ActorKind::Staff,
                id: s.user_id,
                name: s.username,
            },
            scopes: ScopeSet::parse(&s.scope).unwrap_or_default(),
        },
        role: s.role,
        csrf: s.csrf,
        today: svc.db().clock().today_in(&tz),
        time_zone: tz,
        language: s.language,
    }))
}

/// Ends the session behind a cookie value (and revokes its login: refresh and access tokens).
pub async fn logout(svc: &Services, cookie: &str) -> AppResult<()> {
    let id_hash = secrets::token_hash(cookie);
    let now = format_instant(svc.db().clock().now());
    svc.db()
        .write(move |tx| {
            if let Some(Some(family)) = store::desk::end(tx, &id_hash)? {
                store::grants::revoke_family(tx, &family, &now)?;
            }
            Ok(())
        })
        .await
}

fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or_default()
}

fn ago(svc: &Services, d: Duration) -> String {
    format_instant(svc.db().clock().now() - chrono_of(d))
}
