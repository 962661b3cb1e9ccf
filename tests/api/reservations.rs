//! Reservations: creation, availability, transitions, concurrency.

use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn reservation_happy_path() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 3).await;
    let room = app.room("101", &rt).await;
    let (anna, bob) = (
        app.guest("Anna", "Rossi").await,
        app.guest("Bob", "Li").await,
    );
    let created = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": anna, "guest_ids": [bob, anna], "room_type_id": rt, "room_id": room,
                   "arrival": day(10), "departure": day(13), "adults": 2, "children": 1, "source": "phone",
                   "notes": "Crib please"}),
        )
        .await
        .expect(201);
    let id = created.id();
    let r = &created.body;
    assert!(id.starts_with("res_"));
    assert_eq!(r["status"], "confirmed");
    assert_eq!(
        r["guest_ids"],
        json!([anna, bob]),
        "primary first, no duplicate"
    );
    assert_eq!(r["night_count"], 3);
    assert_eq!(
        r["nights"].as_array().unwrap().len(),
        3,
        "one price per night"
    );
    assert_eq!(
        r["nights"][0]["price"], r["nightly_rate"],
        "without a plan, at the rate"
    );
    assert_eq!(
        r["nightly_rate"], 10000,
        "defaults to the room type's base rate"
    );
    assert_eq!(r["currency"], "EUR");
    assert_eq!(r["code"].as_str().unwrap().len(), 6);
    assert_eq!(
        created.header("location"),
        Some(format!("/v1/reservations/{id}"))
    );

    assert_eq!(
        app.get(&format!("/v1/reservations/{id}"))
            .await
            .expect(200)
            .body,
        created.body
    );
    let moved = app
        .put_if(
            &format!("/v1/reservations/{id}"),
            "\"1\"",
            json!({"departure": day(14), "notes": null}),
        )
        .await
        .expect(200);
    assert_eq!(moved.body["night_count"], 4);
    assert!(moved.body["notes"].is_null());
    assert_eq!(moved.header("etag").as_deref(), Some("\"2\""));
}

#[tokio::test]
async fn reservation_rules_list_every_failing_field() {
    let app = spawn_app().await;
    let rt = app.room_type("SGL", 1).await;
    let g = app.guest("Anna", "Rossi").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(5), "departure": day(5), "adults": 0,
                   "source": "pigeon"}),
        )
        .await
        .problem(422, "validation_failed");
    let fields = r.fields();
    assert!(
        fields.contains(&("departure".into(), "must_be_after".into())),
        "{fields:?}"
    );
    assert!(
        fields.contains(&("adults".into(), "out_of_range".into())),
        "{fields:?}"
    );
    assert!(
        fields.contains(&("source".into(), "invalid_choice".into())),
        "{fields:?}"
    );

    let too_long = app
        .reserve(&g, &rt, &day(1), &day(400))
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        too_long.fields(),
        vec![("departure".into(), "too_long".into())]
    );

    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": "gst_missing", "guest_ids": ["gst_other"], "room_type_id": "rt_missing",
                   "room_id": "rm_missing", "arrival": day(1), "departure": day(2), "adults": 1, "children": 1}),
        )
        .await
        .problem(422, "validation_failed");
    let fields = r.fields();
    for f in [
        "primary_guest_id",
        "guest_ids[1]",
        "room_type_id",
        "room_id",
    ] {
        assert!(
            fields
                .iter()
                .any(|(name, code)| name == f && code == "not_found"),
            "{f}: {fields:?}"
        );
    }
    let crowd = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(1), "departure": day(2), "adults": 1, "children": 1}),
        )
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        crowd.fields(),
        vec![("children".into(), "exceeds_max_occupancy".into())]
    );
    assert!(
        app.all("/v1/reservations").await.is_empty(),
        "no partial writes"
    );
}

#[tokio::test]
async fn full_nights_are_named_and_rooms_never_double_booked() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let (r1, r2) = (app.room("1", &rt).await, app.room("2", &rt).await);
    let g = app.guest("Anna", "Rossi").await;
    let book = |room: &str, a: i64, d: i64| json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room, "arrival": day(a), "departure": day(d), "adults": 1});
    app.post("/v1/reservations", book(&r1, 1, 4))
        .await
        .expect(201);
    app.post("/v1/reservations", book(&r1, 3, 5))
        .await
        .problem(409, "room_unavailable");
    app.post("/v1/reservations", book(&r1, 4, 6))
        .await
        .expect(201);
    app.post("/v1/reservations", book(&r2, 2, 3))
        .await
        .expect(201);
    let full = app
        .reserve(&g, &rt, &day(0), &day(4))
        .await
        .problem(409, "no_availability");
    assert_eq!(full.body["nights"], json!([day(2)]));
    app.put(
        &format!("/v1/rooms/{r2}"),
        json!({"housekeeping_status": "out_of_order"}),
    )
    .await
    .expect(200);
    let full = app
        .reserve(&g, &rt, &day(5), &day(6))
        .await
        .problem(409, "no_availability");
    assert_eq!(
        full.body["nights"],
        json!([day(5)]),
        "out-of-order rooms are not sold"
    );
}

#[tokio::test]
async fn cancellation_and_no_show_follow_the_state_machine() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;

    let future = app
        .reserve(&g, &rt, &day(3), &day(5))
        .await
        .expect(201)
        .id();
    let path = format!("/v1/reservations/{future}");
    app.put(&path, json!({"status": "no_show"}))
        .await
        .problem(409, "too_early");
    app.put(&path, json!({"status": "checked_in"}))
        .await
        .problem(409, "invalid_state_transition");
    let cancelled = app
        .put(&path, json!({"status": "cancelled"}))
        .await
        .expect(200);
    assert_eq!(cancelled.body["status"], "cancelled");
    assert!(
        cancelled.body["cancelled_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    app.put(&path, json!({"status": "confirmed"}))
        .await
        .problem(409, "invalid_state_transition");
    app.put(&path, json!({"notes": "too late"}))
        .await
        .problem(409, "invalid_state_transition");
    app.put(&path, json!({"status": "cancelled"}))
        .await
        .expect(200);
    // The cancelled stay no longer holds the room.
    app.reserve(&g, &rt, &day(3), &day(5)).await.expect(201);

    let today = app
        .reserve(&g, &rt, &day(0), &day(1))
        .await
        .expect(201)
        .id();
    let no_show = app
        .put(
            &format!("/v1/reservations/{today}"),
            json!({"status": "no_show"}),
        )
        .await
        .expect(200);
    assert_eq!(no_show.body["status"], "no_show");
    app.put(
        &format!("/v1/reservations/{today}"),
        json!({"status": "cancelled"}),
    )
    .await
    .problem(409, "invalid_state_transition");

    let machines = app.get("/v1/meta/state-machines").await.expect(200);
    let m = &machines.body["data"][0];
    assert_eq!(m["resource"], "reservation");
    assert_eq!(m["transitions"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn changing_dates_rechecks_availability_excluding_itself() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let a = app
        .reserve(&g, &rt, &day(1), &day(3))
        .await
        .expect(201)
        .id();
    let b = app
        .reserve(&g, &rt, &day(5), &day(7))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{a}"),
        json!({"departure": day(5)}),
    )
    .await
    .expect(200);
    let clash = app
        .put(
            &format!("/v1/reservations/{a}"),
            json!({"departure": day(6)}),
        )
        .await
        .problem(409, "no_availability");
    assert_eq!(clash.body["nights"], json!([day(5)]));
    app.put(
        &format!("/v1/reservations/{b}"),
        json!({"arrival": day(6), "departure": day(5)}),
    )
    .await
    .problem(422, "validation_failed");
    assert_eq!(
        app.get(&format!("/v1/reservations/{b}")).await.body["arrival"],
        day(5)
    );
}

#[tokio::test]
async fn list_filters_combine() {
    let app = spawn_app().await;
    let (dbl, sgl) = (app.room_type("DBL", 2).await, app.room_type("SGL", 1).await);
    for (n, rt) in [("1", &dbl), ("2", &dbl), ("3", &sgl)] {
        app.room(n, rt).await;
    }
    let (anna, bob) = (
        app.guest("Anna", "Rossi").await,
        app.guest("Bob", "Li").await,
    );
    let r1 = app
        .reserve(&anna, &dbl, &day(1), &day(3))
        .await
        .expect(201)
        .id();
    let r2 = app
        .reserve(&bob, &sgl, &day(2), &day(4))
        .await
        .expect(201)
        .id();
    let r3 = app
        .reserve(&anna, &dbl, &day(10), &day(12))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{r3}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);

    let ids = |v: Vec<serde_json::Value>| -> Vec<String> {
        v.iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        ids(app.all("/v1/reservations").await),
        vec![r1.clone(), r2.clone(), r3.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!("/v1/reservations?from={}&to={}", day(3), day(3)))
            .await),
        vec![r2.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!(
                "/v1/reservations?arrival_from={}&arrival_to={}",
                day(1),
                day(2)
            ))
            .await),
        vec![r1.clone(), r2.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!("/v1/reservations?departure_to={}", day(3)))
            .await),
        vec![r1.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!("/v1/reservations?departure_from={}", day(4)))
            .await),
        vec![r2.clone(), r3.clone()]
    );
    assert_eq!(
        ids(app.all("/v1/reservations?status=cancelled").await),
        vec![r3.clone()]
    );
    assert_eq!(
        ids(app
            .all("/v1/reservations?status=confirmed,checked_in")
            .await),
        vec![r1.clone(), r2.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!("/v1/reservations?room_type_id={sgl}"))
            .await),
        vec![r2.clone()]
    );
    assert_eq!(
        ids(app
            .all(&format!(
                "/v1/reservations?guest_id={anna}&status=confirmed"
            ))
            .await),
        vec![r1.clone()]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rate_set_by_hand_keeps_its_reason_in_the_history() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let g = app.guest("Ana", "Horvat").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(1),
                "departure": day(3), "adults": 1, "nightly_rate": 8000,
                "rate_note": "Returning guest"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(r["rate_note"], "Returning guest");
    let id = r["id"].as_str().unwrap();
    let long = "x".repeat(201);
    let bad = app
        .put(
            &format!("/v1/reservations/{id}"),
            json!({"rate_note": long}),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert_eq!(bad.body["errors"][0]["field"], "rate_note");
    let changed = app
        .put(
            &format!("/v1/reservations/{id}"),
            json!({"nightly_rate": 7000, "rate_note": "Long-stay discount"}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(changed["rate_note"], "Long-stay discount");
    let cleared = app
        .put(
            &format!("/v1/reservations/{id}"),
            json!({"rate_note": null}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(cleared["rate_note"], serde_json::Value::Null);
    let history = app
        .get(&format!("/v1/reservations/{id}/history"))
        .await
        .expect(200)
        .body;
    let text = history.to_string();
    assert!(
        text.contains("Long-stay discount") && text.contains("rate_note"),
        "{text}"
    );
}
