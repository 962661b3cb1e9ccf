//! Italy's monthly movement of guests (ISTAT C/59) against the test's own count: a family
//! from Bologna (two guests, three nights), a guest from Germany whose stay runs into the
//! next month, a booking never checked in (not counted) and a guest with no residence (named
//! `unknown`); as JSON, as CSV, and on the desk's page in Italian (axe, a screenshot).

use serde_json::{Value, json};

use crate::support::desk::{Browser, staff};
use crate::support::stay::hotel;
use crate::support::{TestApp, spawn_app};

async fn guest(app: &TestApp, body: Value) -> String {
    app.post("/v1/guests", body).await.expect(201).id()
}

async fn stay(
    app: &TestApp,
    rt: &str,
    room: &str,
    guests: &[&str],
    dates: (&str, &str),
    check_in: bool,
) {
    app.clock()
        .set_now(format!("{}T09:00:00Z", dates.0).parse().unwrap());
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guests[0], "guest_ids": guests, "room_type_id": rt,
                   "room_id": room, "arrival": dates.0, "departure": dates.1,
                   "adults": guests.len()}),
        )
        .await
        .expect(201)
        .id();
    if check_in {
        app.post("/v1/check-in", json!({"reservation_id": id}))
            .await
            .expect(200);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_months_movement_counts_every_guest_by_residence() {
    let app = spawn_app().await;
    let h = hotel(&app, 3).await;
    let bologna = json!({"country": "IT", "region": "BO", "line1": "Via Roma 3",
                         "city": "Bologna", "postal_code": "40121"});
    let mario = guest(
        &app,
        json!({"first_name": "Mario", "last_name": "Rossi", "address": bologna}),
    )
    .await;
    let anna = guest(
        &app,
        json!({"first_name": "Anna", "last_name": "Rossi", "address": bologna}),
    )
    .await;
    let hans = guest(
        &app,
        json!({"first_name": "Hans", "last_name": "Bauer",
        "address": {"country": "DE", "line1": "Hauptstr. 1", "city": "Köln"}}),
    )
    .await;
    let marie = guest(
        &app,
        json!({"first_name": "Marie", "last_name": "Dubois", "nationality": "FR"}),
    )
    .await;
    let nobody = guest(&app, json!({"first_name": "X", "last_name": "Y"})).await;
    stay(
        &app,
        &h.room_type,
        &h.rooms[0],
        &[&mario, &anna],
        ("2026-11-10", "2026-11-13"),
        true,
    )
    .await;
    stay(
        &app,
        &h.room_type,
        &h.rooms[1],
        &[&marie],
        ("2026-11-12", "2026-11-14"),
        false,
    )
    .await;
    stay(
        &app,
        &h.room_type,
        &h.rooms[2],
        &[&nobody],
        ("2026-11-20", "2026-11-21"),
        true,
    )
    .await;
    stay(
        &app,
        &h.room_type,
        &h.rooms[1],
        &[&hans],
        ("2026-11-29", "2026-12-02"),
        true,
    )
    .await;

    let r = app
        .get("/v1/reports/istat?month=2026-11")
        .await
        .expect(200)
        .body;
    let rows: Vec<(&str, i64, i64)> = r["residences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["residence"].as_str().unwrap(),
                x["arrivals"].as_i64().unwrap(),
                x["nights"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [("IT-BO", 2, 6), ("DE", 1, 2), ("unknown", 1, 1)],
        "{r}"
    );
    assert_eq!(
        (r["arrivals"].as_i64(), r["nights"].as_i64()),
        (Some(4), Some(9))
    );
    assert_eq!(
        (r["rooms"].as_i64(), r["beds"].as_i64()),
        (Some(3), Some(9))
    );
    let day = |n: usize| r["days"][n - 1].clone();
    assert_eq!(day(10)["arrivals"], 2);
    assert_eq!(
        (
            day(12)["present"].as_i64(),
            day(12)["rooms_occupied"].as_i64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(day(13)["departures"], 2);
    assert_eq!(r["days"].as_array().unwrap().len(), 30);

    let csv = app
        .client
        .get(app.url("/v1/reports/istat?month=2026-11"))
        .bearer_auth(&app.token)
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        csv,
        "residence,arrivals,nights\r\nIT-BO,2,6\r\nDE,1,2\r\nunknown,1,1\r\ntotal,4,9\r\n"
    );
    let bad = app.get("/v1/reports/istat?month=2026-13").await.expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "month");

    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get("/reports/istat?month=2026-11").await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains("Italy, province BO"), "{}", page.text);
    assert!(page.text.contains("neither a residence nor a nationality"));
    let Some(c) = crate::support::browser::chrome_speaking(1280, 1400, "it").await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "olga", &password).await;
    c.client
        .goto(&format!("{base}/reports/istat?month=2026-11"))
        .await
        .unwrap();
    let text = c.main_text_with("Germania").await;
    assert!(text.contains("Italia, provincia BO"), "{text}");
    c.axe("ISTAT movement").await;
    c.screenshot("desk-istat-it").await;
}
