//! Prices as hotels set them: rate plans (own and derived), the price calendar with its
//! restrictions, offers for a stay, and reservations booked on a plan (priced night by
//! night, refused with the offers' codes unless overridden, re-priced only where new), each
//! endpoint's refusals included.

use serde_json::{Value, json};

use crate::support::plans::plans;
use crate::support::{TestApp, day, spawn_app};

async fn calendar(app: &TestApp, plan: &str, from: i64, to: i64) -> Vec<Value> {
    let path = format!(
        "/v1/rates?rate_plan_id={plan}&from={}&to={}",
        day(from),
        day(to)
    );
    app.get(&path).await.expect(200).body["data"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn plans_derive_their_prices_and_refuse_what_cannot_be() {
    let app = spawn_app().await;
    let (rt, flex, nr) = plans(&app, 1).await;
    // Every refusal names its field or its code.
    let dup = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "FLEX", "name": {"en": "Again"}}),
        )
        .await
        .problem(409, "already_exists");
    assert!(dup.text.contains("FLEX"), "{}", dup.text);
    let r = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "X", "name": {"en": "X"}, "parent_id": nr,
                   "derivation": {"kind": "amount", "value": -500}, "default_price": 100}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert!(fields.contains(&"parent_id".to_string()), "{fields:?}");
    assert!(fields.contains(&"default_price".to_string()), "{fields:?}");
    let r = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "Y", "name": {"en": "Y"},
                   "derivation": {"kind": "amount", "value": -500},
                   "cancellation": {"fee": "percent"}}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["derivation", "cancellation.percent"]);
    // A parent cannot become derived while plans derive from it.
    let other = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "BASE", "name": {"en": "Base"}}),
        )
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/rate-plans/{flex}"),
        json!({"parent_id": other, "derivation": {"kind": "amount", "value": 100},
               "default_price": null}),
    )
    .await
    .problem(409, "rate_plan_has_children");
    // If-Match guards a change.
    let got = app.get(&format!("/v1/rate-plans/{nr}")).await.expect(200);
    let etag = got.header("etag").unwrap();
    app.put_if(
        &format!("/v1/rate-plans/{nr}"),
        "\"9\"",
        json!({"sold": false}),
    )
    .await
    .problem(412, "precondition_failed");
    let changed = app
        .put_if(
            &format!("/v1/rate-plans/{nr}"),
            &etag,
            json!({"name": {"en": "Non-refundable", "it": "Non rimborsabile"}}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["name"]["it"], "Non rimborsabile");
    assert_eq!(changed.body["version"], 2);
    let listed = app.all("/v1/rate-plans").await;
    assert_eq!(listed.len(), 3);

    // Weekend prices on the parent; the derived plan follows, 10 % less to the cent.
    let weekend = app
        .put(
            "/v1/rates",
            json!({"rate_plan_id": flex, "from": day(0), "to": day(13),
                   "weekdays": ["fri", "sat"], "price": 12345}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(weekend["data"].as_array().unwrap().len(), 14);
    let (own, derived) = (
        calendar(&app, &flex, 0, 13).await,
        calendar(&app, &nr, 0, 13).await,
    );
    for (f, n) in own.iter().zip(derived) {
        let date: chrono::NaiveDate = f["date"].as_str().unwrap().parse().unwrap();
        let weekend = matches!(
            chrono::Datelike::weekday(&date),
            chrono::Weekday::Fri | chrono::Weekday::Sat
        );
        assert_eq!(f["price"], if weekend { 12345 } else { 10000 });
        assert_eq!(
            n["price"],
            if weekend { 11111 } else { 9000 },
            "11110.5 rounds up"
        );
    }
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": nr, "from": day(0), "to": day(1), "price": 1}),
    )
    .await
    .problem(422, "validation_failed");
    let r = app
        .put(
            "/v1/rates",
            json!({"rate_plan_id": flex, "from": day(5), "to": day(1)}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        ["to", "price"],
        "a backward range, and nothing to change"
    );
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(0), "to": day(800), "stop_sell": true}),
    )
    .await
    .problem(422, "validation_failed");
    // null takes a night back to the plan's default.
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(0), "to": day(13), "price": null}),
    )
    .await
    .expect(200);
    let back = calendar(&app, &flex, 0, 13).await;
    assert!(back.iter().all(|n| n["price"] == 10000));
    let events = app.all_events().await;
    let changed: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "rates.changed")
        .collect();
    assert_eq!(changed.len(), 2, "refused edits record nothing");
    assert_eq!(changed[0]["data"]["weekdays"], json!(["fri", "sat"]));
    assert_eq!(changed[0]["data"]["fields"], json!(["price"]));
}

#[tokio::test]
async fn offers_price_the_party_and_say_why_a_plan_cannot_be_booked() {
    let app = spawn_app().await;
    let (_, flex, nr) = plans(&app, 1).await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": nr, "from": day(20), "to": day(20),
               "min_stay_arrival": 3, "closed_to_arrival": true}),
    )
    .await
    .expect(200);
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(21), "to": day(21), "stop_sell": true}),
    )
    .await
    .expect(200);
    let path = format!(
        "/v1/offers?arrival={}&departure={}&adults=3&children=2&children_ages=1,7",
        day(20),
        day(22)
    );
    let offers = app.get(&path).await.expect(200).body;
    let data = offers["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    let flex_offer = data.iter().find(|o| o["rate_plan_code"] == "FLEX").unwrap();
    // 100.00 for two, 30.00 the third adult, nothing under 3, 15.00 the seven-year-old.
    assert_eq!(flex_offer["nights"][0]["price"], 14500);
    assert_eq!(flex_offer["total"], 29000);
    assert_eq!(flex_offer["bookable"], false);
    assert_eq!(flex_offer["reasons"][0]["code"], "stop_sell");
    assert_eq!(
        flex_offer["reasons"][0]["params"]["nights"],
        json!([day(21)])
    );
    assert_eq!(flex_offer["free_cancellation_until"], day(17));
    assert_eq!(flex_offer["deposit"]["amount"], 8700, "30 % of 290.00");
    assert_eq!(flex_offer["deposit"]["due"], day(6));
    let nr_offer = data.iter().find(|o| o["rate_plan_code"] == "NR").unwrap();
    let codes: Vec<&str> = nr_offer["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["closed_to_arrival", "min_stay", "max_occupancy"]);
    assert!(
        nr_offer["free_cancellation_until"].is_null(),
        "non-refundable"
    );
    let min_stay = &nr_offer["reasons"][1];
    assert_eq!(min_stay["params"]["nights"], 3);
    assert_eq!(
        min_stay["detail"],
        "This plan needs a stay of at least 3 nights."
    );
    // A bad query names its field.
    let r = app
        .get(&format!(
            "/v1/offers?arrival={}&departure={}&children=1&children_ages=4,5",
            day(3),
            day(3)
        ))
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["departure", "children_ages"]);
}

#[tokio::test]
async fn a_booking_on_a_plan_is_priced_night_by_night_and_refused_as_an_offer_would_be() {
    let app = spawn_app().await;
    let (rt, flex, nr) = plans(&app, 2).await;
    let guest = app.guest("Ana", "Kovač").await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(2), "to": day(2), "price": 15000,
               "min_stay_arrival": 2}),
    )
    .await
    .expect(200);
    let book = |plan: &str, from: i64, to: i64| {
        json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": plan,
               "arrival": day(from), "departure": day(to), "adults": 2})
    };
    let refused = app
        .post("/v1/reservations", book(&flex, 2, 3))
        .await
        .problem(409, "min_stay");
    assert_eq!(refused.body["params"]["nights"], 2, "{}", refused.text);
    // Staff may book it anyway, saying why; the history keeps it.
    let mut body = book(&flex, 2, 3);
    body["override_reason"] = json!("Regular guest, one night only");
    let overridden = app.post("/v1/reservations", body).await.expect(201).body;
    let id = overridden["id"].as_str().unwrap();
    let history = app.all(&format!("/v1/reservations/{id}/history")).await;
    let last = history.last().unwrap();
    assert_eq!(last["type"], "reservation.restriction_overridden");
    assert_eq!(
        last["changes"],
        json!([{"field": "override_reason", "from": null, "to": "Regular guest, one night only"}])
    );
    // Priced night by night: 150.00 the first night, 100.00 the next.
    let r = app
        .post("/v1/reservations", book(&flex, 2, 4))
        .await
        .expect(201)
        .body;
    assert_eq!(r["rate_plan_id"], flex.as_str());
    assert_eq!(
        r["nights"],
        json!([{"date": day(2), "price": 15000}, {"date": day(3), "price": 10000}])
    );
    assert_eq!(r["nightly_rate"], 15000, "the first night's");
    let id = r["id"].as_str().unwrap().to_string();
    // A price change afterwards leaves the booking alone; a longer stay keeps the nights
    // it had and prices only the new one.
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(2), "to": day(5), "price": 20000}),
    )
    .await
    .expect(200);
    let longer = app
        .put(
            &format!("/v1/reservations/{id}"),
            json!({"departure": day(5)}),
        )
        .await
        .expect(200)
        .body;
    let prices: Vec<i64> = longer["nights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["price"].as_i64().unwrap())
        .collect();
    assert_eq!(prices, [15000, 10000, 20000]);
    // Checked out, the invoice lists the runs of equal prices.
    app.set_today(2);
    let room = app.get("/v1/rooms").await.body["data"][0]["id"].clone();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": id, "room_id": room}),
    )
    .await
    .expect(200);
    app.set_today(5);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": id, "payment_method": "card"}),
        )
        .await
        .expect(200)
        .body;
    let lines: Vec<(i64, i64)> = out["invoice"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "accommodation")
        .map(|l| {
            (
                l["quantity"].as_i64().unwrap(),
                l["unit_price"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(lines, [(1, 15000), (1, 10000), (1, 20000)]);
    assert_eq!(out["invoice"]["totals"]["gross"], 45000);
    // A plan of another room type, or none at all, is refused at the field.
    let other_rt = app.room_type("DBL", 2).await;
    let mut body = book(&nr, 10, 12);
    body["room_type_id"] = json!(other_rt);
    let r = app
        .post("/v1/reservations", body)
        .await
        .problem(422, "validation_failed");
    assert_eq!(r.fields()[0].0, "rate_plan_id");
    // A plan off sale is refused unless overridden.
    app.put(&format!("/v1/rate-plans/{nr}"), json!({"sold": false}))
        .await
        .expect(200);
    app.post("/v1/reservations", book(&nr, 10, 12))
        .await
        .problem(409, "not_sold");
}
