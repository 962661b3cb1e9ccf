//! Changing a booking at the desk, and what Today and the history say: new dates or another
//! room through the reservation page (refusals in place, the typed dates kept), the bill so
//! far on Today's lists, and history times in the property's time zone.

use serde_json::json;

use crate::support::desk::{Browser, hidden, staff};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn dates_and_room_change_from_the_reservation_page() {
    let app = spawn_app().await;
    app.put("/v1/settings", json!({"time_zone": "Asia/Tokyo"}))
        .await
        .expect(200);
    let rt = app.room_type("DBL", 2).await;
    let r101 = app.room("101", &rt).await;
    let r102 = app.room("102", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": r101,
                   "arrival": day(3), "departure": day(5), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(page.text.contains("Change the booking"), "{}", page.text);
    let csrf = Browser::csrf(&page);
    let version = hidden(&page.text, "version").unwrap();
    let path = format!("/reservations/{id}/change");

    // Departure before arrival: refused at the field, the typed dates kept.
    let (a, d) = (day(6), day(4));
    let bad = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("arrival", &a),
                ("departure", &d),
                ("room_id", &r101),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains("id=\"change-departure-error\""),
        "{}",
        bad.text
    );
    assert!(
        bad.text.contains(&format!("value=\"{a}\"")),
        "typed arrival kept"
    );
    assert!(
        bad.text.contains("<details class=\"change\" open>"),
        "the form stays open"
    );

    let (a, d) = (day(4), day(7));
    let ok = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("arrival", &a),
                ("departure", &d),
                ("room_id", &r102),
            ],
        )
        .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    assert_eq!(
        ok.header("location"),
        Some(format!("/reservations/{id}?done=changed"))
    );
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(
        (r["arrival"].as_str(), r["room_id"].as_str()),
        (Some(a.as_str()), Some(r102.as_str())),
        "{r}"
    );

    // The history shows when, in the property's time (Tokyo, never "Z").
    let page = b.get(&format!("/reservations/{id}?done=changed")).await;
    assert!(
        page.text.contains("The booking is changed."),
        "{}",
        page.text
    );
    // "23 Nov 14:" in Tokyo; the same moment in UTC is nine hours earlier.
    let utc = chrono::Utc::now();
    let tokyo = utc.with_timezone(&chrono_tz::Asia::Tokyo);
    let moment = |d: chrono::NaiveDateTime| format!("{} {}", d.format("%-d %b"), d.format("%H:"));
    assert!(
        !page.text.contains(&moment(utc.naive_utc())),
        "no UTC times: {}",
        page.text
    );
    assert!(
        page.text.contains(&moment(tokyo.naive_local())),
        "{}",
        page.text
    );

    // A stale form is caught.
    let stale = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("arrival", &a),
                ("departure", &d),
                ("room_id", ""),
            ],
        )
        .await;
    assert_eq!(stale.status, 409, "{}", stale.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn today_shows_the_bill_so_far_of_who_stays_and_leaves() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 1, "nightly_rate": 8000}),
        )
        .await
        .expect(201)
        .id();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": id, "room_id": room}),
    )
    .await
    .expect(200);
    app.post(
        &format!("/v1/reservations/{id}/charges"),
        json!({"description": "Wine", "quantity": 2, "unit_price": 1250}),
    )
    .await
    .expect(201);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert!(today.text.contains("Bill so far"), "{}", today.text);
    // 2 nights at 80.00 and 2 × 12.50.
    assert!(today.text.contains("EUR 185.00"), "{}", today.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_housekeeper_sees_the_board_but_cannot_book_check_in_or_charge() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(1), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "hana", "housekeeping").await;
    let b = Browser::sign_in(&app, "hana", &password).await;
    let board = b.get("/board").await;
    assert_eq!(board.status, 200, "{}", board.text);
    assert!(
        !board.text.contains("/reservations/new?"),
        "no booking from free cells"
    );
    assert!(!board.text.contains("New booking"), "not offered");
    assert!(
        !board.text.contains("Anna Rossi"),
        "no guest names without guests:read"
    );
    // A reservation shows guests' data, which housekeeping may not read.
    let page = b.get(&format!("/reservations/{id}")).await;
    assert_eq!(page.status, 403, "{}", page.text);
    let csrf = Browser::csrf(&board);
    for (path, form) in [
        (
            format!("/reservations/{id}/check-in"),
            vec![("room_id", room.as_str())],
        ),
        (
            format!("/reservations/{id}/charges"),
            vec![
                ("description", "Wine"),
                ("quantity", "1"),
                ("unit_price", "5"),
            ],
        ),
    ] {
        let mut form = form;
        form.push(("csrf", &csrf));
        let r = b.post(&path, &form).await;
        assert_eq!(r.status, 403, "{path}: {}", r.text);
        assert!(r.text.contains("Not for your role"), "{}", r.text);
    }
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["status"], "confirmed");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_party_rate_source_and_notes_change_from_the_same_form() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 3).await;
    let room = app.room("101", &dbl).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": dbl, "arrival": day(0),
                   "departure": day(2), "adults": 1, "nightly_rate": 9000}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/reservations/{id}")).await;
    for name in [
        "room_type_id",
        "adults",
        "children",
        "nightly_rate",
        "source",
        "notes",
    ] {
        assert!(page.text.contains(&format!("name=\"{name}\"")), "{name}");
    }
    assert!(
        page.text.contains("value=\"90.00\""),
        "the rate as an amount"
    );
    let csrf = Browser::csrf(&page);
    let path = format!("/reservations/{id}/change");
    let post = |fields: Vec<(&'static str, String)>| {
        let b = &b;
        let csrf = csrf.clone();
        let path = path.clone();
        async move {
            let version = app_version(b, &path).await;
            let mut form: Vec<(&str, &str)> = vec![("csrf", &csrf), ("version", &version)];
            form.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
            b.post(&path, &form).await
        }
    };
    let bad = post(vec![
        ("nightly_rate", "lots".into()),
        ("adults", "9".into()),
    ])
    .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains("id=\"change-nightly_rate-error\""),
        "{}",
        bad.text
    );
    assert!(bad.text.contains("value=\"lots\""), "typed rate kept");

    let too_many = post(vec![("adults", "3".into()), ("children", "1".into())]).await;
    assert_eq!(too_many.status, 422, "{}", too_many.text);
    assert!(too_many.text.contains("at most 3"), "{}", too_many.text);

    let why_not = post(vec![
        ("nightly_rate", "120,50".into()),
        ("stored_rate", "9000".into()),
    ])
    .await;
    assert_eq!(
        why_not.status, 422,
        "a changed rate says why: {}",
        why_not.text
    );
    assert!(
        why_not.text.contains("id=\"change-rate_note-error\""),
        "{}",
        why_not.text
    );
    let kept = post(vec![
        ("nightly_rate", "90,00".into()),
        ("stored_rate", "9000".into()),
    ])
    .await;
    assert_eq!(
        kept.status, 303,
        "the same rate needs no reason: {}",
        kept.text
    );

    let ok = post(vec![
        ("adults", "2".into()),
        ("children", "1".into()),
        ("nightly_rate", "120,50".into()),
        ("stored_rate", "9000".into()),
        ("rate_note", "Family of three, breakfast included".into()),
        ("source", "email".into()),
        ("notes", "Late arrival ~22:00".into()),
        ("room_type_id", dbl.clone()),
        ("room_id", room.clone()),
    ])
    .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(
        (
            &r["adults"],
            &r["children"],
            &r["nightly_rate"],
            &r["source"],
            &r["notes"]
        ),
        (
            &json!(2),
            &json!(1),
            &json!(12050),
            &json!("email"),
            &json!("Late arrival ~22:00")
        ),
        "{r}"
    );
    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(
        page.text.contains("Rate per night"),
        "the history names it: {}",
        page.text
    );

    // In the house: only departure, room and notes are offered.
    app.post("/v1/check-in", json!({"reservation_id": id}))
        .await
        .expect(200);
    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(page.text.contains("name=\"notes\"") && page.text.contains("name=\"departure\""));
    for gone in [
        "name=\"adults\"",
        "name=\"nightly_rate\"",
        "name=\"arrival\"",
    ] {
        assert!(!page.text.contains(gone), "{gone} offered in the house");
    }
}

/// The version the reservation page at `path`'s reservation shows now.
async fn app_version(b: &Browser, change_path: &str) -> String {
    let page = b.get(change_path.trim_end_matches("/change")).await;
    hidden(&page.text, "version").unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folio_charge_takes_a_vat_rate_from_the_propertys_list() {
    let app = spawn_app().await;
    app.put(
        "/v1/settings",
        json!({"country": "HR", "default_tax_rate": 1300, "currency": "EUR"}),
    )
    .await
    .expect(200);
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let g = app.guest("Ana", "Horvat").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(0),
                   "departure": day(2), "adults": 1, "currency": "EUR", "nightly_rate": 9000}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/reservations/{id}")).await;
    let offered: Vec<&str> = ["13 %", "25 %", "5 %", "0 %"]
        .into_iter()
        .filter(|p| page.text.contains(&format!(">{p}</option>")))
        .collect();
    assert_eq!(offered.len(), 4, "{}", page.text);
    assert!(
        page.text.contains("<option value=\"1300\" selected>"),
        "the usual rate first"
    );
    let csrf = Browser::csrf(&page);
    let path = format!("/reservations/{id}/charges");
    let wine = [
        ("csrf", csrf.as_str()),
        ("description", "Wine"),
        ("quantity", "1"),
        ("unit_price", "25,00"),
        ("tax_rate", "2500"),
    ];
    assert_eq!(b.post(&path, &wine).await.status, 303);
    let charges = app
        .get(&format!("/v1/reservations/{id}/charges"))
        .await
        .body;
    assert_eq!(charges["data"][0]["tax_rate"], 2500, "{charges}");
    let odd = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("description", "Odd"),
                ("quantity", "1"),
                ("unit_price", "1"),
                ("tax_rate", "20000"),
            ],
        )
        .await;
    assert_eq!(
        odd.status, 422,
        "a rate past 100 % is the API's rule: {}",
        odd.text
    );
}
