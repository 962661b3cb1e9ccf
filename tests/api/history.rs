//! The audit trail: `GET /v1/{reservations,guests,invoices}/{id}/history` says who did what,
//! when, with the fields each change touched, including changes that have no event (a
//! charge, a part payment, a reversal), and it outlives the pruned event feed.

use serde_json::{Value, json};

use crate::support::{TestApp, day, spawn_app};

fn types(entries: &[Value]) -> Vec<&str> {
    entries
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect()
}

fn change<'a>(entry: &'a Value, field: &str) -> Option<&'a Value> {
    entry["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["field"] == field)
}

fn client(app: &TestApp) -> Value {
    json!({"type": "client", "id": app.client_id, "name": "tests"})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guests_history_lists_each_change_with_its_fields_and_actor() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let etag = app.get(&format!("/v1/guests/{g}")).await.expect(200);
    let etag = etag.header("etag").unwrap();
    app.put_if(
        &format!("/v1/guests/{g}"),
        &etag,
        json!({"email": "anna@example.com", "document": {"type": "passport", "number": "YA1234567"}}),
    )
    .await
    .expect(200);

    let h = app.all(&format!("/v1/guests/{g}/history")).await;
    assert_eq!(types(&h), ["guest.created", "guest.updated"]);
    let created = change(&h[0], "last_name").unwrap();
    assert_eq!(created["from"], Value::Null);
    assert_eq!(created["to"], "Rossi");
    assert!(
        change(&h[0], "version").is_none(),
        "bookkeeping is not a change"
    );
    let fields: Vec<&str> = h[1]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["document.number", "document.type", "email"]);
    assert_eq!(change(&h[1], "email").unwrap()["to"], "anna@example.com");
    for e in &h {
        assert_eq!(e["actor"], client(&app));
        assert!(e["id"].as_str().unwrap().starts_with("hst_"));
        assert!(e["event_id"].as_str().unwrap().starts_with("evt_"));
    }

    app.get("/v1/guests/gst_nobody/history")
        .await
        .problem(404, "not_found");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stay_and_its_invoice_tell_who_did_what() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post(
        &format!("/v1/reservations/{r}/charges"),
        json!({"description": "Minibar", "quantity": 2, "unit_price": 450}),
    )
    .await
    .expect(201);
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    app.set_today(2);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": r, "payment_method": "card"}),
        )
        .await
        .expect(200);
    let inv = out.body["invoice"]["id"].as_str().unwrap().to_string();
    let gross = out.body["invoice"]["totals"]["gross"].as_i64().unwrap();

    let h = app.all(&format!("/v1/reservations/{r}/history")).await;
    assert_eq!(
        types(&h),
        [
            "reservation.created",
            "reservation.charge_added",
            "reservation.checked_in",
            "reservation.checked_out"
        ]
    );
    let charge = change(&h[1], "charges").unwrap();
    assert_eq!(charge["to"]["description"], "Minibar");
    assert_eq!(h[1]["event_id"], Value::Null, "a charge has no event");
    let status = change(&h[2], "status").unwrap();
    assert_eq!(
        (&status["from"], &status["to"]),
        (&json!("confirmed"), &json!("checked_in"))
    );
    assert!(change(&h[3], "invoice_id").is_some());

    // A part payment, the rest, then a reversal: each is in the invoice's history.
    app.post(
        &format!("/v1/invoices/{inv}/payments"),
        json!({"amount": 100, "method": "cash"}),
    )
    .await
    .expect(201);
    app.post(
        &format!("/v1/invoices/{inv}/payments"),
        json!({"amount": gross - 100, "method": "cash"}),
    )
    .await
    .expect(201);
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": inv, "reason": "Booked twice"}),
    )
    .await
    .expect(201);
    let h = app.all(&format!("/v1/invoices/{inv}/history")).await;
    assert_eq!(
        types(&h),
        [
            "invoice.created",
            "invoice.payment_recorded",
            "invoice.paid",
            "invoice.cancelled"
        ]
    );
    let paid = change(&h[1], "paid_amount").unwrap();
    assert_eq!((&paid["from"], &paid["to"]), (&json!(0), &json!(100)));
    let status = change(&h[3], "status").unwrap();
    assert_eq!(
        (&status["from"], &status["to"]),
        (&json!("paid"), &json!("cancelled"))
    );
    assert!(h.iter().all(|e| e["actor"] == client(&app)));
}

#[tokio::test(flavor = "multi_thread")]
async fn history_pages_with_bound_cursors_and_outlives_the_event_feed() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let other = app.guest("Bruno", "Bianchi").await;
    for n in 0..4 {
        let cur = app.get(&format!("/v1/guests/{g}")).await.expect(200);
        app.put_if(
            &format!("/v1/guests/{g}"),
            &cur.header("etag").unwrap(),
            json!({"notes": format!("visit {n}")}),
        )
        .await
        .expect(200);
    }
    let mut seen = Vec::new();
    let mut url = format!("/v1/guests/{g}/history?limit=2");
    let first = app.get(&url).await.expect(200);
    let cursor = first.body["next_cursor"].as_str().unwrap().to_string();
    app.get(&format!("/v1/guests/{other}/history?cursor={cursor}"))
        .await
        .problem(400, "invalid_cursor");
    loop {
        let page = app.get(&url).await.expect(200);
        seen.extend(page.body["data"].as_array().unwrap().iter().cloned());
        match page.body["next_cursor"].as_str() {
            Some(c) => url = format!("/v1/guests/{g}/history?limit=2&cursor={c}"),
            None => break,
        }
    }
    assert_eq!(seen.len(), 5);
    let notes: Vec<&Value> = seen[1..]
        .iter()
        .map(|e| &change(e, "notes").unwrap()["to"])
        .collect();
    assert_eq!(
        notes,
        [
            &json!("visit 0"),
            &json!("visit 1"),
            &json!("visit 2"),
            &json!("visit 3")
        ]
    );

    // The feed is pruned after its retention; the history stays.
    app.set_today(400);
    let retention = std::time::Duration::from_secs(30 * 86_400);
    let pruned = innkeep::service::maintenance::prune(app.db(), retention)
        .await
        .unwrap();
    assert!(pruned.events >= 6, "the events were pruned: {pruned:?}");
    let kept = app.all(&format!("/v1/guests/{g}/history")).await;
    assert_eq!(kept.len(), 5);
}
