//! Check-out takes the payment in the same action: split between methods, "pays later" as
//! an explicit choice, never more than the bill, on the API and on the desk's form.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::stay::{Hotel, hotel};
use crate::support::{TestApp, day, spawn_app};

/// A guest checked into room `n` of `h` today, for two nights.
async fn in_house(app: &TestApp, h: &Hotel, n: usize) -> String {
    let g = app.guest("Pia", &format!("Payer{n}")).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": h.room_type, "room_id": h.rooms[n],
                   "arrival": day(0), "departure": day(2), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    r
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_takes_split_payments_or_pay_later_in_the_check_out() {
    let app = spawn_app().await;
    let h = hotel(&app, 4).await;
    let (split, later, too_much, both) = (
        in_house(&app, &h, 0).await,
        in_house(&app, &h, 1).await,
        in_house(&app, &h, 2).await,
        in_house(&app, &h, 3).await,
    );
    let preview = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": too_much, "payments": [
                {"amount": 100, "method": "cash"}, {"amount": 99_999_999, "method": "card"}]}),
        )
        .await
        .expect(422);
    assert_eq!(
        preview.body["errors"][0]["field"], "payments[1].amount",
        "{}",
        preview.text
    );
    let still = app.get(&format!("/v1/reservations/{too_much}")).await.body;
    assert_eq!(still["status"], "checked_in", "nothing happened");

    let refused = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": both, "pay_later": true,
                   "payments": [{"amount": 100, "method": "cash"}]}),
        )
        .await
        .expect(422);
    assert_eq!(refused.body["errors"][0]["field"], "pay_later");
    let none = app
        .post("/v1/check-out", json!({"reservation_id": both}))
        .await
        .expect(422);
    assert_eq!(none.body["errors"][0]["field"], "payment_method");

    // Pays later: issued, nothing recorded, by bank transfer.
    let bill = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": later, "pay_later": true}),
        )
        .await
        .expect(200);
    assert_eq!(bill.body["invoice"]["status"], "issued");
    assert_eq!(bill.body["invoice"]["payment_method"], "bank_transfer");
    // Two nights, a part in cash and the rest by card: paid in one action.
    let total = bill.body["invoice"]["totals"]["gross"].as_i64().unwrap();
    let done = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": split, "payments": [
                {"amount": 5000, "method": "cash"}, {"amount": total - 5000, "method": "card"}]}),
        )
        .await
        .expect(200);
    let invoice = &done.body["invoice"];
    assert_eq!(invoice["status"], "paid", "{invoice}");
    assert_eq!(
        invoice["payment_method"], "card",
        "the largest part's method"
    );
    assert_eq!(invoice["paid_amount"], total);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_payment_without_an_amount_takes_the_balance() {
    let app = spawn_app().await;
    let h = hotel(&app, 2).await;
    let (r, covered) = (in_house(&app, &h, 0).await, in_house(&app, &h, 1).await);
    let two = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": r, "payments": [{"method": "cash"}, {"method": "card"}]}),
        )
        .await
        .expect(422);
    assert_eq!(two.body["errors"][0]["field"], "payments[1].amount");
    let nothing = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": covered, "payments": [
                {"amount": 99_999_999, "method": "cash"}, {"method": "card"}]}),
        )
        .await
        .expect(422);
    assert_eq!(nothing.body["errors"][0]["field"], "payments[1].amount");
    assert_eq!(nothing.body["errors"][0]["code"], "nothing_owed");

    let done = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": r, "payments": [
                {"amount": 2000, "method": "cash"}, {"method": "card", "reference": "slip 881"}]}),
        )
        .await
        .expect(200);
    let invoice = &done.body["invoice"];
    let total = invoice["totals"]["gross"].as_i64().unwrap();
    assert_eq!(invoice["status"], "paid", "{invoice}");
    assert_eq!(invoice["paid_amount"], total);
    assert_eq!(
        invoice["payment_method"], "card",
        "the balance is the larger part"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_prefills_the_balance_and_pays_in_the_same_click() {
    let app = spawn_app().await;
    let h = hotel(&app, 2).await;
    let (paid, later) = (in_house(&app, &h, 0).await, in_house(&app, &h, 1).await);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let form = b.get(&format!("/reservations/{paid}/check-out")).await;
    let csrf = Browser::csrf(&form);
    let typed = form
        .text
        .split("id=\"amount\" name=\"amount\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(str::to_string)
        .expect("the amount is prefilled");
    assert!(typed.parse::<f64>().unwrap() > 0.0, "{typed}");
    let wrong = b
        .post(
            &format!("/reservations/{paid}/check-out"),
            &[
                ("csrf", &csrf),
                ("amount", "lots"),
                ("payment_method", "card"),
            ],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("value=\"lots\""),
        "what was typed stays"
    );
    let done = b
        .post(
            &format!("/reservations/{paid}/check-out"),
            &[
                ("csrf", &csrf),
                ("amount", &typed),
                ("payment_method", "card"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let r = app.get(&format!("/v1/reservations/{paid}")).await.body;
    let inv = app
        .get(&format!(
            "/v1/invoices/{}",
            r["invoice_id"].as_str().unwrap()
        ))
        .await
        .body;
    assert_eq!(inv["status"], "paid", "card at check-out is paid: {inv}");

    let owed = b
        .post(
            &format!("/reservations/{later}/check-out"),
            &[
                ("csrf", &csrf),
                ("amount", &typed),
                ("payment_method", ""),
                ("pay_later", "yes"),
            ],
        )
        .await;
    assert_eq!(owed.status, 303, "{}", owed.text);
    let r = app.get(&format!("/v1/reservations/{later}")).await.body;
    let inv = app
        .get(&format!(
            "/v1/invoices/{}",
            r["invoice_id"].as_str().unwrap()
        ))
        .await
        .body;
    assert_eq!(inv["status"], "issued");
    assert_eq!(inv["payment_method"], "bank_transfer");
}
