//! Housekeeping at the desk: the housekeeping role lands on its own screen and sees nothing
//! else; rooms grouped by state with one tap to the next; a stale tap is caught; in a real
//! browser on a 360 px wide phone.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn a_housekeeper_marks_rooms_with_one_tap() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let r101 = app.room("101", &rt).await;
    app.room("102", &rt).await;
    app.put(
        &format!("/v1/rooms/{r101}"),
        json!({"housekeeping_status": "dirty"}),
    )
    .await
    .expect(200);
    let password = staff(&app, "hana", "housekeeping").await;
    let b = Browser::sign_in(&app, "hana", &password).await;
    let home = b.get("/").await;
    assert_eq!(home.status, 303, "{}", home.text);
    assert_eq!(home.header("location").as_deref(), Some("/housekeeping"));
    let page = b.get("/housekeeping").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("To be cleaned (1)") && page.text.contains("Clean (1)"),
        "{}",
        page.text
    );
    for other in [
        "href=\"/\"",
        "href=\"/board\"",
        "href=\"/guests\"",
        "href=\"/reservations/new\"",
    ] {
        assert!(
            !page.text.contains(other),
            "housekeeping sees nothing else: {other}"
        );
    }
    let csrf = Browser::csrf(&page);
    let room = app.get(&format!("/v1/rooms/{r101}")).await.body;
    let version = room["version"].to_string();
    let path = format!("/housekeeping/{r101}");
    let done = b
        .post(
            &path,
            &[("csrf", &csrf), ("version", &version), ("status", "clean")],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert_eq!(
        done.header("location").as_deref(),
        Some("/housekeeping?done=room-changed")
    );
    let room = app.get(&format!("/v1/rooms/{r101}")).await.body;
    assert_eq!(room["housekeeping_status"], "clean");
    let stale = b
        .post(
            &path,
            &[("csrf", &csrf), ("version", &version), ("status", "dirty")],
        )
        .await;
    assert_eq!(stale.status, 409, "{}", stale.text);
    assert!(
        stale.text.contains("Someone else changed this room"),
        "{}",
        stale.text
    );
    let odd = b
        .post(
            &path,
            &[("csrf", &csrf), ("version", "9"), ("status", "sparkling")],
        )
        .await;
    assert_eq!(odd.status, 422, "{}", odd.text);
    let no_token = b
        .post(&path, &[("version", "9"), ("status", "dirty")])
        .await;
    assert_eq!(no_token.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_housekeeper_marks_a_room_clean_on_a_phone() {
    let Some(b) = chrome(360, 740).await else {
        return;
    };
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    app.put(
        &format!("/v1/rooms/{room}"),
        json!({"housekeeping_status": "dirty"}),
    )
    .await
    .expect(200);
    let password = staff(&app, "hana", "housekeeping").await;
    b.sign_in(&format!("http://{}", app.addr), "hana", &password)
        .await;
    let c = &b.client;
    let h1 = c.find(Locator::Css("main h1")).await.unwrap();
    assert_eq!(h1.text().await.unwrap(), "Housekeeping");
    b.screenshot("desk-housekeeping-phone").await;
    b.axe("Housekeeping on a phone").await;
    // The page is no wider than the phone.
    let wide = c
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(wide, json!(true), "no sideways scrolling at 360 px");
    b.click(Locator::Css("li.hk-card.dirty button.primary"))
        .await;
    b.wait_for(Locator::Css("p.flash")).await;
    let r = app.get(&format!("/v1/rooms/{room}")).await.body;
    assert_eq!(r["housekeeping_status"], "clean", "{r}");
    b.screenshot("desk-housekeeping-phone-done").await;
    c.clone().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_invoices_list_filters_by_dates_and_status() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let inv = app
        .post(
            "/v1/invoices",
            json!({"guest_id": g, "payment_method": "cash",
                   "lines": [{"description": "Dinner", "quantity": 2, "unit_price": 2500}]}),
        )
        .await
        .expect(201)
        .body;
    let (id, number) = (inv["id"].as_str().unwrap(), inv["number"].as_str().unwrap());
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get("/invoices").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text
            .contains(&format!("<a href=\"/invoices/{id}\">{number}</a>")),
        "{}",
        page.text
    );
    assert!(page.text.contains("1 invoice issued from") && page.text.contains("Anna Rossi"));
    let paid = b.get("/invoices?status=paid").await;
    assert!(paid.text.contains("0 invoices issued"), "{}", paid.text);
    let bad = b.get("/invoices?from=yesterday").await;
    assert_eq!(bad.status, 200);
    assert!(
        bad.text.contains("id=\"from-error\"") && bad.text.contains("value=\"yesterday\""),
        "{}",
        bad.text
    );
    let hk = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &hk).await;
    assert_eq!(
        h.get("/invoices").await.status,
        403,
        "housekeeping may not read invoices"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_room_move_leaves_the_old_room_dirty_and_arrival_rooms_come_first() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let (r101, r102) = (app.room("101", &rt).await, app.room("102", &rt).await);
    let r103 = app.room("103", &rt).await;
    let today = crate::support::day(0);
    let stay = |guest: String, room: &str| {
        json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
               "arrival": today, "departure": crate::support::day(2), "adults": 1})
    };
    let g = app.guest("Mara", "Moved").await;
    let moving = app
        .post("/v1/reservations", stay(g, &r101))
        .await
        .expect(201)
        .id();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": moving, "room_id": r101}),
    )
    .await
    .expect(200);
    let version = app.get(&format!("/v1/reservations/{moving}")).await.body["version"]
        .as_i64()
        .unwrap();
    app.put_if(
        &format!("/v1/reservations/{moving}"),
        &format!("\"{version}\""),
        json!({"room_id": r102}),
    )
    .await
    .expect(200);
    let left = app.get(&format!("/v1/rooms/{r101}")).await.expect(200);
    assert_eq!(left.body["housekeeping_status"], "dirty", "{}", left.text);

    // A booking arriving today in 103: its room leads the clean ones, marked.
    let g = app.guest("Ana", "Arriving").await;
    app.post("/v1/reservations", stay(g, &r103))
        .await
        .expect(201);
    let password = staff(&app, "hana", "housekeeping").await;
    let b = Browser::sign_in(&app, "hana", &password).await;
    let page = b.get("/housekeeping").await;
    let (at103, at102) = (
        page.text.find("<strong>103</strong>").unwrap(),
        page.text.find("<strong>102</strong>"),
    );
    assert!(page.text.contains("Arrival today"), "{}", page.text);
    if let Some(at102) = at102 {
        let clean = page.text.find("id=\"hk-clean\"").unwrap();
        assert!(
            at103 < at102 || at102 < clean,
            "103 comes first among the clean rooms"
        );
    }
}
