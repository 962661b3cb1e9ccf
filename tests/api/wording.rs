//! Administration › Wording of messages: the standard wording shown with its placeholders,
//! a brace that is no placeholder refused next to its field with what was typed kept, a
//! preview with a made-up booking, the hotel's own Italian wording then used in a real
//! confirmation through the relay double, and the standard wording back on request; the
//! page in a browser (axe, a screenshot).

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::smtp::Relay;
use crate::support::{Spawn, TestApp};

async fn hotel(relay: &Relay) -> TestApp {
    let cfg = relay.config("Hotel Miramare <desk@miramare.test>", None);
    let app = Spawn::new().config(|c| c.mail = Some(cfg)).start().await;
    app.put("/v1/settings", json!({"name": "Hotel Miramare"}))
        .await
        .expect(200);
    app
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hotel_words_its_italian_confirmation_itself_and_can_go_back() {
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/wording?kind=confirmation&lang=it").await;
    assert_eq!(page.status, 200);
    assert!(
        page.text
            .contains("La sua prenotazione presso {hotel}: {code}"),
        "the standard wording, placeholders shown: {}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let form = |subject: &'static str, action: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("kind", "confirmation".to_string()),
            ("lang", "it".to_string()),
            ("subject", subject.to_string()),
            (
                "intro",
                "Cara {name}, grazie di cuore per aver scelto {hotel}!".to_string(),
            ),
            ("closing", "A presto, la famiglia Bianchi".to_string()),
            ("action", action.to_string()),
        ]
    };
    let post = |f: Vec<(&'static str, String)>| {
        let a = &a;
        async move {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            a.post("/admin/wording", &pairs).await
        }
    };

    let refused = post(form("Prenotazione {codice} a {hotel}", "save")).await;
    assert_eq!(refused.status, 422);
    assert!(refused.text.contains("subject-error"), "{}", refused.text);
    assert!(
        refused.text.contains("{hotel}, {name}, {code}"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("Prenotazione {codice} a {hotel}"),
        "what was typed stays: {}",
        refused.text
    );

    let preview = post(form("Prenotazione {code} a {hotel}", "preview")).await;
    assert_eq!(preview.status, 200);
    assert!(
        preview
            .text
            .contains("Prenotazione K7M2Q9 a Hotel Miramare"),
        "{}",
        preview.text
    );
    assert!(preview.text.contains("grazie di cuore"), "{}", preview.text);

    let saved = post(form("Prenotazione {code} a {hotel}", "save")).await;
    assert_eq!(saved.status, 303);

    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let guest = app
        .post(
            "/v1/guests",
            json!({"first_name": "Giulia", "last_name": "Bianchi", "language": "it",
                   "email": "giulia@example.com"}),
        )
        .await
        .expect(201)
        .id();
    let r = app
        .reserve(
            &guest,
            &rt,
            &crate::support::day(5),
            &crate::support::day(7),
        )
        .await
        .expect(201)
        .body;
    let taken = relay.wait_for(1, Duration::from_secs(10)).await;
    let text = taken[0].decoded();
    let code = r["code"].as_str().unwrap();
    assert!(
        taken[0].header("Subject").unwrap().contains(code),
        "{:?}",
        taken[0].header("Subject")
    );
    assert!(
        text.contains("Cara Giulia, grazie di cuore per aver scelto Hotel Miramare!"),
        "{text}"
    );
    assert!(text.contains("A presto, la famiglia Bianchi"), "{text}");
    assert!(text.contains(code), "the facts stay: {text}");

    // Back to the standard wording.
    let standard = post(form("", "standard")).await;
    assert_eq!(standard.status, 303);
    let page = a.get("/admin/wording?kind=confirmation&lang=it").await;
    assert!(
        page.text
            .contains("La sua prenotazione presso {hotel}: {code}")
    );

    let Some(b) = crate::support::browser::chrome(1280, 1800).await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "root", &password).await;
    b.client
        .goto(&format!("{base}/admin/wording?kind=pre_arrival&lang=hr"))
        .await
        .unwrap();
    b.wait_for(Locator::Id("intro")).await;
    b.click(Locator::Css("button[value=preview]")).await;
    b.wait_for(Locator::Css("iframe.mail-preview")).await;
    b.axe("Wording of messages").await;
    b.screenshot("desk-wording-preview").await;
}
