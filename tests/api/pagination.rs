//! Cursor pagination: a stable order while other clients insert and change records.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::support::{TestApp, day, spawn_app};

async fn seed(app: &Arc<TestApp>, rt: &str, guest: &str, n: usize) -> Vec<String> {
    let mut ids = Vec::with_capacity(n);
    for chunk in (0..n).collect::<Vec<_>>().chunks(25) {
        let tasks: Vec<_> = chunk
            .iter()
            .map(|i| {
                let (app, rt, guest) = (app.clone(), rt.to_string(), guest.to_string());
                let offset = (*i % 90) as i64 + 1;
                tokio::spawn(async move {
                    app.reserve(&guest, &rt, &day(offset), &day(offset + 1))
                        .await
                        .expect(201)
                        .id()
                })
            })
            .collect();
        for t in tasks {
            ids.push(t.await.unwrap());
        }
    }
    ids
}

#[tokio::test]
async fn paging_seven_at_a_time_while_others_write_sees_each_record_once() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    for n in 0..40 {
        app.room(&format!("{n:03}"), &rt).await;
    }
    let guest = app.guest("Anna", "Rossi").await;
    let existing = seed(&app, &rt, &guest, 1000).await;

    let writer = {
        let (app, rt, guest, existing) = (app.clone(), rt.clone(), guest.clone(), existing.clone());
        tokio::spawn(async move {
            for i in 0..150usize {
                // New records, before and after every page boundary.
                let a = (i % 90) as i64 + 1;
                app.reserve(&guest, &rt, &day(a), &day(a + 1))
                    .await
                    .expect(201);
                // Changes that move a record's sort key (arrival) backwards and forwards...
                let id = &existing[(i * 37) % existing.len()];
                let to = if i % 2 == 0 {
                    1 + (i % 10) as i64
                } else {
                    91 + (i % 10) as i64
                };
                let r = app
                    .put(
                        &format!("/v1/reservations/{id}"),
                        json!({"arrival": day(to), "departure": day(to + 1)}),
                    )
                    .await;
                r.expect(200);
                // ...and changes that do not.
                let id = &existing[(i * 53) % existing.len()];
                app.put(
                    &format!("/v1/reservations/{id}"),
                    json!({"notes": format!("edit {i}")}),
                )
                .await
                .expect(200);
            }
        })
    };

    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut url = "/v1/reservations?status=confirmed&limit=7".to_string();
    let mut pages = 0;
    loop {
        let page = app.get(&url).await.expect(200);
        let data = page.body["data"].as_array().unwrap();
        assert!(data.len() <= 7);
        for r in data {
            *seen
                .entry(r["id"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
        pages += 1;
        match page.body["next_cursor"].as_str() {
            Some(c) => url = format!("/v1/reservations?status=confirmed&limit=7&cursor={c}"),
            None => break,
        }
        tokio::task::yield_now().await;
    }
    writer.await.unwrap();
    assert!(pages >= 1000 / 7, "{pages} pages");
    for id in &existing {
        assert_eq!(
            seen.get(id),
            Some(&1),
            "{id} was seen {:?} times",
            seen.get(id)
        );
    }
    assert!(seen.values().all(|n| *n == 1), "no record repeats");
}

#[tokio::test]
async fn cursors_remember_their_filters() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let guest = app.guest("Anna", "Rossi").await;
    seed(&app, &rt, &guest, 3).await;
    let first = app
        .get("/v1/reservations?status=confirmed&limit=1")
        .await
        .expect(200);
    let cursor = first.body["next_cursor"].as_str().unwrap().to_string();
    app.get(&format!(
        "/v1/reservations?status=confirmed&limit=2&cursor={cursor}"
    ))
    .await
    .expect(200);
    app.get(&format!(
        "/v1/reservations?status=confirmed,confirmed&limit=2&cursor={cursor}"
    ))
    .await
    .expect(200);
    app.get(&format!(
        "/v1/reservations?status=cancelled&cursor={cursor}"
    ))
    .await
    .problem(400, "invalid_cursor");
    app.get(&format!("/v1/reservations?cursor={cursor}"))
        .await
        .problem(400, "invalid_cursor");
    app.get(&format!("/v1/guests?cursor={cursor}"))
        .await
        .problem(400, "invalid_cursor");
    let mut tampered = cursor.clone();
    tampered.insert(3, 'x');
    app.get(&format!(
        "/v1/reservations?status=confirmed&cursor={tampered}"
    ))
    .await
    .problem(400, "invalid_cursor");
}

#[tokio::test]
async fn guest_pages_stay_stable_when_names_change() {
    let app = Arc::new(spawn_app().await);
    let mut ids = Vec::new();
    for i in 0..60 {
        ids.push(app.guest(&format!("G{i:02}"), &format!("Name{i:02}")).await);
    }
    let mut seen: Vec<String> = Vec::new();
    let mut url = "/v1/guests?limit=5".to_string();
    let mut renamed = 0;
    loop {
        let page = app.get(&url).await.expect(200);
        seen.extend(
            page.body["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g: &Value| g["id"].as_str().unwrap().to_string()),
        );
        // Rename a record not yet seen to sort first, and one already seen to sort last.
        if let Some(unseen) = ids.iter().find(|id| !seen.contains(id)) {
            app.put(
                &format!("/v1/guests/{unseen}"),
                json!({"last_name": format!("Aaa{renamed}")}),
            )
            .await
            .expect(200);
        }
        app.put(
            &format!("/v1/guests/{}", seen[0]),
            json!({"last_name": format!("Zzz{renamed}")}),
        )
        .await
        .expect(200);
        renamed += 1;
        match page.body["next_cursor"].as_str() {
            Some(c) => url = format!("/v1/guests?limit=5&cursor={c}"),
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "no repeats");
    assert_eq!(seen.len(), ids.len(), "no skips");
}
