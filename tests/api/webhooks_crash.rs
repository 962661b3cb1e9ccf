//! A crash between the receiver's 2xx and our record of it: the delivery is repeated with
//! the same `webhook-id`, never lost. Runs the real binary and kills it with SIGKILL.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::binary::{
    cli_token, free_port, get_json, serve, serve_log, terminate, wait_healthy,
};
use crate::support::receiver::Receiver;
use crate::support::webhooks::verifies;

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread")]
async fn a_crash_after_the_receivers_2xx_gives_a_duplicate_never_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let child = Arc::new(Mutex::new(serve(dir.path(), port)));
    wait_healthy(port).await;
    let client = reqwest::Client::new();
    let token = cli_token(dir.path(), port, "guests:write webhooks:manage").await;
    let post = |path: &str, body: Value| {
        client
            .post(format!("{base}{path}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };

    // The receiver gets the delivery, and before it can answer 200 the server is killed
    // (SIGKILL: no shutdown, no chance to record the outcome).
    let rx = Receiver::start().await;
    let victim = child.clone();
    rx.on_first_hit(move || {
        let mut c = victim.lock().unwrap();
        c.kill().unwrap();
        c.wait().unwrap();
    });
    let hook: Value = post(
        "/v1/webhooks",
        json!({"url": rx.url("/in"), "events": ["guest.created"]}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    let (id, secret) = (
        hook["id"].as_str().unwrap().to_string(),
        hook["secret"].as_str().unwrap().to_string(),
    );
    let guest = post(
        "/v1/guests",
        json!({"first_name": "Anna", "last_name": "Rossi"}),
    )
    .await
    .unwrap();
    assert_eq!(guest.status(), 201);
    rx.wait_for(1, WAIT).await;
    assert!(
        child.lock().unwrap().try_wait().unwrap().is_some(),
        "the server is dead"
    );

    let mut child = serve(dir.path(), port);
    wait_healthy(port).await;
    let hits = rx.wait_for(2, WAIT).await;
    assert_eq!(
        hits[0].header("webhook-id"),
        hits[1].header("webhook-id"),
        "the duplicate keeps its webhook-id"
    );
    assert!(verifies(&hits[0], &secret) && verifies(&hits[1], &secret));
    // The receiver has the second hit before the server has recorded its 200: wait for it.
    let url = format!("{base}/v1/webhooks/{id}/deliveries");
    let log = crate::support::eventually(WAIT, "the delivery is recorded", || async {
        let log = get_json(&client, &url, &token).await;
        if log["data"].as_array().is_some_and(|rows| !rows.is_empty()) {
            Ok(log)
        } else {
            Err(log)
        }
    })
    .await;
    let rows = log["data"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "the killed attempt left no log row: {log}");
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["attempt"].as_i64()),
        (Some("succeeded"), Some(2))
    );
    assert_eq!(rows[0]["event_id"], hits[1].header("webhook-id"));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(rx.hits().len(), 2, "delivered, then left alone");
    let status = terminate(&mut child);
    assert!(
        status.success(),
        "exit status {status}: {}",
        serve_log(dir.path())
    );
}
