//! innkeep keeps the channel manager in step (`[channel]`, against the Channex simulator):
//! a full sync sends the whole horizon; then a booking, a cancellation and a price change
//! each reach it within a round, as ranges of the nights they touched, in a few calls; a
//! failing channel manager gets the change at the next round; the read-back finds a night
//! changed at the channel manager by hand, says it in words, and a full sync puts it right;
//! a room out of order takes its type's availability down; a full sync covers a horizon
//! longer than a year; a burst of a thousand bookings goes in a few dozen calls at most.

use std::time::Duration;

use chrono::NaiveDate;
use serde_json::json;

use crate::support::channex_sim::{Fault, KEY, PROPERTY, Sim, config};
use crate::support::plans::plans;
use crate::support::{Spawn, TestApp, day, eventually};

/// Waits (rounds are 6 s apart) until `holds` of the simulator.
async fn until(what: &str, holds: impl Fn() -> bool) {
    eventually(Duration::from_secs(40), what, || async {
        if holds() { Ok(()) } else { Err(()) }
    })
    .await;
}

fn night(n: i64) -> NaiveDate {
    day(n).parse().unwrap()
}

async fn hotel(sim: &Sim) -> TestApp {
    let cfg = config(sim.url());
    Spawn::new().config(|c| c.channel = Some(cfg)).start().await
}

#[tokio::test(flavor = "multi_thread")]
async fn changes_reach_the_channel_manager_in_a_few_calls() {
    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let app = hotel(&sim).await;
    let (rt, flex, _) = plans(&app, 3).await;
    innkeep::service::channel_sync::ask_full(app.db())
        .await
        .unwrap();
    until("the full sync", || {
        sim.availability("ch-fam", night(59)) == Some(3) && sim.night("ch-nr", night(0)).is_some()
    })
    .await;
    assert_eq!(sim.night("ch-flex", night(10)).unwrap()["rate"], 10000);
    assert!(
        sim.availability("ch-fam", night(60)).is_none(),
        "the horizon is 60 nights"
    );

    let guest = app.guest("Ana", "Horvat").await;
    let mut booked = Vec::new();
    for _ in 0..5 {
        booked.push(
            app.post(
                "/v1/reservations",
                json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                       "arrival": day(20), "departure": day(23), "adults": 2}),
            )
            .await,
        );
    }
    assert_eq!(
        booked.iter().filter(|r| r.status == 201).count(),
        3,
        "three rooms"
    );
    until("three rooms sold on the 20th to the 22nd", || {
        (20..23).all(|n| sim.availability("ch-fam", night(n)) == Some(0))
            && sim.availability("ch-fam", night(23)) == Some(3)
    })
    .await;
    let id = booked.into_iter().find(|r| r.status == 201).unwrap().id();
    // The channel manager fails once; the cancellation goes at the next round.
    sim.fault(&[Fault::Fail]);
    app.put(
        &format!("/v1/reservations/{id}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    until("a room back on sale", || {
        (20..23).all(|n| sim.availability("ch-fam", night(n)) == Some(1))
    })
    .await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(30), "to": day(31), "price": 15500}),
    )
    .await
    .expect(200);
    until(
        "the new price, on the plan and the one derived from it",
        || {
            sim.night("ch-flex", night(30))
                .is_some_and(|n| n["rate"] == 15500)
                && sim
                    .night("ch-nr", night(31))
                    .is_some_and(|n| n["rate"] == 13950)
        },
    )
    .await;
    assert_eq!(sim.night("ch-flex", night(32)).unwrap()["rate"], 10000);
    let calls = sim.calls();
    assert!(calls.len() <= 8, "a few calls for all of it: {calls:?}");

    // The read-back: in step; then a night changed at the channel manager by hand is found,
    // said in words, and a full sync puts it right.
    let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
    let pusher = innkeep::jobs::channel::Pusher::new(svc, config(sim.url()));
    assert_eq!(pusher.check().await.unwrap(), []);
    sim.set_availability("ch-fam", night(40), 9);
    let found = pusher.check().await.unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].said(),
        format!(
            "room type ch-fam on {}: innkeep has 3 on sale, the channel manager 9",
            night(40)
        )
    );
    innkeep::service::channel_sync::ask_full(app.db())
        .await
        .unwrap();
    until("the full sync puts it right", || {
        sim.availability("ch-fam", night(40)) == Some(3)
    })
    .await;
    assert_eq!(pusher.check().await.unwrap(), []);

    // A room out of order records no event; its type's availability follows all the same.
    let room = app.all("/v1/rooms").await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    app.put(
        &format!("/v1/rooms/{room}"),
        json!({"housekeeping_status": "out_of_order"}),
    )
    .await
    .expect(200);
    until("a room out of order off sale", || {
        sim.availability("ch-fam", night(40)) == Some(2)
            && sim.availability("ch-fam", night(21)) == Some(0)
    })
    .await;

    // A day later the horizon reaches one night further: it is sent with the next push.
    assert!(sim.availability("ch-fam", night(60)).is_none());
    app.set_today(1);
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(50), "to": day(50), "price": 12000}),
    )
    .await
    .expect(200);
    until("the night the horizon reached", || {
        sim.availability("ch-fam", night(60)) == Some(2) && sim.night("ch-nr", night(60)).is_some()
    })
    .await;
    // The round that sent it may still be recording itself: in step once it has.
    eventually(
        Duration::from_secs(40),
        "in step after the day moved",
        || async {
            match pusher.check().await.unwrap() {
                found if found.is_empty() => Ok(()),
                found => Err(found[0].said()),
            }
        },
    )
    .await;
}

/// The default horizon (500 nights) is longer than a stay may be: a full sync reads it a
/// year at a time (it was refused whole, so no full sync beyond 365 nights ever went).
#[tokio::test(flavor = "multi_thread")]
async fn a_full_sync_covers_a_horizon_longer_than_a_year() {
    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let mut cfg = config(sim.url());
    cfg.horizon_days = 500;
    let app = Spawn::new().config(|c| c.channel = Some(cfg)).start().await;
    plans(&app, 2).await;
    innkeep::service::channel_sync::ask_full(app.db())
        .await
        .unwrap();
    until("the whole horizon", || {
        sim.availability("ch-fam", night(499)) == Some(2)
            && sim.availability("ch-fam", night(365)) == Some(2)
            && sim.night("ch-nr", night(499)).is_some()
    })
    .await;
    assert!(sim.availability("ch-fam", night(500)).is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_burst_of_a_thousand_bookings_goes_in_a_few_dozen_calls() {
    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let app = std::sync::Arc::new(hotel(&sim).await);
    let (rt, flex, _) = plans(&app, 40).await;
    innkeep::service::channel_sync::ask_full(app.db())
        .await
        .unwrap();
    until("the full sync", || {
        sim.availability("ch-fam", night(59)) == Some(40)
    })
    .await;
    let before = sim.calls().len();
    let guest = app.guest("Ana", "Horvat").await;
    // 16 clients book every room for each of 25 nights, one night at a time: 1,000 bookings.
    let mut clerks = Vec::new();
    for clerk in 0..16 {
        let (app, guest, rt, flex) = (app.clone(), guest.clone(), rt.clone(), flex.clone());
        clerks.push(tokio::spawn(async move {
            let mut made = 0;
            for n in (clerk..1000).step_by(16) {
                let arrival = 1 + (n / 40) as i64;
                let r = app
                    .post(
                        "/v1/reservations",
                        json!({"primary_guest_id": guest, "room_type_id": rt,
                               "rate_plan_id": flex, "arrival": day(arrival),
                               "departure": day(arrival + 1), "adults": 2}),
                    )
                    .await;
                assert_eq!(r.status, 201, "{}", r.body);
                made += 1;
            }
            made
        }));
    }
    let mut made = 0;
    for c in clerks {
        made += c.await.unwrap();
    }
    assert_eq!(made, 1000);
    until("every room sold on the 1st to the 25th", || {
        (1..=25).all(|n| sim.availability("ch-fam", night(n)) == Some(0))
            && sim.availability("ch-fam", night(26)) == Some(40)
    })
    .await;
    let calls = sim.calls().len() - before;
    assert!(
        (1..=36).contains(&calls),
        "a thousand bookings in a few dozen calls, not {calls}"
    );
}

#[test]
fn the_command_line_asks_for_a_full_sync_and_tells_where_pushes_stand() {
    use crate::support::binary::{innkeep, run_ok};
    let dir = tempfile::tempdir().unwrap();
    let none = innkeep(dir.path())
        .args(["channel", "status"])
        .output()
        .unwrap();
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no channel manager is configured"));
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!(
            "[channel]\nurl = \"http://127.0.0.1:9/api/v1\"\napi_key = \"{KEY}\"\nproperty_id = \"{PROPERTY}\"\n"
        ),
    )
    .unwrap();
    let said = run_ok(dir.path(), &["channel", "sync", "--full"]);
    assert!(said.contains("A full sync is asked for"), "{said}");
    let status = run_ok(dir.path(), &["channel", "status"]);
    assert!(
        status.contains("last push: never") && status.contains("full sync asked for at"),
        "{status}"
    );
}
