//! A new booking at the desk on a rate plan: the plans on sale for the dates and party with
//! their totals and terms, a plan refused by its rules said in words, booked anyway with a
//! reason, and in a real browser a booking that picks a plan.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, hidden, staff};
use crate::support::{TestApp, day, spawn_app};

/// A double room with two plans, the non-refundable one asking three nights on day 2:
/// (room type, flexible, non-refundable).
async fn hotel(app: &TestApp) -> (String, String, String) {
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let flex = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "FLEX", "name": {"en": "Flexible"},
                   "default_price": 10000, "cancellation": {"free_until_days": 1, "fee": "first_night"}}),
        )
        .await
        .expect(201)
        .id();
    let nr = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "NR", "name": {"en": "Non-refundable"},
                   "parent_id": flex, "derivation": {"kind": "percent", "value": -1000},
                   "cancellation": {"fee": "all"},
                   "deposit": {"kind": "first_night"}}),
        )
        .await
        .expect(201)
        .id();
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": nr, "from": day(2), "to": day(2), "min_stay_arrival": 3}),
    )
    .await
    .expect(200);
    (rt, flex, nr)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_booking_picks_a_plan_and_a_refused_one_needs_a_reason() {
    let app = spawn_app().await;
    let (rt, _, nr) = hotel(&app).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b
        .get(&format!(
            "/reservations/new?arrival={}&departure={}",
            day(2),
            day(4)
        ))
        .await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("Room type DBL · Flexible"),
        "{}",
        page.text
    );
    assert!(page.text.contains("EUR 200.00 in all"), "{}", page.text);
    assert!(page.text.contains("EUR 180.00 in all") && page.text.contains("non-refundable"));
    assert!(page.text.contains("deposit EUR 90.00"), "{}", page.text);
    assert!(
        page.text
            .contains("This plan needs a stay of at least 3 nights."),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let key = hidden(&page.text, "key").unwrap();
    let offer = format!("{rt}|{nr}");
    let form = |key: &str, why: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("key", key.to_string()),
            ("arrival", day(2)),
            ("departure", day(4)),
            ("adults", "2".into()),
            ("children", "0".into()),
            ("offer", offer.clone()),
            ("guest_id", "new".into()),
            ("new_first_name", "Ivo".into()),
            ("new_last_name", "Horvat".into()),
            ("override_reason", why.to_string()),
            ("step", "book".into()),
        ]
    };
    let pairs = |f: &[(&'static str, String)]| -> Vec<(&'static str, String)> { f.to_vec() };
    let refused_form = pairs(&form(&key, ""));
    let refused_pairs: Vec<(&str, &str)> =
        refused_form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let refused = b.post("/reservations/new", &refused_pairs).await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(
        refused.text.contains("at least 3 nights"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains(&format!("value=\"{offer}\" checked")),
        "the plan stays chosen"
    );
    let key = hidden(&refused.text, "key").unwrap();
    let ok_form = form(&key, "Returning guest, two nights only");
    let ok_pairs: Vec<(&str, &str)> = ok_form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let booked = b.post("/reservations/new", &ok_pairs).await;
    assert_eq!(booked.status, 303, "{}", booked.text);
    let all = app.all("/v1/reservations").await;
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["rate_plan_id"], nr.as_str());
    assert_eq!(all[0]["nights"][0]["price"], 9000);
    let flex = app.all("/v1/rate-plans").await[0]["id"].clone();
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(0), "to": day(0), "price": 12000}),
    )
    .await
    .expect(200);
    let guest = app.guest("Lea", "Perić").await;
    let stay = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                   "arrival": day(0), "departure": day(2), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let room = app.get("/v1/rooms").await.body["data"][0]["id"].clone();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": stay, "room_id": room}),
    )
    .await
    .expect(200);
    // Leaving, the bill adds up the nights as booked: 120.00 the first, 100.00 the second.
    app.set_today(2);
    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await.text;
    assert!(today.contains("EUR 220.00"), "{today}");
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_a_booking_picks_a_plan() {
    let Some(br) = chrome(1280, 1000).await else {
        return;
    };
    let app = spawn_app().await;
    let (rt, flex, _) = hotel(&app).await;
    let password = staff(&app, "marta", "front_desk").await;
    let base = format!("http://{}", app.addr);
    br.sign_in(&base, "marta", &password).await;
    let c = &br.client;
    c.goto(&format!(
        "{base}/reservations/new?arrival={}&departure={}",
        day(2),
        day(4)
    ))
    .await
    .unwrap();
    br.wait_for(Locator::Css(".choices.offers")).await;
    br.axe("A new booking with plans").await;
    br.screenshot("desk-new-booking-plans").await;
    br.click(Locator::Css(&format!("input[value='{rt}|{flex}']")))
        .await;
    br.wait_for(Locator::Id("new_first_name"))
        .await
        .send_keys("Ana")
        .await
        .unwrap();
    br.wait_for(Locator::Id("new_last_name"))
        .await
        .send_keys("Kovač")
        .await
        .unwrap();
    br.click(Locator::Css("button[name=step][value=book]"))
        .await;
    br.wait_for(Locator::Css(".flash")).await;
    let facts = c
        .find(Locator::Css("dl.facts"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(facts.contains("Flexible (FLEX)"), "{facts}");
    assert!(facts.contains("free cancellation until"), "{facts}");
    br.axe("The booking made on a plan").await;
    br.screenshot("desk-booked-on-a-plan").await;
    let all = app.all("/v1/reservations").await;
    assert_eq!(all[0]["rate_plan_id"], flex.as_str());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_folio_takes_an_extra_from_the_list() {
    let app = spawn_app().await;
    let rt = app.room_type("TWN", 2).await;
    app.room("201", &rt).await;
    let guest = app.guest("Mia", "Novak").await;
    let parking = app
        .post(
            "/v1/extras",
            json!({"code": "PARK", "name": {"en": "Parking"}, "price": 1500, "unit": "per_night"}),
        )
        .await
        .expect(201)
        .id();
    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": day(0),
                   "departure": day(3), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/reservations/{res}")).await;
    assert!(
        page.text.contains("Parking · EUR 15.00 a night"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let path = format!("/reservations/{res}/extras");
    let bad = b
        .post(
            &path,
            &[("csrf", &csrf), ("extra_id", &parking), ("count", "none")],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    let added = b
        .post(
            &path,
            &[("csrf", &csrf), ("extra_id", &parking), ("count", "2")],
        )
        .await;
    assert_eq!(added.status, 303, "{}", added.text);
    let charges = app.all(&format!("/v1/reservations/{res}/charges")).await;
    assert_eq!(charges.len(), 1);
    assert_eq!(charges[0]["quantity"], 6, "two places, three nights");
}
