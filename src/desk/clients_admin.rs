//! Administration, API clients (screen 10): `/admin/clients` lists the integrations, kiosks
//! and apps that may call the API, registers one (its secret shown once), and approves a
//! device that shows a code (a kiosk); `/admin/clients/{id}` sets its own rate limit or
//! revokes it. The use cases are `service::api_clients`; the admin role only.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::staff::ShownOnce;
use super::{DeskSession, DeskState, Shell, failed_read, open, open_admin, open_form, open_post};
use super::{or_answer, page, server_error, web};
use crate::domain::scopes::{Grant, Scope};
use crate::error::{AppError, Kind};
use crate::i18n::{Arg, T};
use crate::service::api_clients::{self, ApiClient, NewClient};

#[derive(Template)]
#[template(path = "desk/clients_admin.html")]
struct ClientsPage {
    shell: Shell,
    problem: Option<String>,
    /// (id, name, kind, scopes, status).
    rows: Vec<[String; 5]>,
    name: String,
    grants: Vec<(String, String)>,
    grant: String,
    /// (scope, what it allows, ticked).
    scopes: Vec<(String, String, bool)>,
    redirect_uri: String,
    /// Errors by field: name, grant, scopes, redirect_uri, code.
    errors: HashMap<String, String>,
    code: String,
    /// Whether the add form is open.
    open: bool,
}

impl ClientsPage {
    /// The error on a field, if any.
    fn err(&self, field: &str) -> Option<&String> {
        self.errors.get(field)
    }
}

#[derive(Template)]
#[template(path = "desk/client_admin.html")]
struct ClientPage {
    shell: Shell,
    problem: Option<String>,
    id: String,
    name: String,
    facts: Vec<(String, String)>,
    /// (name, label key, value) of the rate form's two fields.
    rate_fields: Vec<(&'static str, &'static str, String)>,
    errors: HashMap<String, String>,
    revocable: bool,
}

impl ClientPage {
    /// The error on a field, if any.
    fn err(&self, field: &str) -> Option<&String> {
        self.errors.get(field)
    }
}

fn kind_of(t: &T, c: &ApiClient) -> String {
    let grants: Vec<String> = c
        .grants
        .iter()
        .map(|g| t.t(&format!("client-grant-{g}")))
        .collect();
    grants.join(", ")
}

fn status_of(t: &T, c: &ApiClient) -> String {
    match &c.revoked_at {
        None => t.t("client-active"),
        Some(at) => t.with(
            "client-revoked-since",
            &[("day", Arg::Text(at.get(..10).unwrap_or(at).into()))],
        ),
    }
}

/// The errors of a refusal by field, in words.
fn by_field(t: &T, e: &AppError) -> HashMap<String, String> {
    e.errors
        .iter()
        .map(|f| (f.field.clone(), super::rules::say(t, f)))
        .collect()
}

pub(super) async fn list_page(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    typed: &HashMap<String, String>,
    outcome: (StatusCode, Option<String>, HashMap<String, String>),
) -> Response {
    let t = &shell.t;
    let all = match api_clients::list(&state.svc, &s.principal).await {
        Ok(all) => all,
        Err(e) => return server_error(t, &e),
    };
    let rows = all
        .iter()
        .map(|c| {
            [
                c.id.clone(),
                c.name.clone(),
                kind_of(t, c),
                c.scopes.clone(),
                status_of(t, c),
            ]
        })
        .collect();
    let get = |k: &str| typed.get(k).cloned().unwrap_or_default();
    let ticked: Vec<&str> = typed
        .get("scopes")
        .map(|v| v.split(' ').collect())
        .unwrap_or_default();
    let (status, problem, errors) = outcome;
    let body = ClientsPage {
        problem,
        rows,
        name: get("name"),
        grants: Grant::ALL
            .iter()
            .map(|g| {
                (
                    g.as_str().to_string(),
                    t.t(&format!("client-grant-{}", g.as_str())),
                )
            })
            .collect(),
        grant: typed
            .get("grant")
            .cloned()
            .unwrap_or_else(|| "client_credentials".into()),
        scopes: Scope::ALL
            .iter()
            .map(|sc| {
                (
                    sc.as_str().to_string(),
                    super::rules::scope_words(t, *sc),
                    ticked.contains(&sc.as_str()),
                )
            })
            .collect(),
        redirect_uri: get("redirect_uri"),
        code: get("code"),
        open: errors.keys().any(|k| k != "code"),
        errors,
        shell,
    };
    page(status, &body)
}

/// `GET /admin/clients`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    let shell = Shell::new(&s, t, "admin").after(req);
    list_page(
        &state,
        &s,
        shell,
        &HashMap::new(),
        (StatusCode::OK, None, HashMap::new()),
    )
    .await
}

/// The form's fields, the ticked scopes joined by spaces (a form sends one `scopes` per box).
fn form_of(body: &str) -> HashMap<String, String> {
    let mut f: HashMap<String, String> = HashMap::new();
    for (k, v) in serde_urlencoded::from_str::<Vec<(String, String)>>(body).unwrap_or_default() {
        f.entry(k)
            .and_modify(|x| {
                x.push(' ');
                x.push_str(&v);
            })
            .or_insert(v);
    }
    f
}

/// `POST /admin/clients`: registers a client and shows its secret once.
#[handler]
pub async fn add(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let raw = body.into_string().await.unwrap_or_default();
    let f = form_of(&raw);
    // The checks read one value per field; the scopes' boxes repeat theirs.
    let csrf = serde_urlencoded::to_string([("csrf", f.get("csrf").cloned().unwrap_or_default())]);
    let checked = Body::from_string(csrf.unwrap_or_default());
    let (s, t, _) = or_answer!(open_post(req, checked, &state, super::ADMIN).await);
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let input = NewClient {
        name: get("name"),
        grant: get("grant"),
        scopes: get("scopes")
            .split(' ')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect(),
        redirect_uri: get("redirect_uri"),
    };
    match api_clients::create(&state.svc, &s.principal, input).await {
        Ok((client, secret)) => {
            let name = Arg::Text(client.name.clone());
            let back = (format!("/admin/clients/{}", client.id), t.t("client-done"));
            let Some(secret) = secret else {
                return web::redirect(
                    StatusCode::SEE_OTHER,
                    &format!("{}?done=client-added", back.0),
                );
            };
            ShownOnce {
                title: t.with("client-added-title", &[("name", name.clone())]),
                text: t.with(
                    "client-secret-once",
                    &[("name", name), ("id", Arg::Text(client.id.clone()))],
                ),
                label: t.t("client-secret-label"),
                password: secret,
                after: t.t("client-secret-after"),
                back,
                shell: Shell::new(&s, t, "admin"),
            }
            .answer()
        }
        Err(e) if e.kind == Kind::Unprocessable || !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len().max(1) as i64));
            let mut errors = by_field(&t, &e);
            if errors.is_empty() {
                errors.insert("name".into(), super::rules::detail(&t, &e));
            }
            // The CLI's words name `redirect_uri`'s rule as `redirect_uri` and the grant's as `grant`.
            let shell = Shell::new(&s, t, "admin");
            list_page(
                &state,
                &s,
                shell,
                &f,
                (StatusCode::UNPROCESSABLE_ENTITY, problem, errors),
            )
            .await
        }
        Err(e) => server_error(&t, &e),
    }
}

async fn client_page(
    req: &Request,
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    typed: Option<(&str, &str)>,
    outcome: (StatusCode, Option<String>, HashMap<String, String>),
) -> Response {
    let c = match api_clients::get(&state.svc, &s.principal, id).await {
        Ok(c) => c,
        Err(e) => {
            return failed_read(
                &t,
                &e,
                "not-found-client",
                ("/admin/clients", "nav-clients"),
            );
        }
    };
    let mut facts = vec![
        (t.t("client-id"), c.id.clone()),
        (t.t("client-kind"), kind_of(&t, &c)),
        (t.t("client-scopes"), c.scopes.clone()),
        (t.t("field-status"), status_of(&t, &c)),
        (
            t.t("client-rate"),
            match c.rate {
                Some(r) => t.with(
                    "client-rate-own",
                    &[
                        ("rate", Arg::Num(r.per_second.into())),
                        ("burst", Arg::Num(r.burst.into())),
                    ],
                ),
                None => t.t("client-rate-default"),
            },
        ),
    ];
    if !c.redirect_uris.is_empty() {
        facts.push((t.t("client-redirect"), c.redirect_uris.join(" ")));
    }
    let (status, problem, errors) = outcome;
    let (per_second, burst) = typed.map_or_else(
        || match c.rate {
            Some(r) => (r.per_second.to_string(), r.burst.to_string()),
            None => (String::new(), String::new()),
        },
        |(r, b)| (r.to_string(), b.to_string()),
    );
    let body = ClientPage {
        problem,
        revocable: c.revoked_at.is_none() && c.id != crate::service::desk::CLIENT_ID,
        id: c.id,
        name: c.name,
        facts,
        rate_fields: vec![
            ("rate_per_second", "client-rate-per-second", per_second),
            ("rate_burst", "client-rate-burst", burst),
        ],
        errors,
        shell: Shell::new(s, t, "admin").after(req),
    };
    page(status, &body)
}

/// `GET /admin/clients/{id}`.
#[handler]
pub async fn one(req: &Request, Path(id): Path<String>, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    client_page(
        req,
        &state,
        &s,
        t,
        id,
        None,
        (StatusCode::OK, None, HashMap::new()),
    )
    .await
}

/// A client's forms: its rate limit, or the revoke button with its "yes" tick.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct ClientForm {
    /// Requests per second (empty: the server's default).
    rate_per_second: String,
    /// The burst.
    rate_burst: String,
    /// "Yes, revoke it" ticked.
    #[serde(deserialize_with = "super::posted::ticked")]
    confirm: bool,
}

/// `POST /admin/clients/{id}/{action}`: `rate` (its own limit; both empty for the server's)
/// or `revoke` (with the "yes" tick).
#[handler]
pub async fn act(
    req: &Request,
    Path((id, action)): Path<(String, String)>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) = or_answer!(open_form::<ClientForm>(req, body, &state, super::ADMIN).await);
    let ClientForm {
        rate_per_second: rate,
        rate_burst: burst,
        confirm,
    } = posted.fields;
    let (svc, p) = (&state.svc, &s.principal);
    let done = match action.as_str() {
        "rate" => api_clients::set_rate(svc, p, id.clone(), &rate, &burst)
            .await
            .map(|_| "client-rate"),
        "revoke" if confirm => api_clients::revoke(svc, p, id.clone())
            .await
            .map(|_| "client-revoked"),
        "revoke" => Err(AppError::conflict("confirm", t.t("staff-confirm"))),
        _ => Err(AppError::not_found("page", &action)),
    };
    let outcome = match done {
        Ok(flash) => {
            return web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/admin/clients/{id}?done={flash}"),
            );
        }
        Err(e) if !e.errors.is_empty() => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(t.n("form-errors", e.errors.len() as i64)),
            by_field(&t, &e),
        ),
        Err(e) if e.kind == Kind::Conflict => (
            StatusCode::CONFLICT,
            Some(super::rules::detail(&t, &e)),
            HashMap::new(),
        ),
        Err(e) => {
            return failed_read(
                &t,
                &e,
                "not-found-client",
                ("/admin/clients", "nav-clients"),
            );
        }
    };
    client_page(req, &state, &s, t, id, Some((&rate, &burst)), outcome).await
}
