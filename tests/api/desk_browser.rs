//! The front desk in a real browser (headless chromium through WebDriver): signing in with
//! the keyboard through the real form, and Today. Screenshots go to `target/screenshots/`.

use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::staff;
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn a_receptionist_signs_in_with_the_keyboard_and_sees_today() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
               "arrival": day(0), "departure": day(2), "adults": 2,
               "notes": "late arrival ~22:00"}),
    )
    .await
    .expect(201);

    let c = &b.client;
    c.goto(&format!("http://{}/", app.addr)).await.unwrap();
    let user = b.wait_for(Locator::Css("input[name=username]")).await;
    b.screenshot("desk-sign-in").await;
    b.axe("Sign-in").await;
    user.send_keys("marta").await.unwrap();
    // Tab to the password, type it, and press Enter: no mouse.
    c.active_element()
        .await
        .unwrap()
        .send_keys(&format!("{}{password}{}", Key::Tab, Key::Enter))
        .await
        .unwrap();
    // The sign-in page has a heading too: wait for Today's (its date), reading again when
    // the page the heading was found on has gone meanwhile.
    let mut text = String::new();
    for _ in 0..100 {
        let heading = b.wait_for(Locator::Css("main h1")).await;
        text = heading.text().await.unwrap_or_default();
        if text.chars().any(|ch| ch.is_ascii_digit()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let url = c.current_url().await.unwrap();
    assert_eq!(url.path(), "/", "back on the desk: {url}");
    assert!(
        text.chars().any(|ch| ch.is_ascii_digit()),
        "the date: {text}"
    );
    let body = c
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        body.contains("Anna Rossi") && body.contains("1 arrival"),
        "{body}"
    );
    let who = b.wait_for(Locator::Css(".bar .who")).await;
    assert_eq!(who.text().await.unwrap(), "marta");
    assert_eq!(
        who.attr("aria-label").await.unwrap().as_deref(),
        Some("Signed in as marta (front desk)")
    );
    b.screenshot("desk-today").await;

    // The guest's name opens the reservation.
    b.click(Locator::LinkText("Anna Rossi")).await;
    let h1 = b.wait_for(Locator::Css("main h1")).await;
    assert!(h1.text().await.unwrap().starts_with("Anna Rossi, booking "));
    b.screenshot("desk-reservation").await;

    // Guests: the navigation, a search typed and sent with Enter, the guest's page.
    b.click(Locator::LinkText("Guests")).await;
    let q = b.wait_for(Locator::Id("q")).await;
    q.send_keys(&format!("ross{}", Key::Enter)).await.unwrap();
    b.wait_for(Locator::LinkText("Anna Rossi")).await;
    // Search as you type (htmx): the list follows the letters, no Enter needed.
    let q = c.find(Locator::Id("q")).await.unwrap();
    q.clear().await.unwrap();
    q.send_keys("nobody-by-this-name").await.unwrap();
    b.wait_for(Locator::Css("#results p.none")).await;
    let q = c.find(Locator::Id("q")).await.unwrap();
    q.clear().await.unwrap();
    q.send_keys("anna").await.unwrap();
    b.wait_for(Locator::LinkText("Anna Rossi")).await;
    b.screenshot("desk-guests").await;
    b.axe("Guests").await;
    b.click(Locator::LinkText("Anna Rossi")).await;
    let h1 = b.wait_for(Locator::Css("main h1")).await;
    assert_eq!(h1.text().await.unwrap(), "Anna Rossi");
    b.screenshot("desk-guest").await;
    b.axe("Guest").await;

    // Changing the guest: a wrong e-mail is shown next to its field, the rest kept.
    b.click(Locator::LinkText("Change details")).await;
    let email = b.wait_for(Locator::Id("email")).await;
    email.send_keys("anna-at-example").await.unwrap();
    c.find(Locator::Id("document_number"))
        .await
        .unwrap()
        .send_keys(&format!("YA1234567{}", Key::Enter))
        .await
        .unwrap();
    let error = b.wait_for(Locator::Id("email-error")).await;
    assert!(!error.text().await.unwrap().is_empty());
    let kept = c.find(Locator::Id("document_number")).await.unwrap();
    assert_eq!(
        kept.prop("value").await.unwrap().as_deref(),
        Some("YA1234567")
    );
    b.screenshot("desk-guest-edit-errors").await;
    b.axe("Guest edit, refused").await;

    // Signing out is a button in the header; afterwards the desk asks to sign in again.
    b.click(Locator::Css("form.signout button")).await;
    b.wait_for(Locator::Css("input[name=username]")).await;
    c.clone().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn htmx_checks_in_from_today_and_adds_a_charge_in_place() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    let c = &b.client;
    // The arrival has a room and nothing to register: "Check in" right in the list.
    b.click(Locator::Css("form[action$='/check-in'] button"))
        .await;
    let flash = b.wait_for(Locator::Css("p.flash")).await;
    assert!(flash.text().await.unwrap().starts_with("Checked in"));
    let url = c.current_url().await.unwrap();
    assert_eq!(
        (url.path(), url.query()),
        ("/", None),
        "swapped in place: {url}"
    );
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "checked_in");
    b.screenshot("desk-today-checked-in").await;

    // A charge added in place: refused first (the price), then added.
    c.goto(&format!("{base}/reservations/{id}")).await.unwrap();
    c.find(Locator::Id("charge-description"))
        .await
        .unwrap()
        .send_keys("Parking")
        .await
        .unwrap();
    c.find(Locator::Id("charge-unit_price"))
        .await
        .unwrap()
        .send_keys(&format!("ten{}", Key::Enter))
        .await
        .unwrap();
    b.wait_for(Locator::Id("charge-unit_price-error")).await;
    let kept = c.find(Locator::Id("charge-description")).await.unwrap();
    assert_eq!(
        kept.prop("value").await.unwrap().as_deref(),
        Some("Parking")
    );
    let price = c.find(Locator::Id("charge-unit_price")).await.unwrap();
    price.clear().await.unwrap();
    price.send_keys(&format!("10{}", Key::Enter)).await.unwrap();
    b.wait_for(Locator::Css("p.flash")).await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.query(), None, "swapped in place: {url}");
    let folio = app
        .get(&format!("/v1/reservations/{id}/charges"))
        .await
        .body;
    assert_eq!(folio["data"][0]["description"], "Parking", "{folio}");

    // The board moves by a day without reloading the page, and the address follows.
    c.goto(&format!("{base}/board")).await.unwrap();
    b.click(Locator::LinkText("Day ›")).await;
    let mut moved = false;
    for _ in 0..100 {
        let url = c.current_url().await.unwrap();
        if url.query().unwrap_or_default().contains(&day(1)) {
            moved = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(moved, "the address follows the board");
    let heading = c
        .find(Locator::Css("main h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(heading.starts_with("Room board"), "{heading}");
    c.clone().close().await.unwrap();
}
