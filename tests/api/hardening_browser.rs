//! The hardened doors in a real browser, as a tired receptionist meets them: the approval
//! page that first says which device asks and for what, the admin's confirmation, the list
//! of paired kiosks with "Unpair", and the kiosk that says why it must be paired again, or
//! that kiosks are switched off. Each page passes axe-core and is saved as a screenshot.

use fantoccini::Locator;

use crate::support::desk::{Browser, approve, kiosk, staff};
use crate::support::oauth::form;
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_approvals_say_who_asks_and_kiosks_say_why_they_ended() {
    let Some(b) = crate::support::browser::chrome(1024, 800).await else {
        return;
    };
    let app = spawn_app().await;
    let base = format!("http://{}", app.addr);
    let c = &b.client;

    // A device of an integration, approved on /device: the code first, then what it asks.
    let tablet = innkeep::service::oauth::create_client(
        app.db(),
        "Lobby tablet",
        "guests:read reservations:read",
        &["device".into()],
        &[],
        false,
        None,
    )
    .await
    .unwrap();
    let (_, start, _) = form(
        &app,
        "/oauth/device_authorization",
        &tablet.client.id,
        None,
        &[],
    )
    .await;
    let code = start["user_code"].as_str().unwrap().to_string();
    c.goto(&format!("{base}/device")).await.unwrap();
    b.wait_for(Locator::Id("user_code")).await;
    b.axe("Device approval, the code").await;
    b.screenshot("device-code").await;
    b.wait_for(Locator::Id("user_code"))
        .await
        .send_keys(&code)
        .await
        .unwrap();
    b.click(Locator::Css("button.primary")).await;
    b.wait_for(Locator::Css("ul.scopes")).await;
    let text = b.wait_for(Locator::Css("main")).await.text().await.unwrap();
    assert!(
        text.contains("Lobby tablet") && text.contains("Read guests."),
        "{text}"
    );
    b.axe("Device approval, what it asks for").await;
    b.screenshot("device-approve").await;

    // The admin types a kiosk's code and is asked to confirm; then the paired kiosks.
    let (k, kiosk_code) = kiosk(&app).await;
    let root = staff(&app, "root", "admin").await;
    b.sign_in(&base, "root", &root).await;
    c.goto(&format!("{base}/admin/clients")).await.unwrap();
    b.wait_for(Locator::Id("code"))
        .await
        .send_keys(&kiosk_code)
        .await
        .unwrap();
    b.click(Locator::Css("form[action='/admin/clients/device'] button"))
        .await;
    b.wait_for(Locator::Css("ul.scopes")).await;
    b.axe("Administration, approve this device?").await;
    b.screenshot("admin-device-confirm").await;
    b.click(Locator::Css("button[value=approve]")).await;
    b.wait_for(Locator::Css("p.flash")).await;
    assert!(
        k.get("/kiosk")
            .await
            .text
            .contains("Type your booking code")
    );
    c.goto(&format!("{base}/admin/kiosks")).await.unwrap();
    b.wait_for(Locator::Css("form[action='/admin/kiosks/unpair'] button"))
        .await;
    b.axe("Administration, paired kiosks").await;
    b.screenshot("admin-kiosks").await;
    b.click(Locator::Css("form[action='/admin/kiosks/unpair'] button"))
        .await;
    b.wait_for(Locator::Css("p.flash")).await;

    // The kiosk's own screen: why it ended; then kiosks switched off.
    let unpaired = k.get("/kiosk").await;
    assert!(unpaired.text.contains("The front desk unpaired this kiosk"));
    let a = Browser::sign_in(&app, "root", &root).await;
    c.goto(&format!("{base}/kiosk")).await.unwrap();
    b.click(Locator::Css("form[action='/kiosk/pair'] button"))
        .await;
    let code2 = b
        .wait_for(Locator::Css(".password-once code"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(approve(&a, &code2).await.status, 303);
    c.goto(&format!("{base}/kiosk")).await.unwrap();
    b.wait_for(Locator::Id("last_name")).await;
    let list = a.get("/admin/kiosks").await;
    let id = crate::support::desk::hidden(&list.text, "kiosk").unwrap();
    let csrf = Browser::csrf(&list);
    a.post("/admin/kiosks/unpair", &[("csrf", &csrf), ("kiosk", &id)])
        .await;
    c.goto(&format!("{base}/kiosk")).await.unwrap();
    let ended = b.wait_for(Locator::Css("main")).await.text().await.unwrap();
    assert!(
        ended.contains("The front desk unpaired this kiosk"),
        "{ended}"
    );
    b.axe("Kiosk, unpaired by the desk").await;
    b.screenshot("kiosk-ended").await;
    let csrf = Browser::csrf(&a.get("/admin/clients/cli_kiosk").await);
    a.post(
        "/admin/clients/cli_kiosk/revoke",
        &[("csrf", &csrf), ("confirm", "yes")],
    )
    .await;
    c.goto(&format!("{base}/kiosk")).await.unwrap();
    let off = b.wait_for(Locator::Css("main")).await.text().await.unwrap();
    assert!(off.contains("switched off"), "{off}");
    b.axe("Kiosk, switched off").await;
    b.screenshot("kiosk-off").await;
}
