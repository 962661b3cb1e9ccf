//! Deposits: the plan's deposit fixed at booking and shown on the reservation; recording one
//! issues an advance invoice and the check-out's bill deducts it; a cancellation gives back
//! what the plan's fee does not keep, with a credit note and the fee's bill. (The national
//! documents are in `deposits_fiscal.rs`.)

use serde_json::{Value, json};

use crate::support::plans::plans;
use crate::support::{TestApp, day, spawn_app};

async fn book(app: &TestApp, rt: &str, plan: &str, from: i64, to: i64) -> String {
    let guest = app.guest("Ana", "Horvat").await;
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": plan,
               "arrival": day(from), "departure": day(to), "adults": 2}),
    )
    .await
    .expect(201)
    .id()
}

async fn deposit_of(app: &TestApp, res: &str) -> Value {
    app.get(&format!("/v1/reservations/{res}"))
        .await
        .expect(200)
        .body["deposit"]
        .clone()
}

#[tokio::test]
async fn a_deposit_is_invoiced_shown_and_deducted_at_check_out() {
    let app = spawn_app().await;
    let (rt, flex, nr) = plans(&app, 2).await;
    // Flexible: 30 % of three nights at 100.00, due 14 days before arrival.
    let res = book(&app, &rt, &flex, 20, 23).await;
    let d = deposit_of(&app, &res).await;
    assert_eq!(d["due"], 9000, "{d}");
    assert_eq!(d["due_by"], day(6));
    assert_eq!(
        (d["paid"].as_i64(), d["outstanding"].as_i64()),
        (Some(0), Some(9000))
    );
    // The non-refundable plan asks none.
    let other = book(&app, &rt, &nr, 20, 23).await;
    assert_eq!(deposit_of(&app, &other).await, Value::Null);

    let path = format!("/v1/reservations/{res}/deposit");
    let too_much = app
        .post(&path, json!({"amount": 30001, "payment_method": "card"}))
        .await
        .expect(422)
        .body;
    assert_eq!(too_much["errors"][0]["field"], "amount", "{too_much}");
    assert_eq!(too_much["errors"][0]["code"], "exceeds_stay");
    assert!(
        too_much["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("300.00"),
        "{too_much}"
    );
    let advance = app
        .post(
            &path,
            json!({"amount": 9000, "payment_method": "card", "reference": "slip 77"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(advance["status"], "paid", "{advance}");
    assert_eq!(advance["totals"]["gross"], 9000);
    assert_eq!(advance["lines"][0]["kind"], "advance");
    assert_eq!(advance["reservation_id"], res.as_str());
    let d = deposit_of(&app, &res).await;
    assert_eq!(
        (d["paid"].as_i64(), d["outstanding"].as_i64()),
        (Some(9000), Some(0))
    );
    assert_eq!(d["advances"][0]["invoice_id"], advance["id"]);
    let events = app.all_events().await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "reservation.updated" && e["data"]["deposit"]["paid"] == 9000),
        "the change is an event"
    );

    // The stay: three nights, less the advance, paid by card at the desk.
    app.set_today(20);
    let room = app.all("/v1/rooms").await[0]["id"].clone();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": room}),
    )
    .await
    .expect(200);
    let late = app
        .post(&path, json!({"amount": 1000, "payment_method": "cash"}))
        .await
        .expect(409)
        .body;
    assert_eq!(late["code"], "invalid_state_transition", "{late}");
    assert_eq!(late["params"]["status"], "checked_in");
    app.set_today(23);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(200)
        .body;
    let bill = &out["invoice"];
    assert_eq!(bill["totals"]["gross"], 21000, "{bill}");
    assert_eq!(bill["status"], "paid");
    let deducted: Vec<&Value> = bill["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "advance")
        .collect();
    assert_eq!(deducted.len(), 1);
    assert_eq!(deducted[0]["gross_amount"], -9000);
    assert!(
        deducted[0]["description"]
            .as_str()
            .unwrap()
            .contains(advance["number"].as_str().unwrap())
    );
    let d = deposit_of(&app, &res).await;
    assert_eq!(d["advances"][0]["deducted"], 9000, "{d}");
    // Everything the guest paid is the stay's price.
    let paid = |id: &Value| {
        let id = id.as_str().unwrap().to_string();
        let app = &app;
        async move {
            app.get(&format!("/v1/invoices/{id}")).await.body["paid_amount"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!(paid(&advance["id"]).await + paid(&bill["id"]).await, 30000);
}

#[tokio::test]
async fn a_stay_cut_short_below_its_deposit_gets_the_deposit_back() {
    let app = spawn_app().await;
    let (rt, flex, _) = plans(&app, 1).await;
    let res = book(&app, &rt, &flex, 0, 3).await;
    let advance = app
        .post(
            &format!("/v1/reservations/{res}/deposit"),
            json!({"amount": 30000, "payment_method": "card"}),
        )
        .await
        .expect(201)
        .id();
    let room = app.all("/v1/rooms").await[0]["id"].clone();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": room}),
    )
    .await
    .expect(200);
    // Leaves after one night: the bill (100.00) is less than the 300.00 paid ahead.
    app.set_today(1);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(out["invoice"]["totals"]["gross"], 10000, "{out}");
    let invoices = app.all(&format!("/v1/invoices?reservation_id={res}")).await;
    let credit = invoices
        .iter()
        .find(|i| i["kind"] == "credit_note")
        .unwrap();
    assert_eq!(credit["corrects_invoice_id"], advance.as_str());
    assert_eq!(credit["paid_amount"], -30000, "given back: {credit}");
    let d = app.get(&format!("/v1/reservations/{res}")).await.body["deposit"].clone();
    assert_eq!(
        (d["paid"].as_i64(), d["advances"][0]["refunded"].as_i64()),
        (Some(0), Some(30000))
    );
}

#[tokio::test]
async fn a_cancellation_gives_back_what_the_fee_does_not_keep() {
    let app = spawn_app().await;
    let (rt, flex, _) = plans(&app, 3).await;
    // Cancelled the day before (the fee is the first night, 100.00) after 150.00 was paid.
    let res = book(&app, &rt, &flex, 1, 4).await;
    let advance = app
        .post(
            &format!("/v1/reservations/{res}/deposit"),
            json!({"amount": 15000, "payment_method": "card"}),
        )
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{res}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let invoices = app.all(&format!("/v1/invoices?reservation_id={res}")).await;
    assert_eq!(
        invoices.len(),
        3,
        "advance, its credit note, the fee: {invoices:?}"
    );
    let find = |f: &dyn Fn(&Value) -> bool| invoices.iter().find(|i| f(i)).cloned().unwrap();
    let original = find(&|i| i["id"] == advance.as_str());
    assert_eq!(original["status"], "cancelled");
    let credit = find(&|i| i["kind"] == "credit_note");
    assert_eq!(credit["corrects_invoice_id"], advance.as_str());
    let fee = find(&|i| i["kind"] == "invoice" && i["id"] != advance.as_str());
    assert_eq!(fee["totals"]["gross"], 10000, "{fee}");
    assert_eq!(fee["status"], "paid", "the deposit pays the fee");
    assert_eq!(
        credit["paid_amount"], -15000,
        "given back in full: {credit}"
    );
    assert_eq!(credit["status"], "paid");
    let d = deposit_of(&app, &res).await;
    assert_eq!(
        (d["paid"].as_i64(), d["advances"][0]["refunded"].as_i64()),
        (Some(0), Some(15000))
    );
    // Net: 150.00 in, 150.00 back, 100.00 kept for the fee.
    let kept = fee["paid_amount"].as_i64().unwrap();
    assert_eq!(
        original["paid_amount"].as_i64().unwrap() + credit["paid_amount"].as_i64().unwrap() + kept,
        10000
    );

    // A fee larger than the deposit: the deposit goes back, the fee stays on the folio.
    let small = book(&app, &rt, &flex, 1, 4).await;
    app.post(
        &format!("/v1/reservations/{small}/deposit"),
        json!({"amount": 4000, "payment_method": "cash"}),
    )
    .await
    .expect(201);
    app.put(
        &format!("/v1/reservations/{small}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let bills = app
        .all(&format!("/v1/invoices?reservation_id={small}"))
        .await;
    assert_eq!(bills.len(), 2, "the advance and its credit note: {bills:?}");
    let folio = app.all(&format!("/v1/reservations/{small}/charges")).await;
    assert_eq!(folio.len(), 1);
    assert_eq!(
        (
            folio[0]["unit_price"].as_i64(),
            folio[0]["invoice_id"].is_null()
        ),
        (Some(10000), true)
    );

    // Cancelled in time: no fee, the whole deposit goes back, no bill.
    let early = book(&app, &rt, &flex, 10, 12).await;
    app.post(
        &format!("/v1/reservations/{early}/deposit"),
        json!({"amount": 6000, "payment_method": "card"}),
    )
    .await
    .expect(201);
    app.put(
        &format!("/v1/reservations/{early}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let bills = app
        .all(&format!("/v1/invoices?reservation_id={early}"))
        .await;
    assert_eq!(bills.len(), 2, "the advance and its credit note: {bills:?}");
    // A cancelled reservation takes no deposit.
    let refused = app
        .post(
            &format!("/v1/reservations/{early}/deposit"),
            json!({"amount": 100, "payment_method": "card"}),
        )
        .await
        .expect(409)
        .body;
    assert_eq!(refused["params"]["status"], "cancelled", "{refused}");
}
