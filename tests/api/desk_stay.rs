//! A stay at the front desk over plain HTTP: check-in (room choice, and with registration
//! on, the missing fields shown in place and completed on the same page), adding a charge,
//! cancelling and no-show with their confirmation, check-out into the invoice with its fiscal
//! data and QR code, and recording the payment; refusals keep what was typed.

use serde_json::{Value, json};

use crate::support::desk::{Browser, staff, value_of};
use crate::support::reply::Reply;
use crate::support::{TestApp, day, spawn_app};

/// Books `guests` (the first is the primary) for `nights` from `arrival`, unassigned.
async fn book(app: &TestApp, rt: &str, guests: &[String], arrival: &str, nights: u64) -> String {
    let from: chrono::NaiveDate = arrival.parse().unwrap();
    let to = from + chrono::Days::new(nights);
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guests[0], "guest_ids": guests, "room_type_id": rt,
               "arrival": arrival, "departure": to.to_string(), "adults": guests.len()}),
    )
    .await
    .expect(201)
    .id()
}

/// Whether the field `name` is marked invalid with its message on the page.
fn marked(page: &str, name: &str) -> bool {
    page.contains(&format!("id=\"{name}-error\""))
        && page.contains(&format!("aria-describedby=\"{name}-error\""))
}

async fn signed_in(app: &TestApp) -> Browser {
    let password = staff(app, "marta", "front_desk").await;
    Browser::sign_in(app, "marta", &password).await
}

fn see_other(r: &Reply) -> String {
    assert_eq!(r.status, 303, "{}", r.text);
    r.header("location").unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn check_in_charge_check_out_and_pay_at_the_desk() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let anna = app.guest("Anna", "Rossi").await;
    let id = book(&app, &rt, &[anna], &day(-1), 3).await;
    let b = signed_in(&app).await;

    let page = b.get(&format!("/reservations/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    for action in ["/check-in\"", "/cancel\"", "/no-show\"", "/charges\""] {
        assert!(
            page.text.contains(action),
            "{action} offered: {}",
            page.text
        );
    }
    let form = b.get(&format!("/reservations/{id}/check-in")).await;
    assert_eq!(form.status, 200, "{}", form.text);
    assert!(form.text.contains("101 · clean"), "{}", form.text);
    assert!(
        !form.text.contains("Registration details"),
        "no scheme, no fields"
    );
    let csrf = Browser::csrf(&form);
    let no_token = b
        .post(
            &format!("/reservations/{id}/check-in"),
            &[("room_id", &room)],
        )
        .await;
    assert_eq!(no_token.status, 403, "{}", no_token.text);
    let done = b
        .post(
            &format!("/reservations/{id}/check-in"),
            &[("csrf", &csrf), ("room_id", &room)],
        )
        .await;
    assert_eq!(
        see_other(&done),
        format!("/reservations/{id}?done=checked-in")
    );
    let page = b.get(&format!("/reservations/{id}?done=checked-in")).await;
    assert!(
        page.text.contains("Checked in. The room is the guest"),
        "{}",
        page.text
    );
    assert!(page.text.contains("checked in") && page.text.contains("/check-out\""));

    // A charge typed wrong comes back with the error at the price and the words kept.
    let path = format!("/reservations/{id}/charges");
    let bad = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("description", "Minibar"),
                ("quantity", "2"),
                ("unit_price", "four"),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(marked(&bad.text, "charge-unit_price"), "{}", bad.text);
    assert!(bad.text.contains("Write an amount such as 12.50."));
    assert_eq!(
        value_of(&bad.text, "description").as_deref(),
        Some("Minibar")
    );
    assert_eq!(value_of(&bad.text, "unit_price").as_deref(), Some("four"));
    let blank = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("description", ""),
                ("quantity", "0"),
                ("unit_price", "4"),
            ],
        )
        .await;
    assert_eq!(blank.status, 422, "{}", blank.text);
    assert!(marked(&blank.text, "charge-description") && marked(&blank.text, "charge-quantity"));
    let ok = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("description", "Minibar"),
                ("quantity", "2"),
                ("unit_price", "4.50"),
            ],
        )
        .await;
    assert_eq!(
        see_other(&ok),
        format!("/reservations/{id}?done=charge-added")
    );
    let folio = app
        .get(&format!("/v1/reservations/{id}/charges"))
        .await
        .body;
    assert_eq!(folio["data"][0]["gross_amount"], 900, "{folio}");

    // Check-out: the bill as it will be issued, the method required, then the invoice.
    let out = b.get(&format!("/reservations/{id}/check-out")).await;
    assert_eq!(out.status, 200, "{}", out.text);
    // Booked until tomorrow, leaving today: the bill counts the nights stayed, and says so.
    assert!(
        out.text.contains("Accommodation, room 101: 1 night"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains("leaves early: the bill counts 1 night, not the 3 nights booked"),
        "{}",
        out.text
    );
    assert!(out.text.contains("Minibar") && out.text.contains("Total"));
    let none = b
        .post(
            &format!("/reservations/{id}/check-out"),
            &[("csrf", &csrf), ("payment_method", "")],
        )
        .await;
    assert_eq!(none.status, 422, "{}", none.text);
    assert!(marked(&none.text, "payment_method"), "{}", none.text);
    let issued = b
        .post(
            &format!("/reservations/{id}/check-out"),
            &[("csrf", &csrf), ("payment_method", "card")],
        )
        .await;
    let invoice_path = see_other(&issued);
    assert!(
        invoice_path.ends_with("?done=checked-out"),
        "{invoice_path}"
    );
    let inv = b.get(&invoice_path).await;
    assert_eq!(inv.status, 200, "{}", inv.text);
    let stored: Value = app.get(&format!("/v1/reservations/{id}")).await.body;
    let invoice_id = stored["invoice_id"].as_str().unwrap();
    let api = app.get(&format!("/v1/invoices/{invoice_id}")).await.body;
    let number = api["number"].as_str().unwrap();
    assert!(
        inv.text.contains(&format!("Invoice {number}")),
        "{}",
        inv.text
    );
    assert!(inv.text.contains("Anna Rossi") && inv.text.contains("Minibar"));
    assert!(inv.text.contains("Checked out. The invoice is below"));
    assert!(!inv.text.contains("<svg"), "no fiscal scheme, no QR code");
    let receipt = b
        .get(&format!("/invoices/{invoice_id}?layout=receipt"))
        .await;
    assert!(
        receipt.text.contains("class=\"invoice receipt\""),
        "{}",
        receipt.text
    );

    // Paying: a wrong amount is refused in place, the right one marks it paid.
    let pay = format!("/invoices/{invoice_id}/payments");
    let wrong = b
        .post(
            &pay,
            &[("csrf", &csrf), ("amount", "lots"), ("method", "card")],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(marked(&wrong.text, "amount"));
    assert_eq!(value_of(&wrong.text, "amount").as_deref(), Some("lots"));
    let gross = api["totals"]["gross"].as_i64().unwrap();
    let all = format!("{}.{:02}", gross / 100, gross % 100);
    let paid = b
        .post(
            &pay,
            &[("csrf", &csrf), ("amount", &all), ("method", "card")],
        )
        .await;
    assert_eq!(
        see_other(&paid),
        format!("/invoices/{invoice_id}?done=paid")
    );
    let api = app.get(&format!("/v1/invoices/{invoice_id}")).await.body;
    assert_eq!(api["status"], "paid", "{api}");
    let history = app
        .get(&format!("/v1/invoices/{invoice_id}/history"))
        .await
        .body;
    assert!(
        history.to_string().contains("marta"),
        "the payment is recorded under marta: {history}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn cancel_and_no_show_ask_for_confirmation() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let anna = app.guest("Anna", "Rossi").await;
    let later = book(&app, &rt, std::slice::from_ref(&anna), &day(3), 2).await;
    let now = book(&app, &rt, &[anna], &day(0), 1).await;
    let b = signed_in(&app).await;
    let page = b.get(&format!("/reservations/{later}")).await;
    assert!(
        !page.text.contains("/no-show\""),
        "no no-show before the arrival day"
    );
    let csrf = Browser::csrf(&page);
    let version = value_of(&page.text, "version").unwrap();
    let unticked = b
        .post(
            &format!("/reservations/{later}/cancel"),
            &[("csrf", &csrf), ("version", &version)],
        )
        .await;
    assert_eq!(unticked.status, 422, "{}", unticked.text);
    assert!(
        unticked.text.contains("Tick “Yes, cancel it” first"),
        "{}",
        unticked.text
    );
    let stale = b
        .post(
            &format!("/reservations/{later}/cancel"),
            &[("csrf", &csrf), ("version", "99"), ("confirm", "yes")],
        )
        .await;
    assert_eq!(stale.status, 409, "{}", stale.text);
    assert!(
        stale
            .text
            .contains("Someone else changed this booking meanwhile")
    );
    let done = b
        .post(
            &format!("/reservations/{later}/cancel"),
            &[("csrf", &csrf), ("version", &version), ("confirm", "yes")],
        )
        .await;
    assert_eq!(
        see_other(&done),
        format!("/reservations/{later}?done=cancelled")
    );
    let r = app.get(&format!("/v1/reservations/{later}")).await.body;
    assert_eq!(r["status"], "cancelled");

    let page = b.get(&format!("/reservations/{now}")).await;
    let version = value_of(&page.text, "version").unwrap();
    let gone = b
        .post(
            &format!("/reservations/{now}/no-show"),
            &[("csrf", &csrf), ("version", &version), ("confirm", "yes")],
        )
        .await;
    assert_eq!(
        see_other(&gone),
        format!("/reservations/{now}?done=no-show")
    );
    let r = app.get(&format!("/v1/reservations/{now}")).await.body;
    assert_eq!(r["status"], "no_show");
}

#[tokio::test(flavor = "multi_thread")]
async fn registration_fields_missing_at_check_in_are_completed_on_the_same_page() {
    use crate::support::alloggiati_sim::Sim;
    use crate::support::registration::{DAY, day as the_day, hotel};
    let sim = Sim::start(the_day()).await;
    let app = hotel(&sim).await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("7", &rt).await;
    let eva = app.guest("Eva", "Li").await;
    let id = book(&app, &rt, std::slice::from_ref(&eva), DAY, 2).await;
    let b = signed_in(&app).await;

    let today = b.get("/").await;
    assert!(
        today
            .text
            .contains("to complete: Gender, Date of birth, Country of birth"),
        "Today says what the registration lacks: {}",
        today.text
    );
    let form = b.get(&format!("/reservations/{id}/check-in")).await;
    assert_eq!(form.status, 200, "{}", form.text);
    assert!(
        form.text.contains("Registration details of Eva Li"),
        "{}",
        form.text
    );
    let csrf = Browser::csrf(&form);
    let version = value_of(&form.text, "g0_version").unwrap();
    let path = format!("/reservations/{id}/check-in");
    let first = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("room_id", &room),
                ("g0_version", &version),
                ("g0_birth_date", "1990-04-01"),
                ("g0_nationality", "IT"),
            ],
        )
        .await;
    assert_eq!(first.status, 422, "{}", first.text);
    assert!(first.text.contains("needs"), "{}", first.text);
    for missing in ["g0_gender", "g0_birth_country", "g0_document_type"] {
        assert!(
            marked(&first.text, missing),
            "{missing} marked: {}",
            first.text
        );
    }
    assert!(!marked(&first.text, "g0_birth_date"));
    assert_eq!(
        value_of(&first.text, "g0_birth_date").as_deref(),
        Some("01/04/1990"),
        "shown the page's way"
    );
    assert_eq!(
        value_of(&first.text, "room_id").as_deref(),
        Some(room.as_str())
    );
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "confirmed");

    let version = value_of(&first.text, "g0_version").unwrap();
    let done = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("room_id", &room),
                ("g0_version", &version),
                ("g0_birth_date", "1990-04-01"),
                ("g0_nationality", "IT"),
                ("g0_gender", "female"),
                ("g0_birth_country", "IT"),
                ("g0_birth_municipality", "Roma"),
                ("g0_birth_region", "RM"),
                ("g0_document_type", "id_card"),
                ("g0_document_number", "CA12345AB"),
                ("g0_document_country", "IT"),
                ("g0_document_place", "Roma"),
            ],
        )
        .await;
    assert_eq!(
        see_other(&done),
        format!("/reservations/{id}?done=checked-in")
    );
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "checked_in", "{r}");
    assert_eq!(r["registration"]["status"], "queued", "{r}");
    let g = app.get(&format!("/v1/guests/{eva}")).await.body;
    assert_eq!(g["document"]["number"], "CA12345AB", "{g}");
    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(page.text.contains("Guest registration"), "{}", page.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fiscal_invoice_shows_its_receipt_number_zki_and_qr_code() {
    use crate::support::cis_sim::Sim;
    use crate::support::fiscal::{fiscal_is, hotel};
    let sim = Sim::start();
    let app = hotel(&sim).await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("7", &rt).await;
    let ivo = app.guest("Ivo", "Horvat").await;
    let id = book(&app, &rt, &[ivo], "2026-11-22", 1).await;
    app.post(
        "/v1/check-in",
        json!({"reservation_id": id, "room_id": room}),
    )
    .await
    .expect(200);
    let b = signed_in(&app).await;
    let out = b.get(&format!("/reservations/{id}/check-out")).await;
    let csrf = Browser::csrf(&out);
    let issued = b
        .post(
            &format!("/reservations/{id}/check-out"),
            &[("csrf", &csrf), ("payment_method", "cash")],
        )
        .await;
    let path = see_other(&issued);
    let invoice_id = path
        .trim_start_matches("/invoices/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let done = fiscal_is(&app, &invoice_id, "fiscalized").await;
    let inv = b.get(&format!("/invoices/{invoice_id}")).await;
    assert_eq!(inv.status, 200, "{}", inv.text);
    let f = &done["fiscal"];
    for shown in [
        &f["receipt_number"],
        &f["local_proof"],
        &f["authority_reference"],
    ] {
        assert!(
            inv.text.contains(shown.as_str().unwrap()),
            "{shown} shown: {}",
            inv.text
        );
    }
    assert!(
        inv.text.contains("<svg") && !inv.text.contains("<?xml"),
        "{}",
        inv.text
    );
    assert!(inv.text.contains("confirmed by the tax authority"));
}
