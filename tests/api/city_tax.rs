//! The city tax of a quarter against the test's own count: a week's stay of an adult and an
//! eight-year-old under a rule of 2.50 a night, at most 5 nights, under 14 exempt: 14
//! guest-nights, 7 exempt by age, 2 beyond the cap, 5 taxed, 12.50 due and billed; a wrong
//! quarter refused by name; the desk's page in Croatian with axe.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::spawn_app;
use crate::support::stay::hotel;

#[tokio::test(flavor = "multi_thread")]
async fn a_quarters_city_tax_splits_exempt_and_taxed_nights() {
    let app = spawn_app().await;
    let h = hotel(&app, 2).await;
    app.clock().set_now("2026-10-05T09:00:00Z".parse().unwrap());
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": h.guest, "guest_ids": [h.child], "room_type_id": h.room_type,
                   "room_id": h.rooms[0], "arrival": "2026-10-05", "departure": "2026-10-12",
                   "adults": 1, "children": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    app.clock().set_now("2026-10-12T09:00:00Z".parse().unwrap());
    app.post(
        "/v1/check-out",
        json!({"reservation_id": r, "payments": [{"method": "card"}]}),
    )
    .await
    .expect(200);

    let report = app
        .get("/v1/reports/city-tax?year=2026&quarter=4")
        .await
        .expect(200)
        .body;
    let october = &report["months"][0];
    assert_eq!(october["month"], "2026-10");
    let got: Vec<i64> = [
        "stays",
        "person_nights",
        "exempt_age",
        "exempt_beyond_cap",
        "taxed",
        "due",
        "billed_person_nights",
        "billed",
    ]
    .iter()
    .map(|k| october[k].as_i64().unwrap())
    .collect();
    assert_eq!(got, [1, 14, 7, 2, 5, 1250, 5, 1250], "{report}");
    assert_eq!(report["total"]["taxed"], 5);
    assert_eq!(report["months"].as_array().unwrap().len(), 3);
    let bad = app
        .get("/v1/reports/city-tax?year=2026&quarter=5")
        .await
        .expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "quarter");

    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get("/reports/city-tax?quarter=2026-4").await;
    assert_eq!(page.status, 200);
    assert!(
        page.text.contains("City tax, quarter 4 of 2026"),
        "{}",
        page.text
    );
    let Some(c) = crate::support::browser::chrome_speaking(1280, 1000, "hr").await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "olga", &password).await;
    c.client
        .goto(&format!("{base}/reports/city-tax?quarter=2026-4"))
        .await
        .unwrap();
    let text = c.main_text_with("Boravišna pristojba").await;
    assert!(text.contains("12,50"), "{text}");
    c.axe("City tax").await;
    c.screenshot("desk-city-tax-hr").await;
}
