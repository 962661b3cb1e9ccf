//! Issue 30, part 1: a Croatian hotel registers its guests with eVisitor (the simulator in
//! `support::evisitor_sim`). Check-in is refused until every guest has what eVisitor needs,
//! then each guest is checked in with their own ID; a guest's data changed in the house goes
//! again under the same ID; check-out (and an invoice fiscalized at CIS, paid by bank
//! transfer) checks them out; a check-in undone is withdrawn. The service's quirks are in
//! `evisitor_faults`.

use serde_json::json;

use crate::support::evisitor::{
    book, checked_in, fields_of, german, guest, hotel, newest, status_is,
};
use crate::support::evisitor_sim::Sim;

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
    let lena = guest(
        &app,
        german("Lena", "Becker", "female", "2017-06-01", "C01X00T47"),
    )
    .await;
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
            "guest_ids[0].document",
            "guest_ids[1].tourist.tax_category"
        ],
        "{}",
        refused.body
    );
    assert_eq!(refused.body["guests"][0]["guest_id"], anna.as_str());
    assert_eq!(
        refused.body["guests"][1]["missing"],
        json!(["tourist.tax_category"]),
        "a child is not given the hotel's adult category"
    );
    assert!(sim.held().is_empty());
    app.put(
        &format!("/v1/guests/{lena}"),
        json!({"tourist": {"tax_category": "1"}}),
    )
    .await
    .expect(200);

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
    // A guest in the house cannot lose what eVisitor holds: refused at the guest's own
    // field, nothing changed.
    let refused = app
        .put(&format!("/v1/guests/{anna}"), json!({"document": null}))
        .await
        .expect(422);
    assert_eq!(refused.body["code"], "registration_incomplete");
    assert_eq!(fields_of(&refused.body), ["document"], "{}", refused.body);
    assert!(
        refused.body["detail"]
            .as_str()
            .unwrap()
            .contains("is in the house")
    );
    // A longer stay is told to eVisitor for both guests, under their IDs.
    app.put(
        &format!("/v1/reservations/{r}"),
        json!({"departure": "2026-11-26"}),
    )
    .await
    .expect(200);
    let longer = newest(&app, &r, "guest_registration").await;
    status_is(&app, longer["id"].as_str().unwrap(), "accepted").await;
    let held = sim.held();
    assert_eq!(held.len(), 2);
    assert!(
        held.values()
            .all(|h| h.body["ForeseenStayUntil"] == "20261126"),
        "{held:?}"
    );
    assert_eq!(held[&anna_id].edits, 2);

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
