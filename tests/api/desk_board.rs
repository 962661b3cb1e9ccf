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
