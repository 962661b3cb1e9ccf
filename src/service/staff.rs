//! Staff members as an admin manages them from the desk (screen 10): the list, adding one
//! (with a password made here and shown once), changing a role, resetting a password (shown
//! once), disabling and enabling; and any staff member changing their own password.
//!
//! A change to what someone may do (role, password, disabled) ends their front-desk sessions
//! and refresh tokens, so their next sign-in carries it. An admin cannot change their own
//! role or disable themselves, and the last enabled admin stays one: nobody locks the hotel
//! out of its own administration.

use crate::auth::secrets;
use crate::auth::throttle::{Throttle, Who};
use crate::domain::scopes::{Role, Scope};
use crate::error::{AppError, AppResult, FieldError, Kind};
use crate::model::Principal;
use crate::refusal::AdminRefusal;
use crate::service::oauth::{create_user, hash_secret};
use crate::service::{Services, fail_on};
use crate::store::{self, clients::User};

/// A staff member as the pages show them (never their password hash).
#[derive(Debug, Clone)]
pub struct StaffMember {
    /// `usr_…`
    pub id: String,
    /// Login name.
    pub username: String,
    /// What they may do.
    pub role: Role,
    /// When they were added.
    pub created_at: String,
    /// When they were disabled, if they are.
    pub disabled_at: Option<String>,
    /// Their desk language (`en`, `it`, `hr`), or `None` to follow the browser.
    pub language: Option<String>,
    /// The operator's mark printed on the invoices they issue, if set.
    pub operator_mark: Option<String>,
    /// Their own OIB (Croatia), sent to CIS as the operator of their receipts, if set.
    pub oib: Option<String>,
}

impl From<User> for StaffMember {
    fn from(u: User) -> StaffMember {
        StaffMember {
            id: u.id,
            username: u.username,
            role: u.role,
            created_at: u.created_at,
            disabled_at: u.disabled_at,
            language: u.language,
            operator_mark: u.operator_mark,
            oib: u.oib,
        }
    }
}

/// A staff member with a password made for them, to be shown once.
#[derive(Debug)]
pub struct WithPassword {
    /// The staff member.
    pub user: StaffMember,
    /// The password in clear; stored only as its hash.
    pub password: String,
}

/// Every staff member, by name.
pub async fn list(svc: &Services, p: &Principal) -> AppResult<Vec<StaffMember>> {
    p.require(Scope::Admin)?;
    let all = svc.db().read(store::clients::list_users).await?;
    Ok(all.into_iter().map(StaffMember::from).collect())
}

/// One staff member.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<StaffMember> {
    p.require(Scope::Admin)?;
    svc.db()
        .read(move |c| {
            store::clients::get_user(c, &id)?.ok_or_else(|| AppError::not_found("user", &id))
        })
        .await
        .map(StaffMember::from)
}

/// Adds a staff member with `role`, and a password made for them.
pub async fn add(
    svc: &Services,
    p: &Principal,
    username: &str,
    role: &str,
) -> AppResult<WithPassword> {
    p.require(Scope::Admin)?;
    let password = secrets::readable_password();
    let user = create_user(svc.db(), username, role, &password)
        .await
        .map_err(|e| match e.code {
            // Said next to the name on the form.
            "already_exists" => {
                let mut field = FieldError::new("username", "already_exists", e.detail);
                field.said = e.said.map(|said| *said);
                AppError::validation(vec![field])
            }
            _ => e,
        })?;
    tracing::info!(by = %p.actor.name, user = %user.username, role = %user.role.as_str(), "staff member added");
    Ok(WithPassword {
        user: user.into(),
        password,
    })
}

/// Refuses a change an admin may not make to themselves, or one that leaves no admin.
fn guard(tx: &crate::db::Tx, p: &Principal, target: &User, demotes: bool) -> AppResult<()> {
    if target.id == p.actor.id {
        return Err(AdminRefusal::OwnAccount.into());
    }
    if demotes && target.role == Role::Admin && store::staff::active_admins(tx)? <= 1 {
        return Err(AdminRefusal::LastAdmin.into());
    }
    Ok(())
}

/// The staff member `id`, read inside a write.
fn target(tx: &crate::db::Tx, id: &str) -> AppResult<User> {
    store::clients::get_user(tx, id)?.ok_or_else(|| AppError::not_found("user", id))
}

/// Gives staff member `id` another role.
pub async fn set_role(
    svc: &Services,
    p: &Principal,
    id: String,
    role: &str,
) -> AppResult<StaffMember> {
    p.require(Scope::Admin)?;
    let Some(role) = Role::parse(role) else {
        return Err(AppError::validation(vec![
            crate::service::oauth::role_rule(),
        ]));
    };
    let p2 = p.clone();
    let user = svc
        .db()
        .write(move |tx| {
            let mut user = target(tx, &id)?;
            if user.role == role {
                return Ok(user);
            }
            guard(tx, &p2, &user, role != Role::Admin)?;
            store::staff::set_role(tx, &id, role)?;
            store::staff::end_standing(tx, &id, None)?;
            user.role = role;
            Ok(user)
        })
        .await?;
    tracing::info!(by = %p.actor.name, user = %user.username, role = %role.as_str(), "staff role changed");
    Ok(user.into())
}

/// Disables (`enabled = false`) or enables staff member `id`. Disabling ends their sessions
/// and tokens at once.
pub async fn set_enabled(
    svc: &Services,
    p: &Principal,
    id: String,
    enabled: bool,
) -> AppResult<StaffMember> {
    p.require(Scope::Admin)?;
    let p2 = p.clone();
    let user = svc
        .db()
        .write(move |tx| {
            let mut user = target(tx, &id)?;
            let at = tx.now_text();
            if enabled {
                store::staff::set_disabled(tx, &id, None)?;
                user.disabled_at = None;
            } else {
                guard(tx, &p2, &user, true)?;
                if store::staff::set_disabled(tx, &id, Some(&at))? {
                    user.disabled_at = Some(at);
                }
                store::staff::end_standing(tx, &id, None)?;
            }
            Ok(user)
        })
        .await?;
    tracing::info!(by = %p.actor.name, user = %user.username, enabled, "staff member enabled or disabled");
    Ok(user.into())
}

/// Gives staff member `id` a new password (made here, shown once) and ends their sessions.
pub async fn reset_password(svc: &Services, p: &Principal, id: String) -> AppResult<WithPassword> {
    p.require(Scope::Admin)?;
    let password = secrets::readable_password();
    let hash = hash_secret(password.clone()).await?;
    let user = svc
        .db()
        .write(move |tx| {
            let user = target(tx, &id)?;
            store::staff::set_password(tx, &id, &hash)?;
            store::staff::end_standing(tx, &id, None)?;
            Ok(user)
        })
        .await?;
    tracing::info!(by = %p.actor.name, user = %user.username, "staff password reset");
    Ok(WithPassword {
        user: user.into(),
        password,
    })
}

/// The language typed (`""` for the browser's), checked against the desk's languages.
fn language_of(typed: &str) -> AppResult<Option<String>> {
    match typed.trim() {
        "" => Ok(None),
        tag => crate::i18n::Lang::parse(tag)
            .map(|l| Some(l.tag().to_string()))
            .ok_or_else(|| {
                AppError::invalid_field("language", "invalid_choice", "must be en, it, hr or empty")
            }),
    }
}

/// Sets staff member `id`'s desk language (`""`: the browser's); it applies to their next page.
pub async fn set_language(svc: &Services, p: &Principal, id: String, typed: &str) -> AppResult<()> {
    if id != p.actor.id {
        p.require(Scope::Admin)?;
    }
    let language = language_of(typed)?;
    svc.db()
        .write(move |tx| {
            if store::staff::set_language(tx, &id, language.as_deref())? {
                Ok(())
            } else {
                Err(AppError::not_found("user", &id))
            }
        })
        .await
}

/// Sets staff member `id` as an operator: their mark (`""`: none), 1 to 10 letters and
/// digits, upper case, held by one member only, printed on the invoices they issue; and
/// their own OIB (`""`: none; Croatia), checked by its check digit, sent to CIS as the
/// operator of their receipts.
pub async fn set_operator(
    svc: &Services,
    p: &Principal,
    id: String,
    (typed_mark, typed_oib): (&str, &str),
) -> AppResult<()> {
    p.require(Scope::Admin)?;
    let mark = typed_mark.trim().to_ascii_uppercase();
    if mark.len() > 10 || !mark.bytes().all(|b| b.is_ascii_alphanumeric()) {
        let why = "must be 1 to 10 letters or digits, such as MK or 07";
        return Err(AppError::invalid_field("operator_mark", "invalid", why)
            .field_said("problem-operator-mark", vec![]));
    }
    let oib = crate::domain::seller::digits_of("HR", typed_oib);
    if !oib.is_empty() && !crate::domain::seller::oib_valid(&oib) {
        let why = "is not an OIB: 11 digits, the last of them the check digit";
        return Err(
            AppError::invalid_field("oib", "invalid", why).field_said("problem-not-an-oib", vec![])
        );
    }
    svc.db()
        .write(move |tx| {
            if let Some(name) = store::staff::mark_holder(tx, &id, &mark)? {
                return Err(AdminRefusal::MarkTaken { mark, name }.into());
            }
            let mark = (!mark.is_empty()).then_some(mark.as_str());
            let oib = (!oib.is_empty()).then_some(oib.as_str());
            if store::staff::set_operator(tx, &id, mark, oib)? {
                Ok(())
            } else {
                Err(AppError::not_found("user", &id))
            }
        })
        .await
}

/// What a staff member types to change their own password (the desk's form reads into it).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct OwnPassword {
    /// The password they have.
    pub current: String,
    /// The new one.
    pub new: String,
    /// The new one again.
    pub repeat: String,
}

/// A staff member changes their own password; their other sessions end, `session` (the
/// hash of the one they are using) stays. Wrong current passwords are throttled like
/// sign-in (per user and per `address`), so a session left open is no password oracle.
pub async fn change_own(
    svc: &Services,
    p: &Principal,
    session: Option<String>,
    typed: OwnPassword,
    (throttle, address): (&Throttle, &str),
) -> AppResult<()> {
    let who = [Who::User(&p.actor.name), Who::Address(address)];
    if throttle.check(&who).is_err() {
        return Err(AppError::validation(vec![
            FieldError::new(
                "current",
                "throttled",
                "too many wrong passwords: wait a few minutes, then try again",
            )
            .said("problem-password-throttled", vec![]),
        ]));
    }
    let me = p.actor.id.clone();
    let user = svc
        .db()
        .read(move |c| store::clients::get_user(c, &me))
        .await?
        .ok_or_else(|| {
            AppError::new(Kind::Forbidden, "not_staff", "Only staff have a password.")
        })?;
    let (current, stored) = (typed.current.clone(), user.password_hash.clone());
    let right = tokio::task::spawn_blocking(move || secrets::verify_password(&current, &stored))
        .await
        .map_err(AppError::internal)?;
    let mut errs = Vec::new();
    if !right {
        tokio::time::sleep(throttle.failure(&who)).await;
        errs.push(
            FieldError::new("current", "wrong_password", "is not your password")
                .said("problem-wrong-password", vec![]),
        );
    } else {
        throttle.success(&who);
    }
    if let Some(short) = crate::service::oauth::password_rule("new", &typed.new) {
        errs.push(short);
    } else if typed.new == typed.current {
        errs.push(
            FieldError::new("new", "unchanged", "must differ from the one you have")
                .said("problem-password-unchanged", vec![]),
        );
    }
    if typed.repeat != typed.new {
        errs.push(
            FieldError::new("repeat", "mismatch", "must be the same as the new password")
                .said("problem-password-mismatch", vec![]),
        );
    }
    fail_on(errs)?;
    let hash = hash_secret(typed.new).await?;
    let id = user.id.clone();
    svc.db()
        .write(move |tx| {
            store::staff::set_password(tx, &id, &hash)?;
            store::staff::end_standing(tx, &id, session.as_deref())
        })
        .await?;
    tracing::info!(user = %user.username, "staff member changed their password");
    Ok(())
}
