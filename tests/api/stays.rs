//! A receptionist's day: check-in, charges, check-out, invoices, payments, credit notes.

use serde_json::json;

use crate::support::stay::{Hotel, amounts, hotel};
use crate::support::{TestApp, day, spawn_app};

async fn reserve(app: &TestApp, h: &Hotel, arrival: i64, departure: i64) -> String {
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": h.guest, "guest_ids": [h.child], "room_type_id": h.room_type,
               "arrival": day(arrival), "departure": day(departure), "adults": 1, "children": 1}),
    )
    .await
    .expect(201)
    .id()
}

#[tokio::test]
async fn a_whole_stay_adds_up_to_the_cent() {
    let app = spawn_app().await;
    let h = hotel(&app, 1).await;
    let res = reserve(&app, &h, 1, 4).await;
    app.post(
        &format!("/v1/reservations/{res}/charges"),
        json!({"description": "Minibar", "quantity": 2, "unit_price": 450, "tax_rate": 2500}),
    )
    .await
    .expect(201);
    app.set_today(1);
    let checked_in = app
        .post(
            "/v1/check-in",
            json!({"reservation_id": res, "room_id": h.rooms[0]}),
        )
        .await
        .expect(200);
    assert_eq!(checked_in.body["status"], "checked_in");
    assert!(checked_in.body["checked_in_at"].is_string());
    assert_eq!(
        app.get(&format!("/v1/rooms/{}", h.rooms[0])).await.body["occupied"],
        true
    );
    app.post(
        &format!("/v1/reservations/{res}/charges"),
        json!({"description": "Spa", "quantity": 1, "unit_price": 3000}),
    )
    .await
    .expect(201);

    app.set_today(4);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "card",
                   "charges": [{"description": "Breakfast", "quantity": 2, "unit_price": 1500, "tax_rate": 1000}]}),
        )
        .await
        .expect(200);
    let (r, inv) = (&out.body["reservation"], &out.body["invoice"]);
    assert_eq!(r["status"], "checked_out");
    assert_eq!(r["invoice_id"], inv["id"]);
    assert_eq!(inv["number"], format!("{}-000001", &day(4)[..4]));
    assert_eq!(inv["status"], "issued");
    // By hand: 3 nights x 120.00 at 13 % = 360.00 -> net 318.58, tax 41.42.
    //          minibar 2 x 4.50 at 25 % = 9.00 -> 7.20 + 1.80.
    //          spa 30.00 at the default 13 % -> 26.55 + 3.45.
    //          breakfast 2 x 15.00 at 10 % = 30.00 -> 27.27 + 2.73.
    //          city tax: the 8-year-old is exempt: 1 person x 3 nights x 2.50 at 0 % = 7.50.
    let lines: Vec<(i64, i64, i64, i64)> = inv["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["quantity"].as_i64().unwrap(),
                l["gross_amount"].as_i64().unwrap(),
                l["net_amount"].as_i64().unwrap(),
                l["tax_amount"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (3, 36000, 31858, 4142),
            (2, 900, 720, 180),
            (1, 3000, 2655, 345),
            (2, 3000, 2727, 273),
            (3, 750, 750, 0)
        ]
    );
    assert_eq!(amounts(&inv["totals"]), (38710, 4940, 43650));
    let breakdown: Vec<(i64, i64, i64)> = inv["tax_breakdown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["tax_rate"].as_i64().unwrap(),
                b["net"].as_i64().unwrap(),
                b["tax"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        breakdown,
        vec![
            (0, 750, 0),
            (1000, 2727, 273),
            (1300, 34513, 4487),
            (2500, 720, 180)
        ]
    );
    assert_eq!(inv["fiscal"]["status"], "not_required");
    let room = app.get(&format!("/v1/rooms/{}", h.rooms[0])).await.body;
    assert_eq!(
        (
            room["housekeeping_status"].as_str(),
            room["occupied"].as_bool()
        ),
        (Some("dirty"), Some(false))
    );

    let id = inv["id"].as_str().unwrap();
    let half = app
        .post(
            &format!("/v1/invoices/{id}/payments"),
            json!({"amount": 40000, "method": "card"}),
        )
        .await
        .expect(201);
    assert_eq!(half.body["invoice"]["status"], "issued");
    app.post(
        &format!("/v1/invoices/{id}/payments"),
        json!({"amount": 4000, "method": "cash"}),
    )
    .await
    .problem(422, "validation_failed");
    let paid = app
        .post(
            &format!("/v1/invoices/{id}/payments"),
            json!({"amount": 3650, "method": "cash", "reference": "till 2"}),
        )
        .await
        .expect(201);
    assert_eq!(paid.body["invoice"]["status"], "paid");
    assert_eq!(paid.body["invoice"]["paid_amount"], 43650);
    assert_eq!(
        app.get(&format!("/v1/invoices/{id}"))
            .await
            .expect(200)
            .body["status"],
        "paid"
    );

    let types: Vec<String> = app
        .all_events()
        .await
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    for t in [
        "reservation.checked_in",
        "reservation.checked_out",
        "invoice.created",
        "invoice.paid",
    ] {
        assert!(types.contains(&t.to_string()), "{t} missing from {types:?}");
    }
    let listed = app
        .get(&format!("/v1/invoices?reservation_id={res}&status=paid"))
        .await
        .expect(200);
    assert_eq!(listed.body["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn every_precondition_has_its_error() {
    let app = spawn_app().await;
    let h = hotel(&app, 4).await;
    let other_type = app.room_type("SGL", 1).await;
    let single = app.room("900", &other_type).await;
    let early = reserve(&app, &h, 2, 4).await;
    let check_in = |id: &str, room: &str| json!({"reservation_id": id, "room_id": room});

    app.post("/v1/check-in", check_in(&early, &h.rooms[0]))
        .await
        .problem(409, "too_early");
    app.set_today(2);
    let r = app
        .post("/v1/check-in", check_in(&early, &single))
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        r.fields(),
        vec![("room_id".into(), "room_type_mismatch".into())]
    );
    app.put(
        &format!("/v1/rooms/{}", h.rooms[2]),
        json!({"housekeeping_status": "out_of_order"}),
    )
    .await
    .expect(200);
    app.post("/v1/check-in", check_in(&early, &h.rooms[2]))
        .await
        .problem(409, "room_unavailable");
    app.post("/v1/check-in", json!({"reservation_id": early}))
        .await
        .problem(422, "validation_failed");
    app.post("/v1/check-in", check_in(&early, &h.rooms[0]))
        .await
        .expect(200);
    app.post("/v1/check-in", check_in(&early, &h.rooms[0]))
        .await
        .problem(409, "invalid_state_transition");

    let second = reserve(&app, &h, 2, 3).await;
    app.post("/v1/check-in", check_in(&second, &h.rooms[0]))
        .await
        .problem(409, "room_unavailable");
    app.post(
        "/v1/check-out",
        json!({"reservation_id": second, "payment_method": "cash"}),
    )
    .await
    .problem(409, "invalid_state_transition");

    let cancelled = reserve(&app, &h, 2, 3).await;
    app.put(
        &format!("/v1/reservations/{cancelled}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    app.post("/v1/check-in", check_in(&cancelled, &h.rooms[1]))
        .await
        .problem(409, "invalid_state_transition");
    app.post(
        &format!("/v1/reservations/{cancelled}/charges"),
        json!({"description": "x", "quantity": 1, "unit_price": 1}),
    )
    .await
    .problem(409, "invalid_state_transition");
    app.post("/v1/check-in", json!({"reservation_id": "res_unknown"}))
        .await
        .problem(404, "not_found");

    // Interim bill, then nothing left to bill.
    app.post(
        &format!("/v1/reservations/{early}/charges"),
        json!({"description": "Laundry", "quantity": 1, "unit_price": 800}),
    )
    .await
    .expect(201);
    // A receipt asked of a hotel without a cash register is refused at the field.
    app.post(
        "/v1/invoices",
        json!({"reservation_id": early, "payment_method": "cash", "receipt": true}),
    )
    .await
    .problem(422, "validation_failed");
    // Paid at the desk with it: 5.00 in cash, the rest by card, recorded in the same call.
    let interim = app
        .post(
            "/v1/invoices",
            json!({"reservation_id": early, "payments": [
                {"method": "cash", "amount": 500}, {"method": "card"}]}),
        )
        .await
        .expect(201);
    assert_eq!(interim.body["lines"].as_array().unwrap().len(), 1);
    assert_eq!(interim.body["status"], "paid", "{}", interim.body);
    assert_eq!(interim.body["paid_amount"], 800);
    assert_eq!(
        interim.body["payment_method"], "cash",
        "the largest payment's, first of equals"
    );
    app.post(
        "/v1/invoices",
        json!({"reservation_id": early, "payment_method": "cash"}),
    )
    .await
    .problem(409, "already_invoiced");
    let charges = app
        .get(&format!("/v1/reservations/{early}/charges"))
        .await
        .expect(200);
    assert_eq!(charges.body["data"][0]["invoice_id"], interim.body["id"]);
    // The stay's invoice bills the nights and the city tax, not the laundry again.
    app.set_today(4);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": early, "payment_method": "card"}),
        )
        .await
        .expect(200);
    let descriptions: Vec<&str> = out.body["invoice"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["description"].as_str().unwrap())
        .collect();
    assert!(!descriptions.contains(&"Laundry"), "{descriptions:?}");
    // Mixed kinds of request are refused, naming the fields.
    let r = app
        .post(
            "/v1/invoices",
            json!({"reservation_id": early, "corrects_invoice_id": "inv_x"}),
        )
        .await
        .problem(422, "validation_failed");
    assert!(
        r.fields()
            .iter()
            .any(|(f, _)| f == "reason" || f == "reservation_id"),
        "{:?}",
        r.fields()
    );
}
