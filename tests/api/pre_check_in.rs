//! Online pre-check-in: three days before arrival the guest gets a message in their
//! language with a signed link; the page it opens (no account) asks every member of the
//! party for what the registration needs, refuses in place with what was typed kept, and
//! saves the party and the arrival time at once; the desk then checks in without typing. A
//! link that is tampered with, or past its stay, opens nothing. Then the same in a real
//! browser, in Italian.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{Value, json};

use innkeep::config::mail::MailConfig;

use crate::support::TestApp;
use crate::support::alloggiati_sim::Sim as Alloggiati;
use crate::support::desk::{Browser, hidden};
use crate::support::registration::{day, hotel_configured};
use crate::support::smtp::Relay;

fn mail(relay: &Relay) -> MailConfig {
    relay.config("Hotel Miramare <desk@miramare.test>", None)
}

/// An Italian hotel registering with Alloggiati Web, a booking for two arriving in three
/// days by a guest written to in Italian, and the pre-arrival message's link.
async fn booked(relay: &Relay) -> (Alloggiati, TestApp, Value, String) {
    let sim = Alloggiati::start(day()).await;
    let cfg = mail(relay);
    let app = hotel_configured(&sim, |c| c.mail = Some(cfg.clone())).await;
    app.put(
        "/v1/settings",
        json!({"country": "IT", "name": "Hotel Miramare"}),
    )
    .await
    .expect(200);
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let guest = app
        .post(
            "/v1/guests",
            json!({"first_name": "Anna", "last_name": "De Luca", "email": "anna@example.com",
                   "language": "it"}),
        )
        .await
        .expect(201)
        .id();
    let arrival = day() + chrono::Days::new(3);
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": arrival,
                   "departure": arrival + chrono::Days::new(2), "adults": 2}),
        )
        .await
        .expect(201)
        .body;
    relay.wait_for(1, Duration::from_secs(10)).await;
    let svc =
        innkeep::service::Services::new(app.db().clone(), Default::default()).with_mail(Some(&cfg));
    let base = format!("http://{}", app.addr);
    let made = innkeep::service::messages::pre_arrivals(&svc, 3, Some(base.clone()))
        .await
        .unwrap();
    assert_eq!(made, 1);
    let again = innkeep::service::messages::pre_arrivals(&svc, 3, Some(base.clone()))
        .await
        .unwrap();
    assert_eq!(again, 0, "one pre-arrival message per booking");
    let taken = relay.wait_for(2, Duration::from_secs(10)).await;
    let text = taken[1].decoded();
    assert!(
        text.contains("Il suo soggiorno presso Hotel Miramare"),
        "{text}"
    );
    let start = text
        .find(&format!("{base}/pre-check-in/"))
        .expect("the link");
    let link: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
        .collect();
    (sim, app, r, link[base.len()..].to_string())
}

/// The form's fields for Anna and her companion Marco.
fn party(version: &str) -> Vec<(&'static str, String)> {
    [
        ("g0_version", version),
        ("g0_gender", "female"),
        ("g0_birth_date", "1985-02-03"),
        ("g0_nationality", "IT"),
        ("g0_birth_country", "IT"),
        ("g0_birth_municipality", "Roma"),
        ("g0_birth_region", "RM"),
        ("g0_document_type", "id_card"),
        ("g0_document_number", "CA12345AB"),
        ("g0_document_country", "IT"),
        ("g0_document_place", "Roma"),
        ("new_first_name", "Marco"),
        ("new_last_name", "De Luca"),
        ("new_gender", "male"),
        ("new_birth_date", "1983-07-14"),
        ("new_nationality", "IT"),
        ("new_birth_country", "IT"),
        ("new_birth_municipality", "Roma"),
        ("new_birth_region", "RM"),
        ("arrival_time", "18:30"),
        ("lang", "it"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guest_completes_the_party_online_and_the_desk_checks_in_without_typing() {
    let relay = Relay::start().await;
    let (_sim, app, r, path) = booked(&relay).await;
    let b = Browser::new(&app);
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("<html lang=\"it\">"), "in Italian");
    assert!(
        page.text.contains("Hotel Miramare, prenotazione"),
        "{}",
        page.text
    );
    assert!(page.text.contains("name=\"g0_document_number\""));
    assert!(
        page.text.contains("name=\"new_first_name\""),
        "the second guest"
    );
    let version = hidden(&page.text, "g0_version").unwrap();
    let post = |fields: Vec<(&'static str, String)>| {
        let (b, path) = (&b, path.clone());
        async move {
            let pairs: Vec<(&str, &str)> = fields.iter().map(|(a, v)| (*a, v.as_str())).collect();
            b.post(&path, &pairs).await
        }
    };
    // Without consent; then with an arrival time that is not one: each said, all kept.
    let refused = post(party(&version)).await;
    assert_eq!(refused.status, 422);
    let mut bad = party(&version);
    bad.push(("consent", "yes".into()));
    bad.retain(|(k, _)| *k != "arrival_time");
    bad.push(("arrival_time", "sera".into()));
    let refused = post(bad).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"arrival_time-error\""),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("value=\"CA12345AB\""),
        "what was typed is kept"
    );
    let mut good = party(&version);
    good.push(("consent", "yes".into()));
    let done = post(good).await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(done.text.contains("Grazie"), "{}", done.text);

    let id = r["id"].as_str().unwrap();
    let now = app
        .get(&format!("/v1/reservations/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(now["guest_ids"].as_array().unwrap().len(), 2);
    assert_eq!(now["pre_check_in"]["arrival_time"], "18:30");
    assert!(now["pre_check_in"]["completed_at"].is_string());
    // Today shows the arrival as checked in online, with the time.
    app.clock().set_now(
        format!("{}T08:00:00Z", day() + chrono::Days::new(3))
            .parse()
            .unwrap(),
    );
    let password = crate::support::desk::staff(&app, "marta", "front_desk").await;
    let desk = Browser::sign_in(&app, "marta", &password).await;
    let today = desk.get("/").await;
    assert!(
        today
            .text
            .contains("checked in online, arriving around 18:30"),
        "{}",
        today.text
    );
    let room = app.all("/v1/rooms").await[0]["id"].clone();
    app.clock().set_now(
        format!("{}T14:00:00Z", day() + chrono::Days::new(3))
            .parse()
            .unwrap(),
    );
    app.post(
        "/v1/check-in",
        json!({"reservation_id": id, "room_id": room}),
    )
    .await
    .expect(200);

    // A link changed by one character, or past its stay, opens nothing.
    let mut forged = path.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == 'A' { 'B' } else { 'A' });
    assert_eq!(b.get(&forged).await.status, 404);
    app.clock().set_now(
        format!("{}T10:00:00Z", day() + chrono::Days::new(7))
            .parse()
            .unwrap(),
    );
    assert_eq!(b.get(&path).await.status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pre_check_in_page_in_a_browser_in_italian() {
    let relay = Relay::start().await;
    let (_sim, app, _r, path) = booked(&relay).await;
    let Some(b) = crate::support::browser::chrome_speaking(1280, 2400, "it").await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    b.client.goto(&format!("{base}{path}")).await.unwrap();
    b.wait_for(Locator::Css("form")).await;
    b.axe("Pre-check-in").await;
    b.screenshot("pre-check-in-it").await;
    let fill = |name: &'static str, value: &'static str| {
        let b = &b;
        async move {
            let e = b.client.find(Locator::Id(name)).await.unwrap();
            if e.tag_name().await.unwrap() == "select" {
                e.select_by_value(value).await.unwrap();
            } else {
                e.send_keys(value).await.unwrap();
            }
        }
    };
    for (k, v) in [
        ("g0_gender", "female"),
        ("g0_birth_date", "03/02/1985"),
        ("g0_nationality", "Italia"),
        ("g0_birth_country", "Italia"),
        ("g0_birth_municipality", "Roma"),
        ("g0_birth_region", "RM"),
        ("g0_document_type", "id_card"),
        ("g0_document_number", "CA12345AB"),
        ("g0_document_country", "Italia"),
        ("g0_document_place", "Roma"),
        ("new_first_name", "Marco"),
        ("new_last_name", "De Luca"),
        ("new_gender", "male"),
        ("new_birth_date", "14/07/1983"),
        ("new_nationality", "Italia"),
        ("new_birth_country", "Italia"),
        ("new_birth_municipality", "Roma"),
        ("new_birth_region", "RM"),
    ] {
        fill(k, v).await;
    }
    b.client
        .execute(
            "document.getElementById('arrival_time').value = '18:30'",
            vec![],
        )
        .await
        .unwrap();
    b.click(Locator::Id("consent")).await;
    b.click(Locator::Css("form button.primary")).await;
    let done = b.main_text_with("Grazie").await;
    assert!(done.contains("Grazie"), "{done}");
    b.screenshot("pre-check-in-done-it").await;
}
