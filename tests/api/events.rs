//! The event feed, and data surviving a restart.

use serde_json::json;

use crate::support::{Spawn, day, spawn_app};

#[tokio::test]
async fn every_change_records_an_event_with_a_snapshot() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    app.put(
        &format!("/v1/guests/{g}"),
        json!({"email": "anna@example.com"}),
    )
    .await
    .expect(200);
    app.put(
        &format!("/v1/guests/{g}"),
        json!({"email": "anna@example.com"}),
    )
    .await
    .expect(200);
    let res = app.reserve(&g, &rt, &day(2), &day(4)).await.expect(201);
    let id = res.id();
    app.put(&format!("/v1/reservations/{id}"), json!({"adults": 2}))
        .await
        .expect(200);
    let cancelled = app
        .put(
            &format!("/v1/reservations/{id}"),
            json!({"status": "cancelled"}),
        )
        .await
        .expect(200);
    let today = app
        .reserve(&g, &rt, &day(0), &day(1))
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{today}"),
        json!({"status": "no_show"}),
    )
    .await
    .expect(200);

    let feed = app.get("/v1/events").await.expect(200);
    let events = feed.body["data"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        vec![
            "guest.created",
            "guest.updated",
            "reservation.created",
            "reservation.updated",
            "reservation.cancelled",
            "reservation.created",
            "reservation.no_show",
        ],
        "an unchanged PUT records nothing"
    );
    let seqs: Vec<i64> = events
        .iter()
        .map(|e| e["sequence"].as_i64().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
    assert!(
        events
            .iter()
            .all(|e| e["id"].as_str().unwrap().starts_with("evt_"))
    );
    assert_eq!(
        events[2]["data"], res.body,
        "the snapshot is what the API returned"
    );
    assert_eq!(events[4]["data"], cancelled.body);
    assert_eq!(feed.body["has_more"], false);
    assert_eq!(feed.body["next_after"], seqs[6]);

    let page = app
        .get(&format!("/v1/events?after={}&limit=2", seqs[1]))
        .await
        .expect(200);
    assert_eq!(page.body["data"].as_array().unwrap().len(), 2);
    assert_eq!(page.body["has_more"], true);
    assert_eq!(page.body["next_after"], seqs[3]);
    let only = app
        .get("/v1/events?type=reservation.cancelled,guest.created")
        .await
        .expect(200);
    assert_eq!(only.body["data"].as_array().unwrap().len(), 2);
    let family = app.get("/v1/events?type=reservation.*").await.expect(200);
    assert_eq!(family.body["data"].as_array().unwrap().len(), 5);
    let empty = app
        .get(&format!("/v1/events?after={}", seqs[6]))
        .await
        .expect(200);
    assert!(empty.body["data"].as_array().unwrap().is_empty());
    assert_eq!(empty.body["next_after"], seqs[6]);
    app.get("/v1/events?type=reservation.exploded")
        .await
        .problem(400, "bad_request");
    app.get("/v1/events?after=-1")
        .await
        .problem(400, "bad_request");
}

#[tokio::test]
async fn failed_writes_record_no_event() {
    let app = spawn_app().await;
    let rt = app.room_type("SGL", 1).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    app.reserve(&g, &rt, &day(1), &day(2)).await.expect(201);
    app.reserve(&g, &rt, &day(1), &day(2))
        .await
        .problem(409, "no_availability");
    let events = app.get("/v1/events?type=reservation.*").await.expect(200);
    assert_eq!(events.body["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn data_survives_a_restart() {
    let mut app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let res = app.reserve(&g, &rt, &day(1), &day(3)).await.expect(201);
    let before = app.get("/v1/events").await.body;
    app.stop().await;

    let dir = app.dir.take().unwrap();
    let again = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .start()
        .await;
    assert_eq!(
        again
            .get(&format!("/v1/reservations/{}", res.id()))
            .await
            .expect(200)
            .body,
        res.body
    );
    assert_eq!(
        again.get(&format!("/v1/guests/{g}")).await.expect(200).body["last_name"],
        "Rossi"
    );
    assert_eq!(again.get("/v1/events").await.body, before);
    let next = again.guest("Bob", "Li").await;
    let feed = again.get("/v1/events?type=guest.created").await.body;
    assert_eq!(
        feed["data"][1]["data"]["id"],
        next.as_str(),
        "sequences continue after a restart"
    );
    drop(dir);
}

/// A database of its own in `dir`, without a server.
async fn database(dir: &std::path::Path) -> innkeep::db::Db {
    let path = dir.to_path_buf();
    tokio::task::spawn_blocking(move || innkeep::app::open_db(&path).unwrap())
        .await
        .unwrap()
}

/// Records `n` events in one write; their sequences.
async fn record(db: &innkeep::db::Db, n: usize) -> Vec<i64> {
    db.write(move |tx| {
        (0..n)
            .map(|i| {
                Ok(innkeep::store::events::record(
                    tx,
                    &innkeep::model::Actor::queue(),
                    innkeep::domain::events::EventType::GuestCreated,
                    &format!("gst_{i}"),
                    &json!({"id": i}),
                )?
                .0)
            })
            .collect::<innkeep::error::AppResult<Vec<i64>>>()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn old_events_are_pruned_and_recent_ones_kept() {
    use innkeep::service::maintenance::prune;
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path()).await;
    // On the database's clock, not the wall's: a slow machine never makes the recent event
    // older than the retention.
    let clock = db.clock().clone();
    clock.set_now(chrono::Utc::now() - chrono::Duration::hours(2));
    let old = record(&db, 1).await[0];
    clock.set_now(chrono::Utc::now());
    let recent = record(&db, 1).await[0];
    let pruned = prune(&db, Duration::from_secs(3600)).await.unwrap();
    assert_eq!(pruned.events, 1);
    let left = db
        .read(|c| innkeep::store::events::list(c, 0, 10, &[]))
        .await
        .unwrap();
    assert_eq!(
        left.iter().map(|e| e.sequence).collect::<Vec<_>>(),
        vec![recent]
    );
    assert!(recent > old);
    let next = record(&db, 1).await[0];
    assert!(next > recent, "sequences are never reused after pruning");
}

#[tokio::test]
async fn a_long_backlog_is_pruned_a_chunk_at_a_time_oldest_first() {
    use innkeep::service::maintenance::{PRUNE_CHUNK, prune};
    use innkeep::store::events;
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path()).await;
    let clock = db.clock().clone();
    // Seven events a day old are written first, then two chunks of events two days old:
    // the oldest events are not the first written.
    clock.set_now(chrono::Utc::now() - chrono::Duration::days(1));
    let late = record(&db, 7).await;
    clock.advance_days(-1);
    let early = record(&db, 2 * PRUNE_CHUNK).await;
    clock.set_now(chrono::Utc::now());
    let recent = record(&db, 1).await;
    let cutoff = innkeep::clock::format_instant(clock.now() - chrono::Duration::hours(1));

    // One call deletes at most its limit, the oldest first (by when they occurred).
    let one = db
        .write(move |tx| events::prune(tx, &cutoff, 3))
        .await
        .unwrap();
    assert_eq!(one, 3);
    let kept: Vec<i64> = db
        .read(|c| events::list(c, 0, 20_010, &[]))
        .await
        .unwrap()
        .iter()
        .map(|e| e.sequence)
        .collect();
    assert!(
        early[..3].iter().all(|s| !kept.contains(s)),
        "the three that occurred first went first"
    );
    assert!(
        late.iter().all(|s| kept.contains(s)),
        "written first, occurred later"
    );

    // A pass goes on, chunk after chunk, until the whole backlog is gone (a chunk a job:
    // the backlog is two chunks and more).
    let pruned = prune(&db, Duration::from_secs(3600)).await.unwrap();
    assert_eq!(pruned.events, 2 * PRUNE_CHUNK + 7 - 3);
    let left = db.read(|c| events::list(c, 0, 10, &[])).await.unwrap();
    assert_eq!(left.iter().map(|e| e.sequence).collect::<Vec<_>>(), recent);
}
