//! The party in detail (issue 29, item 4): children's ages, extra beds and cots on a
//! reservation, through the API (one age per child, each 0 to 17, beds and cots changeable
//! while in the house), on the reservation page's change form (ages typed as `4, 7`, each
//! error at its field) and on housekeeping, which prepares the arriving room.

use serde_json::json;

use crate::support::desk::{Browser, hidden, staff};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn children_ages_extra_beds_and_cots_follow_the_rules() {
    let app = spawn_app().await;
    let rt = app.room_type("FAM", 5).await;
    let room = app.room("301", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let base = json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                      "arrival": day(0), "departure": day(2), "adults": 2});

    // One age per child, each a child's age.
    let mut body = base.clone();
    body["children"] = json!(2);
    body["children_ages"] = json!([4]);
    let r = app.post("/v1/reservations", body.clone()).await.expect(422);
    assert_eq!(r.body["errors"][0]["field"], "children_ages", "{}", r.body);
    assert_eq!(r.body["errors"][0]["code"], "count_mismatch", "{}", r.body);
    body["children_ages"] = json!([4, 18]);
    let r = app.post("/v1/reservations", body.clone()).await.expect(422);
    assert_eq!(
        r.body["errors"][0]["field"], "children_ages[1]",
        "{}",
        r.body
    );
    body["children_ages"] = json!([4, 7]);
    body["extra_beds"] = json!(5);
    let r = app.post("/v1/reservations", body.clone()).await.expect(422);
    assert_eq!(r.body["errors"][0]["field"], "extra_beds", "{}", r.body);

    body["extra_beds"] = json!(1);
    body["cots"] = json!(1);
    let r = app.post("/v1/reservations", body).await.expect(201);
    let id = r.id();
    assert_eq!(r.body["children_ages"], json!([4, 7]));
    assert_eq!(
        (r.body["extra_beds"].clone(), r.body["cots"].clone()),
        (json!(1), json!(1))
    );
    let bare = app
        .post("/v1/reservations", {
            let mut b = base.clone();
            b["arrival"] = json!(day(5));
            b["departure"] = json!(day(6));
            b
        })
        .await
        .expect(201);
    assert_eq!(bare.body["children_ages"], json!(null), "not given: null");
    assert_eq!(bare.body["extra_beds"], 0);

    // A third child needs the ages again; null clears them.
    let path = format!("/v1/reservations/{id}");
    let r = app.put(&path, json!({"children": 3})).await.expect(422);
    assert_eq!(r.body["errors"][0]["field"], "children_ages", "{}", r.body);
    app.put(&path, json!({"children": 3, "children_ages": [4, 7, 0]}))
        .await
        .expect(200);

    // Housekeeping prepares the arriving room with its bed and cot.
    let password = staff(&app, "hana", "housekeeping").await;
    let hk = Browser::sign_in(&app, "hana", &password).await;
    let page = hk.get("/housekeeping").await;
    assert!(page.text.contains("1 extra bed, 1 cot"), "{}", page.text);

    // In the house, beds and cots still change (a cot asked for on the second night); the
    // ages no longer do.
    app.post(
        "/v1/check-in",
        json!({"reservation_id": id, "room_id": room}),
    )
    .await
    .expect(200);
    let r = app.put(&path, json!({"cots": 2})).await.expect(200);
    assert_eq!(r.body["cots"], 2);
    let r = app.put(&path, json!({"children_ages": [5, 7, 0]})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    let history = app.get(&format!("{path}/history")).await;
    assert!(history.text.contains("cots"), "{}", history.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_change_form_takes_ages_beds_and_cots() {
    let app = spawn_app().await;
    let rt = app.room_type("FAM", 4).await;
    app.room("301", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day(3),
                   "departure": day(5), "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/reservations/{id}")).await;
    let csrf = Browser::csrf(&page);
    let version = hidden(&page.text, "version").unwrap();
    let path = format!("/reservations/{id}/change");

    // An age that is not a child's: refused at the ages field, what was typed kept.
    let form = |ages: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("version", version.clone()),
            ("children", "2".into()),
            ("children_ages", ages.into()),
            ("extra_beds", "0".into()),
            ("cots", "1".into()),
        ]
    };
    let send = |f: Vec<(&'static str, String)>| {
        let b = &b;
        let path = path.clone();
        async move {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            b.post(&path, &pairs).await
        }
    };
    let bad = send(form("4, 19")).await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains("id=\"change-children_ages-error\""),
        "{}",
        bad.text
    );
    assert!(
        bad.text.contains("value=\"4, 19\""),
        "what was typed is kept: {}",
        bad.text
    );

    let ok = send(form("4, 7")).await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["children_ages"], json!([4, 7]), "{r}");
    assert_eq!(r["cots"], 1, "{r}");
    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(
        page.text.contains("2 adults, 2 children aged 4, 7; 1 cot"),
        "{}",
        page.text
    );
}
