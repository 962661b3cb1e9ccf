//! API clients as an admin manages them from the desk (screen 10): the list, registering one
//! (its secret shown once), its own rate limit, revoking it, and approving a kiosk or other
//! device that shows a code (the device flow) on the staff member's authority. The admin
//! scope; the same rules as `innkeep clients …`, which these wrap.

use crate::domain::limits::Rate;
use crate::domain::scopes::{Grant, Scope};
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::service::oauth;
use crate::store::{self, clients::Client};

/// A client as the pages show it (never its secret's hash).
#[derive(Debug, Clone)]
pub struct ApiClient {
    /// `cli_…`
    pub id: String,
    /// Who it is, for people.
    pub name: String,
    /// Whether it authenticates with a secret.
    pub confidential: bool,
    /// Its flows.
    pub grants: Vec<String>,
    /// The most it may get, space-separated.
    pub scopes: String,
    /// Its redirect URIs.
    pub redirect_uris: Vec<String>,
    /// When it was registered.
    pub created_at: String,
    /// When it was revoked, if it was.
    pub revoked_at: Option<String>,
    /// Its own rate limit, or the server's.
    pub rate: Option<Rate>,
}

impl From<Client> for ApiClient {
    fn from(c: Client) -> ApiClient {
        ApiClient {
            confidential: c.secret_hash.is_some(),
            id: c.id,
            name: c.name,
            grants: c.grants,
            scopes: c.scopes,
            redirect_uris: c.redirect_uris,
            created_at: c.created_at,
            revoked_at: c.revoked_at,
            rate: c.rate,
        }
    }
}

/// Every client, the desk's own first-party one included.
pub async fn list(svc: &Services, p: &Principal) -> AppResult<Vec<ApiClient>> {
    p.require(Scope::Admin)?;
    let all = oauth::list_clients(svc.db()).await?;
    Ok(all.into_iter().map(ApiClient::from).collect())
}

/// One client.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<ApiClient> {
    p.require(Scope::Admin)?;
    svc.db()
        .read(move |c| {
            store::clients::get_client(c, &id)?.ok_or_else(|| AppError::not_found("client", &id))
        })
        .await
        .map(ApiClient::from)
}

/// What registering a client asks for.
#[derive(Debug, Default)]
pub struct NewClient {
    /// Who it is.
    pub name: String,
    /// Its flow: `client_credentials`, `authorization_code` or `device`.
    pub grant: String,
    /// The scopes it may get.
    pub scopes: Vec<String>,
    /// For `authorization_code`: where it receives the code.
    pub redirect_uri: String,
}

/// Registers a client; its secret (for `client_credentials`) is returned once.
pub async fn create(
    svc: &Services,
    p: &Principal,
    input: NewClient,
) -> AppResult<(ApiClient, Option<String>)> {
    p.require(Scope::Admin)?;
    if Grant::parse(&input.grant).is_none() {
        return Err(AppError::invalid_field(
            "grant",
            "invalid_choice",
            format!("must be one of {}", Grant::NAMES.join(", ")),
        )
        .field_said(
            "rule-invalid_choice",
            vec![(
                "list",
                crate::domain::said::Value::Text(Grant::NAMES.join(", ")),
            )],
        ));
    }
    let uris: Vec<String> = Some(input.redirect_uri.trim().to_string())
        .filter(|u| !u.is_empty())
        .into_iter()
        .collect();
    let made = oauth::create_client(
        svc.db(),
        &input.name,
        &input.scopes.join(" "),
        std::slice::from_ref(&input.grant),
        &uris,
        false,
        None,
    )
    .await?;
    tracing::info!(by = %p.actor.name, client = %made.client.id, "API client registered");
    Ok((made.client.into(), made.secret))
}

/// Revokes a client: its tokens stop working at once.
pub async fn revoke(svc: &Services, p: &Principal, id: String) -> AppResult<()> {
    p.require(Scope::Admin)?;
    if id == crate::service::desk::CLIENT_ID {
        return Err(AdminRefusal::FirstParty.into());
    }
    oauth::revoke_client(svc.db(), &id).await?;
    tracing::info!(by = %p.actor.name, client = %id, "API client revoked");
    Ok(())
}

/// Sets a client's own rate limit from what was typed (both empty: the server's default).
pub async fn set_rate(
    svc: &Services,
    p: &Principal,
    id: String,
    per_second: &str,
    burst: &str,
) -> AppResult<()> {
    p.require(Scope::Admin)?;
    let (per_second, burst) = (per_second.trim(), burst.trim());
    let rate = if per_second.is_empty() && burst.is_empty() {
        None
    } else {
        let number = |v: &str, field: &str| {
            v.parse::<u32>().map_err(|_| {
                FieldError::new(field, "invalid", "must be a whole number from 1 up")
                    .said("problem-whole-number", vec![])
            })
        };
        let (r, b) = (
            number(per_second, "rate_per_second"),
            number(burst, "rate_burst"),
        );
        let errs: Vec<FieldError> = [&r, &b]
            .iter()
            .filter_map(|x| x.as_ref().err().cloned())
            .collect();
        crate::service::fail_on(errs)?;
        let (r, b) = (r.unwrap_or(1), b.unwrap_or(1));
        Some(Rate::new(r, b).map_err(|rule| {
            let rate = rule.said.as_ref().map(|s| s.key) == Some("problem-rate-range");
            let field = if !rate {
                "rate_burst"
            } else {
                "rate_per_second"
            };
            AppError::validation(vec![FieldError::of(field, rule)])
        })?)
    };
    oauth::set_client_rate(svc.db(), &id, rate).await
}

/// The device waiting with `code` (admin), to show before it is approved.
pub async fn waiting_device(
    svc: &Services,
    p: &Principal,
    code: &str,
) -> AppResult<oauth::WaitingDevice> {
    p.require(Scope::Admin)?;
    oauth::waiting_device(svc, code).await?.ok_or_else(|| {
        AdminRefusal::NoDeviceWaiting {
            code: code.to_string(),
        }
        .into()
    })
}

/// Approves (or denies) the device showing `code`, granting what both the device asked for
/// and the staff member's role allow. The client's name.
pub async fn decide_device(
    svc: &Services,
    p: &Principal,
    code: &str,
    approve: bool,
) -> AppResult<String> {
    p.require(Scope::Admin)?;
    let me = p.actor.id.clone();
    let user = svc
        .db()
        .read(move |c| store::clients::get_user(c, &me))
        .await?
        .ok_or_else(|| AppError::not_found("user", &p.actor.id))?;
    oauth::decide_device(svc, code, oauth::Approver::User(user), approve).await
}
