//! Administration, staff (screen 10): `/admin/staff` lists the staff and adds one; a staff
//! member's page (`/admin/staff/{id}`) changes their role, resets their password, disables or
//! enables them. A password made here is shown once, on a page that is never cached, and
//! only its hash is kept. The use cases are `service::staff`; the admin role only.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::{DeskSession, DeskState, Outcome, Shell, failed_read, open, open_form, or_answer};
use super::{page, server_error, web};
use crate::domain::scopes::Role;
use crate::error::{AppError, Kind};
use crate::i18n::{Arg, T};
use crate::service::staff::{self, StaffMember, WithPassword};

/// The staff list and the add form.
#[derive(Template)]
#[template(path = "desk/staff.html")]
struct StaffPage {
    shell: Shell,
    problem: Option<String>,
    /// (id, name, role, status, added).
    rows: Vec<[String; 5]>,
    roles: Vec<(String, String)>,
    username: String,
    username_error: Option<String>,
    role: String,
    role_error: Option<String>,
}

/// One staff member's page.
#[derive(Template)]
#[template(path = "desk/staff_member.html")]
struct MemberPage {
    shell: Shell,
    problem: Option<String>,
    id: String,
    name: String,
    facts: Vec<(String, String)>,
    roles: Vec<(String, String)>,
    role: String,
    disabled: bool,
    /// The admin looking at their own page: no actions, a link to "My password".
    me: bool,
    /// (tag, name) of the languages, and theirs.
    languages: Vec<(String, String)>,
    language: String,
    /// The operator mark printed on their invoices, and their own OIB (as typed, when the
    /// form came back refused), with the error next to each.
    operator_mark: String,
    oib: String,
    mark_error: Option<String>,
    oib_error: Option<String>,
}

/// The operator form as typed, and its refusal by field: (mark, OIB, field errors).
type Operator = (String, String, Vec<crate::error::FieldError>);

/// A password or secret shown once, with a way on.
#[derive(Template)]
#[template(path = "desk/password_once.html")]
pub(super) struct ShownOnce {
    pub shell: Shell,
    pub title: String,
    pub text: String,
    /// The accessible name of what is shown.
    pub label: String,
    pub password: String,
    /// What to do when it is lost.
    pub after: String,
    /// Where to go on: (path, label).
    pub back: (String, String),
}

impl ShownOnce {
    /// The page, never cached.
    pub fn answer(&self) -> Response {
        let mut r = page(StatusCode::OK, self);
        r.headers_mut().insert(
            "cache-control",
            poem::http::HeaderValue::from_static("no-store"),
        );
        r
    }
}

fn roles(t: &T) -> Vec<(String, String)> {
    Role::ALL
        .iter()
        .map(|r| (r.as_str().to_string(), t.t(&format!("role-{}", r.as_str()))))
        .collect()
}

/// The day an instant (`2026-11-25T…`) falls on, written for the language.
fn day_of(t: &T, instant: &str) -> String {
    instant
        .get(..10)
        .and_then(|d| d.parse().ok())
        .map_or_else(|| instant.to_string(), |d| t.short_date(d))
}

fn status_of(t: &T, u: &StaffMember) -> String {
    match &u.disabled_at {
        None => t.t("staff-active"),
        Some(at) => t.with("staff-disabled-since", &[("day", Arg::Text(day_of(t, at)))]),
    }
}

async fn list_page(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    typed: (&str, &str),
    outcome: Outcome,
) -> Response {
    let users = match staff::list(&state.svc, &s.principal).await {
        Ok(u) => u,
        Err(e) => return server_error(&t, &e),
    };
    let rows = users
        .iter()
        .map(|u| {
            [
                u.id.clone(),
                u.username.clone(),
                t.t(&format!("role-{}", u.role.as_str())),
                status_of(&t, u),
                day_of(&t, &u.created_at),
            ]
        })
        .collect();
    let error_at = |f: &str| {
        outcome
            .errors
            .iter()
            .find(|e| e.field == f)
            .map(|e| super::rules::say(&t, e))
    };
    let body = StaffPage {
        problem: outcome.problem.clone(),
        rows,
        roles: roles(&t),
        username: typed.0.to_string(),
        username_error: error_at("username"),
        role: typed.1.to_string(),
        role_error: error_at("role").map(|_| t.t("error-role")),
        shell: Shell::new(s, t, "admin"),
    };
    page(outcome.status, &body)
}

/// `GET /admin/staff`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    list_page(&state, &s, t, ("", "front_desk"), Outcome::fresh()).await
}

/// The page that shows a made password once; never cached.
fn password_page(s: &DeskSession, t: T, made: WithPassword, key: &str) -> Response {
    let name = Arg::Text(made.user.username.clone());
    ShownOnce {
        title: t.with(&format!("{key}-title"), &[("name", name.clone())]),
        text: t.with("password-once", &[("name", name)]),
        label: t.t("password-label"),
        password: made.password,
        after: t.t("password-once-after"),
        back: (
            format!("/admin/staff/{}", made.user.id),
            t.t("password-done"),
        ),
        shell: Shell::new(s, t, "admin"),
    }
    .answer()
}

/// The staff forms: a new member (`username`, `role`), or an action on one (`role`,
/// `language`, and the "yes" tick the others ask for).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct StaffForm {
    /// The new member's user name.
    username: String,
    /// Their role.
    role: String,
    /// Their language.
    language: String,
    /// Their operator mark.
    operator_mark: String,
    /// Their own OIB.
    oib: String,
    /// "Yes" ticked.
    #[serde(deserialize_with = "super::posted::ticked")]
    confirm: bool,
}

/// `POST /admin/staff`: adds a staff member and shows their password once.
#[handler]
pub async fn add(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) = or_answer!(open_form::<StaffForm>(req, body, &state, super::ADMIN).await);
    let (username, role) = (posted.fields.username.trim(), posted.fields.role.as_str());
    match staff::add(&state.svc, &s.principal, username, role).await {
        Ok(made) => password_page(&s, t, made, "staff-added"),
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len() as i64));
            let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, e.errors, problem);
            list_page(&state, &s, t, (username, role), outcome).await
        }
        Err(e) => server_error(&t, &e),
    }
}

async fn member_page(
    req: &Request,
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    (outcome, typed): (Outcome, Option<Operator>),
) -> Response {
    let u = match staff::get(&state.svc, &s.principal, id).await {
        Ok(u) => u,
        Err(e) => return failed_read(&t, &e, "not-found-staff", ("/admin/staff", "nav-staff")),
    };
    let body = MemberPage {
        problem: outcome.problem,
        facts: vec![
            (t.t("staff-role"), t.t(&format!("role-{}", u.role.as_str()))),
            (t.t("field-status"), status_of(&t, &u)),
            (t.t("staff-added-on"), day_of(&t, &u.created_at)),
        ],
        roles: roles(&t),
        languages: super::account::languages(&t),
        language: u.language.clone().unwrap_or_default(),
        mark_error: error_at(&t, &typed, "operator_mark"),
        oib_error: error_at(&t, &typed, "oib"),
        operator_mark: typed.as_ref().map_or_else(
            || u.operator_mark.clone().unwrap_or_default(),
            |(m, _, _)| m.clone(),
        ),
        oib: typed
            .as_ref()
            .map_or_else(|| u.oib.clone().unwrap_or_default(), |(_, o, _)| o.clone()),
        role: u.role.as_str().to_string(),
        disabled: u.disabled_at.is_some(),
        me: u.id == s.principal.actor.id,
        id: u.id,
        name: u.username,
        shell: Shell::new(s, t, "admin").after(req),
    };
    page(outcome.status, &body)
}

/// `GET /admin/staff/{id}`.
#[handler]
pub async fn member(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    member_page(req, &state, &s, t, id, (Outcome::fresh(), None)).await
}

/// `POST /admin/staff/{id}/{action}`: `role` (with `role`), `password` (a new one, shown
/// once), `disable` or `enable`; the last three only with the "yes" tick.
#[handler]
pub async fn act(
    req: &Request,
    Path((id, action)): Path<(String, String)>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) = or_answer!(open_form::<StaffForm>(req, body, &state, super::ADMIN).await);
    let (svc, p, form) = (&state.svc, &s.principal, &posted.fields);
    if !["role", "language", "operator-mark"].contains(&action.as_str()) && !form.confirm {
        let problem = Some(t.t("staff-confirm"));
        let outcome = Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, Vec::new(), problem);
        return member_page(req, &state, &s, t, id, (outcome, None)).await;
    }
    let done = match action.as_str() {
        "role" => staff::set_role(svc, p, id.clone(), &form.role)
            .await
            .map(|_| "staff-role"),
        "language" => staff::set_language(svc, p, id.clone(), &form.language)
            .await
            .map(|_| "staff-language"),
        "operator-mark" => {
            staff::set_operator(svc, p, id.clone(), (&form.operator_mark, &form.oib))
                .await
                .map(|_| "staff-operator-mark")
        }
        "disable" => staff::set_enabled(svc, p, id.clone(), false)
            .await
            .map(|_| "staff-disabled"),
        "enable" => staff::set_enabled(svc, p, id.clone(), true)
            .await
            .map(|_| "staff-enabled"),
        "password" => {
            return match staff::reset_password(svc, p, id.clone()).await {
                Ok(made) => password_page(&s, t, made, "staff-reset"),
                Err(e) => refused(req, &state, &s, t, id, (e, None)).await,
            };
        }
        _ => {
            return failed_read(
                &t,
                &AppError::not_found("page", &action),
                "not-found-staff",
                ("/admin/staff", "nav-staff"),
            );
        }
    };
    match done {
        Ok(flash) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/admin/staff/{id}?done={flash}"),
        ),
        Err(e) => {
            let typed =
                (action == "operator-mark").then(|| (form.operator_mark.clone(), form.oib.clone()));
            refused(req, &state, &s, t, id, (e, typed)).await
        }
    }
}

/// The error a refused operator form shows next to `field`, in words.
fn error_at(t: &T, typed: &Option<Operator>, field: &str) -> Option<String> {
    let (_, _, errors) = typed.as_ref()?;
    errors
        .iter()
        .find(|e| e.field == field)
        .map(|e| super::rules::say(t, e))
}

/// The staff member's page again with a use case's refusal in words.
async fn refused(
    req: &Request,
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    (e, typed): (AppError, Option<(String, String)>),
) -> Response {
    let status = match e.kind {
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Unprocessable | Kind::BadRequest => StatusCode::UNPROCESSABLE_ENTITY,
        _ => return failed_read(&t, &e, "not-found-staff", ("/admin/staff", "nav-staff")),
    };
    let problem = match e.errors.first() {
        Some(f) if f.field == "operator_mark" || f.field == "oib" => {
            let label = if f.field == "oib" {
                "staff-oib"
            } else {
                "staff-operator-mark"
            };
            format!("{} {}", t.t(label), super::rules::say(&t, f))
        }
        Some(_) => t.t("error-role"),
        None => super::rules::detail(&t, &e),
    };
    let outcome = Outcome::refused(status, Vec::new(), Some(problem));
    let typed = typed.map(|(mark, oib)| (mark, oib, e.errors.clone()));
    member_page(req, state, s, t, id, (outcome, typed)).await
}
