//! What each night sold is kept as a running total with every write of a reservation; after
//! each kind of write (a stay at one rate and one at a rate plan's changing prices, a move
//! of dates, a new price, a cancellation, a check-in, a check-out, a no-show) the totals
//! equal a fresh count of the reservations made in SQL, and the occupancy report reads them;
//! so do the running totals of the bookings made each day, which the bookings report reads
//! and a new time zone counts again; the bookings report sums a rate plan's changing prices
//! as the stays hold them.

use serde_json::json;

use crate::support::{TestApp, day, spawn_app};

/// The nights whose running totals differ from a fresh count (none when they agree).
async fn differences(app: &TestApp) -> Vec<innkeep::store::nights_sold::Difference> {
    app.db()
        .read(innkeep::store::nights_sold::differences)
        .await
        .unwrap()
}

/// Asserts the running totals (nights sold and bookings made) agree with a fresh count
/// after `what`.
async fn agree(app: &TestApp, what: &str) {
    assert_eq!(differences(app).await, vec![], "after {what}");
    let made = app
        .db()
        .read(innkeep::store::bookings_made::differences)
        .await
        .unwrap();
    assert_eq!(made, vec![], "bookings made after {what}");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_write_keeps_the_nights_sold_equal_to_a_fresh_count() {
    let app = spawn_app().await;
    let (rt, flex, _) = crate::support::plans::plans(&app, 4).await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(3), "to": day(4), "price": 15500}),
    )
    .await
    .expect(200);
    let guest = app.guest("Ana", "Horvat").await;
    let book = |body: serde_json::Value| {
        let app = &app;
        async move { app.post("/v1/reservations", body).await.expect(201).id() }
    };
    let priced = book(json!({"primary_guest_id": guest, "room_type_id": rt,
        "rate_plan_id": flex, "arrival": day(2), "departure": day(6), "adults": 2}))
    .await;
    let stay = app.get(&format!("/v1/reservations/{priced}")).await.body;
    let prices: Vec<i64> = stay["nights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["price"].as_i64().unwrap())
        .collect();
    assert_eq!(prices, [10000, 15500, 15500, 10000], "prices that change");
    let flat = book(json!({"primary_guest_id": guest, "room_type_id": rt,
        "arrival": day(1), "departure": day(4), "adults": 1, "nightly_rate": 9000}))
    .await;
    agree(&app, "two new stays").await;
    let report = app
        .get(&format!(
            "/v1/reports/occupancy?from={}&to={}",
            day(0),
            day(7)
        ))
        .await
        .expect(200)
        .body;
    let sold: Vec<(i64, i64)> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rooms_sold"].as_i64().unwrap(),
                r["room_revenue"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sold,
        [
            (0, 0),
            (1, 9000),
            (2, 19000),
            (2, 24500),
            (1, 15500),
            (1, 10000),
            (0, 0)
        ],
        "the report reads the running totals"
    );

    let put = |id: &str, body: serde_json::Value| {
        let (app, path) = (&app, format!("/v1/reservations/{id}"));
        async move { app.put(&path, body).await.expect(200) }
    };
    put(&priced, json!({"departure": day(8)})).await;
    agree(&app, "a stay made longer at the plan's prices").await;
    put(&flat, json!({"arrival": day(0), "departure": day(2)})).await;
    agree(&app, "a stay moved").await;
    put(&flat, json!({"nightly_rate": 9900})).await;
    agree(&app, "a new nightly rate").await;
    let room = app.get("/v1/rooms").await.expect(200).body["data"][0]["id"].clone();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": flat, "room_id": room}),
    )
    .await
    .expect(200);
    agree(&app, "a check-in").await;
    app.post(
        "/v1/check-out",
        json!({"reservation_id": flat, "payment_method": "cash"}),
    )
    .await
    .expect(200);
    agree(&app, "a check-out").await;
    put(&priced, json!({"status": "cancelled"})).await;
    agree(&app, "a cancellation").await;

    let missed = book(json!({"primary_guest_id": guest, "room_type_id": rt,
        "arrival": day(0), "departure": day(2), "adults": 1, "nightly_rate": 8000}))
    .await;
    put(&missed, json!({"status": "no_show"})).await;
    agree(&app, "a no-show").await;

    // The report says what the stays themselves say they sold.
    let (mut expected, mut booked) = ((0, 0), (0, 0));
    for id in [&priced, &flat, &missed] {
        let r = app.get(&format!("/v1/reservations/{id}")).await.body;
        for n in r["nights"].as_array().unwrap() {
            booked.0 += 1;
            booked.1 += n["price"].as_i64().unwrap();
        }
        if ["confirmed", "checked_in", "checked_out"].contains(&r["status"].as_str().unwrap()) {
            for n in r["nights"].as_array().unwrap() {
                expected.0 += 1;
                expected.1 += n["price"].as_i64().unwrap();
            }
        }
    }
    let after = app
        .get(&format!(
            "/v1/reports/occupancy?from={}&to={}",
            day(-1),
            day(9)
        ))
        .await
        .expect(200)
        .body;
    assert_eq!(after["total"]["rooms_sold"], expected.0, "{after}");
    assert_eq!(after["total"]["room_revenue"], expected.1, "{after}");
    assert!(expected.0 > 0, "the stay checked out still counts");

    // The bookings made today count every night booked, at the plan's prices too.
    let made = app
        .get(&format!(
            "/v1/reports/bookings?from={}&to={}",
            day(0),
            day(1)
        ))
        .await
        .expect(200)
        .body;
    let direct = &made["rows"][0];
    assert_eq!(
        (
            direct["bookings"].as_i64(),
            direct["nights"].as_i64(),
            direct["room_revenue"].as_i64()
        ),
        (Some(3), Some(booked.0), Some(booked.1)),
        "{made}"
    );
    assert_eq!(direct["cancelled"], 1);
    assert_eq!(direct["no_shows"], 1);

    // Fourteen hours ahead of UTC, a booking made from 10:00 UTC on was made on the next
    // local day (the test's server starts in UTC): counted again, each is on its local day,
    // and none is lost.
    let zone = "Pacific/Kiritimati";
    app.put("/v1/settings", json!({"time_zone": zone}))
        .await
        .expect(200);
    agree(&app, "a new time zone").await;
    let mut local = std::collections::BTreeMap::new();
    for id in [&priced, &flat, &missed] {
        let r = app.get(&format!("/v1/reservations/{id}")).await.body;
        let at = r["created_at"].as_str().unwrap();
        let (made_on, _) = innkeep::clock::local_time(at, zone).unwrap();
        *local.entry(made_on.to_string()).or_insert(0) += 1;
    }
    let span = |from: i64, to: i64| {
        let app = &app;
        async move {
            let path = format!("/v1/reports/bookings?from={}&to={}", day(from), day(to));
            app.get(&path).await.expect(200).body["rows"][0]["bookings"].as_i64()
        }
    };
    assert_eq!(span(-1, 3).await, Some(3), "every booking still counts");
    for d in 0..2 {
        let expected = local.get(&day(d)).copied();
        assert_eq!(span(d, d + 1).await, expected, "made on {} there", day(d));
    }
}
