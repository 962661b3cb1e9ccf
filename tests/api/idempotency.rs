//! Idempotency-Key on POST.

use std::sync::Arc;

use reqwest::Method;
use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn a_retry_replays_the_first_answer() {
    let app = spawn_app().await;
    let body = json!({"first_name": "Anna", "last_name": "Rossi"});
    let key = [("idempotency-key", "guest-1")];
    let first = app
        .send(Method::POST, "/v1/guests", Some(body.clone()), &key)
        .await
        .expect(201);
    assert!(first.header("idempotent-replayed").is_none());
    let again = app
        .send(Method::POST, "/v1/guests", Some(body.clone()), &key)
        .await
        .expect(201);
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("etag"), first.header("etag"));
    assert_eq!(again.header("location"), first.header("location"));
    assert_eq!(app.all("/v1/guests").await.len(), 1);

    let other = json!({"first_name": "Anna", "last_name": "Bianchi"});
    app.send(Method::POST, "/v1/guests", Some(other.clone()), &key)
        .await
        .problem(422, "idempotency_key_reused");
    app.send(Method::POST, "/v1/room-types", Some(body), &key)
        .await
        .problem(422, "idempotency_key_reused");
    app.send(
        Method::POST,
        "/v1/guests",
        Some(other),
        &[("idempotency-key", "guest-2")],
    )
    .await
    .expect(201);
    let long = "k".repeat(256);
    app.send(
        Method::POST,
        "/v1/guests",
        Some(json!({})),
        &[("idempotency-key", long.as_str())],
    )
    .await
    .problem(400, "bad_request");
}

#[tokio::test]
async fn validation_failures_replay_but_conflicts_may_be_retried() {
    let app = spawn_app().await;
    let key = [("idempotency-key", "bad-1")];
    app.send(
        Method::POST,
        "/v1/guests",
        Some(json!({"first_name": "A"})),
        &key,
    )
    .await
    .problem(422, "validation_failed");
    let again = app
        .send(
            Method::POST,
            "/v1/guests",
            Some(json!({"first_name": "A"})),
            &key,
        )
        .await;
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    again.problem(422, "validation_failed");

    let rt = app.room_type("SGL", 1).await;
    let room = app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let taken = app
        .reserve(&g, &rt, &day(1), &day(2))
        .await
        .expect(201)
        .id();
    let body = json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room, "arrival": day(1), "departure": day(2), "adults": 1});
    let key = [("idempotency-key", "res-1")];
    app.send(Method::POST, "/v1/reservations", Some(body.clone()), &key)
        .await
        .problem(409, "no_availability");
    app.put(
        &format!("/v1/reservations/{taken}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let retried = app
        .send(Method::POST, "/v1/reservations", Some(body), &key)
        .await
        .expect(201);
    assert!(retried.header("idempotent-replayed").is_none());
}

#[tokio::test]
async fn concurrent_duplicates_create_one_reservation() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    for n in 0..5 {
        app.room(&n.to_string(), &rt).await;
    }
    let g = app.guest("Anna", "Rossi").await;
    let body = json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(3), "departure": day(4), "adults": 1});
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let (app, body) = (app.clone(), body.clone());
            tokio::spawn(async move {
                app.send(
                    Method::POST,
                    "/v1/reservations",
                    Some(body),
                    &[("idempotency-key", "same-key")],
                )
                .await
            })
        })
        .collect();
    let mut ids = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        match r.status.as_u16() {
            201 => ids.push(r.id()),
            409 => assert_eq!(r.body["code"], "idempotency_in_progress"),
            s => panic!("unexpected {s}: {}", r.body),
        }
    }
    ids.dedup();
    assert!(ids.len() <= 1, "{ids:?}");
    assert_eq!(app.all("/v1/reservations").await.len(), 1);
    let settled = app
        .send(
            Method::POST,
            "/v1/reservations",
            Some(body),
            &[("idempotency-key", "same-key")],
        )
        .await
        .expect(201);
    assert_eq!(
        settled.header("idempotent-replayed").as_deref(),
        Some("true")
    );
}
