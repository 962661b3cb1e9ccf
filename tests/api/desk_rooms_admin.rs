//! Administration at the desk, rooms (screen 10): room types and rooms added and changed
//! from the pages, a room taken out of order, every refusal next to its field with what was
//! typed kept, a change saved meanwhile caught, and other roles refused.

use crate::support::desk::{Browser, hidden, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_sets_up_room_types_and_rooms() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/rooms").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("No room types yet."));
    let csrf = Browser::csrf(&page);

    let bad = a
        .post(
            "/admin/room-types",
            &[
                ("csrf", &csrf),
                ("code", "double room"),
                ("name", "Double"),
                ("max_occupancy", "two"),
                ("base_rate", "lots"),
                ("description", ""),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    for id in ["code-error", "max_occupancy-error", "base_rate-error"] {
        assert!(
            bad.text.contains(&format!("id=\"{id}\"")),
            "{id}: {}",
            bad.text
        );
    }
    assert!(bad.text.contains("value=\"double room\"") && bad.text.contains("value=\"two\""));

    let added = a
        .post(
            "/admin/room-types",
            &[
                ("csrf", &csrf),
                ("code", "DBL"),
                ("name", "Double"),
                ("max_occupancy", "2"),
                ("base_rate", "95,00"),
                ("description", ""),
            ],
        )
        .await;
    assert_eq!(added.status, 303, "{}", added.text);
    let types = app.get("/v1/room-types").await.expect(200).body;
    let rt = types["data"][0].clone();
    assert_eq!(rt["base_rate"], 9500, "{rt}");
    let rt_id = rt["id"].as_str().unwrap().to_string();

    let room = |number: &'static str| {
        let (a, csrf, rt_id) = (&a, csrf.clone(), rt_id.clone());
        async move {
            a.post(
                "/admin/rooms",
                &[
                    ("csrf", &csrf),
                    ("number", number),
                    ("room_type_id", &rt_id),
                    ("floor", "1"),
                    ("housekeeping_status", "clean"),
                ],
            )
            .await
        }
    };
    assert_eq!(room("101").await.status, 303);
    let twice = room("101").await;
    assert!(twice.status == 409 || twice.status == 422, "{}", twice.text);
    assert!(twice.text.contains("101"), "{}", twice.text);
    let list = a.get("/admin/rooms?done=room-room-added").await;
    assert!(list.text.contains("The room is added."));
    assert!(list.text.contains(">DBL</a>") && list.text.contains(">101</a>"));

    // Out of order, from the room's page.
    let rooms = app.get("/v1/rooms").await.expect(200).body;
    let room_id = rooms["data"][0]["id"].as_str().unwrap().to_string();
    let edit = a.get(&format!("/admin/rooms/{room_id}")).await;
    assert_eq!(edit.status, 200, "{}", edit.text);
    let version = hidden(&edit.text, "version").unwrap();
    let saved = a
        .post(
            &format!("/admin/rooms/{room_id}"),
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("number", "101"),
                ("room_type_id", &rt_id),
                ("floor", ""),
                ("housekeeping_status", "out_of_order"),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.text);
    let r = app
        .get(&format!("/v1/rooms/{room_id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(r["housekeeping_status"], "out_of_order");
    assert!(r["floor"].is_null(), "an emptied floor is cleared: {r}");

    // A room type changed meanwhile: caught, what was typed kept.
    let tpage = a.get(&format!("/admin/room-types/{rt_id}")).await;
    let tv = hidden(&tpage.text, "version").unwrap();
    assert!(tpage.text.contains("value=\"95\""), "{}", tpage.text);
    app.put(
        &format!("/v1/room-types/{rt_id}"),
        serde_json::json!({"name": "Twin"}),
    )
    .await
    .expect(200);
    let stale = a
        .post(
            &format!("/admin/room-types/{rt_id}"),
            &[
                ("csrf", &csrf),
                ("version", &tv),
                ("code", "DBL"),
                ("name", "Double deluxe"),
                ("max_occupancy", "2"),
                ("base_rate", "120"),
                ("description", ""),
            ],
        )
        .await;
    assert_eq!(stale.status, 409, "{}", stale.text);
    assert!(stale.text.contains("Someone else changed this"));
    assert!(stale.text.contains("value=\"Double deluxe\""));

    let fd = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &fd).await;
    assert_eq!(m.get("/admin/rooms").await.status, 403);
}
