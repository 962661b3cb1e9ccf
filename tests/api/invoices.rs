//! Invoices outside the stay: sales, credit notes, immutability.

use serde_json::json;

use crate::support::spawn_app;
use crate::support::stay::{amounts, hotel};

#[tokio::test]
async fn credit_notes_reverse_and_numbering_continues() {
    let app = spawn_app().await;
    let h = hotel(&app, 1).await;
    let sale = app
        .post(
            "/v1/invoices",
            json!({"guest_id": h.guest, "payment_method": "cash",
                   "lines": [{"description": "Bike rental", "quantity": 2, "unit_price": 1999, "tax_rate": 2200}]}),
        )
        .await
        .expect(201);
    let first = sale.body["number"].as_str().unwrap().to_string();
    assert_eq!(amounts(&sale.body["totals"]), (3277, 721, 3998));
    assert_eq!(sale.body["bill_to"]["name"], "Anna Rossi");
    let id = sale.id();
    app.post("/v1/invoices", json!({"corrects_invoice_id": id}))
        .await
        .problem(422, "validation_failed");
    let credit = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": id, "reason": "Wrong bike"}),
        )
        .await
        .expect(201);
    assert_eq!(credit.body["kind"], "credit_note");
    assert_eq!(credit.body["corrects_invoice_id"], id.as_str());
    assert_eq!(amounts(&credit.body["totals"]), (-3277, -721, -3998));
    let year = &first[..4];
    assert_eq!(credit.body["number"], format!("{year}-000002"));
    assert_eq!(
        app.get(&format!("/v1/invoices/{id}")).await.body["status"],
        "cancelled"
    );
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": id, "reason": "again"}),
    )
    .await
    .problem(409, "invalid_state_transition");
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": credit.id(), "reason": "x"}),
    )
    .await
    .problem(409, "invalid_state_transition");
    app.post(
        &format!("/v1/invoices/{id}/payments"),
        json!({"amount": 1, "method": "cash"}),
    )
    .await
    .problem(409, "invalid_state_transition");
    let next = app
        .post("/v1/invoices", json!({"guest_id": h.guest, "payment_method": "card", "lines": [{"description": "Bike", "quantity": 1, "unit_price": 1999}]}))
        .await
        .expect(201);
    assert_eq!(next.body["number"], format!("{year}-000003"));

    let numbers = |path: String| {
        let app = &app;
        async move {
            app.all(&path)
                .await
                .iter()
                .map(|i| i["number"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    let all = numbers("/v1/invoices".into()).await;
    assert_eq!(
        all,
        vec![
            first.clone(),
            format!("{year}-000002"),
            format!("{year}-000003")
        ],
        "issue date, then number"
    );
    assert_eq!(
        numbers("/v1/invoices?status=cancelled".into()).await,
        vec![first.clone()]
    );
    assert_eq!(
        numbers(format!("/v1/invoices?guest_id={}&status=issued", h.guest))
            .await
            .len(),
        2
    );
    let today = crate::support::day(0);
    assert_eq!(
        numbers(format!(
            "/v1/invoices?issued_from={today}&issued_to={today}"
        ))
        .await
        .len(),
        3
    );
    assert!(
        numbers("/v1/invoices?issued_to=2000-01-01".into())
            .await
            .is_empty()
    );
    app.get("/v1/invoices?status=void")
        .await
        .problem(400, "bad_request");
}

#[tokio::test]
async fn issued_invoices_cannot_be_changed_even_in_the_database() {
    let mut app = spawn_app().await;
    let h = hotel(&app, 1).await;
    let inv = app
        .post("/v1/invoices", json!({"guest_id": h.guest, "payment_method": "cash", "lines": [{"description": "Map", "quantity": 1, "unit_price": 500}]}))
        .await
        .expect(201)
        .id();
    app.stop().await;
    let conn = rusqlite::Connection::open(app.dir.as_ref().unwrap().path().join("innkeep.sqlite3"))
        .unwrap();
    for sql in [
        "UPDATE invoices SET gross = 1, net = 1, tax = 0",
        "UPDATE invoices SET number = 'X-1'",
        "UPDATE invoices SET status = 'issued', paid_amount = -5",
        "DELETE FROM invoices",
        "UPDATE invoice_lines SET unit_price = 1",
        "DELETE FROM invoice_lines",
    ] {
        let err = conn.execute(sql, []).expect_err(sql).to_string();
        assert!(
            err.contains("immutable") || err.contains("never deleted"),
            "{sql}: {err}"
        );
    }
    let gross: i64 = conn
        .query_row("SELECT gross FROM invoices WHERE id = ?1", [&inv], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(gross, 500);
}

/// A bill-to is a person or a business: a business buying in Croatia gives its OIB (checked
/// by its check digit; `HR` before it allowed), a foreign one its own number as it has it;
/// `tax_id`, the older name, is read as `vat_id` and answered equal to it; the default
/// addressee is the guest, as a person.
#[tokio::test]
async fn a_bill_to_is_a_person_or_a_business_with_its_vat_number() {
    let app = spawn_app().await;
    app.put("/v1/settings", crate::support::in_country("HR"))
        .await
        .expect(200);
    let g = app.guest("Ivana", "Horvat").await;
    let sale = |bill_to: serde_json::Value| {
        json!({"guest_id": g, "payment_method": "card", "bill_to": bill_to,
               "lines": [{"description": "Dinner", "quantity": 1, "unit_price": 4500}]})
    };
    let r = app
        .post(
            "/v1/invoices",
            sale(json!({"kind": "business", "name": "Jadran d.o.o."})),
        )
        .await;
    assert_eq!(
        (r.status.as_u16(), r.body["code"].as_str()),
        (422, Some("validation_failed"))
    );
    assert_eq!(r.body["errors"][0]["field"], "bill_to.vat_id", "{}", r.body);
    assert_eq!(r.body["errors"][0]["code"], "required");
    let r = app
        .post(
            "/v1/invoices",
            sale(json!({"name": "Jadran d.o.o.", "vat_id": "69435151531"})),
        )
        .await;
    assert_eq!(r.body["errors"][0]["field"], "bill_to.vat_id", "{}", r.body);
    assert_eq!(r.body["errors"][0]["code"], "invalid");
    let ok = app
        .post(
            "/v1/invoices",
            sale(
                json!({"kind": "business", "name": "Jadran d.o.o.", "tax_id": "HR 69435151530",
            "address": {"line1": "Obala 3", "city": "Split", "country": "HR"}}),
            ),
        )
        .await
        .expect(201);
    let b = &ok.body["bill_to"];
    assert_eq!(
        (
            b["kind"].as_str(),
            b["vat_id"].as_str(),
            b["tax_id"].as_str()
        ),
        (
            Some("business"),
            Some("HR 69435151530"),
            Some("HR 69435151530")
        )
    );
    // The older `tax_id` alone: a VAT number where it is one, else a tax code; it never
    // makes the buyer a business.
    let older = app
        .post(
            "/v1/invoices",
            sale(json!({"name": "Ivana Horvat", "tax_id": "RSSMRA80A01H501U"})),
        )
        .await
        .expect(201);
    let b = &older.body["bill_to"];
    assert_eq!(
        (
            b["kind"].as_str(),
            b["vat_id"].as_str(),
            b["tax_code"].as_str()
        ),
        (Some("person"), None, Some("RSSMRA80A01H501U"))
    );
    let abroad = app
        .post(
            "/v1/invoices",
            sale(json!({"kind": "business", "name": "Alpen GmbH",
            "vat_id": "DE123456789", "address": {"city": "München", "country": "DE"}})),
        )
        .await
        .expect(201);
    assert_eq!(abroad.body["bill_to"]["vat_id"], "DE123456789");
    let person = app
        .post(
            "/v1/invoices",
            json!({"guest_id": g, "payment_method": "cash",
               "lines": [{"description": "Coffee", "quantity": 1, "unit_price": 300}]}),
        )
        .await
        .expect(201);
    assert_eq!(person.body["bill_to"]["kind"], "person");
    assert_eq!(person.body["bill_to"]["name"], "Ivana Horvat");
}
