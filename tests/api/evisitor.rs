//! Issue 30, part 1: a Croatian hotel registers its guests with eVisitor (the simulator in
//! `support::evisitor_sim`). Check-in is refused until every guest has what eVisitor needs,
//! then each guest is checked in with their own ID; a guest's data changed in the house goes
//! again under the same ID; check-out (and an invoice fiscalized at CIS, paid by bank
//! transfer) checks them out; the service's quirks (cookies, a session that expires, a
//! refusal sent as HTTP 200, a lost answer, an outage) end registered, once per guest.

use serde_json::{Value, json};

use crate::support::evisitor::{DAY, WAIT, german, hotel};
use crate::support::evisitor_sim::{Fault, Sim};
use crate::support::{TestApp, eventually};

async fn guest(app: &TestApp, body: Value) -> String {
    app.post("/v1/guests", body).await.expect(201).id()
}

/// Books a room for `guests` from today for `nights`; the reservation id.
async fn book(app: &TestApp, guests: &[String], nights: u64) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let rt = app.room_type(&format!("T{n}"), 4).await;
    let room = app.room(&format!("R{n}"), &rt).await;
    let departure = DAY.parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(nights);
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guests[0], "guest_ids": guests[1..],
            "room_type_id": rt, "room_id": room, "arrival": DAY, "departure": departure.to_string(),
            "adults": guests.len()}),
    )
    .await
    .expect(201)
    .id()
}

async fn checked_in(app: &TestApp, r: &str) -> String {
    let answer = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    answer.body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn status_is(app: &TestApp, id: &str, want: &str) -> Value {
    crate::support::submission_is(app, id, want, WAIT).await
}

/// The newest submission of `kind` about reservation `r`.
async fn newest(app: &TestApp, r: &str, kind: &str) -> Value {
    eventually(WAIT, &format!("a {kind} submission for {r}"), || async {
        let list = app
            .get(&format!("/v1/compliance/submissions?kind={kind}&limit=100"))
            .await
            .body;
        let found = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|s| s["subject_id"] == r)
            .cloned();
        found.ok_or(list["data"].as_array().unwrap().len())
    })
    .await
}

/// Asks for submission `id` to be sent again now.
async fn retry(app: &TestApp, id: &str) {
    app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
        .await
        .expect(202);
}

fn fields_of(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_stay_from_refused_check_in_to_checked_out_with_its_receipt() {
    let sim = Sim::start().await;
    let cis = crate::support::cis_sim::Sim::start();
    let app = hotel(&sim, Some(&cis)).await;
    let anna = guest(
        &app,
        json!({"first_name": "Anna", "last_name": "Becker", "gender": "female",
        "birth_date": "1988-03-02", "nationality": "DE"}),
    )
    .await;
    let mut lena = german("Lena", "Becker", "female", "2017-06-01", "C01X00T47");
    lena["tourist"] = json!({"tax_category": "1"});
    let lena = guest(&app, lena).await;
    let r = book(&app, &[anna.clone(), lena.clone()], 3).await;

    // Refused, naming each missing field of each guest, nothing sent.
    let refused = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(422);
    assert_eq!(
        refused.body["code"], "registration_incomplete",
        "{}",
        refused.body
    );
    assert_eq!(
        fields_of(&refused.body),
        [
            "guest_ids[0].birth_place.country",
            "guest_ids[0].birth_place.municipality",
            "guest_ids[0].address.country",
            "guest_ids[0].address.city",
            "guest_ids[0].document"
        ],
        "{}",
        refused.body
    );
    assert_eq!(refused.body["guests"][0]["guest_id"], anna.as_str());
    assert_eq!(
        refused.body["guests"].as_array().unwrap().len(),
        1,
        "the child is complete"
    );
    assert!(sim.held().is_empty());

    // A category the facility may not use is refused by name.
    let mut full = german("Anna", "Becker", "female", "1988-03-02", "C01X00T48");
    full["tourist"] = json!({"tax_category": "18"});
    app.put(&format!("/v1/guests/{anna}"), full.clone())
        .await
        .expect(200);
    let refused = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(422);
    assert_eq!(
        fields_of(&refused.body),
        ["guest_ids[0].tourist.tax_category"]
    );
    assert_eq!(refused.body["errors"][0]["code"], "not_found");

    full["tourist"] = json!({});
    app.put(&format!("/v1/guests/{anna}"), full.clone())
        .await
        .expect(200);
    let sub = checked_in(&app, &r).await;
    let s = status_is(&app, &sub, "accepted").await;
    assert_eq!(s["scheme"], "hr-evisitor");
    assert!(
        s["due_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-23T09:30:0"),
        "24 hours after arrival: {s}"
    );
    let held = sim.held();
    assert_eq!(held.len(), 2, "one check-in per guest");
    let anna_id = held
        .iter()
        .find(|(_, h)| h.body["TouristName"] == "Anna")
        .unwrap()
        .0
        .clone();
    let a = &held[&anna_id].body;
    assert_eq!(
        (
            a["StayFrom"].as_str(),
            a["TimeStayFrom"].as_str(),
            a["ForeseenStayUntil"].as_str()
        ),
        (Some("20261122"), Some("10:30"), Some("20261125"))
    );
    assert_eq!(
        (
            a["Citizenship"].as_str(),
            a["CountryOfResidence"].as_str(),
            a["Gender"].as_str()
        ),
        (Some("DEU"), Some("DEU"), Some("ženski"))
    );
    assert_eq!(
        (
            a["DocumentType"].as_str(),
            a["TTPaymentCategory"].as_str(),
            a["ArrivalOrganisation"].as_str()
        ),
        (Some("002"), Some("14"), Some("I"))
    );
    let l = held
        .values()
        .find(|h| h.body["TouristName"] == "Lena")
        .unwrap();
    assert_eq!(l.body["TTPaymentCategory"], "1");

    // A changed document in the house goes again under the same ID: an edit, not a second tourist.
    full["document"]["number"] = json!("C01X00T99");
    app.put(&format!("/v1/guests/{anna}"), full.clone())
        .await
        .expect(200);
    let again = newest(&app, &r, "guest_registration").await;
    assert_ne!(again["id"], sub.as_str());
    status_is(&app, again["id"].as_str().unwrap(), "accepted").await;
    let held = sim.held();
    assert_eq!(held.len(), 2);
    assert_eq!(
        (
            held[&anna_id].edits,
            held[&anna_id].body["DocumentNumber"].as_str()
        ),
        (1, Some("C01X00T99"))
    );
    // Notes change nothing eVisitor holds: nothing is sent.
    app.put(
        &format!("/v1/guests/{anna}"),
        json!({"notes": "Late riser"}),
    )
    .await
    .expect(200);
    let list = app
        .get("/v1/compliance/submissions?kind=guest_registration&limit=100")
        .await
        .body;
    assert_eq!(
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["subject_id"] == r.as_str())
            .count(),
        2
    );

    // An early departure, paid by bank transfer: fiscalized, and both guests checked out.
    app.clock().set_now("2026-11-24T08:15:00Z".parse().unwrap());
    sim.set_today("2026-11-24".parse().unwrap());
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": r, "payment_method": "bank_transfer"}),
        )
        .await
        .expect(200);
    let invoice = out.body["invoice"]["id"].as_str().unwrap().to_string();
    let inv = crate::support::fiscal::fiscal_is(&app, &invoice, "fiscalized").await;
    assert!(inv["fiscal"]["authority_reference"].is_string(), "{inv}");
    let departure = newest(&app, &r, "guest_departure").await;
    let d = status_is(&app, departure["id"].as_str().unwrap(), "accepted").await;
    assert!(
        d["due_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-25T08:15:0"),
        "24 hours after departure: {d}"
    );
    for h in sim.held().values() {
        assert_eq!(h.checked_out, Some(("20261124".into(), "09:15".into())));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_resident_outside_the_eu_needs_the_border_crossing_and_the_day_of_entry() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let mut body = json!({"first_name": "John", "last_name": "Miller", "gender": "male", "birth_date": "1975-09-09",
        "nationality": "US", "birth_place": {"country": "US", "municipality": "Boston"},
        "address": {"city": "Boston", "country": "US"},
        "document": {"type": "passport", "number": "584930211", "issuing_country": "US"}});
    let john = guest(&app, body.clone()).await;
    let r = book(&app, std::slice::from_ref(&john), 2).await;
    let refused = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(422);
    assert_eq!(
        fields_of(&refused.body),
        [
            "guest_ids[0].tourist.border_crossing",
            "guest_ids[0].tourist.entry_date"
        ]
    );
    body["tourist"] = json!({"border_crossing": "Zračna luka Zagreb", "entry_date": "2026-11-20"});
    app.put(&format!("/v1/guests/{john}"), body)
        .await
        .expect(200);
    let sub = checked_in(&app, &r).await;
    status_is(&app, &sub, "accepted").await;
    let held = sim.held();
    let h = held.values().next().unwrap();
    assert_eq!(
        (
            h.body["BorderCrossing"].as_str(),
            h.body["PassageDate"].as_str()
        ),
        (Some("053"), Some("20261120"))
    );
}

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
    let ops: Vec<&str> = s["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["operation"].as_str().unwrap())
        .collect();
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
    // eVisitor is back; an hour later every wait has run out, and both go, in order.
    sim.set_down(false);
    app.clock().set_now("2026-11-23T08:00:00Z".parse().unwrap());
    let s = status_is(&app, &sub, "accepted").await;
    assert!(
        s["updated_at"].as_str().unwrap() < s["due_at"].as_str().unwrap(),
        "within 24 hours: {s}"
    );
    // The check-out looks again 30 seconds later.
    app.clock().set_now("2026-11-23T08:01:00Z".parse().unwrap());
    status_is(&app, &dep, "accepted").await;
    let held = sim.held();
    assert_eq!(
        held.values().next().unwrap().checked_out,
        Some(("20261123".into(), "08:00".into()))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_check_in_undone_on_its_day_is_withdrawn_and_a_new_one_gets_new_ids() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let a = guest(&app, german("Lukas", "Braun", "male", "1984-04-04", "U1")).await;
    let b = guest(&app, german("Mia", "Braun", "female", "1986-06-06", "U2")).await;
    let r = book(&app, &[a, b], 2).await;
    let sub = checked_in(&app, &r).await;
    status_is(&app, &sub, "accepted").await;
    let undone = app
        .post(&format!("/v1/reservations/{r}/undo-check-in"), json!({}))
        .await
        .expect(200);
    assert_eq!(undone.body["status"], "confirmed");
    assert!(undone.body["checked_in_at"].is_null());
    let w = newest(&app, &r, "guest_withdrawal").await;
    status_is(&app, w["id"].as_str().unwrap(), "accepted").await;
    let held = sim.held();
    assert_eq!(held.len(), 2);
    assert!(
        held.values().all(|h| h.cancelled.is_some()),
        "both withdrawn"
    );
    app.post(&format!("/v1/reservations/{r}/undo-check-in"), json!({}))
        .await
        .problem(409, "invalid_state_transition");

    // Checked in again: new IDs (eVisitor edits only active check-ins).
    let again = checked_in(&app, &r).await;
    status_is(&app, &again, "accepted").await;
    let held = sim.held();
    assert_eq!(held.len(), 4);
    assert_eq!(held.values().filter(|h| h.cancelled.is_none()).count(), 2);

    // The next day it is too late: the guest is checked out instead.
    app.clock().set_now("2026-11-23T09:00:00Z".parse().unwrap());
    app.post(&format!("/v1/reservations/{r}/undo-check-in"), json!({}))
        .await
        .problem(409, "undo_too_late");
}
