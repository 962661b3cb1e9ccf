//! The desk's reservations list (issue 29, item 6): the bookings touching a span of days,
//! filtered by status, source and room type, each linking to its page; and the API's
//! `source` filter it rests on.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn bookings_are_listed_and_filtered_by_status_source_and_room_type() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let sgl = app.room_type("SGL", 1).await;
    app.room("101", &dbl).await;
    app.room("201", &sgl).await;
    let ana = app.guest("Ana", "Horvat").await;
    let book = |rt: String, source: &'static str, arrival: i64| {
        let app = &app;
        let ana = ana.clone();
        async move {
            app.post(
                "/v1/reservations",
                json!({"primary_guest_id": ana, "room_type_id": rt, "arrival": day(arrival),
                       "departure": day(arrival + 1), "adults": 1, "source": source}),
            )
            .await
            .expect(201)
            .body
        }
    };
    let by_phone = book(dbl.clone(), "phone", 1).await;
    let by_mail = book(sgl.clone(), "email", 2).await;
    let later = book(dbl.clone(), "email", 60).await;
    let cancelled = book(dbl.clone(), "walk_in", 3).await;
    app.put(
        &format!("/v1/reservations/{}", cancelled["id"].as_str().unwrap()),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);

    let api = app.get("/v1/reservations?source=email").await.body;
    let codes: Vec<&str> = api["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            by_mail["code"].as_str().unwrap(),
            later["code"].as_str().unwrap()
        ]
    );
    let bad = app.get("/v1/reservations?source=pigeon").await;
    assert_eq!(bad.status, 400, "as for an unknown status: {}", bad.text);
    assert!(bad.text.contains("\"field\":\"source\""), "{}", bad.text);

    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let guests = b.get("/guests").await;
    assert!(
        guests.text.contains("href=\"/reservations\""),
        "linked from Guests"
    );
    let code = |r: &serde_json::Value| r["code"].as_str().unwrap().to_string();
    let all = b.get("/reservations").await;
    assert_eq!(all.status, 200, "{}", all.text);
    assert!(all.text.contains("3 bookings"), "{}", all.text);
    for r in [&by_phone, &by_mail, &cancelled] {
        assert!(all.text.contains(&code(r)), "{}", all.text);
    }
    assert!(
        !all.text.contains(&code(&later)),
        "outside the next 30 days"
    );
    assert!(all.text.contains("Ana Horvat") && all.text.contains("Room type SGL"));

    let mail = b.get("/reservations?source=email").await;
    assert!(mail.text.contains(&code(&by_mail)) && !mail.text.contains(&code(&by_phone)));
    let gone = b.get("/reservations?status=cancelled").await;
    assert!(gone.text.contains(&code(&cancelled)) && !gone.text.contains(&code(&by_mail)));
    let single = b.get(&format!("/reservations?room_type={sgl}")).await;
    assert!(single.text.contains("One booking"), "{}", single.text);
    let wide = b
        .get(&format!("/reservations?from={}&to={}", day(0), day(90)))
        .await;
    assert!(wide.text.contains(&code(&later)), "{}", wide.text);
    let unreadable = b.get("/reservations?from=yesterday").await;
    assert_eq!(unreadable.status, 200);
    assert!(
        unreadable.text.contains("id=\"from-error\""),
        "{}",
        unreadable.text
    );
    assert!(
        unreadable.text.contains("value=\"yesterday\""),
        "kept as typed"
    );
}
