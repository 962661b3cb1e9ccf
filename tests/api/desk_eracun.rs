//! E-invoices at the desk: the invoice page says where its e-invoice stands and offers the
//! XML; the compliance centre lists e-invoices on their way in words; a refusal is shown
//! with the reason; the room types take a KPD code, a wrong one marked at its field.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::eracun::{company, einvoice_is, hotel, stay_billed};
use crate::support::fiscal::later;
use crate::support::mer_sim::{Fault, Sim};

#[tokio::test(flavor = "multi_thread")]
async fn the_invoice_page_shows_the_e_invoice_and_offers_its_xml() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    let password = staff(&app, "marta", "admin").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    for wanted in [
        ">E-invoice</h2>",
        "sent; waiting for the buyer to receive it",
        "moj-eRačun",
        &format!("href=\"/invoices/{id}/einvoice.xml\""),
    ] {
        assert!(page.text.contains(wanted), "{wanted}: {}", page.text);
    }
    let xml = b.get(&format!("/invoices/{id}/einvoice.xml")).await;
    assert_eq!(xml.status, 200);
    assert_eq!(xml.text, sim.docs()[0].xml, "the document as sent");
    let centre = b.get("/admin/compliance").await;
    assert!(
        centre
            .text
            .contains("sent; waiting for the buyer to receive it"),
        "{}",
        centre.text
    );
    assert!(centre.text.contains("Croatia, e-invoices to businesses"));

    later(&app, 11);
    einvoice_is(&app, id, "delivered").await;
    later(&app, 11);
    einvoice_is(&app, id, "fiscalized").await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert!(
        page.text.contains("delivered and fiscalized"),
        "{}",
        page.text
    );

    // A sale to a guest has no e-invoice.
    let guest = app.guest("Ivo", "Ivić").await;
    let sale = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "cash", "lines": [
                {"description": "Kava", "quantity": 1, "unit_price": 250}]}),
        )
        .await
        .expect(201)
        .id();
    let none = b.get(&format!("/invoices/{sale}/einvoice.xml")).await;
    assert_eq!(none.status, 404);
    assert!(
        none.text.contains("This invoice has no e-invoice"),
        "{}",
        none.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_e_invoice_is_shown_with_its_reason_in_a_browser() {
    let Some(c) = chrome(1280, 2200).await else {
        return;
    };
    let sim = Sim::start().await;
    sim.fault(Fault::RefuseFiscalization("S006", "Neispravan OIB kupca"));
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    let password = staff(&app, "ana", "admin").await;
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "ana", &password).await;
    c.client
        .goto(&format!("{base}/invoices/{id}"))
        .await
        .unwrap();
    c.wait_for(Locator::Css("section.fiscal")).await;
    c.axe("invoice with an e-invoice").await;
    c.screenshot("desk-invoice-einvoice-sent").await;
    later(&app, 11);
    einvoice_is(&app, id, "delivered").await;
    later(&app, 11);
    einvoice_is(&app, id, "rejected").await;
    c.client
        .goto(&format!("{base}/invoices/{id}"))
        .await
        .unwrap();
    let text = c
        .wait_for(Locator::Css("section.fiscal"))
        .await
        .text()
        .await
        .unwrap();
    assert!(text.contains("refused"), "{text}");
    assert!(text.contains("S006: Neispravan OIB kupca"), "{text}");
    c.screenshot("desk-invoice-einvoice-refused").await;
    c.client
        .goto(&format!("{base}/admin/compliance"))
        .await
        .unwrap();
    let centre = c.wait_for(Locator::Css("main")).await.text().await.unwrap();
    assert!(centre.contains("reverse it with a credit note"), "{centre}");
    assert!(
        centre.contains("refused by the tax administration")
            && !centre.contains("correct and send again"),
        "it cannot go again under its number: {centre}"
    );
    let buttons = c
        .client
        .find_all(Locator::Css("tbody button"))
        .await
        .unwrap();
    assert!(buttons.is_empty(), "no Send again for it");
    c.axe("compliance centre with an e-invoice").await;
    c.screenshot("desk-compliance-einvoice").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_room_type_takes_a_kpd_code_and_a_wrong_one_is_marked() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let rt = app
        .post(
            "/v1/room-types",
            json!({"code": "APT", "name": "Apartman", "max_occupancy": 4, "base_rate": 9000,
                   "kpd_code": "55.20.01"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(rt["kpd_code"], "55.20.01");
    let bad = app
        .post(
            "/v1/room-types",
            json!({"code": "X", "name": "X", "max_occupancy": 1, "base_rate": 1,
                   "kpd_code": "5510"}),
        )
        .await
        .expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "kpd_code", "{}", bad.text);
    assert!(bad.text.contains("55.10.00"), "{}", bad.text);
    let password = staff(&app, "marta", "admin").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get("/admin/rooms").await;
    assert!(page.text.contains("name=\"kpd_code\""), "{}", page.text);
}
