//! A new booking at the front desk over plain HTTP: free rooms per type for the dates, a
//! guest found by name or created on the spot, errors in place with everything typed kept,
//! and one booking however often the form is sent (its idempotency key).

use crate::support::desk::{Browser, staff};
use crate::support::{day, spawn_app};

fn field<'a>(form: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    form.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_booking_is_made_once_from_availability_with_a_new_guest() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    app.room("102", &rt).await;
    app.guest("Anna", "Rossi").await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;

    let page = b.get("/reservations/new").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("2 rooms free on all these nights"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let key = crate::support::desk::hidden(&page.text, "key").unwrap();
    let mut form = vec![
        ("csrf", csrf.clone()),
        ("key", key.clone()),
        ("arrival", day(0)),
        ("departure", day(2)),
        ("adults", "2".into()),
        ("children", "0".into()),
        ("room_type_id", rt.clone()),
        ("q", "Rossi".into()),
        ("step", "find".into()),
    ];
    let found = b.post("/reservations/new", &field(&form)).await;
    assert_eq!(found.status, 200, "{}", found.text);
    assert!(found.text.contains("Anna Rossi"), "{}", found.text);
    assert!(
        found.text.contains(&format!("value=\"{rt}\" checked")),
        "the type stays chosen"
    );

    // A new guest without a last name: refused at the field, the rest kept.
    form.pop();
    form.extend([
        ("guest_id", "new".to_string()),
        ("new_first_name", "Ivo".into()),
        ("new_last_name", "".into()),
        ("notes", "Late arrival".into()),
        ("source", "phone".into()),
        ("step", "book".into()),
    ]);
    let refused = b.post("/reservations/new", &field(&form)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"new_last_name-error\""),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("value=\"Late arrival\"") && refused.text.contains("value=\"Ivo\"")
    );
    let key = crate::support::desk::hidden(&refused.text, "key").unwrap();

    form.retain(|(k, _)| !["new_last_name", "key", "step"].contains(k));
    form.extend([
        ("new_last_name", "Horvat".to_string()),
        ("key", key),
        ("step", "book".into()),
    ]);
    // A double click: the same form twice at once books once and both land on it.
    let pairs = field(&form);
    let (one, two) = tokio::join!(
        b.post("/reservations/new", &pairs),
        b.post("/reservations/new", &pairs)
    );
    let mut places = Vec::new();
    for r in [&one, &two] {
        if r.status == 303 {
            places.push(r.header("location").unwrap());
        } else {
            assert_eq!(r.status, 409, "{}", r.text);
            assert!(r.text.contains("already sent"), "{}", r.text);
        }
    }
    let again = b.post("/reservations/new", &pairs).await;
    assert_eq!(again.status, 303, "{}", again.text);
    places.push(again.header("location").unwrap());
    places.dedup();
    assert_eq!(places.len(), 1, "{places:?}");
    assert!(places[0].ends_with("?done=booked"), "{places:?}");
    let list = app.all("/v1/reservations").await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["notes"], "Late arrival");
    assert_eq!(list[0]["source"], "phone");
    let horvats = app.all("/v1/guests?name=Horvat").await;
    assert_eq!(horvats.len(), 1, "the guest is created once");
    let shown = b.get(&places[0]).await;
    assert!(
        shown.text.contains("Booked.") && shown.text.contains("Ivo Horvat"),
        "{}",
        shown.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn only_rooms_free_for_the_whole_stay_are_offered() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    let held = app.room("101", &rt).await;
    let free = app.room("102", &rt).await;
    let (ada, bo) = (
        app.guest("Ada", "Held").await,
        app.guest("Bo", "Free").await,
    );
    let book = |guest: String, room: Option<&str>| {
        let mut body = serde_json::json!({"primary_guest_id": guest, "room_type_id": rt,
            "arrival": day(0), "departure": day(2), "adults": 1});
        if let Some(r) = room {
            body["room_id"] = serde_json::json!(r);
        }
        let app = &app;
        async move { app.post("/v1/reservations", body).await.expect(201).id() }
    };
    book(ada, Some(&held)).await;
    let waiting = book(bo, None).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;

    // The second arrival's check-in offers only the room nobody holds tonight.
    let check_in = b.get(&format!("/reservations/{waiting}/check-in")).await;
    assert_eq!(check_in.status, 200, "{}", check_in.text);
    assert!(
        check_in.text.contains(&format!("value=\"{free}\"")),
        "{}",
        check_in.text
    );
    assert!(
        !check_in.text.contains(&format!("value=\"{held}\"")),
        "room 101 is held by another arrival: {}",
        check_in.text
    );
    // The new-booking form, for these nights and for later ones.
    let now = b
        .get(&format!(
            "/reservations/new?arrival={}&departure={}",
            day(1),
            day(3)
        ))
        .await;
    assert!(
        !now.text.contains(&format!("value=\"{held}\"")),
        "{}",
        now.text
    );
    let later = b
        .get(&format!(
            "/reservations/new?arrival={}&departure={}",
            day(2),
            day(3)
        ))
        .await;
    assert!(
        later.text.contains(&format!("value=\"{held}\"")),
        "{}",
        later.text
    );
    assert!(later.text.contains(&format!("value=\"{free}\"")));
}
