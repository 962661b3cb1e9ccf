//! The whole party at the desk (issue 29, item 2): a companion added on the reservation page
//! and on the check-in page, each guest named with the role the authority gives them, days
//! typed the page's way, a refused check-in saving nothing, and the Italian couple
//! registered at the Alloggiati simulator as head of family and member.

use serde_json::{Value, json};

use crate::support::alloggiati_sim::Sim;
use crate::support::desk::{Browser, fields_of, speak, staff, value_of};
use crate::support::registration::{DAY, WAIT, day, hotel, italian};
use crate::support::{TestApp, eventually};

async fn signed_in(app: &TestApp) -> Browser {
    let password = staff(app, "marta", "front_desk").await;
    Browser::sign_in(app, "marta", &password).await
}

/// A booking for `adults` arriving today, its primary guest `primary`, unassigned; and
/// the one room of its type.
async fn book(app: &TestApp, primary: Value, adults: u32) -> (String, String) {
    let rt = app.room_type("DBL", 3).await;
    let room = app.room("12", &rt).await;
    let g = app.post("/v1/guests", primary).await.expect(201).id();
    let departure = day() + chrono::Days::new(2);
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": DAY,
                   "departure": departure.to_string(), "adults": adults}),
        )
        .await
        .expect(201)
        .id();
    (r, room)
}

/// Mario Rossi, complete for Alloggiati.
fn mario() -> Value {
    let mut head = italian("Mario", "Rossi", "male", "1980-05-15", "Roma", "RM");
    head["document"] = json!({"type": "id_card", "number": "CA12345AB", "issuing_place": "Roma"});
    head
}

async fn guests_of(app: &TestApp, r: &str) -> Vec<Value> {
    let res = app.get(&format!("/v1/reservations/{r}")).await.body;
    let mut out = Vec::new();
    for id in res["guest_ids"].as_array().unwrap() {
        let id = id.as_str().unwrap();
        out.push(app.get(&format!("/v1/guests/{id}")).await.body);
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn the_italian_couple_is_registered_as_head_of_family_and_member() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let (r, room) = book(&app, mario(), 2).await;
    let b = signed_in(&app).await;
    let path = format!("/reservations/{r}/check-in");
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text
            .contains("Registration details of Mario Rossi · single guest"),
        "{}",
        page.text
    );
    assert!(page.text.contains("Add a companion"), "{}", page.text);
    assert!(
        page.text.contains("value=\"15/05/1980\""),
        "a stored day is shown the page's way: {}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let shown = fields_of(&page.text, "g0_");
    let mut form: Vec<(&str, &str)> = vec![("csrf", &csrf), ("room_id", &room)];
    form.extend(shown.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    form.extend([
        ("new_first_name", "Giulia"),
        ("new_last_name", "Rossi"),
        ("new_birth_date", "02/03/1982"),
        ("new_nationality", "IT"),
        ("new_birth_country", "IT"),
        ("new_birth_municipality", "Milano"),
    ]);
    // Her gender missing: refused, and nothing saved (she is not in the party yet).
    let refused = b.post(&path, &form).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"new_gender-error\""),
        "the missing gender is marked at the companion's field: {}",
        refused.text
    );
    assert_eq!(
        value_of(&refused.text, "new_first_name").as_deref(),
        Some("Giulia")
    );
    assert_eq!(
        value_of(&refused.text, "new_birth_date").as_deref(),
        Some("02/03/1982"),
        "what was typed stays"
    );
    assert_eq!(guests_of(&app, &r).await.len(), 1, "nothing half saved");

    form.push(("new_gender", "female"));
    let done = b.post(&path, &form).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let party = guests_of(&app, &r).await;
    assert_eq!(party.len(), 2);
    assert_eq!(party[1]["first_name"], "Giulia");
    assert_eq!(party[1]["birth_date"], "1982-03-02", "read the page's way");
    let res = app.get(&format!("/v1/reservations/{r}")).await.body;
    assert_eq!(res["status"], "checked_in", "{res}");
    let id = res["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string();
    let rows = eventually(WAIT, "the party is accepted", || async {
        let s = app
            .get(&format!("/v1/compliance/submissions/{id}"))
            .await
            .body;
        if s["status"] == "accepted" {
            Ok(s["rows"].clone())
        } else {
            Err(s["status"].clone())
        }
    })
    .await;
    let lines: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["line"].as_str().unwrap())
        .collect();
    assert!(
        lines[0].starts_with("17") && lines[0].contains("MARIO"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("19") && lines[1].contains("GIULIA"),
        "{lines:?}"
    );
    assert_eq!(sim.stored().len(), 2, "both stored at the authority");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_companion_is_added_on_the_reservation_page_while_the_booking_has_room() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let (r, _) = book(&app, mario(), 2).await;
    let mut b = signed_in(&app).await;
    let page = b.get(&format!("/reservations/{r}")).await;
    assert!(page.text.contains("Add a companion"), "{}", page.text);
    let csrf = Browser::csrf(&page);
    let path = format!("/reservations/{r}/companions");

    let nameless = b
        .post(&path, &[("csrf", &csrf), ("new_birth_date", "1/2/2010")])
        .await;
    assert_eq!(nameless.status, 422, "{}", nameless.text);
    assert!(
        nameless.text.contains("id=\"new_first_name-error\""),
        "{}",
        nameless.text
    );
    assert!(
        nameless.text.contains("value=\"01/02/2010\""),
        "{}",
        nameless.text
    );

    let bad_day = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("new_first_name", "Pia"),
                ("new_last_name", "Bo"),
                ("new_birth_date", "31/02/2010"),
            ],
        )
        .await;
    assert_eq!(bad_day.status, 422, "{}", bad_day.text);
    assert!(
        bad_day.text.contains("write the day as 15/03/1980"),
        "a day that does not exist is said the page's way: {}",
        bad_day.text
    );

    let added = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("new_first_name", "Giulia"),
                ("new_last_name", "Rossi"),
                ("new_birth_date", "02.03.1982."),
            ],
        )
        .await;
    assert_eq!(added.status, 303, "{}", added.text);
    assert_eq!(
        added.header("location").unwrap(),
        format!("/reservations/{r}?done=companion-added")
    );
    let party = guests_of(&app, &r).await;
    assert_eq!(party.len(), 2);
    assert_eq!(party[1]["birth_date"], "1982-03-02");

    let full = b.get(&added.header("location").unwrap()).await;
    assert!(
        full.text.contains("The companion is in the party"),
        "{}",
        full.text
    );
    assert!(
        !full.text.contains("Add a companion"),
        "the booking is for two: {}",
        full.text
    );
    let third = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("new_first_name", "Ugo"),
                ("new_last_name", "Neri"),
            ],
        )
        .await;
    assert_eq!(third.status, 422, "{}", third.text);
    assert_eq!(guests_of(&app, &r).await.len(), 2);

    // The check-in page now names Mario head of the family and Giulia a member.
    let check_in = b.get(&format!("/reservations/{r}/check-in")).await;
    assert!(
        check_in.text.contains("Mario Rossi · head of family")
            && check_in.text.contains("Giulia Rossi · family member"),
        "{}",
        check_in.text
    );
    b.language = Some("it".into());
    let it = b.get(&format!("/reservations/{r}/check-in")).await;
    assert!(it.text.contains("capofamiglia"), "{}", it.text);
}

/// In a real browser, in Croatian: the check-in page offers the companion, "Add companion"
/// keeps the receptionist on the page with the new member named, and axe finds nothing.
#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_the_companion_joins_from_the_check_in_page() {
    use crate::support::browser::chrome;
    use fantoccini::Locator;
    let Some(c) = chrome(1280, 1400).await else {
        return;
    };
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let (r, _) = book(&app, mario(), 2).await;
    let password = staff(&app, "marta", "front_desk").await;
    app.db()
        .write(|tx| {
            let u = innkeep::store::clients::user_by_name(tx, "marta")?.unwrap();
            innkeep::store::staff::set_language(tx, &u.id, Some("hr"))
        })
        .await
        .unwrap();
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "marta", &password).await;
    c.client
        .goto(&format!("{base}/reservations/{r}/check-in"))
        .await
        .unwrap();
    c.wait_for(Locator::Id("companion")).await;
    c.screenshot("desk-check-in-companion-hr").await;
    c.axe("check-in with a companion").await;
    for (id, text) in [
        ("new_first_name", "Giulia"),
        ("new_last_name", "Rossi"),
        ("new_birth_date", "02.03.1982."),
    ] {
        let f = c.client.find(Locator::Id(id)).await.unwrap();
        f.send_keys(text).await.unwrap();
    }
    c.click(Locator::Css("button[value=add]")).await;
    let legend = c
        .wait_for(Locator::XPath(
            "//legend[contains(., 'Giulia Rossi · član obitelji')]",
        ))
        .await;
    assert!(legend.text().await.unwrap().contains("Giulia Rossi"));
    let born = c.client.find(Locator::Id("g1_birth_date")).await.unwrap();
    assert_eq!(
        born.prop("value").await.unwrap().as_deref(),
        Some("02.03.1982."),
        "the day as Croatian writes it"
    );
    c.screenshot("desk-check-in-party-hr").await;
    assert_eq!(guests_of(&app, &r).await.len(), 2);

    // The booking's own page: the whole party, and the change form opened.
    c.client
        .goto(&format!("{base}/reservations/{r}"))
        .await
        .unwrap();
    c.click(Locator::Css("details.change summary")).await;
    c.wait_for(Locator::Id("change-nightly_rate")).await;
    c.screenshot("desk-reservation-change-hr").await;
    c.axe("the reservation with its change form open").await;

    // The list of bookings, in Croatian.
    c.client
        .goto(&format!("{base}/reservations"))
        .await
        .unwrap();
    c.wait_for(Locator::Css("table")).await;
    c.screenshot("desk-reservations-hr").await;
    c.axe("the bookings list").await;
}

/// What the authority's rules refuse is said in the page's language, with the guest's name
/// and what was typed: an Italian receptionist reads why Firenz cannot be registered.
#[tokio::test(flavor = "multi_thread")]
async fn a_registration_problem_is_said_in_the_pages_language() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let mut head = mario();
    head["birth_place"]["municipality"] = json!("Firenz");
    head["birth_place"]
        .as_object_mut()
        .unwrap()
        .remove("region");
    let (r, room) = book(&app, head, 1).await;
    let b = signed_in(&app).await;
    speak(&b, "it").await;
    let path = format!("/reservations/{r}/check-in");
    let page = b.get(&path).await;
    let csrf = Browser::csrf(&page);
    let shown = fields_of(&page.text, "g0_");
    let mut form: Vec<(&str, &str)> = vec![("csrf", &csrf), ("room_id", &room)];
    form.extend(shown.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let refused = b.post(&path, &form).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains(
            "Mario Rossi: Firenz non è un comune italiano nella tabella dei luoghi importata"
        ),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains("is not an Italian municipality"));
}
