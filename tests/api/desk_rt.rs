//! Italy's cash register at the desk, in a real browser and in Italian: check-out asks "invoice or
//! receipt?", a private guest's stay ends with the register's receipt shown on the invoice
//! page with its document number, and the compliance centre closes the register's day.

use fantoccini::Locator;

use crate::support::browser::chrome_speaking;
use crate::support::desk::staff;
use crate::support::rt_sim::Sim as RtSim;
use crate::support::sdi::{checked_in, hotel_with_register, italian_guest};
use crate::support::sdi_sim::Sim as SdiSim;

#[tokio::test(flavor = "multi_thread")]
async fn check_out_asks_invoice_or_receipt_and_the_day_is_closed_from_the_centre() {
    let Some(c) = chrome_speaking(1280, 1600, "it-IT").await else {
        return;
    };
    let (rt, sdi) = (RtSim::start().await, SdiSim::start().await);
    let app = hotel_with_register(Some(&sdi), &rt).await;
    let id = checked_in(&app, italian_guest()).await;
    app.clock().set_now("2026-11-24T08:30:00Z".parse().unwrap());
    let password = staff(&app, "giulia", "admin").await;
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "giulia", &password).await;
    c.client
        .goto(&format!("{base}/reservations/{id}/check-out"))
        .await
        .unwrap();
    let form = c
        .wait_for(Locator::Css("form.edit"))
        .await
        .text()
        .await
        .unwrap();
    assert!(form.contains("Fattura o ricevuta?"), "{form}");
    assert!(
        form.contains("Documento commerciale dal registratore telematico"),
        "{form}"
    );
    c.axe("check-out with invoice or receipt").await;
    c.screenshot("desk-check-out-invoice-or-receipt").await;
    c.client
        .find(Locator::Css("select#payment_method option[value=card]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.click(Locator::Css("#document-receipt")).await;
    c.click(Locator::Css("form.edit button.primary")).await;
    c.wait_for(Locator::Css("section.fiscal")).await;
    let mut text = String::new();
    for _ in 0..50 {
        c.client.refresh().await.unwrap();
        text = c
            .wait_for(Locator::Css("section.fiscal"))
            .await
            .text()
            .await
            .unwrap();
        if text.contains("stampato dal registratore telematico") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        text.contains("stampato dal registratore telematico"),
        "{text}"
    );
    assert!(text.contains("0021-0001 24/11/2026 99SEA004010"), "{text}");
    let title = c
        .wait_for(Locator::Css("article h1"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        title.starts_with("Conto 2026-000001"),
        "a receipt's copy is not called a fattura: {title}"
    );
    c.axe("invoice with a cash-register receipt").await;
    c.screenshot("desk-invoice-rt-receipt").await;
    assert_eq!(rt.docs().len(), 1);
    assert!(sdi.sent().is_empty(), "a receipt is not also an e-invoice");

    c.client
        .goto(&format!("{base}/admin/compliance"))
        .await
        .unwrap();
    c.click(Locator::Css(
        "form[action='/admin/compliance/cash-register/close'] button",
    ))
    .await;
    let main = c
        .main_text_with("Il registratore telematico ha chiuso la giornata")
        .await;
    assert!(
        main.contains("Il registratore telematico ha chiuso la giornata"),
        "{main}"
    );
    c.screenshot("desk-compliance-cash-register-closed").await;
    assert_eq!(rt.closures().len(), 1);
}
