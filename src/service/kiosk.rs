//! Self check-in kiosks (screen 11). A kiosk is a LAN device signed in through the device
//! flow with innkeep's own first-party kiosk client: it shows a code, staff approve it (on
//! `/device` or in the admin pages), and its session (server-side, behind a cookie) then
//! holds the scopes granted. A guest finds their booking by its code and their last name
//! (wrong guesses are counted and limited), completes the registration data, and is checked
//! in; the booking in progress lives in the session, never in an address. A kiosk acts as
//! the client `Kiosk` in the history, and can do nothing else.
//!
//! A pairing begins only when someone presses "Pair this kiosk" (a visit writes nothing), and
//! a paired kiosk stays tied to its grant: it ends at its next request once it is unpaired in
//! Administration, the kiosk client is revoked, the staff member who approved it is disabled,
//! or `[desk] kiosk_days` have passed since the approval. The tokens its approval mints are
//! never used outside this server: the kiosk client is refused at the token endpoint and its
//! tokens on `/v1` (see `api::oauth`).

use chrono::Duration;

use crate::auth::{AuthServer, secrets};
use crate::domain::enums::ActorKind;
use crate::domain::reservation::Status;
use crate::domain::scopes::{Grant, ScopeSet};
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Principal};
use crate::service::Services;
use crate::service::oauth;
use crate::store::{self, clients::Client, kiosk::KioskRow};

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
    /// Not paired (no pairing begun, or its code expired or was refused): offer to pair.
    Unpaired,
    /// It was paired, and that has ended: say why, and offer to pair again.
    Ended(Ended),
    /// The kiosk client is revoked: no kiosk can be paired until an administrator allows it.
    Off,
}

/// Why a paired kiosk was ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Unpaired in Administration (or its login revoked).
    Unpaired,
    /// The staff member who approved it was disabled.
    ApproverDisabled,
    /// Its lifetime (`[desk] kiosk_days`) is over.
    Expired,
}

impl Ended {
    /// The catalogue key that says it.
    pub fn key(self) -> &'static str {
        match self {
            Ended::Unpaired => "kiosk-ended-unpaired",
            Ended::ApproverDisabled => "kiosk-ended-approver",
            Ended::Expired => "kiosk-ended-expired",
        }
    }
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

async fn client(svc: &Services) -> AppResult<Option<Client>> {
    Ok(svc
        .db()
        .read(|c| store::clients::get_client(c, CLIENT_ID))
        .await?
        .filter(|c| c.revoked_at.is_none()))
}

/// Starts pairing a kiosk: the cookie value to keep, and the code to show; `None` when the
/// kiosk client is revoked. `base_url` is the configured address staff approve at.
pub async fn begin(svc: &Services, base_url: &str) -> AppResult<Option<(String, String)>> {
    let Some(c) = client(svc).await? else {
        return Ok(None);
    };
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
    Ok(Some((cookie, user_code)))
}

/// Ends the kiosk session `hash` and revokes its login; `standing` says so.
async fn end(svc: &Services, hash: String, standing: Standing) -> AppResult<Standing> {
    let now = crate::clock::format_instant(svc.db().clock().now());
    svc.db()
        .write(move |tx| {
            if let Some(Some(family)) = store::kiosk::end(tx, &hash)? {
                store::grants::revoke_family(tx, &family, &now)?;
            }
            Ok(())
        })
        .await?;
    Ok(standing)
}

/// Why the paired kiosk `row` must be paired again, if it must (read at every request).
async fn ended(
    svc: &Services,
    row: &KioskRow,
    lifetime: std::time::Duration,
) -> AppResult<Option<Ended>> {
    if row.ended.is_some() {
        return Ok(Some(Ended::Unpaired));
    }
    let clock = svc.db().clock();
    let oldest = crate::clock::format_instant(
        Duration::from_std(lifetime)
            .ok()
            .and_then(|d| clock.now().checked_sub_signed(d))
            .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC),
    );
    let (approver, family) = (row.approved_by.clone(), row.family_id.clone());
    let (disabled, live) = svc
        .db()
        .read(move |c| {
            let disabled = match approver.as_deref() {
                Some(id) if id.starts_with("usr_") => {
                    store::clients::get_user(c, id)?.is_none_or(|u| u.disabled_at.is_some())
                }
                _ => false,
            };
            // Only a revocation ends it here: its lifetime is `kiosk_days`, whatever the
            // login's own expiry.
            let live = match family.as_deref() {
                Some(f) => !store::grants::family_revoked(c, f)?,
                None => true,
            };
            Ok((disabled, live))
        })
        .await?;
    let approved = row.approved_at.as_deref().unwrap_or(&row.created_at);
    // Disabling a staff member may also revoke their logins: say the cause, not the effect.
    Ok(if disabled {
        Some(Ended::ApproverDisabled)
    } else if !live {
        Some(Ended::Unpaired)
    } else if approved < oldest.as_str() {
        Some(Ended::Expired)
    } else {
        None
    })
}

/// Where the kiosk behind `cookie` (if it has one) stands; a waiting kiosk asks the token
/// endpoint once, a paired one is checked against its grant. `lifetime` is `[desk]
/// kiosk_days`.
pub async fn standing(
    auth: &AuthServer,
    svc: &Services,
    cookie: Option<&str>,
    lifetime: std::time::Duration,
) -> AppResult<Standing> {
    let hash = cookie.map(secrets::token_hash).unwrap_or_default();
    let probe = hash.clone();
    let row = match cookie {
        Some(_) => svc.db().read(move |c| store::kiosk::get(c, &probe)).await?,
        None => None,
    };
    let Some(row) = row else {
        return Ok(match client(svc).await? {
            Some(_) => Standing::Unpaired,
            None => Standing::Off,
        });
    };
    let Some(c) = client(svc).await? else {
        return end(svc, hash, Standing::Off).await;
    };
    let scope = match &row.scope {
        Some(scope) => {
            if let Some(why) = ended(svc, &row, lifetime).await? {
                tracing::info!(why = ?why, "a paired kiosk was ended");
                return end(svc, hash, Standing::Ended(why)).await;
            }
            scope.clone()
        }
        None => match oauth::poll_device(auth, svc, &c, &row.device_code).await {
            Ok(approved) => {
                let who = auth
                    .verify(&approved.tokens.access_token)
                    .map(|c| c.sub)
                    .unwrap_or_default();
                let (h, scope, family) =
                    (hash.clone(), approved.tokens.scope.clone(), approved.family);
                svc.db()
                    .write(move |tx| store::kiosk::approve(tx, &h, &scope, &who, &family))
                    .await?;
                tracing::info!("a kiosk was approved");
                approved.tokens.scope
            }
            Err(e) if matches!(e.error, "authorization_pending" | "slow_down") => {
                return Ok(Standing::Waiting(row.user_code));
            }
            Err(_) => {
                // Another request of this kiosk may have just exchanged the code: then it is
                // paired, not gone.
                let probe = hash.clone();
                let again = svc.db().read(move |c| store::kiosk::get(c, &probe)).await?;
                match again.and_then(|r| r.scope) {
                    Some(scope) => scope,
                    None => return end(svc, hash, Standing::Unpaired).await,
                }
            }
        },
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

/// A paired kiosk, as Administration shows it.
#[derive(Debug, Clone)]
pub struct PairedKiosk {
    /// What names it in the unpair form.
    pub id: String,
    /// The code it showed when paired.
    pub code: String,
    /// Who approved it (`None`: from the command line).
    pub approved_by: Option<String>,
    /// When (UTC, as stored).
    pub approved_at: String,
    /// Its last request.
    pub last_seen_at: String,
}

/// Every paired kiosk (admin).
pub async fn paired(svc: &Services, p: &Principal) -> AppResult<Vec<PairedKiosk>> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    let rows = svc.db().read(store::kiosk::paired).await?;
    Ok(rows
        .into_iter()
        .map(|k| PairedKiosk {
            id: k.id_hash,
            code: k.user_code,
            approved_by: k.approved_by,
            approved_at: k.approved_at,
            last_seen_at: k.last_seen_at,
        })
        .collect())
}

/// Unpairs a kiosk (admin): it is marked so and its login revoked; at its next request the
/// kiosk says it was unpaired and asks to be paired again.
pub async fn unpair(svc: &Services, p: &Principal, id: &str) -> AppResult<()> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    let (id, now) = (
        id.to_string(),
        crate::clock::format_instant(svc.db().clock().now()),
    );
    svc.db()
        .write(
            move |tx| match store::kiosk::mark_ended(tx, &id, "unpaired")? {
                Some(Some(family)) => store::grants::revoke_family(tx, &family, &now).map(drop),
                Some(None) => Ok(()),
                None => Err(AppError::not_found("kiosk", &id)),
            },
        )
        .await?;
    tracing::info!(by = %p.actor.name, "a kiosk was unpaired");
    Ok(())
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
