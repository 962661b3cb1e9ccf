//! The first run in the browser (issue 29, item 12): on a new installation `/` leads to the
//! first-run page, guarded by the one-time code innkeep prints; it asks what `innkeep setup`
//! asks, by the same rules, then signs the admin in. A wrong code or a broken rule is shown
//! at its field with what was typed kept (passwords aside), and writes nothing; ten wrong
//! codes close the page; once set up, the page is gone.

use reqwest::StatusCode;

use crate::support::desk::{Browser, set_cookie};
use crate::support::reply::Reply;
use crate::support::{TestApp, spawn_app};

fn location(r: &Reply) -> String {
    assert_eq!(r.status, 303, "{}", r.text);
    r.header("location").unwrap()
}

/// A good form for a Croatian hotel, with `code`.
fn good(code: &str) -> Vec<(&'static str, String)> {
    [
        ("code", code),
        ("name", "Villa Mare"),
        ("country", "hr"),
        ("rt0_code", "dbl"),
        ("rt0_name", "Double room"),
        ("rt0_guests", "2"),
        ("rt0_rate", "95,00"),
        ("rt0_rooms", "101-104"),
        ("rt1_code", "SGL"),
        ("rt1_name", "Single room"),
        ("rt1_guests", "1"),
        ("rt1_rate", "60"),
        ("rt1_rooms", "201"),
        ("admin", "ana"),
        ("password", "sea view 2026"),
        ("password_again", "sea view 2026"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect()
}

async fn post(b: &Browser, form: &[(&'static str, String)]) -> Reply {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    b.post("/welcome", &pairs).await
}

async fn count(app: &TestApp, path: &str) -> usize {
    app.get(path).await.body["data"].as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_installation_is_set_up_in_the_browser_and_the_admin_is_signed_in() {
    let app = spawn_app().await;
    let code = app
        .first_run_code
        .clone()
        .expect("a new installation has a code");
    assert_eq!(code.len(), 9, "{code}");
    let b = Browser::new(&app);
    let home = b.get("/").await;
    assert_eq!(location(&home), "/login");
    let login = b.get("/login").await;
    assert_eq!(location(&login), "/welcome", "nobody can sign in yet");
    let page = b.get("/welcome").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("Welcome to innkeep"), "{}", page.text);
    assert!(
        page.text.contains("value=\"admin\""),
        "the usual name offered"
    );

    // A wrong code: refused at the code, the rest kept, the passwords not shown again.
    let mut form = good("BBBB-CCCC");
    let wrong = post(&b, &form).await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(wrong.text.contains("id=\"code-error\""), "{}", wrong.text);
    assert!(wrong.text.contains("is not the code innkeep printed"));
    assert!(wrong.text.contains("value=\"Villa Mare\""));
    assert!(
        !wrong.text.contains("sea view 2026"),
        "passwords are not sent back"
    );

    // The right code (typed loosely) with broken rules: each at its field, nothing written.
    form[0].1 = code.to_lowercase().replace('-', " ");
    form[1].1 = String::new();
    form[6].1 = "ninety".into();
    form[12].1 = "101".into();
    form[15].1 = "something else".into();
    form[2].1 = "Narnia".into();
    let broken = post(&b, &form).await;
    assert_eq!(broken.status, 422, "{}", broken.text);
    // The country is typed by name from the page's list; one that is none is said so,
    // what was typed kept.
    assert!(broken.text.contains(r#"list="countries""#));
    assert!(broken.text.contains(r#"<option value="Croatia">"#));
    assert!(broken.text.contains("value=\"Narnia\""), "{}", broken.text);
    assert!(
        broken
            .text
            .contains("Choose a country from the list, or type its name.")
    );
    for field in ["name", "country", "rt0_rate", "rt1_rooms", "password_again"] {
        assert!(
            broken.text.contains(&format!("id=\"{field}-error\"")),
            "{field}: {}",
            broken.text
        );
    }
    assert!(
        !broken.text.contains("id=\"code-error\""),
        "the code was right"
    );
    assert_eq!(count(&app, "/v1/room-types").await, 0, "nothing written");

    let mut form = good(&code);
    form[2].1 = "croatia".into();
    let done = post(&b, &form).await;
    let callback = location(&done);
    assert!(callback.starts_with("/login/callback?code="), "{callback}");
    let login = set_cookie(&done, "innkeep_login").expect("the sign-in's state");
    let signed = b
        .send(reqwest::Method::GET, &callback, Some(&login), None, None)
        .await;
    assert_eq!(location(&signed), "/");
    let session = set_cookie(&signed, "innkeep_desk").expect("a desk session");
    let today = b
        .send(reqwest::Method::GET, "/", Some(&session), None, None)
        .await;
    assert_eq!(today.status, StatusCode::OK, "{}", today.text);
    assert!(today.text.contains("ana"), "signed in as the new admin");

    let settings = app.get("/v1/settings").await.body;
    assert_eq!(settings["name"], "Villa Mare");
    assert_eq!(settings["time_zone"], "Europe/Zagreb", "the country's");
    assert_eq!(
        settings["default_tax_rate"], 1300,
        "the country's VAT on rooms"
    );
    assert_eq!(count(&app, "/v1/room-types").await, 2);
    assert_eq!(count(&app, "/v1/rooms").await, 5);
    let again = b.get("/welcome").await;
    assert_eq!(location(&again), "/", "the page is gone once set up");
    let replay = post(&b, &good(&code)).await;
    assert_eq!(location(&replay), "/", "and cannot set up twice");
}

#[tokio::test(flavor = "multi_thread")]
async fn ten_wrong_codes_close_the_page_and_a_setup_elsewhere_closes_it_too() {
    let app = spawn_app().await;
    let b = Browser::new(&app);
    for _ in 0..10 {
        let r = post(&b, &good("BBBB-CCCC")).await;
        assert_eq!(r.status, 422);
    }
    let code = app.first_run_code.clone().unwrap();
    let closed = post(&b, &good(&code)).await;
    assert_eq!(location(&closed), "/", "closed until innkeep restarts");
    assert_eq!(count(&app, "/v1/room-types").await, 0);
    assert_eq!(location(&b.get("/welcome").await), "/");

    // Another new installation, set up by the API meanwhile: the page closes for good.
    let other = spawn_app().await;
    other
        .post(
            "/v1/room-types",
            serde_json::json!({"code": "DBL", "name": "Double", "max_occupancy": 2, "base_rate": 9000}),
        )
        .await
        .expect(201);
    let b = Browser::new(&other);
    assert_eq!(location(&b.get("/welcome").await), "/");
}

/// In a real browser: `/` opens the first-run page; filled in with the keyboard's help of
/// the browser, it lands on Today signed in; axe finds nothing on the page.
#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_the_first_run_ends_on_today() {
    use crate::support::browser::chrome;
    use fantoccini::Locator;
    let Some(c) = chrome(1280, 1500).await else {
        return;
    };
    let app = spawn_app().await;
    let code = app.first_run_code.clone().unwrap();
    c.client
        .goto(&format!("http://{}/", app.addr))
        .await
        .unwrap();
    c.wait_for(Locator::Id("code")).await;
    c.axe("the first-run page").await;
    for (id, text) in good(&code) {
        if id == "country" || text.is_empty() {
            continue;
        }
        let f = c.client.find(Locator::Id(id)).await.unwrap();
        f.clear().await.unwrap();
        f.send_keys(&text).await.unwrap();
    }
    let country = c.client.find(Locator::Id("country")).await.unwrap();
    country.send_keys("Italy").await.unwrap();
    let name = c.client.find(Locator::Id("name")).await.unwrap();
    name.clear().await.unwrap();
    c.screenshot("desk-welcome").await;
    // The compliance step: a scheme's settings show once it is ticked, and hide again.
    let ws_key = c.client.find(Locator::Id("ws_key")).await.unwrap();
    assert!(!ws_key.is_displayed().await.unwrap());
    c.click(Locator::Id("alloggiati")).await;
    assert!(ws_key.is_displayed().await.unwrap());
    c.client
        .execute("document.getElementById('cis').scrollIntoView()", vec![])
        .await
        .unwrap();
    c.screenshot("desk-welcome-compliance").await;
    c.axe("the first-run page with Alloggiati Web ticked").await;
    c.click(Locator::Id("alloggiati")).await;
    assert!(!ws_key.is_displayed().await.unwrap());
    c.click(Locator::Css("button.primary")).await;
    c.wait_for(Locator::Id("name-error")).await;
    c.screenshot("desk-welcome-refused").await;
    let kept = c.client.find(Locator::Id("country")).await.unwrap();
    assert_eq!(kept.prop("value").await.unwrap().as_deref(), Some("Italy"));
    let name = c.client.find(Locator::Id("name")).await.unwrap();
    name.send_keys("Albergo Sole").await.unwrap();
    for id in ["password", "password_again"] {
        let f = c.client.find(Locator::Id(id)).await.unwrap();
        f.send_keys("sea view 2026").await.unwrap();
    }
    c.click(Locator::Css("button.primary")).await;
    c.wait_for(Locator::Css(".bar .who")).await;
    c.screenshot("desk-welcome-done").await;
    let settings = app.get("/v1/settings").await.body;
    assert_eq!(settings["default_tax_rate"], 1000, "Italy's VAT on rooms");
    assert_eq!(settings["name"], "Albergo Sole");
}

/// The first run asks for the seller on invoices: a Croatian hotel's OIB is checked by its
/// check digit, and the seller given is in the settings the hotel starts with.
#[tokio::test(flavor = "multi_thread")]
async fn the_first_run_takes_the_seller_checked_by_the_country() {
    let app = spawn_app().await;
    let code = app.first_run_code.clone().unwrap();
    let b = Browser::new(&app);
    let page = b.get("/welcome").await;
    assert!(
        page.text.contains("The seller on invoices"),
        "{}",
        page.text
    );
    let mut form = good(&code);
    form.extend([
        ("seller_name", "Villa Mare d.o.o.".to_string()),
        ("seller_street", "Obala 1".to_string()),
        ("seller_city", "Split".to_string()),
        ("seller_vat_id", "69435151531".to_string()),
    ]);
    let refused = post(&b, &form).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"seller_vat_id-error\""),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("must be the OIB"));
    assert!(refused.text.contains("value=\"Villa Mare d.o.o.\""));
    form.retain(|(k, _)| *k != "seller_vat_id");
    form.push(("seller_vat_id", "HR69435151530".to_string()));
    let done = post(&b, &form).await;
    assert!(
        location(&done).starts_with("/login/callback?code="),
        "{}",
        done.text
    );
    let s = app.get("/v1/settings").await.expect(200).body;
    assert_eq!(s["seller"]["legal_name"], "Villa Mare d.o.o.");
    assert_eq!(s["seller"]["address"]["country"], "HR");
}
