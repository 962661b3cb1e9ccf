//! Places by name at the desk (issue 29, item 2): the birth-place and document-place fields
//! offer the municipalities of the imported places table as the receptionist types
//! ("fir" gives Firenze, accents and case aside), current ones only and never a foreign
//! state, each with its province; a role that may not write guests is refused; without
//! registration nothing is offered. In a real browser, typing fills the field's list.

use fantoccini::Locator;
use serde_json::json;

use crate::support::alloggiati_sim::Sim;
use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::registration::{day, hotel};
use crate::support::spawn_app;

/// A hotel registering with the Alloggiati simulator (its sample places loaded), and a
/// guest to edit.
async fn registering_hotel() -> (Sim, crate::support::TestApp, String) {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let g = app
        .post(
            "/v1/guests",
            json!({"first_name": "Pia", "last_name": "Rosso"}),
        )
        .await
        .expect(201)
        .id();
    (sim, app, g)
}

#[tokio::test(flavor = "multi_thread")]
async fn places_are_offered_as_they_are_typed() {
    let (_sim, app, g) = registering_hotel().await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;

    let form = b.get(&format!("/guests/{g}/edit")).await;
    assert!(
        form.text
            .contains(r#"name="birth_municipality" value="" list="places""#),
        "{}",
        form.text
    );
    assert!(form.text.contains(r#"<datalist id="places"></datalist>"#));

    let fir = b.get("/places?birth_municipality=fir").await;
    assert_eq!(fir.status, 200);
    assert_eq!(
        fir.text.trim(),
        r#"<option value="Firenze">Firenze (FI)</option>"#
    );
    // Any field's name (a companion's carry a prefix); accents and case aside.
    let ro = b.get("/places?guest_1_document_place=R%C3%B3").await;
    assert!(
        ro.text
            .contains(r#"<option value="Roma">Roma (RM)</option>"#),
        "{}",
        ro.text
    );
    // Lecco in Milan's province ended in 1991: only today's Lecco is offered.
    let lecco = b.get("/places?birth_municipality=lecco").await;
    assert_eq!(lecco.text.matches("<option").count(), 1, "{}", lecco.text);
    assert!(lecco.text.contains("Lecco (LC)"));
    // Foreign states are countries, not places; one letter is too little to look up.
    assert_eq!(
        b.get("/places?birth_municipality=germ").await.text.trim(),
        ""
    );
    assert_eq!(b.get("/places?birth_municipality=r").await.text.trim(), "");

    let password = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &password).await;
    let refused = h.get("/places?birth_municipality=fir").await;
    assert!(!refused.text.contains("Firenze"), "{}", refused.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_registration_no_place_is_offered() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let r = b.get("/places?birth_municipality=fir").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text.trim(), "");
}

#[tokio::test(flavor = "multi_thread")]
async fn typing_a_place_fills_the_fields_list_in_a_browser() {
    let Some(b) = chrome(1366, 900).await else {
        return;
    };
    let (_sim, app, g) = registering_hotel().await;
    let password = staff(&app, "marta", "front_desk").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    b.client
        .goto(&format!("{base}/guests/{g}/edit"))
        .await
        .unwrap();
    b.client
        .find(Locator::Id("birth_municipality"))
        .await
        .unwrap()
        .send_keys("Fire")
        .await
        .unwrap();
    let option = b
        .wait_for(Locator::Css(r#"#places option[value="Firenze"]"#))
        .await;
    assert_eq!(option.html(true).await.unwrap(), "Firenze (FI)");
    b.screenshot("desk-place-picker").await;
}
