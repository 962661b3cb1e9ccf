//! Countries by name at the desk (issue 29, item 2): a guest's nationality, birth country,
//! document country and address country are typed or picked by name in the page's language
//! ("Germania", "Njemačka") and stored as ISO codes; a name that is no country is refused
//! at its field, what was typed kept; the form and the guest's page show a stored code by
//! its name.

use serde_json::json;

use crate::support::desk::{Browser, speak, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn countries_are_typed_and_shown_by_name() {
    let app = spawn_app().await;
    let id = app
        .post(
            "/v1/guests",
            json!({"first_name": "Jana", "last_name": "Novak"}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    speak(&b, "it").await;
    let form = b.get(&format!("/guests/{id}/edit")).await;
    assert!(form.text.contains(r#"list="countries""#), "{}", form.text);
    assert!(
        form.text.contains(r#"<option value="Germania">"#),
        "{}",
        form.text
    );
    let csrf = Browser::csrf(&form);
    let send = |document_country: &'static str, version: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("version", version.to_string()),
            ("first_name", "Jana".to_string()),
            ("last_name", "Novak".to_string()),
            ("nationality", "Germania".to_string()),
            ("document_type", "passport".to_string()),
            ("document_number", "C01X00T47".to_string()),
            ("document_country", document_country.to_string()),
            ("line1", "Ilica 1".to_string()),
            ("country", "croazia".to_string()),
        ]
    };
    let post = |form: Vec<(&'static str, String)>| {
        let b = &b;
        let path = format!("/guests/{id}");
        async move {
            let refs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            b.post(&path, &refs).await
        }
    };

    // A name that is no country: refused at its field in words, everything typed kept.
    let r = post(send("Atlantide", "1")).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(
        r.text.contains(r#"id="document_country-error""#),
        "{}",
        r.text
    );
    assert!(r.text.contains("Scegli un paese"), "{}", r.text);
    assert!(
        r.text.contains(r#"value="Atlantide""#) && r.text.contains(r#"value="Germania""#),
        "{}",
        r.text
    );

    // Names in any of the desk's languages, stored as codes.
    let r = post(send("Njemačka", "1")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let g = app.get(&format!("/v1/guests/{id}")).await.body;
    assert_eq!(g["nationality"], "DE", "{g}");
    assert_eq!(g["document"]["issuing_country"], "DE", "{g}");
    assert_eq!(g["address"]["country"], "HR", "{g}");

    // Shown by name in the page's language.
    speak(&b, "hr").await;
    let form = b.get(&format!("/guests/{id}/edit")).await;
    assert!(form.text.contains(r#"value="Njemačka""#), "{}", form.text);
    assert!(form.text.contains(r#"value="Hrvatska""#), "{}", form.text);
    let page = b.get(&format!("/guests/{id}")).await;
    assert!(
        page.text.contains("Njemačka") && page.text.contains("Ilica 1, Hrvatska"),
        "the guest's page names the countries: {}",
        page.text
    );
}
