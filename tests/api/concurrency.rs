//! Races for what is scarce: the last room, and the right to change a version.

use std::sync::Arc;

use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn thirty_two_clients_race_for_the_last_room() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    app.room("2", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    app.reserve(&g, &rt, &day(5), &day(8)).await.expect(201);
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let (app, g, rt) = (app.clone(), g.clone(), rt.clone());
        tasks.push(tokio::spawn(async move {
            app.reserve(&g, &rt, &day(6), &day(9)).await
        }));
    }
    let mut created = 0;
    let mut full = 0;
    for t in tasks {
        let r = t.await.unwrap();
        match r.status.as_u16() {
            201 => created += 1,
            409 => {
                assert_eq!(r.body["code"], "no_availability");
                full += 1;
            }
            s => panic!("unexpected {s}: {}", r.body),
        }
    }
    assert_eq!((created, full), (1, 31));
    let a = app
        .get(&format!("/v1/availability?from={}&to={}", day(6), day(7)))
        .await
        .expect(200);
    for night in a.body["data"].as_array().unwrap() {
        assert_eq!(night["available"], 0);
        assert_eq!(night["booked"], 2);
    }
}

#[tokio::test]
async fn concurrent_puts_with_one_version_give_one_winner() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .reserve(&g, &rt, &day(5), &day(8))
        .await
        .expect(201)
        .id();
    let a = {
        let (app, id) = (app.clone(), id.clone());
        tokio::spawn(async move {
            app.put_if(
                &format!("/v1/reservations/{id}"),
                "\"1\"",
                json!({"notes": "a"}),
            )
            .await
        })
    };
    let b = {
        let (app, id) = (app.clone(), id.clone());
        tokio::spawn(async move {
            app.put_if(
                &format!("/v1/reservations/{id}"),
                "\"1\"",
                json!({"notes": "b"}),
            )
            .await
        })
    };
    let mut statuses = vec![
        a.await.unwrap().status.as_u16(),
        b.await.unwrap().status.as_u16(),
    ];
    statuses.sort();
    assert_eq!(statuses, vec![200, 412]);
    assert_eq!(
        app.get(&format!("/v1/reservations/{id}")).await.body["version"],
        2
    );
}
