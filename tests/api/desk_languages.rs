//! The desk's languages: the browser's Accept-Language is followed until a staff member
//! chooses their own (My account), an admin can set it for them, and the pages' words, dates
//! and `<html lang>` follow; a language the desk does not have is refused in words.

use crate::support::desk::{Browser, staff};
use crate::support::spawn_app;

/// Today, asked with `accept` as the browser's Accept-Language.
async fn today_in(b: &Browser, accept: &str) -> String {
    reqwest::Client::new()
        .get(format!("{}/", b.base))
        .header("cookie", b.session.as_deref().unwrap())
        .header("accept-language", accept)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_follow_the_browser_until_the_staff_member_chooses() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &password).await;
    let it = today_in(&m, "it-IT,it;q=0.9,en;q=0.5").await;
    assert!(
        it.contains("<html lang=\"it\">") && it.contains(">Oggi<"),
        "{it}"
    );
    let hr = today_in(&m, "hr").await;
    assert!(
        hr.contains("<html lang=\"hr\">") && hr.contains(">Danas<"),
        "{hr}"
    );
    assert!(today_in(&m, "fr-FR").await.contains(">Today<"));

    // Her own choice wins over the browser's.
    let page = m.get("/account/password").await;
    let csrf = Browser::csrf(&page);
    let bad = m
        .post("/account/language", &[("csrf", &csrf), ("language", "de")])
        .await;
    assert_eq!(bad.status, 422);
    assert!(
        bad.text
            .contains("Choose one of the languages in the list."),
        "{}",
        bad.text
    );
    let chosen = m
        .post("/account/language", &[("csrf", &csrf), ("language", "hr")])
        .await;
    assert_eq!(chosen.status, 303, "{}", chosen.text);
    let saved = m.get(&chosen.header("location").unwrap()).await;
    assert!(saved.text.contains("Jezik je spremljen."), "{}", saved.text);
    assert!(
        today_in(&m, "it").await.contains(">Danas<"),
        "her setting, not the browser's"
    );
    let back = m
        .post("/account/language", &[("csrf", &csrf), ("language", "")])
        .await;
    assert_eq!(back.status, 303);
    assert!(
        today_in(&m, "it").await.contains(">Oggi<"),
        "the browser's again"
    );

    // An admin sets it for her.
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let list = a.get("/admin/staff").await;
    let at = list.text.find("\">marta</a>").unwrap();
    let start = list.text[..at].rfind("/admin/staff/").unwrap() + "/admin/staff/".len();
    let id = &list.text[start..at];
    let acsrf = Browser::csrf(&list);
    let set = a
        .post(
            &format!("/admin/staff/{id}/language"),
            &[("csrf", &acsrf), ("language", "it")],
        )
        .await;
    assert_eq!(set.status, 303, "{}", set.text);
    let page = today_in(&m, "hr").await;
    assert!(page.contains(">Oggi<"), "{page}");
    assert!(page.contains("Accesso come marta (reception)"), "{page}");
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_the_desk_reads_in_croatian() {
    let Some(b) = crate::support::browser::chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let password = staff(&app, "ana", "manager").await;
    app.db()
        .write(|tx| {
            let u = innkeep::store::clients::user_by_name(tx, "ana")?.unwrap();
            innkeep::store::staff::set_language(tx, &u.id, Some("hr"))
        })
        .await
        .unwrap();
    let g = app.guest("Ivana", "Horvat").await;
    app.post(
        "/v1/invoices",
        serde_json::json!({"guest_id": g, "payment_method": "card",
               "lines": [{"description": "Večera", "quantity": 1, "unit_price": 123456}]}),
    )
    .await
    .expect(201);
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "ana", &password).await;
    let c = &b.client;
    let body = c
        .find(fantoccini::Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let who = c
        .find(fantoccini::Locator::Css(".bar .who"))
        .await
        .unwrap()
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(
        body.contains("Danas") && who == "Prijavljeni ste kao ana (voditelj)",
        "{body} {who}"
    );
    b.axe("Danas").await;
    b.screenshot("desk-today-hr").await;
    for (path, name) in [
        ("/invoices", "desk-invoices-hr"),
        ("/housekeeping", "desk-housekeeping-hr"),
        ("/guests", "desk-guests-hr"),
    ] {
        c.goto(&format!("{base}{path}")).await.unwrap();
        c.wait()
            .for_element(fantoccini::Locator::Css("main h1"))
            .await
            .unwrap();
        b.axe(name).await;
        b.screenshot(name).await;
    }
    c.goto(&format!("{base}/invoices")).await.unwrap();
    let body = c
        .find(fantoccini::Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        body.contains("1.234,56 €") && body.contains("Računi"),
        "{body}"
    );
    c.clone().close().await.unwrap();
}

/// An admin who chose Italian, signed in; with their CSRF token.
async fn italian_admin(app: &crate::support::TestApp) -> (Browser, String) {
    let root = staff(app, "root", "admin").await;
    let a = Browser::sign_in(app, "root", &root).await;
    let csrf = Browser::csrf(&a.get("/account/password").await);
    a.post("/account/language", &[("csrf", &csrf), ("language", "it")])
        .await;
    (a, csrf)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_apis_rules_are_said_in_the_staff_members_language() {
    let app = spawn_app().await;
    let (a, csrf) = italian_admin(&app).await;
    let settings = a.get("/admin/settings").await;
    let version = crate::support::desk::hidden(&settings.text, "version").unwrap();
    let refused = a
        .post(
            "/admin/settings",
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("name", "Hotel Mare"),
                ("time_zone", "Mars/Base"),
                ("currency", "EURO"),
                ("country", ""),
                ("invoice_series", "{year}"),
                ("default_tax_rate", "10"),
                ("city_tax", "none"),
            ],
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused
            .text
            .contains("deve essere un fuso orario IANA come Europe/Rome"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("deve essere la sigla della valuta"),
        "{}",
        refused.text
    );
    assert!(
        !refused.text.contains("must be"),
        "no rule left in English: {}",
        refused.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_use_cases_own_refusal_is_said_in_the_staff_members_language() {
    let app = spawn_app().await;
    let (a, csrf) = italian_admin(&app).await;
    let list = a.get("/admin/staff").await.text;
    let at = list.find("/admin/staff/").expect("a staff member's link") + 13;
    let id: String = list[at..].chars().take_while(|c| *c != '"').collect();
    let refused = a
        .post(
            &format!("/admin/staff/{id}/disable"),
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(
        refused
            .text
            .contains("Non puoi cambiare il tuo ruolo né disattivarti da solo"),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains("another admin"), "{}", refused.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn signing_in_and_approving_a_device_follow_the_browsers_language() {
    let app = spawn_app().await;
    staff(&app, "marta", "front_desk").await;
    let mut b = Browser::new(&app);
    b.language = Some("it-IT,it;q=0.9,en;q=0.5".into());
    let start = b.get("/login").await;
    let page = b.get(&start.header("location").unwrap()).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("<html lang=\"it\">"), "{}", page.text);
    assert!(page.text.contains("Accedi alla reception"), "{}", page.text);
    assert!(page.text.contains(">Nome utente<"), "{}", page.text);
    let refused = b.authorize(&page, "marta", "wrong").await;
    assert_eq!(refused.status, 401, "{}", refused.text);
    assert!(
        refused.text.contains("Nome utente o password sbagliati."),
        "{}",
        refused.text
    );
    b.language = Some("hr".into());
    let device = b.get("/device?user_code=ABCD-EFGH").await;
    assert!(device.text.contains("Odobrite uređaj"), "{}", device.text);
    assert!(device.text.contains("Kod na uređaju"), "{}", device.text);
    assert!(!device.text.contains("Approve"), "{}", device.text);
}

/// A refusal said from its key and values (crate::refusal), not from the English sentence:
/// the Italian page has Italian words and an Italian day, the API the English detail.
#[tokio::test(flavor = "multi_thread")]
async fn a_refused_check_in_is_said_in_the_pages_language() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let arrival = crate::support::day(2);
    let id = app
        .post(
            "/v1/reservations",
            serde_json::json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                "arrival": arrival, "departure": crate::support::day(4), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let api = app
        .post("/v1/check-in", serde_json::json!({"reservation_id": id}))
        .await;
    assert_eq!(api.status, 409);
    assert_eq!(
        api.body["detail"],
        format!("This reservation arrives on {arrival}; check-in opens that day.")
    );
    let password = staff(&app, "marta", "front_desk").await;
    let mut b = Browser::sign_in(&app, "marta", &password).await;
    b.language = Some("it".into());
    let page = b.get(&format!("/reservations/{id}/check-in")).await;
    let csrf = Browser::csrf(&page);
    let refused = b
        .post(
            &format!("/reservations/{id}/check-in"),
            &[("csrf", &csrf), ("room_id", &room)],
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(
        refused.text.contains("Questa prenotazione arriva il"),
        "{}",
        refused.text
    );
    assert!(
        !refused.text.contains(&arrival),
        "the day the Italian way: {}",
        refused.text
    );
}
