//! Webhook helpers: registering an endpoint, reading its delivery log, checking a
//! signature, moving the clock.

use std::time::Duration;

use serde_json::{Value, json};

use super::receiver::Hit;
use super::{TestApp, eventually};

const WAIT: Duration = Duration::from_secs(15);

pub async fn register(app: &TestApp, url: &str, events: &[&str]) -> (String, String) {
    let r = app
        .post(
            "/v1/webhooks",
            json!({"url": url, "events": events, "description": "test"}),
        )
        .await
        .expect(201);
    assert!(r.header("location").is_some());
    (r.id(), r.body["secret"].as_str().unwrap().to_string())
}

pub async fn wait_log(app: &TestApp, webhook: &str, n: usize) -> Vec<Value> {
    eventually(WAIT, &format!("{n} log rows"), || async {
        let l = log(app, webhook).await;
        if l.len() >= n { Ok(l) } else { Err(l) }
    })
    .await
}

/// Whether `hit` carries a valid signature by `secret` and was fresh when it arrived (within
/// the Standard Webhooks library's five minutes): the library signs, we compare. A run
/// longer than five minutes checks its first deliveries more than five minutes after they
/// came, which `verify`, judging freshness by the clock at checking time, refuses.
pub fn verified_on_arrival(hit: &Hit, secret: &str) -> bool {
    let (id, ts) = (hit.header("webhook-id"), hit.header("webhook-timestamp"));
    let Ok(ts) = ts.parse::<i64>() else {
        return false;
    };
    let Ok(expected) = standardwebhooks::Webhook::new(secret)
        .unwrap()
        .sign(&id, ts, &hit.body)
    else {
        return false;
    };
    let fresh = (hit.received - ts).abs() <= 300;
    let Some((_, expected)) = expected.split_once(',') else {
        return false;
    };
    fresh
        && hit
            .header("webhook-signature")
            .split(' ')
            .filter_map(|s| s.split_once(','))
            .any(|(v, sig)| v == "v1" && sig == expected)
}

pub fn verifies(hit: &Hit, secret: &str) -> bool {
    standardwebhooks::Webhook::new(secret)
        .unwrap()
        .verify(&hit.body, &hit.headers)
        .is_ok()
}

/// Moves the server's clock forward (retry schedules run on it).
pub fn advance(app: &TestApp, by: Duration) {
    let now = app.clock().now();
    app.clock()
        .set_now(now + chrono::Duration::from_std(by).unwrap());
}

pub async fn log(app: &TestApp, webhook: &str) -> Vec<Value> {
    app.all(&format!("/v1/webhooks/{webhook}/deliveries")).await
}
