//! The day close over the API: the plan lists the arrivals still expected, the rooms in the
//! house and the cash taken; the close marks the no-show named (with its fee), keeps the
//! other arrival, turns the room dirty, counts the cash, passes every check and records
//! `day.closed`; days close in order once over; the closed day's nights are locked; the
//! certificates list, each verified, and read back one by one.

use serde_json::{Value, json};

use crate::support::day_close::{DayToClose, a_day_to_close};
use crate::support::{day, spawn_app};

fn check(certificate: &Value, name: &str) -> Value {
    certificate["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check {name}: {certificate}"))
        .clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_day_closes_once_over_with_its_no_shows_cash_checks_and_certificate() {
    let app = spawn_app().await;
    let DayToClose {
        hotel: h,
        staying,
        missing,
        late,
        cash,
    } = a_day_to_close(&app).await;
    // Not over yet.
    let early = app
        .post("/v1/day-close", json!({"date": day(0)}))
        .await
        .expect(409);
    assert_eq!(early.body["code"], "day_not_over", "{}", early.body);

    app.set_today(1);
    let plan = app.get("/v1/day-close").await.expect(200).body;
    assert_eq!(plan["date"], day(0));
    assert_eq!(plan["ready"], true);
    let waiting: Vec<&str> = plan["arrivals_waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reservation_id"].as_str().unwrap())
        .collect();
    assert_eq!(waiting.len(), 2, "{plan}");
    assert!(waiting.contains(&missing.as_str()) && waiting.contains(&late.as_str()));
    assert_eq!(plan["rooms_to_clean"], json!(["100"]));
    assert_eq!(plan["cash_recorded"], cash);

    // Only a confirmed arrival of the day can be named a no-show.
    let wrong = app
        .post("/v1/day-close", json!({"no_shows": [staying]}))
        .await
        .expect(422);
    assert_eq!(
        wrong.body["errors"][0]["field"], "no_shows[0]",
        "{}",
        wrong.body
    );

    let closed = app
        .post(
            "/v1/day-close",
            json!({"no_shows": [missing], "cash_counted": cash, "note": "Quiet night."}),
        )
        .await
        .expect(201);
    assert_eq!(
        closed.header("location").as_deref(),
        Some(format!("/v1/day-closes/{}", day(0)).as_str())
    );
    let c = closed.body;
    assert_eq!(c["date"], day(0));
    assert_eq!(c["verified"], true);
    assert_eq!(c["previous_hash"], Value::Null);
    assert_eq!(c["hash"].as_str().unwrap().len(), 64);
    for name in [
        "nights_billed_once",
        "money_balances",
        "numbering_gapless",
        "registrations_accepted",
        "fiscal_documents_settled",
        "cash_agrees",
    ] {
        assert_eq!(check(&c, name)["passed"], true, "{name}: {c}");
    }
    assert_eq!(c["no_shows"][0]["reservation_id"], missing.as_str());
    assert_eq!(c["arrivals_kept"][0]["reservation_id"], late.as_str());
    assert_eq!(c["rooms_dirty"], json!(["100"]));
    assert_eq!(
        c["cash"],
        json!({"recorded": cash, "counted": cash, "difference": 0})
    );
    assert_eq!(c["note"], "Quiet night.");
    let f = &c["figures"];
    assert_eq!(
        (f["rooms_available"].as_i64(), f["rooms_sold"].as_i64()),
        (Some(3), Some(2)),
        "the stay and the late arrival hold the night: {f}"
    );
    assert_eq!(
        (f["arrivals"].as_i64(), f["departures"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (f["no_shows"].as_i64(), f["invoices_issued"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(f["invoiced"], cash);
    assert_eq!(f["payments"][0]["method"], "cash");

    let r = app
        .get(&format!("/v1/reservations/{missing}"))
        .await
        .expect(200)
        .body;
    assert_eq!(r["status"], "no_show");
    let room = app
        .get(&format!("/v1/rooms/{}", h.rooms[0]))
        .await
        .expect(200)
        .body;
    assert_eq!(room["housekeeping_status"], "dirty");
    let events = app.get("/v1/events?type=day.closed").await.expect(200).body;
    assert_eq!(events["data"][0]["data"]["hash"], c["hash"], "{events}");

    // In order, once.
    let again = app
        .post("/v1/day-close", json!({"date": day(0)}))
        .await
        .expect(409);
    assert_eq!(again.body["code"], "day_not_next");
    assert_eq!(again.body["params"]["date"], day(1));

    // The closed day's nights are locked; later nights are not.
    let moved = app
        .put(
            &format!("/v1/reservations/{late}"),
            json!({"arrival": day(1), "departure": day(2)}),
        )
        .await
        .expect(409);
    assert_eq!(moved.body["code"], "day_closed", "{}", moved.body);
    assert_eq!(moved.body["params"]["date"], day(0));
    app.put(
        &format!("/v1/reservations/{late}"),
        json!({"departure": day(3)}),
    )
    .await
    .expect(200);
    let backdated = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": h.guest, "room_type_id": h.room_type,
                   "arrival": day(0), "departure": day(2), "adults": 1}),
        )
        .await
        .expect(409);
    assert_eq!(backdated.body["code"], "day_closed");

    // The next day closes onto the chain.
    app.set_today(2);
    let next = app
        .post("/v1/day-close", json!({"cash_counted": 0}))
        .await
        .expect(201)
        .body;
    assert_eq!(next["date"], day(1));
    assert_eq!(next["previous_hash"], c["hash"]);
    let list = app.get("/v1/day-closes").await.expect(200).body;
    let days: Vec<(&str, bool)> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["date"].as_str().unwrap(),
                d["verified"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(days, [(day(0).as_str(), true), (day(1).as_str(), true)]);
    let one = app
        .get(&format!("/v1/day-closes/{}", day(0)))
        .await
        .expect(200)
        .body;
    assert_eq!(one["hash"], c["hash"]);
    app.get(&format!("/v1/day-closes/{}", day(-5)))
        .await
        .expect(404);
}
