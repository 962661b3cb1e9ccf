//! Refunds of an overpayment, recorded as such (issue 29, item 3): a paid invoice reversed
//! by a credit note gives the money back through the credit note's payments, each a
//! `refund`, never more than was paid and not yet returned; an unpaid invoice's credit note
//! has nothing to give back. On the API and on the desk's invoice page.

use serde_json::{Value, json};

use crate::support::desk::{Browser, staff};
use crate::support::stay::hotel;
use crate::support::{TestApp, day, spawn_app};

/// A two-night stay checked out today in room `n`, paid at once (`paid`) or later; returns
/// its invoice.
async fn checked_out(app: &TestApp, room_type: &str, room: &str, paid: bool) -> Value {
    let g = app.guest("Rita", "Refund").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": room_type, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    let how = if paid {
        json!({"reservation_id": r, "payments": [{"method": "card"}]})
    } else {
        json!({"reservation_id": r, "pay_later": true})
    };
    app.post("/v1/check-out", how).await.expect(200).body["invoice"].clone()
}

/// The credit note reversing invoice `id`.
async fn reverse(app: &TestApp, id: &str) -> Value {
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": id, "reason": "billed the wrong room"}),
    )
    .await
    .expect(201)
    .body
}

#[tokio::test(flavor = "multi_thread")]
async fn a_credit_note_gives_back_what_was_paid_as_refunds() {
    let app = spawn_app().await;
    let h = hotel(&app, 2).await;
    let paid = checked_out(&app, &h.room_type, &h.rooms[0], true).await;
    assert_eq!(paid["status"], "paid", "{paid}");
    let total = paid["totals"]["gross"].as_i64().unwrap();
    let cn = reverse(&app, paid["id"].as_str().unwrap()).await;
    let pay = format!("/v1/invoices/{}/payments", cn["id"].as_str().unwrap());

    // Part back in cash: a refund, its amount above zero; the credit note's paid amount
    // goes down towards its (negative) total.
    let r = app
        .post(&pay, json!({"amount": 1000, "method": "cash"}))
        .await
        .expect(201);
    assert_eq!(r.body["payment"]["kind"], "refund", "{}", r.text);
    assert_eq!(r.body["payment"]["amount"], 1000);
    assert_eq!(r.body["invoice"]["paid_amount"], -1000);
    assert_eq!(r.body["invoice"]["status"], "issued");

    // Never more than was paid and not yet given back.
    let r = app
        .post(&pay, json!({"amount": total, "method": "card"}))
        .await
        .expect(422);
    assert_eq!(r.body["errors"][0]["field"], "amount", "{}", r.text);
    assert!(
        r.body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("at most {}", total - 1000)),
        "{}",
        r.text
    );
    let r = app
        .post(&pay, json!({"amount": total - 1000, "method": "card"}))
        .await
        .expect(201);
    assert_eq!(
        r.body["invoice"]["status"], "paid",
        "given back in full: {}",
        r.text
    );
    assert_eq!(r.body["invoice"]["paid_amount"], -total);
    app.post(&pay, json!({"amount": 1, "method": "cash"}))
        .await
        .expect(409);

    // An invoice nobody paid: its credit note has nothing to give back.
    let unpaid = checked_out(&app, &h.room_type, &h.rooms[1], false).await;
    let cn = reverse(&app, unpaid["id"].as_str().unwrap()).await;
    let r = app
        .post(
            &format!("/v1/invoices/{}/payments", cn["id"].as_str().unwrap()),
            json!({"amount": 100, "method": "cash"}),
        )
        .await
        .expect(409);
    assert!(
        r.body["detail"]
            .as_str()
            .unwrap()
            .contains("nothing to refund"),
        "{}",
        r.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_records_a_refund_on_the_credit_note() {
    let app = spawn_app().await;
    let h = hotel(&app, 1).await;
    let paid = checked_out(&app, &h.room_type, &h.rooms[0], true).await;
    let cn = reverse(&app, paid["id"].as_str().unwrap()).await;
    let id = cn["id"].as_str().unwrap();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert!(page.text.contains("Still to give back"), "{}", page.text);
    assert!(page.text.contains("Record refund"), "{}", page.text);
    let csrf = Browser::csrf(&page);
    let r = b
        .post(
            &format!("/invoices/{id}/payments"),
            &[("csrf", &csrf), ("amount", "10.00"), ("method", "cash")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert!(r.header("location").unwrap().ends_with("done=refunded"));
    let page = b.get(&r.header("location").unwrap()).await;
    assert!(
        page.text.contains("The refund is recorded."),
        "{}",
        page.text
    );
    assert!(page.text.contains("Given back so far"), "{}", page.text);
}
