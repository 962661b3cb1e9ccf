//! Webhook failure handling (410, Retry-After, the retry schedule, five days of failures),
//! `/metrics` and the `innkeep jobs` commands.

use std::process::Command;
use std::time::Duration;

use chrono::{DateTime, Utc};
use innkeep::domain::webhooks::RETRY_DELAYS;
use serde_json::{Value, json};

use crate::support::receiver::Receiver;
use crate::support::webhooks::{advance, log, register, verifies, wait_log};
use crate::support::{TestApp, eventually, spawn_app};

const WAIT: Duration = Duration::from_secs(15);

fn at(v: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(v.as_str().expect("a timestamp"))
        .unwrap()
        .with_timezone(&Utc)
}

/// Seconds from a log row's attempt to the next one it scheduled.
fn scheduled_after(row: &Value) -> i64 {
    (at(&row["next_attempt_at"]) - at(&row["created_at"])).num_seconds()
}

async fn wait_disabled(app: &TestApp, webhook: &str) -> Value {
    eventually(WAIT, "the endpoint should be disabled", || async {
        let w = app
            .get(&format!("/v1/webhooks/{webhook}"))
            .await
            .expect(200)
            .body;
        if w["enabled"] == false { Ok(w) } else { Err(w) }
    })
    .await
}

fn metric(text: &str, series: &str) -> i64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("{series} missing from:\n{text}"))
        .parse()
        .unwrap()
}

/// Runs the `innkeep` binary on the server's data directory.
fn cli(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_innkeep"))
        .args(args)
        .env("INNKEEP_DATA_DIR", app.dir.as_ref().unwrap().path())
        .env_remove("INNKEEP_CONFIG")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn gone_disables_the_endpoint_and_enabling_it_again_clears_the_reason() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    rx.answer(&[(410, None)]);
    let (id, _) = register(&app, &rx.url("/in"), &["guest.*"]).await;
    app.guest("A", "One").await;
    let l = wait_log(&app, &id, 1).await;
    assert_eq!(
        (l[0]["status"].as_str(), l[0]["response_status"].as_i64()),
        (Some("failed"), Some(410))
    );
    assert!(l[0]["next_attempt_at"].is_null());
    let w = wait_disabled(&app, &id).await;
    assert!(
        w["disabled_reason"].as_str().unwrap().contains("410"),
        "{w}"
    );

    app.guest("B", "Two").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(rx.hits().len(), 1, "a disabled endpoint gets nothing");
    let etag = app
        .get(&format!("/v1/webhooks/{id}"))
        .await
        .header("etag")
        .unwrap();
    let on = app
        .put_if(
            &format!("/v1/webhooks/{id}"),
            &etag,
            json!({"enabled": true}),
        )
        .await
        .expect(200);
    assert!(on.body["disabled_reason"].is_null() && on.body["enabled"] == true);
    app.guest("C", "Three").await;
    let hits = rx.wait_for(2, WAIT).await;
    assert_eq!(hits[1].json()["data"]["first_name"], "C");
}

#[tokio::test(flavor = "multi_thread")]
async fn retry_after_is_honoured_on_429_and_503_and_metrics_show_the_queue() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    rx.answer(&[(429, Some("120")), (503, Some("30"))]);
    let (id, _) = register(&app, &rx.url("/in"), &["guest.created"]).await;
    app.guest("A", "One").await;
    let l = wait_log(&app, &id, 1).await;
    assert_eq!(
        (l[0]["status"].as_str(), l[0]["response_status"].as_i64()),
        (Some("retrying"), Some(429))
    );
    assert_eq!(scheduled_after(&l[0]), 120);

    advance(&app, Duration::from_secs(100));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(rx.hits().len(), 1, "not before Retry-After");
    let m = app.metrics().await;
    assert_eq!(metric(&m, "innkeep_queue_depth"), 1);
    assert!(metric(&m, "innkeep_queue_oldest_pending_seconds") >= 100);
    assert_eq!(
        metric(&m, "innkeep_webhook_deliveries{outcome=\"retrying\"}"),
        1
    );

    advance(&app, Duration::from_secs(21));
    let l = wait_log(&app, &id, 2).await;
    assert_eq!(l[1]["response_status"], 503);
    assert_eq!(scheduled_after(&l[1]), 30);
    advance(&app, Duration::from_secs(31));
    let l = wait_log(&app, &id, 3).await;
    assert_eq!(
        (l[2]["status"].as_str(), l[2]["attempt"].as_i64()),
        (Some("succeeded"), Some(3))
    );

    let m = app.metrics().await;
    assert_eq!(metric(&m, "innkeep_queue_depth"), 0);
    assert_eq!(metric(&m, "innkeep_queue_oldest_pending_seconds"), 0);
    assert_eq!(
        metric(&m, "innkeep_webhook_deliveries{outcome=\"succeeded\"}"),
        1
    );
    assert_eq!(
        metric(&m, "innkeep_webhook_deliveries{outcome=\"retrying\"}"),
        2
    );
    assert_eq!(
        metric(&m, "innkeep_webhook_deliveries{outcome=\"failed\"}"),
        0
    );
    assert!(m.contains("# TYPE innkeep_webhook_deliveries gauge"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_schedule_runs_out_then_the_cli_lists_and_retries_the_job() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    rx.answer(&[(500, None); 8]);
    let (id, secret) = register(&app, &rx.url("/in"), &["guest.created"]).await;
    app.guest("A", "One").await;
    for n in 1..=RETRY_DELAYS.len() {
        wait_log(&app, &id, n).await;
        advance(&app, Duration::from_secs(11 * 3600));
    }
    let l = wait_log(&app, &id, 8).await;
    for (i, row) in l[..7].iter().enumerate() {
        assert_eq!(
            (row["status"].as_str(), row["attempt"].as_i64()),
            (Some("retrying"), Some(i as i64 + 1))
        );
        let base = RETRY_DELAYS[i].as_secs() as f64;
        let got = scheduled_after(row) as f64;
        assert!(
            (got - base).abs() <= base * 0.1 + 1.0,
            "attempt {}: {got} s, not about {base} s",
            i + 1
        );
    }
    assert_eq!(
        (l[7]["status"].as_str(), l[7]["next_attempt_at"].is_null()),
        (Some("failed"), true)
    );
    assert_eq!(
        app.get(&format!("/v1/webhooks/{id}")).await.body["enabled"],
        true,
        "28 hours is not five days"
    );

    let out = cli(&app, &["jobs", "list", "--status", "failed", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jobs: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(jobs.as_array().unwrap().len(), 1);
    let job = &jobs[0];
    assert_eq!(
        (
            job["kind"].as_str(),
            job["subject_id"].as_str(),
            job["attempts"].as_i64()
        ),
        (Some("webhook"), Some(id.as_str()), Some(8))
    );
    assert!(job["last_error"].as_str().unwrap().contains("500"));
    let job_id = job["id"].to_string();

    let out = cli(&app, &["jobs", "retry", &job_id]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 failed job"));
    let l = wait_log(&app, &id, 9).await;
    assert_eq!(l[8]["status"], "succeeded");
    assert!(verifies(&rx.hits()[8], &secret));

    let again = cli(&app, &["jobs", "retry", &job_id]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("only failed jobs"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let bad = cli(&app, &["jobs", "list", "--status", "stuck"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("pending"));
}

#[tokio::test(flavor = "multi_thread")]
async fn five_days_of_failures_disable_the_endpoint_with_the_reason() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    rx.answer(&[(500, None); 50]);
    let (id, _) = register(&app, &rx.url("/in"), &["guest.created"]).await;
    app.guest("A", "One").await;
    wait_log(&app, &id, 1).await;
    advance(&app, Duration::from_secs(5 * 24 * 3600 + 60));
    let w = wait_disabled(&app, &id).await;
    assert!(
        w["disabled_reason"].as_str().unwrap().contains("five days"),
        "{w}"
    );
    let l = log(&app, &id).await;
    assert_eq!(l.last().unwrap()["status"], "failed");

    let out = cli(&app, &["webhooks", "list", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["disabled_reason"], w["disabled_reason"]);
}
