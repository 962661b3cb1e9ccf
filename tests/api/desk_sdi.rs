//! Italian e-invoices at the desk: the invoice page says in words where the FatturaPA stands
//! at SdI and offers the file; the compliance centre names the scheme; a discard is shown with
//! what to fix, in a browser.

use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::sdi::{hotel, italian_guest, settles, stay};
use crate::support::sdi_sim::{Fault, Sim};

#[tokio::test(flavor = "multi_thread")]
async fn the_invoice_page_shows_the_fatturapa_and_offers_the_file() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "fiscalized").await;
    let password = staff(&app, "giulia", "admin").await;
    let b = Browser::sign_in(&app, "giulia", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    for wanted in [
        "accepted by SdI: the invoice is issued",
        "Invoicetronic",
        &format!("href=\"/invoices/{id}/einvoice.xml\""),
    ] {
        assert!(page.text.contains(wanted), "{wanted}: {}", page.text);
    }
    let file = b.get(&format!("/invoices/{id}/einvoice.xml")).await;
    assert_eq!(file.status, 200);
    assert_eq!(file.text, sim.sent()[0].xml, "the file as sent");
    let centre = b.get("/admin/compliance").await;
    assert!(
        centre
            .text
            .contains("Italy, electronic invoices (FatturaPA through SdI)"),
        "{}",
        centre.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_discarded_fatturapa_is_shown_with_what_to_fix_in_a_browser() {
    let Some(c) = chrome(1280, 1800).await else {
        return;
    };
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    sim.fault(Fault::Discard(
        "00305",
        "IdFiscaleIVA del CessionarioCommittente non valido",
    ));
    let company = json!({"kind": "business", "name": "Viaggi S.r.l.", "vat_id": "IT01234567897",
        "sdi_code": "M5UXCR1", "address": {"line1": "Corso Italia 8", "city": "Milano",
        "postal_code": "20122", "country": "IT"}});
    let out = stay(
        &app,
        italian_guest(),
        json!({"pay_later": true, "bill_to": company}),
    )
    .await
    .expect(200)
    .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "rejected").await;
    let password = staff(&app, "giulia", "admin").await;
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "giulia", &password).await;
    c.client
        .goto(&format!("{base}/invoices/{id}"))
        .await
        .unwrap();
    let body = c
        .wait_for(fantoccini::Locator::Css("section.fiscal"))
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("discarded by SdI"), "{body}");
    assert!(
        body.contains("correct the VAT number on the bill-to"),
        "{body}"
    );
    c.axe("invoice with a discarded FatturaPA").await;
    c.screenshot("desk-invoice-sdi-discarded").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_discarded_invoice_is_put_right_from_its_page() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    sim.fault(Fault::Discard("00306", "CodiceFiscale non valido"));
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "rejected").await;
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": id, "reason": "Scartata dallo SdI"}),
    )
    .await
    .expect(201);
    // The receptionist corrects the guest's codice fiscale, then issues the corrected invoice.
    let guest = out["invoice"]["guest_id"].as_str().unwrap();
    app.put(
        &format!("/v1/guests/{guest}"),
        json!({"tax_code": "MRTMTT91D08F205J"}),
    )
    .await
    .expect(200);
    let password = staff(&app, "giulia", "admin").await;
    let b = Browser::sign_in(&app, "giulia", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert!(
        page.text.contains("Issue the corrected invoice"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let wrong = b
        .post(
            &format!("/invoices/{id}/reissue"),
            &[
                ("csrf", &csrf),
                ("bill_kind", "business"),
                ("bill_name", "Viaggi S.r.l."),
                ("bill_vat_id", "IT0123"),
            ],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("value=\"IT0123\""),
        "what was typed stays"
    );
    assert!(wrong.text.contains("bill_vat_id-error"), "{}", wrong.text);
    let issued = b
        .post(
            &format!("/invoices/{id}/reissue"),
            &[("csrf", &csrf), ("bill_kind", "person")],
        )
        .await;
    assert_eq!(issued.status, 303, "{}", issued.text);
    let to = issued.header("location").unwrap();
    assert!(to.ends_with("?done=reissued"), "{to}");
    let new_id = to
        .trim_start_matches("/invoices/")
        .split('?')
        .next()
        .unwrap();
    let new = settles(&app, new_id, "fiscalized").await;
    assert_eq!(new["bill_to"]["tax_code"], "MRTMTT91D08F205J", "{new}");
    let old = b.get(&format!("/invoices/{id}")).await;
    assert!(
        old.text.contains(&format!(
            "Replaced by invoice {}",
            new["number"].as_str().unwrap()
        )),
        "{}",
        old.text
    );
    assert!(!old.text.contains("Issue the corrected invoice"));
}
