//! Notes where the work happens: a booking's and its guest's notes on Today, on the board's
//! bar, on the check-in page, the booking's on housekeeping's card of the arrival's room, and
//! the guest's on their page; a role that may not read guests sees none of them.

use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn notes_show_on_today_the_board_check_in_housekeeping_and_the_guest() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app
        .post(
            "/v1/guests",
            json!({"first_name": "Nina", "last_name": "Notes", "notes": "gluten-free"}),
        )
        .await
        .expect(201)
        .id();
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 1,
                   "notes": "late arrival ~22:00, cot"}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    for (path, both) in [
        ("/".to_string(), true),
        ("/board".to_string(), true),
        (format!("/reservations/{r}/check-in"), true),
        (format!("/guests/{g}"), false),
    ] {
        let page = b.get(&path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.text);
        assert!(page.text.contains("gluten-free"), "{path}: {}", page.text);
        if both {
            assert!(
                page.text.contains("late arrival ~22:00, cot"),
                "{path}: {}",
                page.text
            );
        }
    }
    let password = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &password).await;
    let cards = h.get("/housekeeping").await;
    assert!(
        cards.text.contains("late arrival ~22:00, cot") && !cards.text.contains("gluten"),
        "{}",
        cards.text
    );
    let board = h.get("/board").await;
    assert!(
        !board.text.contains("gluten") && !board.text.contains("late arrival"),
        "a role without guests:read sees no notes on the board: {}",
        board.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_history_says_rooms_dates_and_money_in_words() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let (a, b) = (app.room("101", &rt).await, app.room("102", &rt).await);
    let g = app.guest("Hugo", "History").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": a,
                   "arrival": day(3), "departure": day(5), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.put_if(
        &format!("/v1/reservations/{r}"),
        "\"1\"",
        json!({"room_id": b, "nightly_rate": 12345, "source": "phone"}),
    )
    .await
    .expect(200);
    let password = staff(&app, "marta", "front_desk").await;
    let desk = Browser::sign_in(&app, "marta", &password).await;
    let page = desk.get(&format!("/reservations/{r}")).await;
    let at = page.text.find("<ol class=\"history\">").unwrap();
    let history = &page.text[at..at + page.text[at..].find("</ol>").unwrap()];
    for words in [
        "Room: 101 → 102",
        "Rate per night:",
        "123.45",
        "Booked through:",
        "Phone",
    ] {
        assert!(history.contains(words), "{words}: {history}");
    }
    assert!(
        !history.contains("rom_") && !history.contains("room_id"),
        "{history}"
    );
}
