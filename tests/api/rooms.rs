//! Room types, rooms and availability.

use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn room_type_happy_path() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/room-types",
            json!({"code": "DBL", "name": "Double", "description": "Sea view", "max_occupancy": 2, "base_rate": 12000}),
        )
        .await
        .expect(201);
    let id = created.id();
    assert!(id.starts_with("rt_"));
    assert_eq!(
        created.body["currency"], "EUR",
        "defaults to the property's currency"
    );
    assert_eq!(
        created.header("location"),
        Some(format!("/v1/room-types/{id}"))
    );
    assert_eq!(created.header("etag").as_deref(), Some("\"1\""));

    let got = app.get(&format!("/v1/room-types/{id}")).await.expect(200);
    assert_eq!(got.body, created.body);
    let changed = app
        .put_if(
            &format!("/v1/room-types/{id}"),
            "\"1\"",
            json!({"base_rate": 13000}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["base_rate"], 13000);
    assert_eq!(changed.body["version"], 2);
    let list = app.get("/v1/room-types").await.expect(200);
    assert_eq!(list.body["data"][0]["id"], id.as_str());
    assert!(list.body["next_cursor"].is_null());
}

#[tokio::test]
async fn room_type_rules() {
    let app = spawn_app().await;
    let r = app
        .post("/v1/room-types", json!({"code": "dbl x", "name": "", "max_occupancy": 21, "base_rate": -1, "currency": "eur", "extra": 1}))
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    for f in [
        "code",
        "name",
        "max_occupancy",
        "base_rate",
        "currency",
        "extra",
    ] {
        assert!(
            fields.contains(&f.to_string()),
            "{f} missing from {fields:?}"
        );
    }
    let r = app
        .post("/v1/room-types", json!({}))
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        r.fields().iter().filter(|(_, c)| c == "required").count(),
        4
    );

    app.room_type("DBL", 2).await;
    let dup = app
        .post(
            "/v1/room-types",
            json!({"code": "DBL", "name": "x", "max_occupancy": 2, "base_rate": 1}),
        )
        .await;
    dup.problem(409, "already_exists");
}

#[tokio::test]
async fn rooms_and_their_rules() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app
        .post(
            "/v1/rooms",
            json!({"number": "101", "room_type_id": rt, "floor": 1}),
        )
        .await
        .expect(201);
    assert_eq!(room.body["housekeeping_status"], "clean");
    assert_eq!(room.body["occupied"], false);
    let id = room.id();

    app.post("/v1/rooms", json!({"number": "101", "room_type_id": rt}))
        .await
        .problem(409, "already_exists");
    let r = app
        .post(
            "/v1/rooms",
            json!({"number": "102", "room_type_id": "rt_nope"}),
        )
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        r.fields(),
        vec![("room_type_id".into(), "not_found".into())]
    );
    let r = app
        .post(
            "/v1/rooms",
            json!({"number": "103", "room_type_id": rt, "housekeeping_status": "sparkling"}),
        )
        .await
        .problem(422, "validation_failed");
    assert_eq!(r.fields()[0].1, "invalid_choice");

    let ooo = app
        .put(
            &format!("/v1/rooms/{id}"),
            json!({"housekeeping_status": "out_of_order"}),
        )
        .await
        .expect(200);
    assert_eq!(ooo.body["housekeeping_status"], "out_of_order");
    let dirty = app
        .get(&format!(
            "/v1/rooms?housekeeping_status=out_of_order,dirty&room_type_id={rt}"
        ))
        .await
        .expect(200);
    assert_eq!(dirty.body["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_room_keeps_its_type_while_a_stay_is_assigned() {
    let app = spawn_app().await;
    let (dbl, sgl) = (app.room_type("DBL", 2).await, app.room_type("SGL", 1).await);
    let room = app.room("101", &dbl).await;
    let g = app.guest("Anna", "Rossi").await;
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": g, "room_type_id": dbl, "room_id": room, "arrival": day(3), "departure": day(5), "adults": 1}),
    )
    .await
    .expect(201);
    app.put(&format!("/v1/rooms/{room}"), json!({"room_type_id": sgl}))
        .await
        .problem(409, "room_in_use");
}

#[tokio::test]
async fn availability_counts_rooms_bookings_and_out_of_order() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let rooms = [
        app.room("1", &rt).await,
        app.room("2", &rt).await,
        app.room("3", &rt).await,
    ];
    app.put(
        &format!("/v1/rooms/{}", rooms[2]),
        json!({"housekeeping_status": "out_of_order"}),
    )
    .await
    .expect(200);
    let g = app.guest("Anna", "Rossi").await;
    app.reserve(&g, &rt, &day(1), &day(3)).await.expect(201);

    let a = app
        .get(&format!(
            "/v1/availability?from={}&to={}&room_type_id={rt}",
            day(0),
            day(3)
        ))
        .await
        .expect(200);
    let nights: Vec<(String, i64, i64, i64, i64)> = a.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["date"].as_str().unwrap().to_string(),
                n["total"].as_i64().unwrap(),
                n["out_of_order"].as_i64().unwrap(),
                n["booked"].as_i64().unwrap(),
                n["available"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        nights,
        vec![
            (day(0), 3, 1, 0, 2),
            (day(1), 3, 1, 1, 1),
            (day(2), 3, 1, 1, 1),
            (day(3), 3, 1, 0, 2),
        ]
    );
    app.get(&format!("/v1/availability?from={}&to={}", day(3), day(1)))
        .await
        .problem(400, "bad_request");
    app.get("/v1/availability?room_type_id=rt_nope")
        .await
        .problem(404, "not_found");
    let default_window = app.get("/v1/availability").await.expect(200);
    assert_eq!(default_window.body["data"].as_array().unwrap().len(), 30);
}
