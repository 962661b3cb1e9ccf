//! The extras catalogue: created, changed, refused where it must be, and put on a folio
//! from the catalogue with as many units as the stay makes, billed with the stay.

use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn extras_go_on_the_folio_by_their_unit_and_are_billed_with_the_stay() {
    let app = spawn_app().await;
    let rt = app.room_type("TWN", 3).await;
    let room = app.room("301", &rt).await;
    let guest = app.guest("Luca", "Bianchi").await;
    let extra = |code: &str, name: &str, price: i64, unit: &str| {
        json!({"code": code, "name": {"en": name, "it": format!("{name} (it)")},
               "price": price, "tax_rate": 1000, "unit": unit})
    };
    let breakfast = app
        .post(
            "/v1/extras",
            extra("BRK", "Breakfast", 1200, "per_person_night"),
        )
        .await
        .expect(201)
        .id();
    let parking = app
        .post("/v1/extras", extra("PARK", "Parking", 1500, "per_night"))
        .await
        .expect(201)
        .id();
    let late = app
        .post(
            "/v1/extras",
            extra("LATE", "Late check-out", 3000, "per_stay"),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/extras", extra("PARK", "Again", 1, "per_stay"))
        .await
        .problem(409, "already_exists");
    let r = app
        .post(
            "/v1/extras",
            json!({"code": "x y", "name": {}, "price": -1, "unit": "per_week"}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["code", "name.en", "price", "unit"]);
    assert_eq!(app.all("/v1/extras").await.len(), 3);

    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(3), "adults": 2, "nightly_rate": 9000}),
        )
        .await
        .expect(201)
        .id();
    let path = format!("/v1/reservations/{res}/extras");
    let order = |extra: &str, count: Option<i64>| {
        let mut body = json!({"extra_id": extra});
        if let Some(c) = count {
            body["count"] = json!(c);
        }
        app.post(&path, body)
    };
    let b = order(&breakfast, None).await.expect(201).body;
    assert_eq!(
        (b["quantity"].as_i64(), b["unit_price"].as_i64()),
        (Some(6), Some(1200))
    );
    assert_eq!(
        b["description"], "Breakfast",
        "the property's language (English here)"
    );
    assert_eq!(b["service_date"], day(0), "the arrival, before check-in");
    let p = order(&parking, Some(2)).await.expect(201).body;
    assert_eq!(p["quantity"], 6, "two places, three nights");
    order(&late, None).await.expect(201);
    // An extra no longer offered is refused at its field.
    app.put(&format!("/v1/extras/{late}"), json!({"active": false}))
        .await
        .expect(200);
    let r = order(&late, None).await.problem(422, "validation_failed");
    assert_eq!(r.fields()[0].0, "extra_id");
    // Billed with the stay: 270.00 + 72.00 + 90.00 + 30.00.
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);
    app.set_today(3);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "cash"}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(
        out["invoice"]["totals"]["gross"],
        27000 + 7200 + 9000 + 3000
    );
    order(&breakfast, None)
        .await
        .problem(409, "invalid_state_transition");
}

#[tokio::test]
async fn an_included_breakfast_is_split_onto_its_own_tax_rate() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let guest = app.guest("Ana", "Horvat").await;
    let plan = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "BB", "name": {"en": "Bed and breakfast"},
                   "default_price": 10000, "breakfast": {"price": 1200, "tax_rate": 1000}}),
        )
        .await
        .expect(201)
        .id();
    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
                   "rate_plan_id": plan, "arrival": day(0), "departure": day(2), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);
    app.set_today(2);
    let inv = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "card"}),
        )
        .await
        .expect(200)
        .body["invoice"]
        .clone();
    let lines: Vec<(String, i64, i64, i64)> = inv["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["description"].as_str().unwrap().to_string(),
                l["quantity"].as_i64().unwrap(),
                l["unit_price"].as_i64().unwrap(),
                l["tax_rate"].as_i64().unwrap(),
            )
        })
        .collect();
    // Two nights at 76.00 for the room, four breakfasts at 12.00 at 10 %: still 200.00.
    assert_eq!(lines[0].1, 2);
    assert_eq!(lines[0].2, 7600);
    assert_eq!(
        lines[1],
        (
            "Breakfast included in the rate: 4 person-nights".to_string(),
            4,
            1200,
            1000
        )
    );
    assert_eq!(inv["totals"]["gross"], 20000);
}

#[tokio::test]
async fn a_booking_takes_its_extras_with_it_and_lists_them() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let guest = app.guest("Ana", "Marić").await;
    let breakfast = app
        .post(
            "/v1/extras",
            json!({"code": "BRK", "name": {"en": "Breakfast"}, "price": 1200,
                   "tax_rate": 1300, "unit": "per_person_night"}),
        )
        .await
        .expect(201)
        .id();
    let parking = app
        .post(
            "/v1/extras",
            json!({"code": "PARK", "name": {"en": "Parking"}, "price": 1000, "unit": "per_night"}),
        )
        .await
        .expect(201)
        .id();
    let booking = |extras: serde_json::Value| {
        json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": day(3),
               "departure": day(5), "adults": 2, "nightly_rate": 9000, "extras": extras})
    };
    // An unknown extra refuses the whole booking, at its field: nothing is written.
    let refused = app
        .post(
            "/v1/reservations",
            booking(json!([{"extra_id": breakfast}, {"extra_id": "ext_nope"}])),
        )
        .await
        .problem(422, "validation_failed");
    assert_eq!(refused.fields()[0].0, "extras[1].extra_id");
    assert!(
        app.all("/v1/reservations").await.is_empty(),
        "no partial write"
    );

    let r = app
        .post(
            "/v1/reservations",
            booking(json!([{"extra_id": breakfast}])),
        )
        .await
        .expect(201)
        .body;
    let id = r["id"].as_str().unwrap();
    assert_eq!(r["extras"][0]["extra_id"], breakfast.as_str(), "{r}");
    assert_eq!(r["extras"][0]["quantity"], 4, "two persons, two nights");
    assert_eq!(r["extras"][0]["gross_amount"], 4800);
    app.post(
        &format!("/v1/reservations/{id}/extras"),
        json!({"extra_id": parking}),
    )
    .await
    .expect(201);
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    let codes: Vec<(&str, i64)> = r["extras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["extra_id"].as_str().unwrap(),
                e["gross_amount"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [(breakfast.as_str(), 4800), (parking.as_str(), 2000)]
    );
    // A charge typed by hand is on the folio, not among the extras.
    app.post(
        &format!("/v1/reservations/{id}/charges"),
        json!({"description": "Flowers", "quantity": 1, "unit_price": 2500}),
    )
    .await
    .expect(201);
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["extras"].as_array().unwrap().len(), 2);
}
