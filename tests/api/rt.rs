//! Italy's receipts from the telematic cash register, end to end against the register
//! simulator: a private guest's stay ends with one receipt (the split of cash and card as
//! the register needs it, the codice fiscale on it), a company's with a FatturaPA and no
//! receipt; a register out of paper holds the receipt and says so until it is fixed; a lost
//! answer never prints twice; a credit note returns the document, and one issued while
//! the original is still held is taken at once and returns it once it is printed; the day's closure totals
//! equal the payments recorded; an interim bill paid at the desk is a receipt too.

use std::time::Duration;

use serde_json::json;

use crate::support::fiscal::credit_note;
use crate::support::rt_sim::{Closure, Sim as RtSim};
use crate::support::sdi::{hotel_with_register, italian_guest, stay};
use crate::support::sdi_sim::Sim as SdiSim;
use crate::support::{TestApp, eventually};

/// Waits until invoice `id`'s fiscal record is `status`, moving the clock on so the queue's
/// retries come due: the invoice.
async fn fiscal_is(app: &TestApp, id: &str, status: &str) -> serde_json::Value {
    eventually(
        Duration::from_secs(20),
        &format!("invoice {id} {status}"),
        || async {
            crate::support::fiscal::later(app, 11);
            let inv = app.get(&format!("/v1/invoices/{id}")).await.body;
            if inv["fiscal"]["status"] == status {
                Ok(inv)
            } else {
                Err(inv["fiscal"].clone())
            }
        },
    )
    .await
}

#[tokio::test]
async fn a_private_stay_ends_with_one_receipt_and_a_company_with_an_e_invoice() {
    let (rt, sdi) = (RtSim::start().await, SdiSim::start().await);
    let app = hotel_with_register(Some(&sdi), &rt).await;
    let out = stay(
        &app,
        italian_guest(),
        json!({"payments": [
        {"method": "cash", "amount": 5000}, {"method": "card"}]}),
    )
    .await
    .expect(200)
    .body;
    let inv = &out["invoice"];
    let id = inv["id"].as_str().unwrap();
    assert_eq!(inv["fiscal"]["scheme"], "it-rt", "{inv}");
    assert!(
        inv["fiscal"]["einvoice"].is_null(),
        "a receipt is never also an e-invoice"
    );
    let done = fiscal_is(&app, id, "fiscalized").await;
    assert_eq!(
        done["fiscal"]["authority_reference"],
        "0021-0001 24/11/2026 99SEA004010"
    );
    let docs = rt.docs();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].total, 25200);
    assert_eq!(docs[0].lines, 2, "the nights and the city tax");
    assert_eq!(
        docs[0].paid,
        (5000, 20200, 0),
        "cash and electronic, as paid"
    );
    assert_eq!(docs[0].customer.as_deref(), Some("RSSMRA85T10A562S"));
    assert!(sdi.sent().is_empty());

    let company = json!({"kind": "business", "name": "Viaggi S.r.l.", "vat_id": "IT01234567897",
        "address": {"line1": "Corso Italia 8", "city": "Milano", "postal_code": "20122", "country": "IT"}});
    let out = stay(
        &app,
        italian_guest(),
        json!({"pay_later": true, "bill_to": company}),
    )
    .await
    .expect(200)
    .body;
    assert_eq!(
        out["invoice"]["fiscal"]["scheme"], "it-sdi",
        "{}",
        out["invoice"]
    );
    assert_eq!(rt.docs().len(), 1, "no receipt for an invoice");

    // A private guest who asks for an invoice gets one.
    let out = stay(
        &app,
        italian_guest(),
        json!({"payment_method": "card", "receipt": false}),
    )
    .await
    .expect(200)
    .body;
    assert_eq!(out["invoice"]["fiscal"]["scheme"], "it-sdi");
}

/// A register out of paper and a stay paid in cash whose receipt it holds: the register,
/// the hotel, the check-out's answer and the invoice once shown held.
async fn held_receipt() -> (RtSim, TestApp, serde_json::Value, serde_json::Value) {
    let rt = RtSim::start().await;
    let app = hotel_with_register(None, &rt).await;
    rt.set_paper_out(true);
    let out = stay(&app, italian_guest(), json!({"payment_method": "cash"}))
        .await
        .expect(200)
        .body;
    let held = fiscal_is(&app, out["invoice"]["id"].as_str().unwrap(), "offline").await;
    (rt, app, out, held)
}

#[tokio::test]
async fn a_register_out_of_paper_holds_the_receipt_and_says_so() {
    let (rt, app, out, held) = held_receipt().await;
    let id = out["invoice"]["id"].as_str().unwrap();
    let why = held["fiscal"]["last_error"].as_str().unwrap();
    assert!(why.contains("out of paper or its cover is open"), "{why}");
    rt.set_paper_out(false);
    fiscal_is(&app, id, "fiscalized").await;
    assert_eq!(rt.docs().len(), 1);
    assert_eq!(rt.refused().len(), 1, "{:?}", rt.refused());
}

#[tokio::test]
async fn a_credit_note_of_a_held_receipt_is_issued_and_returns_it_once_printed() {
    let (rt, app, out, _) = held_receipt().await;
    let id = out["invoice"]["id"].as_str().unwrap();
    // The desk is never kept waiting for the printer: the credit note is issued now.
    let credit = credit_note(&app, id, "Wrong guest").await;
    let cid = credit["id"].as_str().unwrap();
    let waiting = fiscal_is(&app, cid, "offline").await;
    let why = waiting["fiscal"]["last_error"].as_str().unwrap();
    let number = out["invoice"]["number"].as_str().unwrap();
    assert!(
        why.contains(&format!("waiting for invoice {number}'s receipt")),
        "{why}"
    );
    assert!(rt.docs().is_empty(), "{:?}", rt.docs());
    rt.set_paper_out(false);
    fiscal_is(&app, id, "fiscalized").await;
    let returned = fiscal_is(&app, cid, "fiscalized").await;
    let docs = rt.docs();
    assert_eq!(docs.len(), 2, "the sale, then its return: {docs:?}");
    assert_eq!(docs[0].refund_of, None);
    assert_eq!(
        docs[1].refund_of,
        Some((21, 1)),
        "returns document 0021-0001"
    );
    assert_eq!(
        returned["fiscal"]["authority_reference"],
        "0021-0002 24/11/2026 99SEA004010"
    );
}

#[tokio::test]
async fn a_lost_answer_never_prints_twice() {
    let rt = RtSim::start().await;
    let app = hotel_with_register(None, &rt).await;
    rt.lose_next_answer(Duration::from_secs(5));
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    let done = fiscal_is(&app, id, "fiscalized").await;
    assert_eq!(rt.docs().len(), 1, "one receipt");
    assert_eq!(
        done["fiscal"]["authority_reference"],
        "0021-0001 24/11/2026 99SEA004010"
    );
}

#[tokio::test]
async fn a_credit_note_returns_the_document_and_the_closure_matches_the_payments() {
    let rt = RtSim::start().await;
    let app = hotel_with_register(None, &rt).await;
    let first = stay(
        &app,
        italian_guest(),
        json!({"payments": [{"method": "cash"}]}),
    )
    .await
    .expect(200)
    .body;
    let first_id = first["invoice"]["id"].as_str().unwrap();
    fiscal_is(&app, first_id, "fiscalized").await;
    let second = stay(
        &app,
        italian_guest(),
        json!({"payments": [{"method": "card"}]}),
    )
    .await
    .expect(200)
    .body;
    fiscal_is(
        &app,
        second["invoice"]["id"].as_str().unwrap(),
        "fiscalized",
    )
    .await;

    let credit = credit_note(&app, first_id, "Reso").await;
    let cid = credit["id"].as_str().unwrap();
    fiscal_is(&app, cid, "fiscalized").await;
    let docs = rt.docs();
    assert_eq!(docs.len(), 3);
    assert_eq!(
        docs[2].refund_of,
        Some((21, 1)),
        "returns document 0021-0001"
    );

    let closed = app
        .post("/v1/compliance/cash-register/close", json!({}))
        .await;
    assert_eq!(closed.status, 200, "{}", closed.text);
    assert!(closed.text.contains("closure 21"), "{}", closed.text);
    // Cash 252.00 taken and given back; card 252.00. (A pay-later stay is "not collected".)
    assert_eq!(
        rt.closures(),
        [Closure {
            z: 21,
            cash: 0,
            electronic: 25200
        }]
    );
}

#[tokio::test]
async fn a_receipt_without_a_register_is_refused_at_the_field() {
    let sdi = SdiSim::start().await;
    let app = crate::support::sdi::hotel(Some(&sdi)).await;
    let refused = stay(
        &app,
        italian_guest(),
        json!({"payment_method": "cash", "receipt": true}),
    )
    .await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert_eq!(refused.body["errors"][0]["field"], "receipt");
}

#[tokio::test]
async fn an_interim_bill_paid_at_the_desk_is_a_receipt_with_its_payments() {
    let rt = RtSim::start().await;
    let app = hotel_with_register(None, &rt).await;
    let res = crate::support::sdi::checked_in(&app, italian_guest()).await;
    app.post(
        &format!("/v1/reservations/{res}/charges"),
        json!({"description": "Ristorante", "quantity": 1, "unit_price": 4200}),
    )
    .await
    .expect(201);
    let bill = app
        .post(
            "/v1/invoices",
            json!({"reservation_id": res, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(bill["fiscal"]["scheme"], "it-rt", "{bill}");
    assert_eq!(bill["status"], "paid");
    fiscal_is(&app, bill["id"].as_str().unwrap(), "fiscalized").await;
    let docs = rt.docs();
    assert_eq!(docs.len(), 1);
    assert_eq!(
        docs[0].paid,
        (0, 4200, 0),
        "paid by card, as the register needs it"
    );
}
