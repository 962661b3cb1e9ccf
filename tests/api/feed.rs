//! The event feed cannot silently skip or repeat (API.md section 8): `feed_id` changes when
//! the database is restored, and positions that are stale, pruned or from the future are
//! errors that say what to do.

use std::time::Duration;

use innkeep::db::DB_FILE;

use crate::support::{Spawn, spawn_app};

fn copy_db(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for suffix in ["", "-wal"] {
        let name = format!("{DB_FILE}{suffix}");
        let _ = std::fs::remove_file(to.join(&name));
        if from.join(&name).exists() {
            std::fs::copy(from.join(&name), to.join(&name)).unwrap();
        }
    }
    let _ = std::fs::remove_file(to.join(format!("{DB_FILE}-shm")));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restored_database_changes_feed_id_and_stale_positions_are_refused() {
    let mut app = spawn_app().await;
    let dir = app.dir.as_ref().unwrap().path().to_path_buf();
    app.guest("Anna", "Rossi").await;
    let page = app.get("/v1/events").await.expect(200);
    let feed = page.body["feed_id"].as_str().unwrap().to_string();
    assert!(feed.starts_with("feed_"), "{feed}");
    let backed_up_at = page.body["next_after"].as_i64().unwrap();
    app.stop().await;
    let backup = tempfile::tempdir().unwrap();
    copy_db(&dir, backup.path());

    // A restart is not a reset.
    let mut app = Spawn::new().data_dir(dir.clone()).start().await;
    let again = app.get("/v1/events").await.expect(200);
    assert_eq!(again.body["feed_id"], feed.as_str());
    app.guest("Bruno", "Bianchi").await;
    app.guest("Carla", "Conti").await;
    let seen = app
        .get(&format!("/v1/events?after={backed_up_at}&feed_id={feed}"))
        .await
        .expect(200);
    let newest = seen.body["next_after"].as_i64().unwrap();
    assert_eq!(seen.body["data"].as_array().unwrap().len(), 2);
    app.stop().await;

    // The owner restores yesterday's copy: sequences after it would be reused.
    copy_db(backup.path(), &dir);
    let app = Spawn::new().data_dir(dir).start().await;
    let restored = app.get("/v1/events").await.expect(200);
    let new_feed = restored.body["feed_id"].as_str().unwrap().to_string();
    assert_ne!(new_feed, feed, "a restore must change feed_id");
    let stale = app
        .get(&format!("/v1/events?after={newest}&feed_id={feed}"))
        .await
        .problem(409, "feed_reset");
    assert_eq!(stale.body["feed_id"], new_feed.as_str());
    app.get(&format!("/v1/events?after={newest}"))
        .await
        .problem(409, "cursor_ahead");
    // The new feed reads normally with its own id.
    app.guest("Dario", "Esposito").await;
    let fresh = app
        .get(&format!(
            "/v1/events?after={backed_up_at}&feed_id={new_feed}"
        ))
        .await
        .expect(200);
    let data = fresh.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 1);
    assert_eq!(data[0]["data"]["last_name"], "Esposito");
}

#[tokio::test(flavor = "multi_thread")]
async fn pruned_and_future_positions_are_410_and_409() {
    let app = spawn_app().await;
    for i in 0..3 {
        app.guest("Anna", &format!("Rossi{i}")).await;
    }
    let page = app.get("/v1/events").await.expect(200);
    let newest = page.body["next_after"].as_i64().unwrap();
    assert_eq!(newest, 3);
    let ahead = app
        .get(&format!("/v1/events?after={}", newest + 1))
        .await
        .problem(409, "cursor_ahead");
    assert_eq!(ahead.body["newest_sequence"], newest);

    // Forty days later the old events are pruned; one new event is kept.
    app.set_today(40);
    let pruned = innkeep::service::maintenance::prune(app.db(), Duration::from_secs(30 * 86400))
        .await
        .unwrap();
    assert_eq!(pruned.events, 3);
    app.guest("Bruno", "Bianchi").await;
    for after in [0, 1, 2] {
        let gone = app
            .get(&format!("/v1/events?after={after}"))
            .await
            .problem(410, "events_expired");
        assert_eq!(gone.body["oldest_sequence"], 4);
        assert_eq!(gone.body["resume_after"], 3);
    }
    // Reading on from where the client was (everything after it is kept) works.
    let on = app.get("/v1/events?after=3").await.expect(200);
    assert_eq!(on.body["data"][0]["sequence"], 4);
    // Without `after`, the page starts at the oldest kept event.
    let from_start = app.get("/v1/events").await.expect(200);
    assert_eq!(from_start.body["data"][0]["sequence"], 4);
}
