//! The device flow (RFC 8628): kiosks start it, staff approve it, kiosks poll for tokens.

use std::time::Duration;

use serde_json::{Value, json};

use super::grants::{Family, Next, TokenResponse, grant_scope, new_refresh, respond};
use super::{OAuthError, at};
use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::clock::format_instant;
use crate::domain::enums::DeviceCodeStatus;
use crate::domain::scopes::Grant;
use crate::domain::scopes::ScopeSet;
use crate::error::AppResult;
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::store::{self, clients::Client, clients::User, grants::DeviceCode};

/// Device codes live this long.
pub const DEVICE_TTL: Duration = Duration::from_secs(600);
/// Devices poll at most this often (seconds); `slow_down` adds 5.
pub const DEVICE_INTERVAL: i64 = 5;

/// A user code: 8 letters that cannot be confused, shown as `BDKT-QWMX`.
pub(crate) fn user_code() -> String {
    const LETTERS: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";
    let bytes = secrets::random_bytes::<8>();
    let s: String = bytes
        .iter()
        .map(|b| LETTERS[*b as usize % LETTERS.len()] as char)
        .collect();
    format!("{}-{}", &s[..4], &s[4..])
}

/// What a person typed as a user code, normalised (`bdkt qwmx` → `BDKT-QWMX`).
pub fn normalize_user_code(typed: &str) -> String {
    let s: String = typed
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if s.len() == 8 {
        format!("{}-{}", &s[..4], &s[4..])
    } else {
        s
    }
}

/// `POST /oauth/device_authorization`: starts the device flow for a kiosk.
pub async fn start_device(
    svc: &Services,
    client: &Client,
    scope: Option<&str>,
    base_url: &str,
) -> Result<Value, OAuthError> {
    let db = svc.db();
    if !Grant::Device.among(&client.grants) {
        return Err(OAuthError::new(
            "unauthorized_client",
            "This client is not registered for the device flow.",
        ));
    }
    let scope = grant_scope(scope, &ScopeSet::parse(&client.scopes).unwrap_or_default())?;
    let device_code = secrets::token("dc");
    let code = user_code();
    let row = DeviceCode {
        device_code_hash: secrets::token_hash(&device_code),
        user_code: code.clone(),
        client_id: client.id.clone(),
        scope: scope.to_string(),
        status: DeviceCodeStatus::Pending,
        subject: None,
        user_id: None,
        granted_scope: None,
        interval_seconds: DEVICE_INTERVAL,
        last_polled_at: None,
        expires_at: at(DEVICE_TTL),
    };
    let now = crate::clock::now_text();
    db.write(move |tx| store::grants::insert_device(tx, &row, &now))
        .await?;
    Ok(json!({
        "device_code": device_code,
        "user_code": code,
        "verification_uri": format!("{base_url}/device"),
        "verification_uri_complete": format!("{base_url}/device?user_code={code}"),
        "expires_in": DEVICE_TTL.as_secs(),
        "interval": DEVICE_INTERVAL,
    }))
}

/// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: one poll.
pub async fn poll_device(
    auth: &AuthServer,
    svc: &Services,
    client: &Client,
    device_code: &str,
) -> Result<DeviceTokens, OAuthError> {
    let db = svc.db();
    let (hash, now, client_id) = (
        secrets::token_hash(device_code),
        chrono::Utc::now(),
        client.id.clone(),
    );
    let (family_expires, idle) = auth.refresh_deadlines();
    let next = auth.next_token();
    let recorded = Next::of(&next);
    let outcome = db
        .write(move |tx| {
            let err = |e: &'static str, d: &str| Ok(Err(OAuthError::new(e, d)));
            let now_text = format_instant(now);
            let Some(d) = store::grants::device_by_hash(tx, &hash)? else {
                return err("invalid_grant", "Unknown device code.");
            };
            if d.client_id != client_id {
                return err(
                    "invalid_grant",
                    "This device code was issued to another client.",
                );
            }
            if d.expires_at < now_text {
                return err("expired_token", "The device code has expired; start again.");
            }
            let too_soon = d
                .last_polled_at
                .as_deref()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
                .is_some_and(|last| {
                    (now - last.with_timezone(&chrono::Utc)).num_milliseconds()
                        < d.interval_seconds * 1000
                });
            // slow_down is part of waiting (RFC 8628 3.5); a decided code answers at once.
            let slow = too_soon && d.status == DeviceCodeStatus::Pending;
            let interval = if slow {
                d.interval_seconds + 5
            } else {
                d.interval_seconds
            };
            store::grants::record_poll(tx, &hash, &now_text, interval)?;
            if slow {
                return err(
                    "slow_down",
                    &format!("Poll at most every {interval} seconds."),
                );
            }
            match d.status {
                DeviceCodeStatus::Pending => err(
                    "authorization_pending",
                    "Waiting for staff to approve the code.",
                ),
                DeviceCodeStatus::Denied => err("access_denied", "Staff denied this device."),
                DeviceCodeStatus::Used => {
                    err("invalid_grant", "This device code was already exchanged.")
                }
                DeviceCodeStatus::Approved => {
                    store::grants::use_device(tx, &hash)?;
                    let subject = d.subject.clone().unwrap_or_else(|| d.client_id.clone());
                    let scope = d.granted_scope.clone().unwrap_or_default();
                    let family = crate::ids::new("fam");
                    let refresh = new_refresh(
                        tx,
                        &Family {
                            id: family.clone(),
                            expires_at: family_expires,
                            idle_expires_at: idle,
                            client_id: d.client_id.clone(),
                            subject: subject.clone(),
                            user_id: d.user_id.clone(),
                            scope: scope.clone(),
                        },
                        &recorded,
                    )?;
                    Ok(Ok((d.client_id, subject, scope, refresh, family)))
                }
            }
        })
        .await?;
    let (client_id, subject, scope, refresh, family) = outcome?;
    let scope = ScopeSet::parse(&scope).unwrap_or_default();
    let tokens = respond(auth, &next, &client_id, &subject, &scope, Some(refresh))?;
    Ok(DeviceTokens { tokens, family })
}

/// What a device's approved code is exchanged for: the tokens, and the login they open.
#[derive(Debug)]
pub struct DeviceTokens {
    /// The token answer.
    pub tokens: TokenResponse,
    /// The login family (unpairing a kiosk revokes it).
    pub family: String,
}

/// A device waiting for approval, as whoever approves it must see it first: which client asks,
/// and for what.
#[derive(Debug, Clone)]
pub struct WaitingDevice {
    /// The code it shows, normalised.
    pub code: String,
    /// The client it signs in as.
    pub client_id: String,
    /// The client's name.
    pub client_name: String,
    /// What it asked for (an approval grants this within the approver's role).
    pub scope: ScopeSet,
}

/// The device waiting with the code `typed`, if one is (pending and not expired).
pub async fn waiting_device(svc: &Services, typed: &str) -> AppResult<Option<WaitingDevice>> {
    let code = normalize_user_code(typed);
    if code.is_empty() {
        return Ok(None);
    }
    svc.db()
        .read(move |c| {
            let now = crate::clock::now_text();
            let Some(d) = store::grants::device_by_user_code(c, &code)?
                .filter(|d| d.status == DeviceCodeStatus::Pending && d.expires_at >= now)
            else {
                return Ok(None);
            };
            let client = store::clients::get_client(c, &d.client_id)?;
            Ok(Some(WaitingDevice {
                code: d.user_code,
                client_name: client
                    .map(|c| c.name)
                    .unwrap_or_else(|| d.client_id.clone()),
                client_id: d.client_id,
                scope: ScopeSet::parse(&d.scope).unwrap_or_default(),
            }))
        })
        .await
}

/// Who approves a device.
pub enum Approver {
    /// A staff member on `/device`: grants what their role allows.
    User(User),
    /// An administrator at the command line: grants what the client asked for.
    Cli,
}

/// Approves or denies a pending device authorization.
pub async fn decide_device(
    svc: &Services,
    typed_code: &str,
    approver: Approver,
    approve: bool,
) -> AppResult<String> {
    let db = svc.db();
    let code = normalize_user_code(typed_code);
    db.write(move |tx| {
        let now = crate::clock::now_text();
        let d = store::grants::device_by_user_code(tx, &code)?
            .filter(|d| d.status == DeviceCodeStatus::Pending && d.expires_at >= now)
            .ok_or_else(|| AdminRefusal::NoDeviceWaiting { code: code.clone() })?;
        let requested = ScopeSet::parse(&d.scope).unwrap_or_default();
        let (subject, user_id, granted) = match &approver {
            Approver::User(u) => (
                u.id.clone(),
                Some(u.id.as_str()),
                requested.intersect(&ScopeSet::of(u.role.scopes())),
            ),
            Approver::Cli => (d.client_id.clone(), None, requested),
        };
        if approve && granted.is_empty() {
            return Err(AdminRefusal::InsufficientRole.into());
        }
        store::grants::decide_device(tx, &code, approve, &subject, user_id, &granted.to_string())?;
        Ok(granted.to_string())
    })
    .await
}
