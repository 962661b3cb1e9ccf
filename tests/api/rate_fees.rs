//! What a rate plan charges after the booking: a late cancellation's and a no-show's fee
//! on the folio, billable though the booking ended; and an override of the plan's rules
//! kept in the history only when a change really goes past them.

use serde_json::json;

use crate::support::plans::plans;
use crate::support::{day, spawn_app};

#[tokio::test]
async fn a_late_cancellation_and_a_no_show_are_charged_as_the_plan_says() {
    let app = spawn_app().await;
    let (rt, flex, nr) = plans(&app, 3).await;
    let guest = app.guest("Ivo", "Babić").await;
    let book = |plan: &str, from: i64, to: i64| {
        json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": plan,
               "arrival": day(from), "departure": day(to), "adults": 2})
    };
    // Flexible, cancelled in time (free until 3 days before): nothing to pay.
    let early = app
        .post("/v1/reservations", book(&flex, 10, 12))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{early}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let charges = app.all(&format!("/v1/reservations/{early}/charges")).await;
    assert!(charges.is_empty(), "{charges:?}");
    // Flexible, cancelled the day before: the first night.
    let late = app
        .post("/v1/reservations", book(&flex, 1, 3))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{late}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let charges = app.all(&format!("/v1/reservations/{late}/charges")).await;
    assert_eq!(charges.len(), 1);
    assert_eq!(charges[0]["description"], "Cancellation fee");
    assert_eq!(charges[0]["unit_price"], 10000);
    // It is billed like any charge, though the booking is cancelled.
    let bill = app
        .post(
            "/v1/invoices",
            json!({"reservation_id": late, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(bill["totals"]["gross"], 10000);
    assert_eq!(bill["status"], "paid");
    // Non-refundable, never came: the default no-show fee, the first night (90.00).
    let gone = app
        .post("/v1/reservations", book(&nr, 0, 2))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{gone}"),
        json!({"status": "no_show"}),
    )
    .await
    .expect(200);
    let charges = app.all(&format!("/v1/reservations/{gone}/charges")).await;
    assert_eq!(charges[0]["description"], "No-show fee");
    assert_eq!(charges[0]["unit_price"], 9000);
}

#[tokio::test]
async fn an_override_is_kept_only_when_a_change_goes_past_the_rules() {
    let app = spawn_app().await;
    let (rt, flex, _) = plans(&app, 2).await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(5), "to": day(5), "min_stay_arrival": 3}),
    )
    .await
    .expect(200);
    let guest = app.guest("Ema", "Jurić").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                   "arrival": day(5), "departure": day(6), "adults": 2,
                   "override_reason": "regular guest"}),
        )
        .await
        .expect(201)
        .id();
    let path = format!("/v1/reservations/{id}");
    let overrides = |history: Vec<serde_json::Value>| {
        history
            .iter()
            .filter(|h| h["type"] == "reservation.restriction_overridden")
            .count()
    };
    assert_eq!(overrides(app.all(&format!("{path}/history")).await), 1);
    // A note changed with a reason in hand changes no night: no second override.
    app.put(
        &path,
        json!({"notes": "quiet room", "override_reason": "just in case"}),
    )
    .await
    .expect(200);
    assert_eq!(overrides(app.all(&format!("{path}/history")).await), 1);
    // Two nights still fall short of three: refused, then allowed with a reason, kept.
    app.put(&path, json!({"departure": day(7)}))
        .await
        .problem(409, "min_stay");
    app.put(
        &path,
        json!({"departure": day(7), "override_reason": "agreed by phone"}),
    )
    .await
    .expect(200);
    assert_eq!(overrides(app.all(&format!("{path}/history")).await), 2);
}
