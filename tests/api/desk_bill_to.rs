//! Who the invoice goes to, at the desk (issue 30, part 3): the check-out and sale pages bill
//! the guest by default, or a company with its name, VAT number and address; an OIB with a
//! wrong check digit is marked at its field with everything typed kept, and the invoice
//! prints the company's particulars.

use serde_json::json;

use crate::support::desk::{Browser, staff, value_of};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn a_company_is_billed_at_check_out_and_at_a_sale() {
    let app = spawn_app().await;
    app.put("/v1/settings", crate::support::in_country("HR"))
        .await
        .expect(200);
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("7", &rt).await;
    let g = app.guest("Marko", "Kovač").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
            "arrival": day(0), "departure": day(1), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let path = format!("/reservations/{r}/check-out");
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("Invoice to") && page.text.contains("name=\"bill_vat_id\""),
        "{}",
        page.text
    );
    assert!(
        page.text.contains("value=\"person\" checked"),
        "the guest by default"
    );
    let csrf = Browser::csrf(&page);
    let mut form = vec![
        ("csrf", csrf.as_str()),
        ("payment_method", "card"),
        ("bill_kind", "business"),
        ("bill_name", "Jadran d.o.o."),
        ("bill_vat_id", "69435151531"),
        ("bill_line1", "Obala 3"),
        ("bill_city", "Split"),
        ("bill_country", "Croatia"),
    ];
    let refused = b.post(&path, &form).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"bill_vat_id-error\""),
        "{}",
        refused.text
    );
    assert_eq!(
        value_of(&refused.text, "bill_name").as_deref(),
        Some("Jadran d.o.o."),
        "typed kept"
    );
    assert!(refused.text.contains("value=\"business\" checked"));
    assert_eq!(
        app.get(&format!("/v1/reservations/{r}")).await.body["status"],
        "checked_in"
    );
    form[4] = ("bill_vat_id", "HR 69435151530");
    let done = b.post(&path, &form).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let to = done.header("location").unwrap();
    let invoice = app.get(&format!("/v1/reservations/{r}")).await.body["invoice_id"]
        .as_str()
        .unwrap()
        .to_string();
    let bill_to = app.get(&format!("/v1/invoices/{invoice}")).await.body["bill_to"].clone();
    assert_eq!(bill_to["kind"], "business");
    assert_eq!(bill_to["vat_id"], "HR 69435151530");
    assert_eq!(
        bill_to["address"]["country"], "HR",
        "the country by its name, stored as its code"
    );
    let shown = b.get(&to).await;
    assert!(
        shown.text.contains("Jadran d.o.o.") && shown.text.contains("VAT no. HR 69435151530"),
        "{}",
        shown.text
    );

    // A sale to a company: a company without its VAT number is refused at that field.
    let sale = b.get(&format!("/invoices/new?guest={g}")).await;
    assert!(sale.text.contains("name=\"bill_kind\""), "{}", sale.text);
    let csrf = Browser::csrf(&sale);
    let key = value_of(&sale.text, "key").unwrap();
    let mut f = vec![
        ("csrf", csrf.as_str()),
        ("key", key.as_str()),
        ("guest", g.as_str()),
        ("rows", "1"),
        ("l0_description", "Conference room"),
        ("l0_quantity", "1"),
        ("l0_unit_price", "150"),
        ("method", "bank_transfer"),
        ("step", "sell"),
        ("bill_kind", "business"),
        ("bill_name", "Jadran d.o.o."),
    ];
    let missing = b.post("/invoices/new", &f).await;
    assert_eq!(missing.status, 422, "{}", missing.text);
    assert!(
        missing.text.contains("id=\"bill_vat_id-error\""),
        "{}",
        missing.text
    );
    f.push(("bill_vat_id", "69435151530"));
    let sold = b.post("/invoices/new", &f).await;
    assert_eq!(sold.status, 303, "{}", sold.text);
}
