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

use chrono::{DateTime, Utc};
use serde_json::json;

use super::{Handler, signature};
use crate::clock::format_instant;
use crate::db::{Db, Tx};
use crate::domain::enums::DeliveryOutcome;
use crate::domain::webhooks::{DISABLE_AFTER, Destinations, next_delay};
use crate::error::AppResult;
use crate::model::{Delivery, Event, Instant};
use crate::store::{self, jobs::Job, webhooks::Endpoint};

/// The `jobs.kind` of deliveries.
pub const KIND: &str = "webhook";
/// How long a receiver has to answer.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// A delivery job's payload.
pub fn payload(event_id: &str) -> String {
    json!({ "event_id": event_id }).to_string()
}

/// The delivery handler.
pub struct WebhookHandler {
    /// Resolves through `destination::CheckedResolver`, so it only reaches allowed hosts.
    agent: ureq::Agent,
}

impl WebhookHandler {
    /// A handler that may deliver to the destinations `allow` permits.
    pub fn new(allow: Destinations) -> WebhookHandler {
        let config = crate::outbound::agent(TIMEOUT, "webhooks").build();
        let agent = super::destination::agent(config, allow);
        WebhookHandler { agent }
    }
}

/// What one attempt came to.
#[derive(Debug)]
struct Attempt {
    status: Option<u16>,
    retry_after: Option<Duration>,
    error: Option<String>,
    duration_ms: i64,
    /// The destination may never receive webhooks: no retry.
    refused: bool,
}

impl Attempt {
    /// An attempt that sent nothing; `refused` ones are not retried.
    fn not_sent(error: String, refused: bool) -> Attempt {
        Attempt {
            status: None,
            retry_after: None,
            error: Some(error),
            duration_ms: 0,
            refused,
        }
    }
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
        KIND
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
            return db
                .write(move |tx| store::jobs::fail(tx, job.id, "the endpoint was deleted"))
                .await;
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
        db.write(move |tx| record(tx, &job, &webhook_id, &event_id, &event_type, attempt))
            .await
    }
}

/// Disables an endpoint with a reason and fails its pending deliveries.
fn disable(tx: &Tx, e: &mut Endpoint, reason: String) -> AppResult<()> {
    e.webhook.enabled = false;
    e.webhook.disabled_reason = Some(reason.clone());
    e.webhook.version += 1;
    e.webhook.updated_at = Instant(tx.now_text());
    tracing::warn!(webhook = %e.webhook.id, reason = %reason, "webhook endpoint disabled");
    store::jobs::fail_for_subject(tx, &e.webhook.id, &reason)?;
    Ok(())
}

/// Records an attempt: the log row, the job's fate, the endpoint's failure streak.
fn record(
    tx: &Tx,
    job: &Job,
    webhook_id: &str,
    event_id: &str,
    event_type: &str,
    a: Attempt,
) -> AppResult<()> {
    let now: DateTime<Utc> = tx.clock().now();
    let Some(mut endpoint) = store::webhooks::get(tx, webhook_id)? else {
        return store::jobs::fail(tx, job.id, "the endpoint was deleted");
    };
    let succeeded = a.status.is_some_and(|s| (200..300).contains(&s));
    let gone = a.status == Some(410);
    let (was_failing, was_enabled) = (endpoint.failing_since.is_some(), endpoint.webhook.enabled);
    let mut next = None;
    let status = if succeeded {
        store::jobs::finish(tx, job.id)?;
        endpoint.failing_since = None;
        DeliveryOutcome::Succeeded
    } else {
        let delay = if a.refused || gone {
            None
        } else {
            a.retry_after
                .or_else(|| next_delay(job.attempts as u32, rand::random::<f64>() * 2.0 - 1.0))
        };
        let error = a.error.clone().unwrap_or_default();
        let since = endpoint
            .failing_since
            .get_or_insert_with(|| format_instant(now))
            .clone();
        if gone && endpoint.webhook.enabled {
            disable(
                tx,
                &mut endpoint,
                format!("The receiver answered 410 Gone at {}.", format_instant(now)),
            )?;
        } else if endpoint.webhook.enabled
            && DateTime::parse_from_rfc3339(&since).is_ok_and(|s| {
                now - s.with_timezone(&Utc)
                    >= chrono::Duration::from_std(DISABLE_AFTER).unwrap_or_default()
            })
        {
            disable(
                tx,
                &mut endpoint,
                format!("Every delivery has failed since {since} (five days)."),
            )?;
        }
        match delay.filter(|_| endpoint.webhook.enabled) {
            Some(d) => {
                let at = format_instant(now + chrono::Duration::from_std(d).unwrap_or_default());
                store::jobs::retry_at(tx, job.id, &at, &error)?;
                next = Some(Instant(at));
                DeliveryOutcome::Retrying
            }
            None => {
                store::jobs::fail(tx, job.id, &error)?;
                DeliveryOutcome::Failed
            }
        }
    };
    // The endpoint row changes only when its failure streak starts or ends, or it is disabled.
    if endpoint.failing_since.is_some() != was_failing || endpoint.webhook.enabled != was_enabled {
        store::webhooks::save(tx, &endpoint)?;
    }
    let delivery = Delivery {
        id: crate::ids::new("dlv"),
        event_id: event_id.to_string(),
        event_type: event_type.to_string(),
        attempt: job.attempts,
        status,
        response_status: a.status.map(i64::from),
        duration_ms: Some(a.duration_ms),
        error: a.error,
        next_attempt_at: next,
        created_at: Instant(format_instant(now)),
    };
    store::webhooks::insert_delivery(tx, &endpoint.webhook.id, job.id, &delivery)
}
