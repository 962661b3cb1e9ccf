//! Managing endpoints: URL and event-filter validation, refused destinations, updates and
//! deletion, and pruning of finished jobs and old delivery-log rows.

use std::time::Duration;

use serde_json::json;

use crate::support::receiver::Receiver;
use crate::support::webhooks::{advance, log, register, wait_log};
use crate::support::{Spawn, day, spawn_app};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread")]
async fn urls_and_event_filters_are_validated() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"url": "http://user:pw@example.com/in", "events": ["*"]}),
            "url",
            "invalid_url",
        ),
        (
            json!({"url": "ftp://example.com/in", "events": ["*"]}),
            "url",
            "invalid_url",
        ),
        (json!({"url": "/in", "events": ["*"]}), "url", "invalid_url"),
        (
            json!({"url": "http://169.254.169.254/latest/meta-data", "events": ["*"]}),
            "url",
            "destination_refused",
        ),
        (
            json!({"url": "http://[fe80::1]/in", "events": ["*"]}),
            "url",
            "destination_refused",
        ),
        (
            json!({"url": "https://example.com/in", "events": ["guest.nope"]}),
            "events[0]",
            "unknown_event",
        ),
        (
            json!({"url": "https://example.com/in", "events": ["*", "nope.*"]}),
            "events[1]",
            "unknown_event",
        ),
        (
            json!({"url": "https://example.com/in", "events": []}),
            "events",
            "required",
        ),
    ];
    for (body, field, code) in cases {
        let r = app
            .post("/v1/webhooks", body.clone())
            .await
            .problem(422, "validation_failed");
        assert!(
            r.fields().contains(&(field.to_string(), code.to_string())),
            "{body}: {:?}",
            r.fields()
        );
    }
    assert!(
        app.all("/v1/webhooks").await.is_empty(),
        "nothing was written"
    );
    let lan =
        json!({"url": "http://192.168.1.20:8080/pos", "events": ["reservation.*", "invoice.paid"]});
    app.post("/v1/webhooks", lan.clone()).await.expect(201);

    let dir = tempfile::tempdir().unwrap();
    let strict = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .config(|c| {
            c.webhooks.allow_private = false;
            c.webhooks.allow_loopback = false;
        })
        .start()
        .await;
    let r = strict
        .post("/v1/webhooks", lan)
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        r.fields(),
        vec![("url".to_string(), "destination_refused".to_string())]
    );
    // A name is checked where it leads at every delivery.
    let rx = Receiver::start().await;
    let url = format!("http://localhost:{}/in", rx.addr.port());
    let (id, _) = register(&strict, &url, &["guest.created"]).await;
    strict.guest("A", "One").await;
    let l = wait_log(&strict, &id, 1).await;
    assert_eq!(l[0]["status"], "failed");
    assert!(
        l[0]["error"].as_str().unwrap().contains("127.0.0.1")
            || l[0]["error"].as_str().unwrap().contains("::1"),
        "{}",
        l[0]
    );
    assert!(rx.hits().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn changes_take_effect_and_delete_removes_the_endpoint_and_its_log() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    let (id, _) = register(&app, &rx.url("/first"), &["guest.created"]).await;
    app.guest("A", "One").await;
    rx.wait_for(1, WAIT).await;
    let path = format!("/v1/webhooks/{id}");
    let etag = app.get(&path).await.header("etag").unwrap();
    let changed = app
        .put_if(
            &path,
            &etag,
            json!({"url": rx.url("/second"), "events": ["reservation.*"], "description": null}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["events"], json!(["reservation.*"]));
    assert!(changed.body["description"].is_null());
    app.put_if(&path, &etag, json!({"enabled": false}))
        .await
        .problem(412, "precondition_failed");
    app.put(&path, json!({"url": "http://a:b@example.com"}))
        .await
        .problem(422, "validation_failed");
    app.guest("B", "Two").await;
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("C", "Three").await;
    app.reserve(&g, &rt, &day(1), &day(2)).await.expect(201);
    let hits = rx.wait_for(2, WAIT).await;
    assert_eq!(
        (hits[1].path.as_str(), hits[1].json()["type"].as_str()),
        ("/second", Some("reservation.created"))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.hits().len(), 2, "guests are no longer sent");

    // Redelivering an event that is no longer kept is refused with the reason.
    let first = log(&app, &id).await[0].clone();
    let event = first["event_id"].as_str().unwrap().to_string();
    app.db()
        .write(move |tx| Ok(tx.execute("DELETE FROM events WHERE id = ?1", [&event])?))
        .await
        .unwrap();
    app.post(
        &format!(
            "{path}/deliveries/{}/redeliver",
            first["id"].as_str().unwrap()
        ),
        json!({}),
    )
    .await
    .problem(409, "event_expired");

    app.send(reqwest::Method::DELETE, &path, None, &[])
        .await
        .expect(204);
    app.get(&path).await.problem(404, "not_found");
    app.get(&format!("{path}/deliveries"))
        .await
        .problem(404, "not_found");
    app.post(&format!("{path}/test"), json!({}))
        .await
        .problem(404, "not_found");
    assert!(app.all("/v1/webhooks").await.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn finished_jobs_and_old_log_rows_are_pruned_with_the_events() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    let (id, _) = register(&app, &rx.url("/in"), &["guest.created"]).await;
    app.guest("A", "One").await;
    wait_log(&app, &id, 1).await;
    let retention = Duration::from_secs(30 * 24 * 3600);
    let kept = innkeep::service::maintenance::prune(app.db(), retention)
        .await
        .unwrap();
    assert_eq!(kept.jobs, 0, "recent rows stay");
    advance(&app, retention + Duration::from_secs(3600));
    let pruned = innkeep::service::maintenance::prune(app.db(), retention)
        .await
        .unwrap();
    assert_eq!(
        (pruned.jobs, pruned.events),
        (2, 1),
        "the job, its log row and the event"
    );
    assert!(log(&app, &id).await.is_empty());
}
