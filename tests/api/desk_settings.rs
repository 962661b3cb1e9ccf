//! Administration at the desk, the property's settings (screen 10): amounts and rates typed
//! as people write them, every refusal next to its field with what was typed kept, a change
//! saved meanwhile caught, and other roles refused.

use crate::support::desk::{Browser, hidden, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_changes_the_settings_with_errors_in_place() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/settings").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("Guest registration"));
    let csrf = Browser::csrf(&page);
    let version = hidden(&page.text, "version").unwrap();
    let form = |tz: &'static str, rate: &'static str, amount: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("version", version.clone()),
            ("name", "Hotel Mare".to_string()),
            ("time_zone", tz.into()),
            ("currency", "eur".into()),
            ("country", "it".into()),
            ("invoice_series", "B-{year}".into()),
            ("default_tax_rate", rate.into()),
            ("city_tax", "charged".into()),
            ("city_tax_amount", amount.into()),
            ("city_tax_rate", "".into()),
            ("city_tax_max_nights", "7".into()),
            ("city_tax_exempt_under_age", "14".into()),
        ]
    };
    let post = |f: Vec<(&'static str, String)>| {
        let a = &a;
        async move {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            a.post("/admin/settings", &pairs).await
        }
    };
    let bad = post(form("Mars/Base", "ten", "")).await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    for id in [
        "time_zone-error",
        "default_tax_rate-error",
        "city_tax_amount-error",
    ] {
        assert!(
            bad.text.contains(&format!("id=\"{id}\"")),
            "{id}: {}",
            bad.text
        );
    }
    assert!(bad.text.contains("Write a rate such as 10 or 9.5."));
    assert!(bad.text.contains("value=\"Mars/Base\"") && bad.text.contains("value=\"Hotel Mare\""));
    let unchanged = app.get("/v1/settings").await.expect(200).body;
    assert_ne!(unchanged["name"], "Hotel Mare");

    let done = post(form("Europe/Rome", "10", "2,50")).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let after = a.get(&done.header("location").unwrap()).await;
    assert!(after.text.contains("The settings are saved."));
    assert!(after.text.contains("value=\"2.50\""), "{}", after.text);
    let s = app.get("/v1/settings").await.expect(200).body;
    assert_eq!(s["name"], "Hotel Mare");
    assert_eq!(s["currency"], "EUR");
    assert_eq!(s["country"], "IT");
    assert_eq!(s["invoice_series"], "B-{year}");
    assert_eq!(s["default_tax_rate"], 1000);
    assert_eq!(s["city_tax"]["amount_per_person_night"], 250);
    assert_eq!(s["city_tax"]["max_nights"], 7);
    assert_eq!(s["city_tax"]["exempt_under_age"], 14);

    // The old page's version: someone saved meanwhile; what was typed stays.
    let mut stale = form("Europe/Zagreb", "25", "1");
    stale[2] = ("name", "Hotel Jadran".into());
    let caught = post(stale).await;
    assert_eq!(caught.status, 409, "{}", caught.text);
    assert!(caught.text.contains("Someone else saved the settings"));
    assert!(caught.text.contains("value=\"Hotel Jadran\""));
    assert_eq!(app.get("/v1/settings").await.body["name"], "Hotel Mare");

    let fd = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &fd).await;
    assert_eq!(m.get("/admin/settings").await.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn today_warns_while_rooms_carry_no_vat() {
    let app = spawn_app().await;
    app.put(
        "/v1/settings",
        serde_json::json!({"country": "IT", "default_tax_rate": 0}),
    )
    .await
    .expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert!(
        today.text.contains("The usual VAT rate on rooms is 0 %")
            && today.text.contains("Ask an administrator"),
        "{}",
        today.text
    );
    app.put(
        "/v1/settings",
        serde_json::json!({"default_tax_rate": 1000}),
    )
    .await
    .expect(200);
    assert!(!b.get("/").await.text.contains("VAT rate on rooms is 0"));
}

/// The seller's particulars from the settings page: a name left out is refused at its field,
/// a partita IVA whose check digit is wrong at its own; a good seller is saved and read back.
#[tokio::test(flavor = "multi_thread")]
async fn the_seller_is_set_from_the_settings_page() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/settings").await;
    assert!(
        page.text.contains("The seller on invoices"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let send = |version: String, name: &'static str, vat: &'static str| {
        let (a, csrf) = (&a, csrf.clone());
        async move {
            let f = [
                ("csrf", csrf.as_str()),
                ("version", version.as_str()),
                ("name", "Albergo Sole"),
                ("time_zone", "Europe/Rome"),
                ("currency", "EUR"),
                ("country", "IT"),
                ("invoice_series", "{year}"),
                ("default_tax_rate", "10"),
                ("city_tax", "none"),
                ("seller_legal_name", name),
                ("seller_line1", "Via del Mare 1"),
                ("seller_postal_code", "47921"),
                ("seller_city", "Rimini"),
                ("seller_vat_id", vat),
                ("seller_tax_code", ""),
            ];
            a.post("/admin/settings", &f).await
        }
    };
    let version = hidden(&page.text, "version").unwrap();
    let nameless = send(version.clone(), "", "IT 06363391001").await;
    assert_eq!(nameless.status, 422, "{}", nameless.text);
    assert!(nameless.text.contains("id=\"seller_legal_name-error\""));
    let bad = send(version.clone(), "Sole s.r.l.", "IT 06363391002").await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains("id=\"seller_vat_id-error\""),
        "{}",
        bad.text
    );
    assert!(bad.text.contains("must be the partita IVA"));
    assert!(
        bad.text.contains("value=\"Rimini\""),
        "what was typed stays"
    );
    let done = send(version, "Sole s.r.l.", "IT 06363391001").await;
    assert_eq!(done.status, 303, "{}", done.text);
    let s = app.get("/v1/settings").await.expect(200).body;
    assert_eq!(s["seller"]["legal_name"], "Sole s.r.l.");
    assert_eq!(s["seller"]["address"]["postal_code"], "47921");
    let again = a.get("/admin/settings").await;
    assert!(again.text.contains("value=\"Sole s.r.l.\""));
}
