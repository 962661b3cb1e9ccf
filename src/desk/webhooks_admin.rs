//! Administration, webhooks (screen 10): `/admin/webhooks` lists the endpoints innkeep
//! notifies and registers one (its signing secret shown once); `/admin/webhooks/{id}` changes
//! it (address, events, description, on or off), sends a test, rotates the secret (shown
//! once; the old one keeps signing for a day), and shows the delivery log with a redeliver
//! button per attempt. The use cases of `/v1/webhooks`; the admin role only.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::staff::ShownOnce;
use super::{DeskSession, DeskState, Shell, failed_read, open_admin, open_admin_post, open_form};
use super::{or_answer, page, server_error, web};
use crate::domain::webhooks::Destinations;
use crate::error::{AppError, FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::input::FromJson;
use crate::model::{WebhookCreate, WebhookUpdate, WebhookWithSecret};
use crate::service::{IfMatch, PageRequest, webhooks};

/// Deliveries shown on an endpoint's page.
const LOG: usize = 50;

#[derive(Template)]
#[template(path = "desk/webhooks_admin.html")]
struct WebhooksPage {
    shell: Shell,
    problem: Option<String>,
    /// (id, address, events, state).
    rows: Vec<[String; 4]>,
    form: EndpointForm,
    open: bool,
}

#[derive(Template)]
#[template(path = "desk/webhook_admin.html")]
struct WebhookPage {
    shell: Shell,
    problem: Option<String>,
    id: String,
    version: i64,
    facts: Vec<(String, String)>,
    form: EndpointForm,
    /// (id, when, event type, attempt, outcome, answer).
    log: Vec<[String; 6]>,
}

/// The endpoint's fields as typed, with their errors.
#[derive(Default)]
struct EndpointForm {
    url: String,
    events: String,
    description: String,
    enabled: bool,
    url_error: Option<String>,
    events_error: Option<String>,
    description_error: Option<String>,
}

/// An endpoint's form as posted (and its page's buttons).
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default)]
struct EndpointFields {
    /// Where events are sent.
    url: String,
    /// The event types, separated by commas or spaces (empty: all).
    events: String,
    /// What the endpoint is for.
    description: String,
    /// Deliveries on.
    #[serde(deserialize_with = "super::posted::ticked")]
    enabled: bool,
    /// The endpoint's version when the page was drawn.
    version: String,
    /// "Yes, rotate the secret" ticked.
    #[serde(deserialize_with = "super::posted::ticked")]
    confirm: bool,
}

impl EndpointForm {
    fn typed(t: &T, f: &EndpointFields, errors: &[FieldError]) -> EndpointForm {
        let on = |name: &str| {
            errors
                .iter()
                .find(|e| e.field == name || e.field.starts_with(&format!("{name}[")))
                .map(|e| super::rules::say(t, e))
        };
        EndpointForm {
            url: f.url.trim().into(),
            events: f.events.trim().into(),
            description: f.description.trim().into(),
            enabled: f.enabled,
            url_error: on("url"),
            events_error: on("events"),
            description_error: on("description"),
        }
    }

    /// The JSON of a create or update.
    fn json(&self) -> serde_json::Value {
        let events: Vec<&str> = self
            .events
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|e| !e.is_empty())
            .collect();
        json!({
            "url": self.url,
            "events": events,
            "description": (!self.description.is_empty()).then_some(&self.description),
            "enabled": self.enabled,
        })
    }
}

fn state_of(t: &T, enabled: bool, reason: Option<&str>) -> String {
    match (enabled, reason) {
        (true, _) => t.t("webhook-on"),
        (false, None) => t.t("webhook-off"),
        (false, Some(r)) => t.with(
            "webhook-off-because",
            &[("reason", Arg::Text(r.to_string()))],
        ),
    }
}

async fn list_page(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    form: EndpointForm,
    status: StatusCode,
    problem: Option<String>,
) -> Response {
    let t = &shell.t;
    let all = match webhooks::list(&state.svc, &s.principal, PageRequest::first(200)).await {
        Ok(p) => p.items,
        Err(e) => return server_error(t, &e),
    };
    let rows = all
        .iter()
        .map(|(w, _)| {
            let st = state_of(t, w.enabled, w.disabled_reason.as_deref());
            [w.id.clone(), w.url.clone(), w.events.join(" "), st]
        })
        .collect();
    let body = WebhooksPage {
        problem,
        rows,
        open: status != StatusCode::OK || all.is_empty(),
        form,
        shell,
    };
    page(status, &body)
}

/// `GET /admin/webhooks`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let shell = Shell::new(&s, t, "admin").after(req);
    let form = EndpointForm {
        events: "*".into(),
        enabled: true,
        ..Default::default()
    };
    list_page(&state, &s, shell, form, StatusCode::OK, None).await
}

/// The secret of a new or rotated endpoint, shown once.
fn secret_page(s: &DeskSession, t: T, made: WebhookWithSecret, key: &str) -> Response {
    let url = Arg::Text(made.webhook.url.clone());
    ShownOnce {
        title: t.with(&format!("{key}-title"), &[("url", url.clone())]),
        text: t.with("webhook-secret-once", &[("url", url)]),
        label: t.t("webhook-secret-label"),
        password: made.secret,
        after: t.t("webhook-secret-after"),
        back: (
            format!("/admin/webhooks/{}", made.webhook.id),
            t.t("webhook-done"),
        ),
        shell: Shell::new(s, t, "admin"),
    }
    .answer()
}

/// `POST /admin/webhooks`: registers an endpoint and shows its secret once.
#[handler]
pub async fn add(
    req: &Request,
    body: Body,
    state: Data<&Arc<DeskState>>,
    allow: Data<&Destinations>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<EndpointFields>(req, body, &state, super::ADMIN).await);
    let f = posted.fields;
    let mut form = EndpointForm::typed(&t, &f, &[]);
    form.enabled = true;
    let mut errors = Vec::new();
    let parsed = WebhookCreate::from_json(&form.json(), "", &mut errors);
    let result = match parsed {
        Some(input) if errors.is_empty() => {
            webhooks::create(&state.svc, &s.principal, **allow, input).await
        }
        _ => Err(AppError::validation(errors)),
    };
    match result {
        Ok(made) => secret_page(&s, t, made, "webhook-added"),
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len() as i64));
            let form = EndpointForm::typed(&t, &f, &e.errors);
            list_page(
                &state,
                &s,
                Shell::new(&s, t, "admin"),
                form,
                StatusCode::UNPROCESSABLE_ENTITY,
                problem,
            )
            .await
        }
        Err(e) => server_error(&t, &e),
    }
}

async fn endpoint_page(
    req: &Request,
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    typed: Option<EndpointForm>,
    (status, problem): (StatusCode, Option<String>),
) -> Response {
    let (svc, p) = (&state.svc, &s.principal);
    let w = match webhooks::get(svc, p, id.clone()).await {
        Ok(w) => w,
        Err(e) => {
            return failed_read(
                &t,
                &e,
                "not-found-webhook",
                ("/admin/webhooks", "nav-webhooks"),
            );
        }
    };
    let log =
        match webhooks::deliveries(svc, p, id.clone(), Vec::new(), PageRequest::first(LOG)).await {
            Ok(page) => page.items,
            Err(e) => return server_error(&t, &e),
        };
    let log = log
        .into_iter()
        .map(|(d, _)| {
            let answer = match (d.response_status, &d.error) {
                (Some(code), _) => code.to_string(),
                (None, Some(e)) => e.clone(),
                (None, None) => String::new(),
            };
            let outcome = t.t(&format!("delivery-{}", d.status.as_str()));
            let when = d
                .created_at
                .0
                .get(..19)
                .unwrap_or(&d.created_at.0)
                .replace('T', " ");
            [
                d.id,
                when,
                d.event_type,
                d.attempt.to_string(),
                outcome,
                answer,
            ]
        })
        .collect();
    let mut facts = vec![
        (t.t("webhook-url"), w.url.clone()),
        (
            t.t("field-status"),
            state_of(&t, w.enabled, w.disabled_reason.as_deref()),
        ),
    ];
    if let Some(until) = &w.previous_secret_until {
        facts.push((
            t.t("webhook-old-secret-until"),
            until.0.get(..16).unwrap_or(&until.0).replace('T', " "),
        ));
    }
    let form = typed.unwrap_or_else(|| EndpointForm {
        url: w.url.clone(),
        events: w.events.join(" "),
        description: w.description.clone().unwrap_or_default(),
        enabled: w.enabled,
        ..Default::default()
    });
    let body = WebhookPage {
        problem,
        id: w.id,
        version: w.version,
        facts,
        form,
        log,
        shell: Shell::new(s, t, "admin").after(req),
    };
    page(status, &body)
}

/// `GET /admin/webhooks/{id}`.
#[handler]
pub async fn one(req: &Request, Path(id): Path<String>, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    endpoint_page(req, &state, &s, t, id, None, (StatusCode::OK, None)).await
}

/// `POST /admin/webhooks/{id}/{action}`: `save` (the form, with the version read), `test`,
/// `rotate` (with the "yes" tick; the new secret shown once).
#[handler]
pub async fn act(
    req: &Request,
    Path((id, action)): Path<(String, String)>,
    body: Body,
    state: Data<&Arc<DeskState>>,
    allow: Data<&Destinations>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<EndpointFields>(req, body, &state, super::ADMIN).await);
    let (svc, p, f) = (&state.svc, &s.principal, posted.fields);
    let done: Result<&str, AppError> = match action.as_str() {
        "test" => webhooks::test(svc, p, id.clone())
            .await
            .map(|_| "webhook-test"),
        "rotate" if f.confirm => {
            return match webhooks::rotate(svc, p, id.clone()).await {
                Ok(made) => secret_page(&s, t, made, "webhook-rotated"),
                Err(e) => failed_read(
                    &t,
                    &e,
                    "not-found-webhook",
                    ("/admin/webhooks", "nav-webhooks"),
                ),
            };
        }
        "rotate" => Err(AppError::conflict("confirm", t.t("staff-confirm"))),
        "save" => {
            let form = EndpointForm::typed(&t, &f, &[]);
            let version = f.version.parse().unwrap_or(0);
            let mut errors = Vec::new();
            match WebhookUpdate::from_json(&form.json(), "", &mut errors) {
                Some(input) if errors.is_empty() => {
                    let if_match = Some(IfMatch::Versions(vec![version]));
                    webhooks::update(svc, p, **allow, id.clone(), if_match, input)
                        .await
                        .map(|_| "webhook-saved")
                }
                _ => Err(AppError::validation(errors)),
            }
        }
        _ => Err(AppError::not_found("page", &action)),
    };
    let (status, problem, typed) = match done {
        Ok(flash) => {
            return web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/admin/webhooks/{id}?done={flash}"),
            );
        }
        Err(e) if !e.errors.is_empty() => {
            let problem = Some(t.n("form-errors", e.errors.len() as i64));
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                problem,
                Some(EndpointForm::typed(&t, &f, &e.errors)),
            )
        }
        Err(e) if e.kind == Kind::PreconditionFailed => (
            StatusCode::CONFLICT,
            Some(t.t("rooms-changed-meanwhile")),
            Some(EndpointForm::typed(&t, &f, &[])),
        ),
        Err(e) if e.kind == Kind::Conflict => (
            StatusCode::CONFLICT,
            Some(super::rules::detail(&t, &e)),
            None,
        ),
        Err(e) => {
            return failed_read(
                &t,
                &e,
                "not-found-webhook",
                ("/admin/webhooks", "nav-webhooks"),
            );
        }
    };
    endpoint_page(req, &state, &s, t, id, typed, (status, problem)).await
}

/// `POST /admin/webhooks/{id}/deliveries/{delivery}`: queues that delivery's event again.
#[handler]
pub async fn redeliver(
    req: &Request,
    Path((id, delivery)): Path<(String, String)>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_admin_post(req, body, &state).await);
    match webhooks::redeliver(&state.svc, &s.principal, id.clone(), delivery).await {
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/admin/webhooks/{id}?done=webhook-redelivered"),
        ),
        Err(e) if e.kind == Kind::Conflict => {
            endpoint_page(
                req,
                &state,
                &s,
                t,
                id,
                None,
                (StatusCode::CONFLICT, Some(super::rules::detail(&t, &e))),
            )
            .await
        }
        Err(e) => failed_read(
            &t,
            &e,
            "not-found-webhook",
            ("/admin/webhooks", "nav-webhooks"),
        ),
    }
}
