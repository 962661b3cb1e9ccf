//! Recording webhook delivery attempts: the queue's webhook handler sends, and this records
//! what came of it in one write transaction: the delivery log row, the job retried on the
//! schedule of `domain::webhooks` or failed, and the endpoint disabled after 410 Gone or five
//! days of failures. Also the queue's side of fan-out: each delivery job's payload.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::clock::format_instant;
use crate::db::{Db, Tx};
use crate::domain::enums::DeliveryOutcome;
use crate::domain::webhooks::{DISABLE_AFTER, next_delay};
use crate::error::AppResult;
use crate::model::{Delivery, Instant};
use crate::store::{self, jobs::Job, webhooks::Endpoint};

/// A delivery job's payload.
pub fn payload(event_id: &str) -> String {
    json!({ "event_id": event_id }).to_string()
}

/// What one attempt came to.
#[derive(Debug)]
pub struct Attempt {
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    /// How long the receiver asked us to wait (429, 503).
    pub retry_after: Option<Duration>,
    /// What went wrong.
    pub error: Option<String>,
    /// How long the attempt took.
    pub duration_ms: i64,
    /// The destination may never receive webhooks: no retry.
    pub refused: bool,
}

impl Attempt {
    /// An attempt that sent nothing; `refused` ones are not retried.
    pub fn not_sent(error: String, refused: bool) -> Attempt {
        Attempt {
            status: None,
            retry_after: None,
            error: Some(error),
            duration_ms: 0,
            refused,
        }
    }
}

/// Fails a job that cannot run, with the reason.
pub async fn fail(db: &Db, job_id: i64, reason: &str) -> AppResult<()> {
    let reason = reason.to_string();
    db.write(move |tx| store::jobs::fail(tx, job_id, &reason))
        .await
}

/// Records an attempt of `job` to deliver `event_id` to `webhook_id`.
pub async fn record(
    db: &Db,
    job: Job,
    webhook_id: String,
    event_id: String,
    event_type: String,
    attempt: Attempt,
) -> AppResult<()> {
    db.write(move |tx| record_in(tx, &job, &webhook_id, &event_id, &event_type, attempt))
        .await
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
fn record_in(
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
