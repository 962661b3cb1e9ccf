//! `innkeep-hub` against real properties and a real PostgreSQL: the hub's tables equal each
//! property's lists after mixed work, a second pass ingests nothing, a hub killed mid-batch
//! neither loses nor repeats an event, a stopped property catches up while the other keeps
//! flowing, and a property restored from an older backup is re-synchronised.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;

use crate::support::binary::run_ok;
use crate::support::hub::{Hub, assert_mirrors, busy_day};
use crate::support::postgres::Postgres;
use crate::support::stay::hotel;
use crate::support::{Spawn, TestApp, eventually, spawn_app};

/// The hub's events for `name`: (count, distinct sequences) in the feed it stands in.
async fn ingested(pg: &Postgres, db: &str, name: &str) -> (i64, i64, Option<i64>) {
    let row = pg
        .client(db)
        .await
        .query_one(
            "SELECT count(*), count(DISTINCT e.sequence), max(p.position)
             FROM properties p LEFT JOIN events e ON e.property = p.name AND e.feed_id = p.feed_id
             WHERE p.name = $1",
            &[&name],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_properties_meet_in_the_hub_and_a_second_pass_ingests_nothing() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let (a, b) = (spawn_app().await, spawn_app().await);
    let (ha, hb) = (hotel(&a, 4).await, hotel(&b, 4).await);
    busy_day(&a, &ha, 0, "Alpha").await;
    busy_day(&b, &hb, 0, "Beta").await;
    let hub = Hub::new(&pg, "hotels", &[("seaside", &a), ("lakeside", &b)]).await;
    let first = hub.sync().await;
    busy_day(&a, &ha, 2, "Alpha").await;
    let second = hub.sync().await;
    assert_eq!(
        Hub::ingested(&first, "seaside"),
        0,
        "first contact reads the lists"
    );
    assert!(Hub::ingested(&second, "seaside") > 20, "{second}");
    assert_eq!(Hub::ingested(&second, "lakeside"), 0, "{second}");
    assert_mirrors(&pg, "hotels", "seaside", &a).await;
    assert_mirrors(&pg, "hotels", "lakeside", &b).await;
    let again = hub.sync().await;
    assert_eq!(Hub::ingested(&again, "seaside"), 0, "{again}");
    assert_eq!(Hub::ingested(&again, "lakeside"), 0, "{again}");
    // Every event the feed has since the hub's first contact is there once.
    let feed = a.all_events().await;
    let (count, distinct, position) = ingested(&pg, "hotels", "seaside").await;
    assert_eq!(
        (count, distinct),
        (Hub::ingested(&second, "seaside"), count)
    );
    assert_eq!(position, feed.last().and_then(|e| e["sequence"].as_i64()));

    // The daily view: four rooms sold of four on each busy night, at the room type's rate.
    let client = pg.client("hotels").await;
    let night = crate::support::day(0);
    let row = client
        .query_one(
            "SELECT rooms_available, rooms_sold, room_revenue, adr, revpar FROM daily_occupancy
             WHERE property = 'seaside' AND date = $1::text::date",
            &[&night],
        )
        .await
        .unwrap();
    let got: (i32, i32, i64, i64, i64) =
        (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4));
    assert_eq!(got, (4, 4, 48000, 12000, 12000));

    let (ok, status) = hub.run(&["status", "--json"]).await;
    let status: Value = serde_json::from_str(&status).unwrap();
    assert!(ok, "{status}");
    let seaside = &status["properties"].as_array().unwrap()[1];
    assert_eq!(seaside["name"], "seaside");
    assert_eq!(seaside["position"], position.unwrap());
    assert_eq!(seaside["last_error"], Value::Null);
    assert!(seaside["lag_seconds"].as_i64().unwrap() < 60, "{seaside}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_killed_in_the_middle_of_batches_loses_and_repeats_nothing() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let a = spawn_app().await;
    let h = hotel(&a, 4).await;
    let hub = Hub::new(&pg, "killed", &[("seaside", &a)]).await;
    hub.sync().await;
    let start = ingested(&pg, "killed", "seaside").await.2.unwrap();
    for d in 0..6 {
        busy_day(&a, &h, d * 2, "Kill").await;
    }
    // Small pages, so a kill lands between and inside many batches.
    std::fs::write(
        &hub.config,
        std::fs::read_to_string(&hub.config).unwrap().replace(
            "interval_seconds = 1",
            "interval_seconds = 1\npage_size = 3",
        ),
    )
    .unwrap();
    for round in 0..6u64 {
        let mut child = hub.serve();
        tokio::time::sleep(Duration::from_millis(150 + 70 * round)).await;
        child.0.kill().unwrap();
        child.0.wait().unwrap();
    }
    hub.sync().await;
    let (count, distinct, _) = ingested(&pg, "killed", "seaside").await;
    assert_eq!(count, distinct, "no event twice");
    // Exactly the feed's events after the position of the first sync, in order: no gap.
    let at_hub: Vec<String> = pg
        .client("killed")
        .await
        .query(
            "SELECT id FROM events WHERE property = 'seaside' ORDER BY sequence",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let wanted: Vec<String> = a
        .all_events()
        .await
        .iter()
        .filter(|e| e["sequence"].as_i64().unwrap() > start)
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert!(wanted.len() > 60, "{} events of load", wanted.len());
    assert_eq!(at_hub, wanted);
    assert_mirrors(&pg, "killed", "seaside", &a).await;
    // The buyer's kind is in the read model, for every invoice.
    let kinds: Vec<Option<String>> = pg
        .client("killed")
        .await
        .query(
            "SELECT bill_to_kind FROM invoices WHERE property = 'seaside'",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(!kinds.is_empty());
    assert!(
        kinds.iter().all(|k| k.as_deref() == Some("person")),
        "{kinds:?}"
    );
}

/// Restarts a stopped server on its data directory and address.
async fn restart(dir: std::path::PathBuf, addr: SocketAddr) -> TestApp {
    Spawn::new()
        .data_dir(dir)
        .config(move |c| c.server.listen = addr)
        .start()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_property_catches_up_while_the_other_keeps_flowing() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let (mut a, b) = (spawn_app().await, spawn_app().await);
    let (ha, hb) = (hotel(&a, 4).await, hotel(&b, 4).await);
    let hub = Hub::new(&pg, "stopped", &[("seaside", &a), ("lakeside", &b)]).await;
    let mut serving = hub.serve();
    busy_day(&a, &ha, 0, "Alpha").await;
    let (addr, dir) = (a.addr, a.dir.take().unwrap());
    a.stop().await;
    busy_day(&b, &hb, 0, "Beta").await;
    let want = b.all_events().await.last().unwrap()["sequence"].as_i64();
    eventually(
        Duration::from_secs(30),
        "lakeside flows while seaside is down",
        || async {
            let at = ingested(&pg, "stopped", "lakeside").await.2;
            if at == want { Ok(()) } else { Err(at) }
        },
    )
    .await;
    let (_, status) = hub.run(&["status", "--json"]).await;
    let status: Value = serde_json::from_str(&status).unwrap();
    let seaside = &status["properties"].as_array().unwrap()[1];
    assert!(
        seaside["last_error"]
            .as_str()
            .unwrap_or("")
            .contains("cannot reach"),
        "{seaside}"
    );
    // Back, with work done meanwhile by hand at the desk (here: more of the same).
    let a = restart(dir.path().to_path_buf(), addr).await;
    busy_day(&a, &ha, 2, "Alpha").await;
    let want = a.all_events().await.last().unwrap()["sequence"].as_i64();
    eventually(Duration::from_secs(30), "seaside catches up", || async {
        let at = ingested(&pg, "stopped", "seaside").await.2;
        if at == want { Ok(()) } else { Err(at) }
    })
    .await;
    serving.0.kill().unwrap();
    serving.0.wait().unwrap();
    assert_mirrors(&pg, "stopped", "seaside", &a).await;
    assert_mirrors(&pg, "stopped", "lakeside", &b).await;
    drop(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_property_restored_from_an_older_backup_is_resynchronised() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let mut a = spawn_app().await;
    let h = hotel(&a, 4).await;
    let hub = Hub::new(&pg, "restored", &[("seaside", &a)]).await;
    busy_day(&a, &h, 0, "Before").await;
    let (addr, home) = (a.addr, a.dir.take().unwrap());
    let backup = home.path().join("older.backup");
    let (d, f) = (home.path().to_path_buf(), backup.clone());
    tokio::task::spawn_blocking(move || run_ok(&d, &["backup", f.to_str().unwrap()]))
        .await
        .unwrap();
    busy_day(&a, &h, 2, "After").await;
    hub.sync().await;
    let after_backup = a.all("/v1/guests?name=After").await.len();
    assert!(after_backup > 0);
    a.stop().await;

    let new = tempfile::tempdir().unwrap();
    let dir = new.path().join("data");
    let (d, f) = (dir.clone(), backup.clone());
    let told = tokio::task::spawn_blocking(move || run_ok(&d, &["restore", f.to_str().unwrap()]))
        .await
        .unwrap();
    assert!(told.contains("ON HOLD"), "{told}");
    let a = restart(dir, addr).await;
    let synced = hub.sync().await;
    let resyncs = synced["properties"][0]["resyncs"].as_array().unwrap();
    assert!(
        resyncs[0].as_str().unwrap().contains("feed_reset"),
        "{synced}"
    );
    // What was done after the backup is gone at the property, so it is gone at the hub.
    assert_mirrors(&pg, "restored", "seaside", &a).await;
    let client = pg.client("restored").await;
    let stale: i64 = client
        .query_one(
            "SELECT count(*) FROM guests WHERE property = 'seaside' AND last_name = 'After'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stale, 0);
    // The numbering hold is in force until confirmed.
    let g = a.guest("New", "Guest").await;
    let held = a
        .post(
            "/v1/invoices",
            serde_json::json!({"guest_id": g, "payment_method": "cash",
                "lines": [{"description": "Coffee", "quantity": 1, "unit_price": 300}]}),
        )
        .await;
    assert_eq!(held.body["code"], "numbering_unconfirmed", "{}", held.text);
    drop(home);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_away_longer_than_the_feed_keeps_events_resynchronises() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let a = spawn_app().await;
    let h = hotel(&a, 4).await;
    let hub = Hub::new(&pg, "expired", &[("seaside", &a)]).await;
    hub.sync().await;
    busy_day(&a, &h, 0, "Early").await;
    // Forty days later, with the events of the first days pruned (30 days kept).
    busy_day(&a, &h, 40, "Late").await;
    let pruned = innkeep::service::maintenance::prune(a.db(), Duration::from_secs(30 * 86_400))
        .await
        .unwrap();
    assert!(pruned.events > 0);
    let synced = hub.sync().await;
    let resyncs = synced["properties"][0]["resyncs"].as_array().unwrap();
    assert!(
        resyncs[0].as_str().unwrap().contains("events_expired"),
        "{synced}"
    );
    assert_mirrors(&pg, "expired", "seaside", &a).await;
    let (ok, status) = hub.run(&["status"]).await;
    assert!(
        ok && status.contains("re-synchronised") && status.contains("events_expired"),
        "{status}"
    );
}
