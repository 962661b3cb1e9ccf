//! Webhook endpoints: registration, changes, rotation, tests, the log, redelivery.

use crate::domain::enums::JobKind;
use crate::domain::events::{EventType, is_known_pattern};
use crate::domain::scopes::Scope;
use crate::domain::signature;
use crate::domain::webhooks::{Destinations, check_address};
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::{
    Delivery, Instant, Queued, Webhook, WebhookCreate, WebhookUpdate, WebhookWithSecret, snapshot,
};
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::service::deliveries::payload as job_payload;
use crate::service::{IfMatch, Page, PageRequest, fail_on, page, set_optional, unchanged};
use crate::store::{self, webhooks::Endpoint};

/// How long the previous secret keeps signing after a rotation.
pub const ROTATION_OVERLAP: chrono::Duration = chrono::Duration::hours(24);

/// Checks a URL: absolute http(s), a host, no credentials, and (when the host is an address)
/// an address deliveries may go to. Names are checked again at every delivery.
pub fn check_url(url: &str, allow: Destinations, errs: &mut Vec<FieldError>) {
    let bad = |errs: &mut Vec<FieldError>, why: &str, key: &'static str| {
        errs.push(FieldError::new("url", "invalid_url", why).said(key, vec![]))
    };
    let Ok(uri) = url.parse::<poem::http::Uri>() else {
        return bad(
            errs,
            "must be an absolute http or https URL",
            "problem-url-absolute",
        );
    };
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return bad(
            errs,
            "must start with http:// or https://",
            "problem-url-scheme",
        );
    }
    let Some(authority) = uri.authority() else {
        return bad(errs, "must name a host", "problem-url-host");
    };
    if authority.as_str().contains('@') {
        return bad(
            errs,
            "must not contain credentials; authenticate with the signature instead",
            "problem-url-credentials",
        );
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    if let Ok(ip) = host.parse::<std::net::IpAddr>()
        && let Err(r) = check_address(ip, allow)
    {
        errs.push(
            FieldError::new("url", "destination_refused", r.describe()).said(r.key(), vec![]),
        );
    }
}

/// Checks event patterns: known types, `family.*` of a known family, or `*`.
fn check_events(events: &[String], errs: &mut Vec<FieldError>) {
    if events.is_empty() {
        errs.push(
            FieldError::new(
                "events",
                "required",
                "name at least one event type, a family such as reservation.*, or *",
            )
            .said("problem-events-required", vec![]),
        );
    }
    for (i, e) in events.iter().enumerate() {
        if !is_known_pattern(e) {
            errs.push(
                FieldError::new(
                    format!("events[{i}]"),
                    "unknown_event",
                    "is not an event type, a family such as reservation.*, or *",
                )
                .said("problem-unknown-event", vec![]),
            );
        }
    }
}

/// Registers an endpoint; its secret is returned this once.
pub async fn create(
    svc: &Services,
    p: &Principal,
    allow: Destinations,
    input: WebhookCreate,
) -> AppResult<WebhookWithSecret> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    let mut errs = Vec::new();
    let events: Vec<String> = input.events.into_iter().map(|e| e.0).collect();
    check_url(&input.url.0, allow, &mut errs);
    check_events(&events, &mut errs);
    fail_on(errs)?;
    db.write(move |tx| {
        let now = Instant(tx.now_text());
        let secret = new_secret();
        let endpoint = Endpoint {
            webhook: Webhook {
                id: crate::ids::new("whk"),
                url: input.url.0,
                events,
                description: input.description.map(|d| d.0),
                enabled: input.enabled.unwrap_or(true),
                disabled_reason: None,
                previous_secret_until: None,
                version: 1,
                created_at: now.clone(),
                updated_at: now,
            },
            secret: secret.clone(),
            previous_secret: None,
            failing_since: None,
        };
        store::webhooks::save(tx, &endpoint)?;
        Ok(WebhookWithSecret {
            webhook: endpoint.webhook,
            secret,
        })
    })
    .await
}

fn load(conn: &rusqlite::Connection, id: &str) -> AppResult<Endpoint> {
    store::webhooks::get(conn, id)?.ok_or_else(|| AppError::not_found("webhook", id))
}

/// Queues a delivery of `event_id` to an enabled endpoint, due now (same `webhook-id` as
/// any earlier delivery of that event).
fn queue_delivery(tx: &crate::db::Tx, e: &Endpoint, event_id: String) -> AppResult<Queued> {
    if !e.webhook.enabled {
        return Err(AdminRefusal::EndpointDisabled.into());
    }
    let payload = job_payload(&event_id);
    store::jobs::enqueue(
        tx,
        JobKind::Webhook,
        &e.webhook.id,
        &payload,
        &tx.now_text(),
    )?;
    Ok(Queued {
        event_id,
        status: "queued".into(),
    })
}

/// One endpoint.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Webhook> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    db.read(move |c| Ok(load(c, &id)?.webhook)).await
}

/// Changes an endpoint. Re-enabling clears the reason it was disabled.
pub async fn update(
    svc: &Services,
    p: &Principal,
    allow: Destinations,
    id: String,
    if_match: Option<IfMatch>,
    input: WebhookUpdate,
) -> AppResult<Webhook> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    db.write(move |tx| {
        let mut e = load(tx, &id)?;
        IfMatch::check(if_match.as_ref(), e.webhook.version)?;
        let old = e.webhook.clone();
        let w = &mut e.webhook;
        input.url.apply(&mut w.url);
        if let crate::model::Patch::Set(events) = input.events {
            w.events = events.into_iter().map(|e| e.0).collect();
        }
        set_optional(&mut w.description, input.description);
        input.enabled.apply(&mut w.enabled);
        let mut errs = Vec::new();
        if w.url != old.url {
            check_url(&w.url, allow, &mut errs);
        }
        check_events(&w.events, &mut errs);
        fail_on(errs)?;
        if w.enabled && !old.enabled {
            w.disabled_reason = None;
            e.failing_since = None;
        }
        if unchanged(&old, &e.webhook) {
            return Ok(old);
        }
        e.webhook.version += 1;
        e.webhook.updated_at = Instant(tx.now_text());
        store::webhooks::save(tx, &e)?;
        Ok(e.webhook)
    })
    .await
}

/// Deletes an endpoint, its log and its pending deliveries.
pub async fn delete(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
) -> AppResult<()> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    db.write(move |tx| {
        let e = load(tx, &id)?;
        IfMatch::check(if_match.as_ref(), e.webhook.version)?;
        store::jobs::fail_for_subject(tx, &id, "the endpoint was deleted")?;
        store::webhooks::delete(tx, &id)?;
        Ok(())
    })
    .await
}

/// A new secret; the previous one keeps signing for 24 hours.
pub async fn rotate(svc: &Services, p: &Principal, id: String) -> AppResult<WebhookWithSecret> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    db.write(move |tx| {
        let mut e = load(tx, &id)?;
        let now = tx.clock().now();
        e.previous_secret = Some(std::mem::replace(&mut e.secret, new_secret()));
        e.webhook.previous_secret_until = Some(Instant(crate::clock::format_instant(
            now + ROTATION_OVERLAP,
        )));
        e.webhook.version += 1;
        e.webhook.updated_at = Instant(crate::clock::format_instant(now));
        store::webhooks::save(tx, &e)?;
        Ok(WebhookWithSecret {
            webhook: e.webhook,
            secret: e.secret,
        })
    })
    .await
}

/// Sends a `webhook.test` event to this endpoint only (it is recorded in the feed too).
pub async fn test(svc: &Services, p: &Principal, id: String) -> AppResult<Queued> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    let actor = p.actor.clone();
    db.write(move |tx| {
        let e = load(tx, &id)?;
        // A refusal (disabled endpoint) rolls the recorded event back with it.
        let data = serde_json::json!({"webhook_id": id, "message": "A test event from innkeep.",
            "webhook": snapshot(&e.webhook)});
        let (_, event_id) = store::events::record(tx, &actor, EventType::WebhookTest, &id, &data)?;
        queue_delivery(tx, &e, event_id)
    })
    .await
}

/// A page of an endpoint's delivery log.
pub async fn deliveries(
    svc: &Services,
    p: &Principal,
    id: String,
    statuses: Vec<String>,
    req: PageRequest,
) -> AppResult<Page<Delivery>> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    let wid = id.clone();
    db.read(move |c| load(c, &wid)).await?;
    page(db, req, move |c, after, as_of, limit| {
        store::webhooks::deliveries(c, &id, &statuses, after, as_of, limit)
    })
    .await
}

/// Queues the event of a logged delivery again (same `webhook-id`).
pub async fn redeliver(
    svc: &Services,
    p: &Principal,
    id: String,
    delivery_id: String,
) -> AppResult<Queued> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    db.write(move |tx| {
        let e = load(tx, &id)?;
        let d = store::webhooks::get_delivery(tx, &id, &delivery_id)?
            .ok_or_else(|| AppError::not_found("delivery", &delivery_id))?;
        if store::events::get(tx, &d.event_id)?.is_none() {
            return Err(AdminRefusal::EventExpired.into());
        }
        queue_delivery(tx, &e, d.event_id)
    })
    .await
}

/// A page of endpoints.
pub async fn list(svc: &Services, p: &Principal, req: PageRequest) -> AppResult<Page<Webhook>> {
    p.require(Scope::WebhooksManage)?;
    let db = svc.db();
    page(db, req, store::webhooks::list).await
}

/// A new random signing secret: `whsec_` + base64 of 32 random bytes.
fn new_secret() -> String {
    signature::secret_of(crate::auth::secrets::random_bytes::<32>())
}
