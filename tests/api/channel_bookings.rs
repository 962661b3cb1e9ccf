//! Bookings in from the channel manager (the Channex simulator's booking feed), exactly
//! once: each revision becomes a reservation once and is acknowledged after the commit; a
//! modification changes the same reservation and keeps its folio; a booking that no longer
//! fits is taken and flagged overbooked, with its event; a cancellation cancels it; a
//! room type not mapped holds the booking unacknowledged, said on the health; and after
//! the mix the channel manager's availability, prices and restrictions equal innkeep's.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::channex_sim::{Sim, config, revision};
use crate::support::plans::plans;
use crate::support::{Spawn, TestApp, day, eventually};

async fn acked(sim: &Sim, id: &str) {
    eventually(
        Duration::from_secs(40),
        "the revision acknowledged",
        || async { if sim.acked(id) { Ok(()) } else { Err(()) } },
    )
    .await;
}

/// The reservations with booking-site code `code`.
async fn with_code(app: &TestApp, code: &str) -> Vec<Value> {
    app.all("/v1/reservations")
        .await
        .into_iter()
        .filter(|r| r["channel"]["ota_code"] == code)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn bookings_come_in_once_and_change_cancel_and_overbook_in_place() {
    let sim = Sim::start(&["ch-fam", "ch-other"], &["ch-flex", "ch-nr"]).await;
    let cfg = config(sim.url());
    let app = Spawn::new().config(|c| c.channel = Some(cfg)).start().await;
    let (_rt, _, _) = plans(&app, 2).await;

    let first = sim.book(revision("bk-1", "new", "4711", 10, 12, "ch-fam"));
    acked(&sim, &first).await;
    let taken = with_code(&app, "4711").await;
    assert_eq!(taken.len(), 1, "one reservation: {taken:?}");
    let r = &taken[0];
    assert_eq!(r["source"], "ota");
    assert_eq!(r["status"], "confirmed");
    assert_eq!(
        r["channel"],
        json!({"name": "channex", "ota": "Booking.com", "ota_code": "4711", "booking_id": "bk-1",
               "revision_id": first, "payment": "ota", "overbooked": false})
    );
    assert_eq!(r["nights"][0]["price"], 9500);
    assert_eq!(r["nights"].as_array().unwrap().len(), 2);
    let id = r["id"].as_str().unwrap().to_string();
    let guest = app
        .get(&format!(
            "/v1/guests/{}",
            r["primary_guest_id"].as_str().unwrap()
        ))
        .await
        .expect(200)
        .body;
    assert_eq!(
        (guest["first_name"].as_str(), guest["email"].as_str()),
        (Some("Ana"), Some("ana@example.com"))
    );
    app.post(
        &format!("/v1/reservations/{id}/charges"),
        json!({"description": "Airport transfer", "quantity": 1, "unit_price": 3500}),
    )
    .await
    .expect(201);

    // A modification moves the same reservation; its folio stays.
    let moved = sim.book(revision("bk-1", "modified", "4711", 11, 14, "ch-fam"));
    acked(&sim, &moved).await;
    let now = with_code(&app, "4711").await;
    assert_eq!(now.len(), 1);
    assert_eq!(now[0]["id"], id.as_str());
    assert_eq!(
        (now[0]["arrival"].as_str(), now[0]["departure"].as_str()),
        (Some(day(11).as_str()), Some(day(14).as_str()))
    );
    assert_eq!(now[0]["channel"]["revision_id"], moved.as_str());
    let folio = app
        .get(&format!("/v1/reservations/{id}/charges"))
        .await
        .expect(200)
        .body;
    assert!(
        folio.to_string().contains("Airport transfer"),
        "the charge stays: {folio}"
    );

    // Two rooms: one more booking fits on the 12th, the third is taken all the same.
    let second = sim.book(revision("bk-2", "new", "4712", 12, 13, "ch-fam"));
    let third = sim.book(revision("bk-3", "new", "4713", 12, 13, "ch-fam"));
    acked(&sim, &third).await;
    assert!(sim.acked(&second));
    let over = with_code(&app, "4713").await;
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["channel"]["overbooked"], true);
    assert_eq!(
        with_code(&app, "4712").await[0]["channel"]["overbooked"],
        false
    );
    let events = app.all_events().await;
    let flagged: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "reservation.overbooked")
        .collect();
    assert_eq!(flagged.len(), 1, "one overbooking");
    assert_eq!(flagged[0]["data"]["id"], over[0]["id"]);
    assert_eq!(flagged[0]["data"]["full_nights"], json!([day(12)]));
    let health = app.get("/v1/channel/health").await.expect(200).body;
    assert_eq!(health["overbooked"][0]["code"], over[0]["code"]);
    assert_eq!(health["overbooked"][0]["source"], "Booking.com 4713");
    assert!(health["bookings_pulled"].as_i64().unwrap() >= 4);

    // The booking site cancels the second: it is cancelled, once.
    let cancelled = sim.book(revision("bk-2", "cancelled", "4712", 12, 13, "ch-fam"));
    acked(&sim, &cancelled).await;
    let gone = with_code(&app, "4712").await;
    assert_eq!(gone[0]["status"], "cancelled");
    // Its room now holds the overbooked one: nothing is overbooked any more.
    let health = app.get("/v1/channel/health").await.expect(200).body;
    assert_eq!(health["overbooked"], json!([]), "{health}");

    // A room type the mapping does not know: held, unacknowledged, said in words.
    let unmapped = sim.book(revision("bk-4", "new", "4714", 20, 21, "ch-other"));
    eventually(Duration::from_secs(40), "the held booking said", || async {
        let h = app.get("/v1/channel/health").await.body;
        match h["pull_error"].as_str() {
            Some(e) if e.contains("4714") && e.contains("not mapped") => Ok(()),
            _ => Err(()),
        }
    })
    .await;
    assert!(!sim.acked(&unmapped));
    assert!(with_code(&app, "4714").await.is_empty());

    // After the mix, the channel manager holds what innkeep holds on every night.
    eventually(Duration::from_secs(40), "in step", || async {
        let h = app.get("/v1/channel/health").await.body;
        if h["queue_depth"] == 0 {
            Ok(())
        } else {
            Err(())
        }
    })
    .await;
    let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
    let pusher = innkeep::jobs::channel::Pusher::new(svc, config(sim.url()));
    assert_eq!(pusher.check().await.unwrap(), []);
    assert_eq!(
        sim.availability("ch-fam", day(12).parse().unwrap()),
        Some(0)
    );
    assert_eq!(
        sim.availability("ch-fam", day(11).parse().unwrap()),
        Some(1)
    );
}

#[tokio::test]
async fn a_revision_applied_twice_is_taken_once() {
    use innkeep::channel::channex;
    use innkeep::service::channel_bookings::{Applied, apply};

    let app = crate::support::spawn_app().await;
    plans(&app, 1).await;
    let body = json!({"data": [{"id": "rev-9", "type": "booking_revision",
                                "attributes": revision("bk-9", "new", "9999", 3, 5, "ch-fam")}]});
    let rev = channex::revisions(&body.to_string()).unwrap().remove(0);
    let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
    let cfg = config("http://127.0.0.1:9/api/v1".into());
    let once = apply(&svc, cfg.clone(), rev.clone()).await.unwrap();
    assert!(
        matches!(once, Applied::Done(ref s) if s.starts_with("took reservation")),
        "{once:?}"
    );
    let twice = apply(&svc, cfg, rev).await.unwrap();
    assert_eq!(
        twice,
        Applied::Already(match once {
            Applied::Done(s) => s,
            _ => unreachable!(),
        })
    );
    assert_eq!(with_code(&app, "9999").await.len(), 1);
}

#[tokio::test]
async fn the_health_says_when_nothing_is_connected() {
    let app = crate::support::spawn_app().await;
    let h = app.get("/v1/channel/health").await.expect(200).body;
    assert_eq!(
        (h["provider"].clone(), h["connected"].clone()),
        (Value::Null, json!(false))
    );
    let refused = app
        .post("/v1/channel/sync", json!({}))
        .await
        .expect(409)
        .body;
    assert_eq!(refused["code"], "not_connected");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_short_page_of_the_feed_is_its_end() {
    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let app = crate::support::spawn_app().await;
    plans(&app, 2).await;
    let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
    let pusher = innkeep::jobs::channel::Pusher::new(svc, config(sim.url()));
    let book = |n: usize| {
        let (booking, code) = (format!("bk-{n}"), format!("{}", 5000 + n));
        sim.book(revision(&booking, "new", &code, 3, 4, "ch-fam"))
    };

    // Three revisions are fewer than a full page: read once, all taken.
    for n in 0..3 {
        book(n);
    }
    assert_eq!(pusher.pull().await.unwrap(), 3);
    assert_eq!(sim.feed_reads(), 1, "a short page needs no second read");

    // A full page of 100 and 5 more: the feed is read again after the full page only.
    for n in 3..108 {
        book(n);
    }
    assert_eq!(pusher.pull().await.unwrap(), 105);
    assert_eq!(sim.feed_reads(), 3, "one full page, then the short one");
    assert_eq!(app.all("/v1/reservations").await.len(), 108);
}

#[tokio::test]
async fn a_round_that_takes_a_booking_clears_the_reads_problem_and_dates_it() {
    use crate::support::channex_sim::Fault;

    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let app = crate::support::spawn_app().await;
    plans(&app, 2).await;
    let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
    let pusher = innkeep::jobs::channel::Pusher::new(svc.clone(), config(sim.url()));
    let state = || async {
        svc.db()
            .read(innkeep::store::channel::pull_state)
            .await
            .unwrap()
    };

    // The feed fails: the problem is kept and no read is dated.
    sim.fault_bookings(&[Fault::Fail]);
    pusher.round().await.unwrap();
    let (at, pulled, problem) = state().await;
    assert_eq!((at, pulled), (None, 0));
    assert!(problem.is_some(), "the problem kept");

    // The next round takes a booking, its acknowledgement answered 50 ms late. The
    // booking's own transaction dated the read and cleared the problem, and the round
    // records nothing after it: that would date the read after the acknowledgement.
    sim.fault_bookings(&[
        Fault::Slow(Duration::ZERO),
        Fault::Slow(Duration::from_millis(50)),
    ]);
    sim.book(revision("bk-1", "new", "6001", 3, 4, "ch-fam"));
    pusher.round().await.unwrap();
    let (at, pulled, problem) = state().await;
    assert_eq!((pulled, problem), (1, None));
    let applied: String = svc
        .db()
        .read(|c| Ok(c.query_row("SELECT applied_at FROM channel_revisions", [], |r| r.get(0))?))
        .await
        .unwrap();
    assert_eq!(
        at,
        Some(applied),
        "the read dated by the booking's transaction alone"
    );

    // A round that takes nothing dates the read again.
    tokio::time::sleep(Duration::from_millis(10)).await;
    pusher.round().await.unwrap();
    let (later, pulled, problem) = state().await;
    assert_eq!((pulled, problem), (1, None));
    assert!(
        later > at,
        "an idle round dates the read: {later:?} after {at:?}"
    );
}
