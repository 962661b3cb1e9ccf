//! A guest's privacy on the desk: only admins see it; the export downloads; erasing needs
//! the tick, is refused in words while a stay is open, and then says what the law keeps.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::stay::hotel;
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_exports_and_erases_a_guest_from_their_page() {
    let app = spawn_app().await;
    let h = hotel(&app, 1).await;
    app.put("/v1/settings", crate::support::in_country("IT"))
        .await
        .expect(200);
    let res = app
        .reserve(&h.guest, &h.room_type, &day(0), &day(2))
        .await
        .expect(201)
        .id();
    let page = format!("/guests/{}", h.guest);

    // The front desk does not see it, and cannot post it.
    let marta = staff(&app, "marta", "front_desk").await;
    let desk = Browser::sign_in(&app, "marta", &marta).await;
    let mine = desk.get(&page).await;
    assert!(!mine.text.contains("Erase this guest"));
    let csrf = Browser::csrf(&mine);
    let refused = desk
        .post(
            &format!("{page}/erase"),
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(refused.status, 403);
    let exported = desk
        .post(&format!("{page}/export"), &[("csrf", &csrf)])
        .await;
    assert_eq!(exported.status, 403);

    let root = staff(&app, "root", "admin").await;
    let admin = Browser::sign_in(&app, "root", &root).await;
    let shown = admin.get(&page).await;
    assert!(shown.text.contains("Erase this guest"), "{}", shown.text);
    let label = shown
        .text
        .split("for=\"confirm-erase\">")
        .nth(1)
        .unwrap_or_default();
    assert!(
        label.starts_with("Yes, erase") && label.contains("Anna Rossi"),
        "{label}"
    );
    let csrf = Browser::csrf(&shown);

    let export = admin
        .post(&format!("{page}/export"), &[("csrf", &csrf)])
        .await;
    assert_eq!(export.status, 200);
    assert!(
        export.headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    let doc: serde_json::Value = serde_json::from_str(&export.text).unwrap();
    assert_eq!(doc["guest"]["last_name"], "Rossi");

    // No tick: said next to the box. An open stay: said in words. Nothing changes.
    let untick = admin
        .post(&format!("{page}/erase"), &[("csrf", &csrf)])
        .await;
    assert_eq!(untick.status, 422);
    assert!(
        untick
            .text
            .contains("Tick the box to confirm; an erasure cannot be undone.")
    );
    let open = admin
        .post(
            &format!("{page}/erase"),
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(open.status, 409);
    assert!(
        open.text.contains("which is not over: cancel it"),
        "{}",
        open.text
    );
    assert_eq!(
        app.get(&format!("/v1/guests/{}", h.guest)).await.body["first_name"],
        "Anna"
    );

    // After the stay, erasing names the invoice the law keeps.
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": h.rooms[0]}),
    )
    .await
    .expect(200);
    app.set_today(2);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "cash"}),
        )
        .await
        .expect(200);
    let number = out.body["invoice"]["number"].as_str().unwrap().to_string();
    // Two days on, the session has ended: sign in again.
    let admin = Browser::sign_in(&app, "root", &root).await;
    let csrf = Browser::csrf(&admin.get(&page).await);
    let done = admin
        .post(
            &format!("{page}/erase"),
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(done.text.contains("Guest erased"));
    assert!(
        done.text.contains(&format!("Invoice {number}")),
        "{}",
        done.text
    );
    assert!(done.text.contains("art. 2220"));
    assert_eq!(
        app.get(&format!("/v1/guests/{}", h.guest)).await.body["first_name"],
        "Erased"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_privacy_section_and_the_erased_page_in_a_browser() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let h = hotel(&app, 1).await;
    app.put("/v1/settings", crate::support::in_country("HR"))
        .await
        .expect(200);
    let res = app
        .reserve(&h.guest, &h.room_type, &day(0), &day(1))
        .await
        .expect(201)
        .id();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": h.rooms[0]}),
    )
    .await
    .expect(200);
    app.set_today(1);
    app.post(
        "/v1/check-out",
        json!({"reservation_id": res, "payment_method": "card"}),
    )
    .await
    .expect(200);
    let root = staff(&app, "root", "admin").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "root", &root).await;
    let c = &b.client;
    c.goto(&format!("{base}/guests/{}", h.guest)).await.unwrap();
    b.wait_for(Locator::Css("#privacy")).await;
    b.click(Locator::Css("form[action$='/erase'] button")).await;
    b.wait_for(Locator::Css("#confirm-erase-error")).await;
    b.screenshot("desk-guest-privacy-untick").await;
    b.axe("The guest's privacy section with the tick missing")
        .await;
    b.click(Locator::Css("#confirm-erase")).await;
    b.click(Locator::Css("form[action$='/erase'] button")).await;
    let table = b
        .wait_for(Locator::Css("#kept"))
        .await
        .text()
        .await
        .unwrap();
    let h1 = c.find(Locator::Css("main h1")).await.unwrap();
    assert_eq!(h1.text().await.unwrap(), "Guest erased");
    assert!(table.contains("Croatian Accounting Act"), "{table}");
    b.screenshot("desk-guest-erased").await;
    b.axe("A guest erased").await;

    // The same in Italian and Croatian: the admin's language, set from another session.
    let http = Browser::sign_in(&app, "root", &root).await;
    for (lang, heading, tick, erased) in [
        (
            "it",
            "Dati personali",
            "Spunta la casella",
            "Ospite cancellato",
        ),
        ("hr", "Privatnost", "Označite kućicu", "Gost je izbrisan"),
    ] {
        let account = http.get("/account/password").await;
        let csrf = Browser::csrf(&account);
        http.post("/account/language", &[("csrf", &csrf), ("language", lang)])
            .await;
        let guest = app.guest("Ivana", &format!("Horvat {lang}")).await;
        c.goto(&format!("{base}/guests/{guest}")).await.unwrap();
        let h2 = b.wait_for(Locator::Css("#privacy")).await;
        assert_eq!(h2.text().await.unwrap(), heading);
        b.click(Locator::Css("form[action$='/erase'] button")).await;
        let error = b.wait_for(Locator::Css("#confirm-erase-error")).await;
        assert!(error.text().await.unwrap().starts_with(tick));
        b.screenshot(&format!("desk-guest-privacy-untick-{lang}"))
            .await;
        b.axe(&format!("The privacy section in {lang}")).await;
        b.click(Locator::Css("#confirm-erase")).await;
        b.click(Locator::Css("form[action$='/erase'] button")).await;
        // The erased page's own links (the guest page's menu also leads to /guests).
        b.wait_for(Locator::Css("#erased-links")).await;
        let h1 = c.find(Locator::Css("main h1")).await.unwrap();
        assert_eq!(h1.text().await.unwrap(), erased);
        b.screenshot(&format!("desk-guest-erased-{lang}")).await;
    }
    c.clone().close().await.unwrap();
}
