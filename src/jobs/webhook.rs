//! Webhook delivery: one attempt per claimed job, Standard Webhooks headers, 15 s timeout.
//!
//! Any 2xx is success. 410 Gone disables the endpoint. 429 and 503 honour `Retry-After`.
//! Other failures retry on the schedule of `domain::webhooks`; after the last attempt the
//! delivery is `failed`. An endpoint whose deliveries have all failed for five days is
//! disabled, and the reason is recorded. Every attempt is a row of the delivery log. The
//! `webhook-id` is the event id, on every attempt and every redelivery.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant as Clock};

use chrono::Utc;
use serde_json::json;

use super::Handler;
use crate::clock::format_instant;
use crate::db::Db;
use crate::domain::enums::JobKind;
use crate::domain::signature;
use crate::domain::webhooks::Destinations;
use crate::error::AppResult;
use crate::model::Event;
use crate::service::deliveries::{self, Attempt};
use crate::store::{self, jobs::Job};

/// How long a receiver has to answer.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// The delivery handler.
pub struct WebhookHandler {
    /// Resolves through `destination::CheckedResolver`, so it only reaches allowed hosts.
    agent: ureq::Agent,
}

impl WebhookHandler {
    /// A handler that may deliver to the destinations `allow` permits, with up to `workers`
    /// deliveries at once; as many connections per receiver stay open between deliveries.
    /// Through `proxy` (`[webhooks] proxy`) when one is configured: the receiver's name is
    /// still resolved and checked here, and the proxy is asked for that checked address.
    pub fn new(allow: Destinations, workers: usize, proxy: Option<&ureq::Proxy>) -> WebhookHandler {
        let config = crate::outbound::agent(TIMEOUT, "webhooks")
            .max_idle_connections_per_host(workers.max(1))
            .proxy(proxy.cloned())
            .build();
        let exempt = proxy.map(|p| p.host().to_string());
        let agent = super::destination::agent(config, allow, exempt);
        WebhookHandler { agent }
    }
}

/// The proxy webhooks go through, from `[webhooks] proxy` (an `http://host:port` URL): the
/// receiver's name is resolved locally (and checked) before the proxy is asked for it.
pub fn proxy(url: &str) -> Result<ureq::Proxy, String> {
    let parsed = ureq::Proxy::new(url).map_err(|e| format!("webhooks.proxy: {e}"))?;
    let mut b = ureq::Proxy::builder(parsed.protocol())
        .host(parsed.host())
        .port(parsed.port())
        .resolve_target(true);
    if let Some(u) = parsed.username() {
        b = b.username(u);
    }
    if let Some(p) = parsed.password() {
        b = b.password(p);
    }
    b.build().map_err(|e| format!("webhooks.proxy: {e}"))
}

/// Checks what can be checked of the URL itself; where its host leads is checked by the
/// agent's resolver, at the lookup the connection uses (see `destination`).
fn check_url(url: &str) -> Result<(), String> {
    let uri: poem::http::Uri = url
        .parse()
        .map_err(|_| "the URL is not valid".to_string())?;
    uri.host()
        .ok_or_else(|| "the URL has no host".to_string())?;
    Ok(())
}

fn send(agent: &ureq::Agent, url: &str, headers: &[(&str, String)], body: Vec<u8>) -> Attempt {
    let started = Clock::now();
    let elapsed = |s: Clock| s.elapsed().as_millis() as i64;
    if let Err(why) = check_url(url) {
        return Attempt::not_sent(why, true);
    }
    let mut req = agent.post(url);
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    match req.send(&body[..]) {
        Ok(resp) => {
            let status = resp.status().as_u16();
            let retry = if status == 429 || status == 503 {
                crate::outbound::retry_after(&resp)
            } else {
                None
            };
            let error =
                (!resp.status().is_success()).then(|| format!("the receiver answered {status}"));
            Attempt {
                status: Some(status),
                retry_after: retry,
                error,
                duration_ms: elapsed(started),
                refused: false,
            }
        }
        Err(e) => match super::destination::refused(&e) {
            Some(why) => Attempt::not_sent(why.to_string(), true),
            None if matches!(e, ureq::Error::HostNotFound) => {
                Attempt::not_sent(format!("cannot resolve the host of {url}"), false)
            }
            None => Attempt {
                status: None,
                retry_after: None,
                error: Some(e.to_string()),
                duration_ms: elapsed(started),
                refused: false,
            },
        },
    }
}

impl Handler for WebhookHandler {
    fn kind(&self) -> &'static str {
        JobKind::Webhook.as_str()
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.deliver(db, job).await {
                tracing::error!(error = %e, "recording a webhook delivery failed; the job will run again");
            }
        })
    }
}

impl WebhookHandler {
    async fn deliver(&self, db: &Db, job: Job) -> AppResult<()> {
        let event_id = serde_json::from_str::<serde_json::Value>(&job.payload)
            .ok()
            .and_then(|v| v["event_id"].as_str().map(str::to_string))
            .unwrap_or_default();
        let (webhook_id, eid) = (job.subject_id.clone(), event_id.clone());
        let (endpoint, event, feed_id) = db
            .read(move |c| {
                Ok((
                    store::webhooks::get(c, &webhook_id)?,
                    store::events::get(c, &eid)?,
                    store::events::feed_id(c)?,
                ))
            })
            .await?;
        let Some(endpoint) = endpoint else {
            return deliveries::fail(db, job.id, "the endpoint was deleted").await;
        };
        let not_sent = |error: &str| Attempt::not_sent(error.into(), true);
        let (attempt, event) = match event {
            event if !endpoint.webhook.enabled => (not_sent("the endpoint is disabled"), event),
            None => (not_sent("the event is no longer kept"), None),
            Some(event) => {
                let now = db.clock().now();
                let body = json!({"id": event.id, "type": event.kind, "timestamp": event.occurred_at.0, "data": event.data, "sequence": event.sequence, "feed_id": feed_id, "actor": event.actor})
                    .to_string()
                    .into_bytes();
                let mut secrets = vec![endpoint.secret.as_str()];
                if let (Some(prev), Some(until)) = (
                    &endpoint.previous_secret,
                    &endpoint.webhook.previous_secret_until,
                ) && until.0 > format_instant(now)
                {
                    secrets.push(prev);
                }
                // Receivers check the timestamp against their own clock: use the wall clock.
                let ts = Utc::now().timestamp();
                let headers = vec![
                    ("content-type", "application/json".to_string()),
                    ("webhook-id", event.id.clone()),
                    ("webhook-timestamp", ts.to_string()),
                    (
                        "webhook-signature",
                        signature::header(&secrets, &event.id, ts, &body),
                    ),
                ];
                let (agent, url) = (self.agent.clone(), endpoint.webhook.url.clone());
                let attempt =
                    tokio::task::spawn_blocking(move || send(&agent, &url, &headers, body))
                        .await
                        .map_err(crate::error::AppError::internal)?;
                (attempt, Some(event))
            }
        };
        let event_type = event.map(|e: Event| e.kind).unwrap_or_default();
        let webhook_id = endpoint.webhook.id;
        deliveries::record(db, job, webhook_id, event_id, event_type, attempt).await
    }
}
