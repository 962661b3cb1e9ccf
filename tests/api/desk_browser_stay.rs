//! A whole stay at the front desk in a real browser (headless chromium through WebDriver),
//! in a hotel that registers its guests with the Alloggiati simulator and fiscalizes with
//! the CIS simulator: a booking from availability with the guest created inline, the room
//! board, check-in refused with the missing registration fields shown and then completed on
//! the same page, a charge, check-out, and the invoice printed to PDF whose QR code decodes
//! to the fiscal link; in English and again in Italian (the receptionist's language
//! setting), where labels and money (`1.234,56 €`) are Italian. Also: check-in with the
//! keyboard alone, and axe-core on every screen.
//! Screenshots and the PDF go to `target/screenshots/`.

use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::json;

use crate::support::browser::{Chrome, chrome, pdf_text, qr_codes_in};
use crate::support::desk::staff;
use crate::support::{day, spawn_app};

/// Clicks the element `css`, which loads a page, and waits until the new page is there
/// (the old one's root element has gone stale).
async fn click(b: &Chrome, css: &str) {
    let old = b.client.find(Locator::Css("html")).await.unwrap();
    b.client
        .wait()
        .for_element(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    next_page(b, old, css).await;
}

/// Waits until the page whose root was `old` is replaced by the one `what` opened.
async fn next_page(b: &Chrome, old: fantoccini::elements::Element, what: &str) {
    for _ in 0..200 {
        if old.tag_name().await.is_err() {
            b.client
                .wait()
                .for_element(Locator::Css("main"))
                .await
                .unwrap();
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{what} opened no page");
}

/// Clicks the element `css` on the page without leaving it.
async fn tick(b: &Chrome, css: &str) {
    b.client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Follows the link `text` and waits for the page it opens.
async fn follow(b: &Chrome, text: &str) {
    let old = b.client.find(Locator::Css("html")).await.unwrap();
    b.client
        .wait()
        .for_element(Locator::LinkText(text))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    next_page(b, old, text).await;
}

/// Types `text` into the field with id `id`.
async fn fill(b: &Chrome, id: &str, text: &str) {
    let f = b.client.find(Locator::Id(id)).await.unwrap();
    f.clear().await.unwrap();
    f.send_keys(text).await.unwrap();
}

/// Chooses the option `value` of the select with id `id`.
async fn choose(b: &Chrome, id: &str, value: &str) {
    b.client
        .find(Locator::Css(&format!("#{id} option[value='{value}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The page's visible text.
async fn text(b: &Chrome) -> String {
    b.client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// What a whole stay reads and types, in one language.
struct Words {
    /// The staff member's language setting.
    lang: &'static str,
    new_booking: &'static str,
    one_free: &'static str,
    without_room: &'static str,
    check_in: &'static str,
    checked_in: &'static str,
    check_out: &'static str,
    /// The charge's price each, as typed, and its line's amount (2 of them) as shown.
    price: &'static str,
    amount: &'static str,
    /// Words the invoice page shows.
    invoice: &'static [&'static str],
    /// Screenshots' suffix.
    shot: &'static str,
    /// The property's country, which the invoice's own lines speak.
    country: Option<&'static str>,
    /// The payment method as the invoice prints it.
    paid_by: &'static str,
}

const ENGLISH: Words = Words {
    lang: "en",
    new_booking: "New booking",
    one_free: "1 room free on all these nights",
    without_room: "Without a room",
    check_in: "Check in",
    checked_in: "Checked in",
    check_out: "Check out",
    price: "4.50",
    amount: "EUR 9.00",
    invoice: &[
        "Bill to",
        "Taxes included",
        "Unique receipt identifier (JIR)",
        "Accommodation, room 7: 1 night",
    ],
    shot: "",
    country: None,
    paid_by: "Cash",
};

const ITALIAN: Words = Words {
    lang: "it",
    new_booking: "Nuova prenotazione",
    one_free: "1 camera libera in tutte queste notti",
    without_room: "Senza camera",
    check_in: "Check-in",
    checked_in: "Check-in fatto",
    check_out: "Check-out",
    price: "617,28",
    amount: "1.234,56 €",
    invoice: &[
        "Intestata a",
        "Imposte comprese",
        "Identificativo univoco della ricevuta (JIR)",
        "Fattura ",
        "Pernottamento, camera 7: 1 notte dal ",
    ],
    shot: "-it",
    country: Some("IT"),
    paid_by: "Contanti",
};

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_stay_from_booking_to_the_printed_invoice() {
    whole_stay(&ENGLISH).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_stay_in_italian() {
    whole_stay(&ITALIAN).await;
}

/// A whole stay in the language of `w`: the receptionist's pages follow her language setting.
async fn whole_stay(w: &Words) {
    use crate::support::alloggiati_sim::Sim as Alloggiati;
    use crate::support::cis_sim::Sim as Cis;
    use crate::support::fiscal::fiscal_is;
    use crate::support::registration::hotel_fiscalizing;
    let Some(b) = chrome(1280, 1000).await else {
        return;
    };
    let reg = Alloggiati::start(crate::support::registration::day()).await;
    let cis = Cis::start();
    let app = hotel_fiscalizing(&reg, &cis).await;
    let rt = app.room_type("DBL", 2).await;
    app.room("7", &rt).await;
    let settings = match w.country {
        Some(country) => crate::support::in_country(country),
        None => json!({"seller": {"legal_name": "Sea View Ltd", "vat_id": "GB123456789",
            "address": {"line1": "1 Harbour Road", "city": "Split"}}}),
    };
    app.put("/v1/settings", settings).await.expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let lang = w.lang;
    app.db()
        .write(move |tx| {
            let u = innkeep::store::clients::user_by_name(tx, "marta")?.unwrap();
            innkeep::store::staff::set_language(tx, &u.id, Some(lang))
        })
        .await
        .unwrap();
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    b.axe("Today").await;
    let html_lang = b.client.find(Locator::Css("html")).await.unwrap();
    assert_eq!(
        html_lang.attr("lang").await.unwrap().as_deref(),
        Some(w.lang)
    );

    // A new booking: the dates as offered, the free type, a new guest typed inline.
    follow(&b, w.new_booking).await;
    click(&b, "button[value=show]").await;
    let body = text(&b).await;
    assert!(body.contains(w.one_free), "{body}");
    tick(&b, &format!("#type-{rt}")).await;
    fill(&b, "new_first_name", "Eva").await;
    fill(&b, "new_last_name", "Li").await;
    b.screenshot(&format!("desk-new-booking{}", w.shot)).await;
    b.axe("New booking").await;
    click(&b, "button[value=book]").await;
    b.client
        .wait()
        .for_element(Locator::Css("p.flash"))
        .await
        .unwrap();
    let booked = b.client.current_url().await.unwrap();
    let id = booked
        .path()
        .trim_start_matches("/reservations/")
        .to_string();
    assert!(id.starts_with("res_"), "{booked}");

    // The room board shows the booking without a room yet.
    b.client.goto(&format!("{base}/board")).await.unwrap();
    let body = text(&b).await;
    assert!(
        body.contains("Eva Li") && body.contains(w.without_room),
        "{body}"
    );
    b.screenshot(&format!("desk-board{}", w.shot)).await;
    b.axe("Room board").await;
    // Printed: one landscape A4 page, every night visible.
    let printed = b.print_pdf(&format!("desk-board-print{}", w.shot)).await;
    let pdf = String::from_utf8_lossy(&std::fs::read(printed).unwrap()).into_owned();
    assert!(!pdf.contains("/MediaBox [0 0 595.9"), "no portrait page");
    assert_eq!(
        pdf.matches("/MediaBox [0 0 841.9").count(),
        1,
        "one landscape page"
    );
    follow(&b, "Eva Li").await;
    b.axe("Reservation").await;

    // Check-in: refused with the registration's missing fields marked, completed in place.
    follow(&b, w.check_in).await;
    // Typed the way the page writes a day.
    fill(&b, "g0_birth_date", "01/04/1990").await;
    fill(&b, "g0_nationality", "IT").await;
    click(&b, "form button.primary").await;
    let error = b
        .client
        .wait()
        .for_element(Locator::Id("g0_gender-error"))
        .await
        .unwrap();
    assert!(!error.text().await.unwrap().is_empty());
    let kept = b.client.find(Locator::Id("g0_birth_date")).await.unwrap();
    assert_eq!(
        kept.prop("value").await.unwrap().as_deref(),
        Some("01/04/1990")
    );
    b.screenshot(&format!("desk-check-in-refused{}", w.shot))
        .await;
    b.axe("Check-in, refused").await;
    choose(&b, "g0_gender", "female").await;
    fill(&b, "g0_birth_country", "IT").await;
    fill(&b, "g0_birth_municipality", "Roma").await;
    fill(&b, "g0_birth_region", "RM").await;
    choose(&b, "g0_document_type", "id_card").await;
    fill(&b, "g0_document_number", "CA12345AB").await;
    fill(&b, "g0_document_country", "IT").await;
    fill(&b, "g0_document_place", "Roma").await;
    click(&b, "form button.primary").await;
    b.client
        .wait()
        .for_element(Locator::Css("p.flash"))
        .await
        .unwrap();
    let body = text(&b).await;
    assert!(body.contains(w.checked_in), "{body}");

    // A charge on the folio.
    fill(&b, "charge-description", "Minibar").await;
    fill(&b, "charge-quantity", "2").await;
    fill(&b, "charge-unit_price", w.price).await;
    // Added in place (htmx): the folio row appears without leaving the page.
    tick(&b, "form[action$='/charges'] button").await;
    b.client
        .wait()
        .for_element(Locator::XPath("//td[text()='Minibar']"))
        .await
        .unwrap();
    assert!(
        text(&b).await.contains(w.amount),
        "the charge as the language writes money"
    );
    b.screenshot(&format!("desk-reservation-in-house{}", w.shot))
        .await;

    // Check-out into the invoice.
    follow(&b, w.check_out).await;
    choose(&b, "payment_method", "cash").await;
    b.screenshot(&format!("desk-check-out{}", w.shot)).await;
    b.axe("Check-out").await;
    click(&b, "form button.primary").await;
    b.client
        .wait()
        .for_element(Locator::Css("article.invoice"))
        .await
        .unwrap();
    let url = b.client.current_url().await.unwrap();
    let invoice = url.path().trim_start_matches("/invoices/").to_string();
    let done = fiscal_is(&app, &invoice, "fiscalized").await;
    b.client
        .goto(&format!("{base}/invoices/{invoice}"))
        .await
        .unwrap();
    let body = text(&b).await;
    let jir = done["fiscal"]["authority_reference"].as_str().unwrap();
    assert!(body.contains(jir), "the JIR is on the invoice: {body}");
    assert!(body.contains(w.amount), "{body}");
    for words in w.invoice {
        assert!(body.contains(words), "{words}: {body}");
    }
    b.screenshot(&format!("desk-invoice{}", w.shot)).await;
    b.axe("Invoice").await;
    let pdf = b.print_pdf(&format!("desk-invoice{}", w.shot)).await;
    if let Some(codes) = qr_codes_in(&pdf) {
        let link = done["fiscal"]["qr_payload"].as_str().unwrap();
        assert_eq!(
            codes,
            vec![link.to_string()],
            "the printed QR code is the fiscal link"
        );
    }
    b.client
        .goto(&format!("{base}/invoices/{invoice}?layout=receipt"))
        .await
        .unwrap();
    b.screenshot(&format!("desk-invoice-receipt{}", w.shot))
        .await;
    // The printed receipt, read back: the seller and its VAT number, the time of issue,
    // the payment method, the ZKI and the JIR, and the QR code with the JIR.
    let receipt = b
        .print_pdf(&format!("desk-invoice-receipt{}", w.shot))
        .await;
    if let Some(printed) = pdf_text(&receipt) {
        let f = &done["fiscal"];
        let zki = f["local_proof"].as_str().unwrap();
        let seller = done["seller"]["legal_name"].as_str().unwrap();
        let vat = done["seller"]["vat_id"].as_str().unwrap();
        let time = crate::support::desk::local_hh_mm(&done["issued_at"]);
        // The narrow receipt wraps long codes: they are compared without the line breaks.
        let joined: String = printed.split_whitespace().collect();
        for expected in [seller, vat, &time, zki, jir, w.paid_by] {
            let plain: String = expected.split_whitespace().collect();
            assert!(joined.contains(&plain), "{expected} is printed: {printed}");
        }
    }
    if let Some(codes) = qr_codes_in(&receipt) {
        assert_eq!(
            codes,
            vec![done["fiscal"]["qr_payload"].as_str().unwrap().to_string()]
        );
    }
    b.axe("Invoice, receipt layout").await;
    b.client.goto(&format!("{base}/invoices")).await.unwrap();
    b.screenshot(&format!("desk-invoices{}", w.shot)).await;
    b.axe("Invoices").await;
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "checked_out", "{r}");
    b.client.clone().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn check_in_with_the_keyboard_alone() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt,
                   "arrival": day(0), "departure": day(2), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    b.sign_in(&format!("http://{}", app.addr), "marta", &password)
        .await;
    // From Today: Tab to the arrival's "Check in", Enter; Tab to the button, Enter.
    b.tab_to("Check in").await;
    b.client
        .active_element()
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    b.client
        .wait()
        .for_element(Locator::Id("room_id"))
        .await
        .unwrap();
    b.screenshot("desk-check-in").await;
    b.axe("Check-in").await;
    b.tab_to("Check in").await;
    b.client
        .active_element()
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    b.client
        .wait()
        .for_element(Locator::Css("p.flash"))
        .await
        .unwrap();
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "checked_in", "{r}");
    b.client.clone().close().await.unwrap();
}
