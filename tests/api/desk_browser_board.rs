//! The room board worked in a real browser (headless chromium through WebDriver): a booking
//! without a room is given one with the keyboard alone (M, the arrow keys, Enter), and a
//! stay is dragged to other nights, both through the reservation's change form and back to
//! the board; axe-core checks the board while a stay is carried. Screenshots go to
//! `target/screenshots/`.

use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::{Value, json};

use crate::support::browser::{Chrome, chrome};
use crate::support::desk::staff;
use crate::support::{TestApp, day, spawn_app};

/// Waits until reservation `id` has left version `version`, then for the board the move
/// returned to (it says what was done); returns the reservation.
async fn after_move(b: &Chrome, app: &TestApp, id: &str, version: i64) -> Value {
    for _ in 0..200 {
        let r = app.get(&format!("/v1/reservations/{id}")).await.body;
        if r["version"].as_i64() != Some(version) {
            b.client
                .wait()
                .for_element(Locator::Css("p.flash"))
                .await
                .unwrap();
            return r;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the move of {id} never arrived");
}

/// Sends `keys` to the focused element.
async fn press(b: &Chrome, keys: &str) {
    b.client
        .active_element()
        .await
        .unwrap()
        .send_keys(keys)
        .await
        .unwrap();
}

/// Drags the bar of `id` by its first night onto room row `room`, night `night`, with the
/// events a mouse drag fires (WebDriver's own pointer actions do not start HTML drags).
const DRAG: &str = r#"
const [id, room, night] = arguments;
const bar = document.querySelector(`a.movable[data-id="${id}"]`);
const head = document.querySelector(`thead th[data-day="${night}"]`).getBoundingClientRect();
const row = document.querySelector(`tr[data-room="${room}"]`).getBoundingClientRect();
const from = bar.getBoundingClientRect();
const data = new DataTransfer();
const fire = (el, type, x, y) => el.dispatchEvent(new DragEvent(type,
  { bubbles: true, cancelable: true, dataTransfer: data, clientX: x, clientY: y }));
fire(bar, "dragstart", from.left + 4, from.top + 4);
const x = head.left + head.width / 2, y = row.top + row.height / 2;
const target = document.elementFromPoint(x, y);
fire(target, "dragover", x, y);
fire(target, "drop", x, y);
"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_board_moves_stays_by_keyboard_and_by_dragging() {
    let Some(b) = chrome(1366, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let dbl = app.room_type("DBL", 2).await;
    let r101 = app.room("101", &dbl).await;
    let r102 = app.room("102", &dbl).await;
    let bruno = app.guest("Bruno", "Bianchi").await;
    let waiting = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": bruno, "room_type_id": dbl,
                   "arrival": day(1), "departure": day(3), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    b.client.goto(&format!("{base}/board")).await.unwrap();

    // With the keyboard: Tab to the bar, M picks it up at its type's first room (101),
    // the down arrow chooses 102, Enter puts it there.
    b.tab_to("Bruno Bianchi").await;
    press(&b, "m").await;
    press(&b, &Key::Down.to_string()).await;
    let said = b
        .client
        .find(Locator::Id("board-live"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(said.contains("102"), "the target is said aloud: {said:?}");
    b.screenshot("desk-board-carrying").await;
    b.axe("Room board, a stay carried").await;
    press(&b, &Key::Enter.to_string()).await;
    let r = after_move(&b, &app, &waiting, 1).await;
    assert_eq!(r["room_id"], json!(r102), "{r}");
    assert_eq!(r["arrival"], json!(day(1)), "{r}");

    // Dragged by its first night onto 101, two nights later: the stay keeps its length.
    b.client
        .execute(DRAG, vec![json!(waiting), json!(r101), json!(day(3))])
        .await
        .unwrap();
    let r = after_move(&b, &app, &waiting, 2).await;
    assert_eq!(r["room_id"], json!(r101), "{r}");
    assert_eq!(
        (r["arrival"].clone(), r["departure"].clone()),
        (json!(day(3)), json!(day(5)))
    );
    b.screenshot("desk-board-moved").await;
    b.client.clone().close().await.unwrap();
}
