//! A guest's Italian codice fiscale (issue 32, part 1): taken in any case and with spaces,
//! stored upper-case, refused at its field with the rule when its shape or check character
//! is wrong, cleared with null; the desk's guest page asks it and keeps what was typed.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_has_a_checked_codice_fiscale() {
    let app = spawn_app().await;
    let g = app
        .post(
            "/v1/guests",
            json!({"first_name": "Mario", "last_name": "Rossi", "tax_code": "rssmra 85t10 a562s"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(g["tax_code"], "RSSMRA85T10A562S", "{g}");
    let id = g["id"].as_str().unwrap();
    let bad = app
        .post(
            "/v1/guests",
            json!({"first_name": "Maria", "last_name": "Rossi", "tax_code": "RSSMRA85T10A562T"}),
        )
        .await
        .expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "tax_code", "{}", bad.text);
    assert_eq!(bad.body["errors"][0]["code"], "invalid_codice_fiscale");
    assert!(bad.text.contains("check character"), "{}", bad.text);
    let cleared = app
        .put(&format!("/v1/guests/{id}"), json!({"tax_code": null}))
        .await
        .expect(200)
        .body;
    assert!(cleared["tax_code"].is_null(), "{cleared}");

    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let form = b.get(&format!("/guests/{id}/edit")).await;
    assert!(form.text.contains("name=\"tax_code\""), "{}", form.text);
    assert!(form.text.contains("Italian tax code (codice fiscale)"));
    let csrf = Browser::csrf(&form);
    let path = format!("/guests/{id}");
    let send = |code: &'static str| {
        let (b, path, csrf) = (&b, path.clone(), csrf.clone());
        async move {
            let form = [
                ("csrf", csrf.as_str()),
                ("version", "2"),
                ("first_name", "Mario"),
                ("last_name", "Rossi"),
                ("tax_code", code),
            ];
            b.post(&path, &form).await
        }
    };
    let refused = send("RSSMRA85T10A562X").await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"tax_code-error\""),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("value=\"RSSMRA85T10A562X\""),
        "what was typed is kept"
    );
    let saved = send("RSSMRA85T10A562S").await;
    assert!(saved.status.as_u16() < 400, "{}", saved.text);
    let g = app.get(&format!("/v1/guests/{id}")).await.body;
    assert_eq!(g["tax_code"], "RSSMRA85T10A562S", "{g}");
    let page = b.get(&format!("/guests/{id}")).await;
    assert!(
        page.text.contains("RSSMRA85T10A562S"),
        "the guest's page shows it: {}",
        page.text
    );
}

/// A business bill-to in Italy names where SdI delivers: its recipient code (upper-cased) or
/// a PEC address; a wrong one is refused at its field. A private guest is billed by their
/// codice fiscale.
#[tokio::test(flavor = "multi_thread")]
async fn the_buyer_says_where_sdi_delivers() {
    let app = spawn_app().await;
    app.put("/v1/settings", crate::support::in_country("IT"))
        .await
        .expect(200);
    let guest = app
        .post(
            "/v1/guests",
            json!({"first_name": "Mario", "last_name": "Rossi", "tax_code": "RSSMRA85T10A562S"}),
        )
        .await
        .expect(201)
        .id();
    let sale = |bill_to: serde_json::Value| {
        json!({"guest_id": guest, "payment_method": "cash", "bill_to": bill_to,
               "lines": [{"description": "Caffè", "quantity": 1, "unit_price": 150}]})
    };
    let person = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "cash",
                   "lines": [{"description": "Caffè", "quantity": 1, "unit_price": 150}]}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(
        person["bill_to"]["tax_code"], "RSSMRA85T10A562S",
        "{person}"
    );
    let company = |extra: serde_json::Value| {
        let mut b = json!({"kind": "business", "name": "Sole S.r.l.", "vat_id": "IT06363391001",
                           "address": {"line1": "Via Roma 1", "city": "Firenze", "country": "IT"}});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    let bill = |extra: serde_json::Value| app.post("/v1/invoices", sale(company(extra)));
    let billed = bill(json!({"sdi_code": "m5uxcr1"})).await.expect(201).body;
    assert_eq!(billed["bill_to"]["sdi_code"], "M5UXCR1", "{billed}");
    let bad = bill(json!({"sdi_code": "M5U"})).await.expect(422);
    assert_eq!(
        bad.body["errors"][0]["field"], "bill_to.sdi_code",
        "{}",
        bad.text
    );
    assert!(bad.text.contains("recipient code"), "{}", bad.text);
    let bad = bill(json!({"pec": "not an address"})).await.expect(422);
    assert_eq!(
        bad.body["errors"][0]["field"], "bill_to.pec",
        "{}",
        bad.text
    );
    let by_pec = bill(json!({"pec": "fatture@pec.sole.it"}))
        .await
        .expect(201)
        .body;
    assert_eq!(by_pec["bill_to"]["pec"], "fatture@pec.sole.it");

    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/new?guest={guest}")).await;
    assert!(
        page.text.contains("name=\"bill_sdi_code\""),
        "{}",
        page.text
    );
    assert!(page.text.contains("name=\"bill_pec\""));
}
