//! Issue 30, part 1: eVisitor's quirks end with each guest registered once: the cookies all
//! sent back, a session that expires, a refusal sent as HTTP 200, a lost answer (sent again
//! under the same ID, an edit), and an outage sent late within the deadline, the check-out
//! waiting for its check-in.

use serde_json::json;

use crate::support::evisitor::{book, checked_in, german, guest, hotel, newest, retry, status_is};
use crate::support::{TestApp, eventually};

use crate::support::evisitor_sim::{Fault, Sim};

#[tokio::test(flavor = "multi_thread")]
async fn the_services_quirks_end_with_each_guest_registered_once() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let calls_before = sim.calls().iter().filter(|c| *c == "Login").count();
    assert_eq!(calls_before, 1, "the tables were fetched under one session");

    // The session expired: sign in again and send again; nothing was stored by the refusal.
    sim.fault(Fault::ExpireSessions);
    let a = guest(&app, german("Max", "Weber", "male", "1980-01-01", "P1")).await;
    let b = guest(&app, german("Eva", "Weber", "female", "1982-02-02", "P2")).await;
    let r = book(&app, &[a, b], 2).await;
    let sub = checked_in(&app, &r).await;
    let s = status_is(&app, &sub, "accepted").await;
    let ops = crate::support::operations(&s);
    assert_eq!(
        ops,
        [
            "CheckInTourist",
            "note",
            "Login",
            "CheckInTourist",
            "CheckInTourist"
        ],
        "{s}"
    );
    assert_eq!(sim.held().len(), 2);
    let log = s["exchanges"].to_string();
    assert!(
        !log.contains(crate::support::evisitor_sim::PASSWORD),
        "the password never reaches the log"
    );

    // A refusal that comes as HTTP 200 is a refusal: the row waits for a retry.
    sim.fault(Fault::RefuseWith200);
    let c = guest(&app, german("Jonas", "Klein", "male", "1990-05-05", "P3")).await;
    let r2 = book(&app, &[c], 1).await;
    let sub2 = checked_in(&app, &r2).await;
    let s = status_is(&app, &sub2, "rejected").await;
    assert!(
        s["last_error"]
            .as_str()
            .unwrap()
            .contains("privremeno nedostupan"),
        "{s}"
    );
    retry(&app, &sub2).await;
    status_is(&app, &sub2, "accepted").await;
    assert_eq!(sim.held().len(), 3);

    // The answer was lost after eVisitor stored the check-in: sent again under the same ID,
    // which edits the active check-in instead of registering the guest twice.
    sim.fault(Fault::Timeout(std::time::Duration::from_secs(3)));
    let d = guest(&app, german("Paul", "Roth", "male", "1970-07-07", "P4")).await;
    let r3 = book(&app, &[d], 1).await;
    let sub3 = checked_in(&app, &r3).await;
    let s = status_is(&app, &sub3, "retrying").await;
    assert!(s["last_error"].as_str().unwrap().contains("same ID"), "{s}");
    retry(&app, &sub3).await;
    status_is(&app, &sub3, "accepted").await;
    let held = sim.held();
    assert_eq!(held.len(), 4, "one record per guest");
    assert_eq!(
        held.values()
            .find(|h| h.body["TouristName"] == "Paul")
            .unwrap()
            .edits,
        1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outage_is_sent_late_within_the_deadline_and_the_check_out_waits_for_it() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    sim.set_down(true);
    let g = guest(&app, german("Clara", "Vogel", "female", "1999-09-09", "V1")).await;
    let r = book(&app, &[g], 1).await;
    let sub = checked_in(&app, &r).await;
    let s = status_is(&app, &sub, "retrying").await;
    assert!(s["last_error"].as_str().unwrap().contains("503"), "{s}");
    // The guest leaves while eVisitor is still down: the check-out waits for the check-in.
    app.clock().set_now("2026-11-23T07:00:00Z".parse().unwrap());
    sim.set_today("2026-11-23".parse().unwrap());
    app.post(
        "/v1/check-out",
        json!({"reservation_id": r, "payment_method": "cash"}),
    )
    .await
    .expect(200);
    let departure = newest(&app, &r, "guest_departure").await;
    let dep = departure["id"].as_str().unwrap().to_string();
    let s = status_is(&app, &dep, "retrying").await;
    assert!(
        s["last_error"]
            .as_str()
            .unwrap()
            .contains("earlier submission"),
        "{s}"
    );
    // eVisitor is back: the receptionist sends the check-in again, then the check-out.
    sim.set_down(false);
    send_again(&app, &sub).await;
    let s = status_is(&app, &sub, "accepted").await;
    assert!(
        s["updated_at"].as_str().unwrap() < s["due_at"].as_str().unwrap(),
        "within 24 hours: {s}"
    );
    send_again(&app, &dep).await;
    status_is(&app, &dep, "accepted").await;
    let held = sim.held();
    assert_eq!(
        held.values().next().unwrap().checked_out,
        Some(("20261123".into(), "08:00".into()))
    );
}

/// Asks for submission `id` to be sent now, once it is not on its way already (a retry the
/// queue started on its own may be sending it, or have sent it).
async fn send_again(app: &TestApp, id: &str) {
    let what = format!("{id} taken for a retry");
    eventually(crate::support::evisitor::WAIT, &what, || async {
        let path = format!("/v1/compliance/submissions/{id}");
        let r = app.post(&format!("{path}/retry"), json!({})).await;
        let now = app.get(&path).await.body;
        match (r.status.as_u16(), now["status"].as_str()) {
            // Taken, or gone through already on the queue's own retry.
            (202, _) | (_, Some("accepted")) => Ok(()),
            _ => Err(r.body["detail"].clone()),
        }
    })
    .await
}
