//! Self check-in kiosks (screen 11). A kiosk is a LAN device signed in through the device
//! flow with innkeep's own first-party kiosk client: it shows a code, staff approve it (on
//! `/device` or in the admin pages), and its session (server-side, behind a cookie) then
//! holds the scopes granted. A guest finds their booking by its code and their last name
//! (wrong guesses are counted and limited), completes the registration data, and is checked
//! in; the booking in progress lives in the session, never in an address. A kiosk acts as
//! the client `Kiosk` in the history, and can do nothing else.

use chrono::Duration;

use crate::auth::{AuthServer, secrets};
use crate::domain::enums::ActorKind;
use crate::domain::reservation::Status;
use crate::domain::scopes::{Grant, ScopeSet};
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Principal};
use crate::service::Services;
use crate::service::oauth;
use crate::store::{self, clients::Client};

/// The kiosk's first-party client.
pub const CLIENT_ID: &str = "cli_kiosk";
/// What a kiosk may be granted: finding a booking, its guests' data, the check-in.
const SCOPES: &str = "reservations:read guests:read guests:write front_desk";
/// Wrong look-ups allowed in [`FAILURE_WINDOW`] before the kiosk asks the guest to see the
/// reception.
pub const MAX_FAILURES: i64 = 5;
/// How long wrong look-ups count.
const FAILURE_WINDOW: Duration = Duration::minutes(10);
/// A booking left half-done this long is forgotten (the next guest must not see it).
const IDLE: Duration = Duration::minutes(3);

/// Where a kiosk stands.
#[derive(Debug)]
pub enum Standing {
    /// Waiting for staff to approve the code it shows.
    Waiting(String),
    /// Approved; a guest may be completing a booking.
    Ready(KioskSession),
    /// The code expired or was refused: start again.
    Gone,
}

/// An approved kiosk.
#[derive(Debug, Clone)]
pub struct KioskSession {
    /// Acts as the client `Kiosk`, with the scopes granted.
    pub principal: Principal,
    /// The token its forms carry.
    pub csrf: String,
    /// The booking a guest is completing, if any.
    pub reservation_id: Option<String>,
}

/// Creates the kiosk client when missing: public, device flow only.
pub async fn ensure_client(svc: &Services) -> AppResult<()> {
    crate::service::desk::ensure_first_party(
        svc,
        Client {
            id: CLIENT_ID.into(),
            name: "innkeep kiosk".into(),
            secret_hash: None,
            grants: vec![Grant::Device.as_str().into()],
            scopes: SCOPES.into(),
            redirect_uris: Vec::new(),
            created_at: String::new(),
            revoked_at: None,
            rate: None,
        },
    )
    .await
}

async fn client(svc: &Services) -> AppResult<Client> {
    svc.db()
        .read(|c| store::clients::get_client(c, CLIENT_ID))
        .await?
        .filter(|c| c.revoked_at.is_none())
        .ok_or_else(|| AppError::conflict("kiosk_revoked", "The kiosk client is revoked."))
}

/// Starts a kiosk's sign-in: the cookie value to keep, and the code to show.
pub async fn begin(svc: &Services, base_url: &str) -> AppResult<(String, String)> {
    let c = client(svc).await?;
    let started = oauth::start_device(svc, &c, Some(SCOPES), base_url)
        .await
        .map_err(|e| AppError::conflict("device_flow", e.description))?;
    let text = |k: &str| started[k].as_str().unwrap_or_default().to_string();
    let (device_code, user_code) = (text("device_code"), text("user_code"));
    let cookie = secrets::token("ks");
    let (hash, csrf, code) = (
        secrets::token_hash(&cookie),
        secrets::token("csrf"),
        user_code.clone(),
    );
    svc.db()
        .write(move |tx| store::kiosk::insert(tx, &hash, &device_code, &code, &csrf))
        .await?;
    Ok((cookie, user_code))
}

/// Where the kiosk behind `cookie` stands; a waiting kiosk asks the token endpoint once.
pub async fn standing(auth: &AuthServer, svc: &Services, cookie: &str) -> AppResult<Standing> {
    let hash = secrets::token_hash(cookie);
    let probe = hash.clone();
    let Some(row) = svc.db().read(move |c| store::kiosk::get(c, &probe)).await? else {
        return Ok(Standing::Gone);
    };
    let scope = match &row.scope {
        Some(scope) => scope.clone(),
        None => {
            let c = client(svc).await?;
            match oauth::poll_device(auth, svc, &c, &row.device_code).await {
                Ok(tokens) => {
                    let who = auth
                        .verify(&tokens.access_token)
                        .map(|c| c.sub)
                        .unwrap_or_default();
                    let (h, scope) = (hash.clone(), tokens.scope.clone());
                    svc.db()
                        .write(move |tx| store::kiosk::approve(tx, &h, &scope, &who))
                        .await?;
                    tracing::info!("a kiosk was approved");
                    tokens.scope
                }
                Err(e) if matches!(e.error, "authorization_pending" | "slow_down") => {
                    return Ok(Standing::Waiting(row.user_code));
                }
                Err(_) => {
                    svc.db()
                        .write(move |tx| store::kiosk::end(tx, &hash))
                        .await?;
                    return Ok(Standing::Gone);
                }
            }
        }
    };
    // A booking left half-done is forgotten before anyone else sees it; one the guest is
    // still working on stays (each request counts as activity, so a form sent back with an
    // error does not lose what was typed when the guest takes a while).
    let idle = crate::clock::format_instant(svc.db().clock().now() - IDLE);
    let reservation_id = row.reservation_id.filter(|_| row.last_seen_at >= idle);
    if let Some(id) = reservation_id.clone() {
        svc.db()
            .write(move |tx| store::kiosk::set_reservation(tx, &hash, Some(&id)))
            .await?;
    }
    Ok(Standing::Ready(KioskSession {
        principal: Principal {
            actor: Actor {
                kind: ActorKind::Client,
                id: CLIENT_ID.into(),
                name: "Kiosk".into(),
            },
            scopes: ScopeSet::parse(&scope).unwrap_or_default(),
        },
        csrf: row.csrf,
        reservation_id,
    }))
}

/// What a look-up found.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// The booking; it is now the one in progress.
    Booking(String),
    /// No booking arriving today has this code and last name.
    Nothing,
    /// Too many wrong look-ups: see the reception.
    Locked,
}

/// Finds the booking arriving today with `code` whose primary guest's last name is `last`
/// (case and spaces aside), counting wrong look-ups.
pub async fn find(svc: &Services, cookie: &str, code: &str, last: &str) -> AppResult<Found> {
    let hash = secrets::token_hash(cookie);
    let (code, last) = (code.trim().to_uppercase(), normal(last));
    svc.db()
        .write(move |tx| {
            let Some(row) = store::kiosk::get(tx, &hash)? else {
                return Ok(Found::Nothing);
            };
            let now = tx.clock().now();
            let window_start = crate::clock::format_instant(now - FAILURE_WINDOW);
            let counting = row
                .failures_since
                .as_deref()
                .is_some_and(|s| s >= window_start.as_str());
            if counting && row.failures >= MAX_FAILURES {
                return Ok(Found::Locked);
            }
            let tz = store::settings::get(tx)?.time_zone;
            let today = tx.clock().today_in(&tz).to_string();
            let hit = store::kiosk::booking(tx, &code)?.filter(|(_, name, status, arrival)| {
                normal(name) == last && status == Status::Confirmed.as_str() && *arrival == today
            });
            match hit {
                Some((id, ..)) => {
                    store::kiosk::set_reservation(tx, &hash, Some(&id))?;
                    Ok(Found::Booking(id))
                }
                None => {
                    let restart = (!counting).then(|| crate::clock::format_instant(now));
                    store::kiosk::fail(tx, &hash, restart.as_deref())?;
                    Ok(Found::Nothing)
                }
            }
        })
        .await
}

/// A name compared as people type it: case and extra spaces aside.
fn normal(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Forgets the booking in progress (done, or left idle).
pub async fn forget(svc: &Services, cookie: &str) -> AppResult<()> {
    let hash = secrets::token_hash(cookie);
    svc.db()
        .write(move |tx| store::kiosk::set_reservation(tx, &hash, None))
        .await
}
