//! The room board over plain HTTP: rooms grouped by type, stays as bars over the nights they
//! cover (a long stay that began weeks ago included), bookings without a room in their own
//! row, dirty and out-of-order rooms marked, free cells that start a booking for that room
//! and night, and moving through the days.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::{TestApp, day, spawn_app};

async fn book(
    app: &TestApp,
    guest: &str,
    rt: &str,
    room: Option<&str>,
    from: i64,
    to: i64,
) -> String {
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
               "arrival": day(from), "departure": day(to), "adults": 1}),
    )
    .await
    .expect(201)
    .id()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_board_shows_rooms_stays_and_free_nights() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let r101 = app.room("101", &dbl).await;
    let r102 = app.room("102", &dbl).await;
    let r103 = app.room("103", &dbl).await;
    let anna = app.guest("Anna", "Rossi").await;
    let bruno = app.guest("Bruno", "Bianchi").await;
    let carla = app.guest("Carla", "Verdi").await;
    let dario = app.guest("Dario", "Neri").await;
    let here = book(&app, &anna, &dbl, Some(&r101), 0, 3).await;
    app.post(
        "/v1/check-in",
        json!({"reservation_id": here, "room_id": r101}),
    )
    .await
    .expect(200);
    book(&app, &bruno, &dbl, None, 2, 5).await;
    book(&app, &carla, &dbl, None, 3, 4).await;
    book(&app, &dario, &dbl, None, 20, 22).await;
    app.put(
        &format!("/v1/rooms/{r102}"),
        json!({"housekeeping_status": "out_of_order"}),
    )
    .await
    .expect(200);
    app.put(
        &format!("/v1/rooms/{r103}"),
        json!({"housekeeping_status": "dirty"}),
    )
    .await
    .expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;

    let page = b.get("/board").await;
    assert_eq!(page.status, 200, "{}", page.text);
    let html = &page.text;
    assert!(
        html.contains(&format!(
            "colspan=\"3\" class=\"stay checked_in\"><a href=\"/reservations/{here}\""
        )),
        "{html}"
    );
    assert!(
        html.contains("Bruno Bianchi") && html.contains("Carla Verdi"),
        "{html}"
    );
    assert!(
        !html.contains("Dario Neri"),
        "a stay outside the 14 nights is not on the board"
    );
    // Bruno (nights 2-4) and Carla (night 3) overlap: two rows without a room.
    assert_eq!(html.matches("Without a room").count(), 2, "{html}");
    assert!(
        html.contains("out of order") && html.contains("to be cleaned"),
        "{html}"
    );
    // Free rooms per night: 101 and 103 in service (102 is out of order), less Anna
    // (nights 0-2), Bruno (2-4) and Carla (3), assigned or not.
    let counts: String = [1, 1, 0, 0, 1, 2]
        .iter()
        .map(|n| format!("<td class=\"num\">{n}</td>"))
        .collect();
    assert!(
        html.contains(&format!("<th scope=\"row\">Free rooms</th>{counts}")),
        "{html}"
    );
    let free = format!("/reservations/new?room_id={r103}&amp;arrival={}", day(0));
    assert!(
        html.contains(&free),
        "a free night starts a booking: {html}"
    );
    assert!(
        !html.contains(&format!("room_id={r102}&amp;")),
        "no booking into an out-of-order room"
    );

    let later = b.get(&format!("/board?from={}", day(14))).await;
    assert!(later.text.contains("Dario Neri"), "{}", later.text);
    assert!(
        later.text.contains(&format!("/board?from={}", day(7))),
        "a week back"
    );
    let far = b.get("/board?from=262143-12-31").await;
    assert_eq!(far.status, 200, "{}", far.text);
    assert!(far.text.contains("That date could not be read"));
    let bad = b.get("/board?from=next-tuesday").await;
    assert_eq!(bad.status, 200);
    assert!(
        bad.text.contains("That date could not be read"),
        "{}",
        bad.text
    );

    let started = b.get(&free.replace("&amp;", "&")).await;
    assert_eq!(started.status, 200, "{}", started.text);
    assert!(
        started.text.contains(&format!("value=\"{dbl}\" checked")),
        "the room's type is chosen"
    );
    assert!(
        started.text.contains(&format!("value=\"{r103}\" selected")),
        "and the room"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_stay_that_began_weeks_ago_is_on_the_board() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let room = app.room("201", &dbl).await;
    let anna = app.guest("Anna", "Lunga").await;
    let long = book(&app, &anna, &dbl, Some(&room), -40, 10).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get("/board").await;
    assert!(
        page.text.contains(&format!(
            "colspan=\"10\" class=\"stay confirmed\"><a href=\"/reservations/{long}\""
        )),
        "{}",
        page.text
    );
}

/// A stay that left the day it came, its room let again that night: the board draws the
/// guest now in the room, and the one who left neither in the room nor as a booking
/// without a room (the reservation keeps it). A clash between two stays still to come
/// stays visible.
#[tokio::test(flavor = "multi_thread")]
async fn a_room_let_again_after_a_day_use_shows_who_is_in_it() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let room = app.room("104", &dbl).await;
    app.room("105", &dbl).await;
    let ema = app.guest("Ema", "Dnevna").await;
    let fabio = app.guest("Fabio", "Noćni").await;
    let gone = book(&app, &ema, &dbl, Some(&room), 0, 1).await;
    app.post(
        "/v1/check-in",
        json!({"reservation_id": gone, "room_id": room}),
    )
    .await
    .expect(200);
    app.post(
        "/v1/check-out",
        json!({"reservation_id": gone, "pay_later": true}),
    )
    .await
    .expect(200);
    app.put(
        &format!("/v1/rooms/{room}"),
        json!({"housekeeping_status": "clean"}),
    )
    .await
    .expect(200);
    let now = book(&app, &fabio, &dbl, Some(&room), 0, 2).await;
    app.post(
        "/v1/check-in",
        json!({"reservation_id": now, "room_id": room}),
    )
    .await
    .expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let html = b.get("/board").await.text;
    assert!(
        html.contains(&format!(
            "colspan=\"2\" class=\"stay checked_in\"><a href=\"/reservations/{now}\""
        )),
        "{html}"
    );
    assert!(!html.contains(&gone), "{html}");
    assert!(!html.contains("Without a room"), "{html}");
    // One of two rooms is taken tonight and tomorrow night: the checked-out stay no longer
    // holds one.
    assert!(
        html.contains("<th scope=\"row\">Free rooms</th><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">2</td>"),
        "{html}"
    );

    // The board's table is kept rendered while nothing changes; any commit shows at once,
    // through the API or from another process (the CLI's import).
    app.put(
        &format!("/v1/guests/{fabio}"),
        json!({"first_name": "Fabrizio"}),
    )
    .await
    .expect(200);
    assert!(b.get("/board").await.text.contains("Fabrizio Noćni"));
    let dir = app.dir.as_ref().expect("a data directory").path();
    let (g, r) = (dir.join("g.csv"), dir.join("r.csv"));
    std::fs::write(&g, "external_id,first_name,last_name\n1,Iva,Uvozna\n").unwrap();
    let room_type: String = app.get(&format!("/v1/room-types/{dbl}")).await.body["code"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(
        &r,
        format!(
            "external_id,guest_external_id,room_type,room,arrival,departure,adults\n\
             R1,1,{room_type},105,{},{},1\n",
            day(3),
            day(5)
        ),
    )
    .unwrap();
    for (what, file) in [("guests", &g), ("reservations", &r)] {
        let out = crate::support::binary::innkeep(dir)
            .args(["import", what, file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    assert!(b.get("/board").await.text.contains("Iva Uvozna"));
}

/// What the board's drag-and-drop (or its keyboard way) posts: the reservation's change form
/// with the bar's version, the new room and nights, and `back` naming the board.
async fn moved(b: &Browser, id: &str, fields: &[(&str, &str)]) -> crate::support::Reply {
    let page = b.get("/board").await;
    let csrf = Browser::csrf(&page);
    let mut form = vec![("csrf", csrf.as_str())];
    form.extend_from_slice(fields);
    b.post(&format!("/reservations/{id}/change"), &form).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stay_is_moved_and_a_booking_assigned_from_the_board() {
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let sgl = app.room_type("SGL", 1).await;
    let r101 = app.room("101", &dbl).await;
    let r102 = app.room("102", &dbl).await;
    let r201 = app.room("201", &sgl).await;
    let anna = app.guest("Anna", "Rossi").await;
    let bruno = app.guest("Bruno", "Bianchi").await;
    let carla = app.guest("Carla", "Verdi").await;
    let waiting = book(&app, &bruno, &dbl, None, 1, 3).await;
    let here = book(&app, &anna, &dbl, Some(&r101), 0, 2).await;
    app.post(
        "/v1/check-in",
        json!({"reservation_id": here, "room_id": r101}),
    )
    .await
    .expect(200);
    let other = book(&app, &carla, &dbl, Some(&r102), 5, 7).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;

    // The bars carry what a move needs; the board says how to move them.
    let page = b.get("/board").await;
    assert!(
        page.text.contains(&format!(
            "class=\"movable\" draggable=\"true\" data-id=\"{waiting}\" data-version=\"1\" data-arrival=\"{}\" data-departure=\"{}\" data-status=\"confirmed\"",
            day(1),
            day(3)
        )),
        "{}",
        page.text
    );
    assert!(
        page.text
            .contains(&format!("<tr data-room=\"{r201}\" data-type=\"{sgl}\">"))
    );
    assert!(page.text.contains("press M"), "{}", page.text);

    // Bruno's booking without a room is put into 102 a night later: back to the board,
    // which says it was done.
    let back = format!("/board?from={}", day(0));
    let (a, d) = (day(2), day(4));
    let r = moved(
        &b,
        &waiting,
        &[
            ("version", "1"),
            ("room_id", &r102),
            ("room_type_id", &dbl),
            ("arrival", &a),
            ("departure", &d),
            ("back", &back),
        ],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(
        r.header("location").unwrap(),
        format!("{back}&done=changed")
    );
    let board = b.get(&r.header("location").unwrap()).await;
    assert!(board.text.contains("class=\"flash\""), "{}", board.text);
    let v = app.get(&format!("/v1/reservations/{waiting}")).await.body;
    assert_eq!(
        (v["room_id"].as_str(), v["arrival"].as_str()),
        (Some(r102.as_str()), Some(a.as_str()))
    );

    // Moved onto a room another booking holds: refused in words, on the reservation page,
    // nothing changed.
    let (a, d) = (day(4), day(6));
    let r = moved(
        &b,
        &waiting,
        &[
            ("version", "2"),
            ("room_id", &r102),
            ("room_type_id", &dbl),
            ("arrival", &a),
            ("departure", &d),
            ("back", &back),
        ],
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    // The refusal names the booking that holds the room, in words.
    let holder = app.get(&format!("/v1/reservations/{other}")).await.body;
    let code = holder["code"].as_str().unwrap();
    assert!(
        r.text.contains(&format!("reservation {code}")),
        "{}",
        r.text
    );
    let v = app.get(&format!("/v1/reservations/{waiting}")).await.body;
    assert_eq!(v["version"], 2, "{v}");

    // Guests in the house change room only (to another type's room is refused as by the
    // API); the room they left is to be cleaned.
    let r = moved(
        &b,
        &here,
        &[("version", "2"), ("room_id", &r201), ("back", &back)],
    )
    .await;
    assert_eq!(r.status, 422, "another type's room: {}", r.text);
    let r = moved(
        &b,
        &here,
        &[("version", "2"), ("room_id", &r102), ("back", &back)],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    let room = app.get(&format!("/v1/rooms/{r101}")).await.body;
    assert_eq!(room["housekeeping_status"], "dirty", "{room}");

    // `back` leads only to the board: anything else goes to the reservation.
    let v = app.get(&format!("/v1/reservations/{waiting}")).await.body;
    let r = moved(
        &b,
        &waiting,
        &[
            ("version", &v["version"].to_string()),
            ("notes", "late"),
            ("back", "https://evil.example/board?from=2026-01-01"),
        ],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/reservations/{waiting}?done=changed")
    );
}
