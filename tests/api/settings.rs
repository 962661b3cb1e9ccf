//! `GET/PUT /v1/settings`.

use serde_json::json;

use crate::support::spawn_app;

#[tokio::test]
async fn settings_have_defaults_and_change_with_if_match() {
    let app = spawn_app().await;
    let s = app.get("/v1/settings").await.expect(200);
    assert_eq!(s.body["time_zone"], "UTC");
    assert_eq!(s.body["currency"], "EUR");
    assert_eq!(s.body["invoice_series"], "{year}");
    assert_eq!(s.header("etag").as_deref(), Some("\"1\""));
    assert_eq!(
        s.body["compliance"],
        json!({"registration": "none", "fiscal": "none"})
    );
    let mut read_back = s.body.clone();
    read_back["name"] = json!("Read back");
    app.put("/v1/settings", read_back)
        .await
        .expect(200)
        .header("etag")
        .expect("the read-only compliance field may be sent back");

    let changed = app
        .put_if(
            "/v1/settings",
            "\"2\"",
            json!({"name": "Hotel Mare", "time_zone": "Europe/Rome", "country": "IT",
                   "city_tax": {"amount_per_person_night": 300, "max_nights": 7, "exempt_under_age": 14}}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["name"], "Hotel Mare");
    assert_eq!(changed.body["city_tax"]["amount_per_person_night"], 300);
    assert_eq!(
        changed.body["currency"], "EUR",
        "absent fields keep their value"
    );
    assert_eq!(changed.header("etag").as_deref(), Some("\"3\""));

    app.put_if("/v1/settings", "\"1\"", json!({"name": "Stale"}))
        .await
        .problem(412, "precondition_failed");
    let cleared = app
        .put("/v1/settings", json!({"city_tax": null}))
        .await
        .expect(200);
    assert!(cleared.body["city_tax"].is_null());
}

#[tokio::test]
async fn bad_settings_list_every_field() {
    let app = spawn_app().await;
    let r = app
        .put(
            "/v1/settings",
            json!({"time_zone": "Mars/Base", "currency": "EURO", "country": "XX", "default_tax_rate": -1,
                   "name": null, "invoice_series": "{month}"}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    for f in ["currency", "country", "default_tax_rate"] {
        assert!(
            fields.contains(&f.to_string()),
            "{f} missing from {fields:?}"
        );
    }
    assert_eq!(
        app.get("/v1/settings").await.body["version"],
        1,
        "nothing changed"
    );
    let r = app
        .put(
            "/v1/settings",
            json!({"time_zone": "Mars/Base", "name": null}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert!(
        fields.contains(&"time_zone".to_string()) && fields.contains(&"name".to_string()),
        "{fields:?}"
    );
}

/// The seller's particulars (VAT Directive art. 226): checked by the country's own VAT
/// number rule, required before a Croatian or Italian property issues an invoice.
#[tokio::test]
async fn a_croatian_property_invoices_only_once_the_seller_is_set() {
    let app = spawn_app().await;
    app.put(
        "/v1/settings",
        json!({"country": "HR", "time_zone": "Europe/Zagreb"}),
    )
    .await
    .expect(200);
    let guest = app.guest("Ivana", "Horvat").await;
    let sale = json!({"guest_id": guest, "payment_method": "cash",
        "lines": [{"description": "Wine", "quantity": 1, "unit_price": 1999}]});
    let refused = app.post("/v1/invoices", sale.clone()).await.expect(409);
    assert_eq!(refused.body["code"], "seller_particulars_missing");
    let detail = refused.body["detail"].as_str().unwrap();
    assert!(detail.contains("Administration › Settings"), "{detail}");

    let seller = |vat: &str, city: Option<&str>| {
        json!({"seller": {"legal_name": "Villa Mare d.o.o.", "vat_id": vat,
            "address": {"line1": "Obala 1", "postal_code": "21000", "city": city, "country": "HR"}}})
    };
    let bad = app
        .put("/v1/settings", seller("69435151531", None))
        .await
        .expect(422);
    let fields: Vec<&str> = bad.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["seller.vat_id", "seller.address.city"]);
    let set = app
        .put("/v1/settings", seller("HR 69435151530", Some("Split")))
        .await
        .expect(200);
    assert_eq!(set.body["seller"]["legal_name"], "Villa Mare d.o.o.");
    assert_eq!(set.body["seller"]["address"]["city"], "Split");
    let issued = app
        .post("/v1/invoices", sale.clone())
        .await
        .expect(201)
        .body;
    assert_eq!(issued["seller"]["vat_id"], "HR 69435151530");
    let id = issued["id"].as_str().unwrap();

    // The invoice keeps the seller it was issued by, and prints it.
    let renamed = json!({"seller": {"legal_name": "Villa Sole d.o.o.", "vat_id": "69435151530",
        "address": {"line1": "Riva 2", "city": "Split"}}});
    app.put("/v1/settings", renamed).await.expect(200);
    let kept = app
        .get(&format!("/v1/invoices/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(kept["seller"]["legal_name"], "Villa Mare d.o.o.");
    let password = crate::support::desk::staff(&app, "marta", "front_desk").await;
    let b = crate::support::desk::Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert!(
        page.text.contains(
            "Villa Mare d.o.o.<br>Obala 1<br>21000 Split<br>HR<br>VAT no. HR 69435151530"
        ),
        "{}",
        page.text
    );

    // Cleared again, the rule holds again; a property elsewhere is not held to it.
    app.put("/v1/settings", json!({"seller": null}))
        .await
        .expect(200);
    app.post("/v1/invoices", sale.clone()).await.expect(409);
    app.put("/v1/settings", json!({"country": "AT"}))
        .await
        .expect(200);
    app.post("/v1/invoices", sale).await.expect(201);
}
