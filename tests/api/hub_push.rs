//! Push mode: a property behind NAT sends its feed to the hub (`[hub]`), through a hub that
//! is killed and comes back, losing nothing; and after a restore, `innkeep numbering confirm
//! --from-hub` takes the next invoice numbers from the hub.

use std::time::Duration;

use innkeep::config::Secret;
use innkeep::config::hub::HubConfig;
use serde_json::Value;

use crate::support::binary::{free_port, run_ok};
use crate::support::hub::{Hub, assert_mirrors, busy_day};
use crate::support::postgres::Postgres;
use crate::support::stay::hotel;
use crate::support::{Spawn, TestApp, eventually};

fn hub_section(port: u16) -> HubConfig {
    HubConfig {
        url: format!("http://127.0.0.1:{port}"),
        client_id: "harbour".into(),
        secret: Secret::new("s3cret-harbour"),
        push: true,
    }
}

/// The hub's (feed_id, position, events held of that feed, distinct sequences) for harbour.
async fn standing(pg: &Postgres, db: &str) -> (Option<String>, Option<i64>, i64, i64) {
    let row = pg
        .client(db)
        .await
        .query_one(
            "SELECT p.feed_id, p.position, count(e.sequence), count(DISTINCT e.sequence)
             FROM properties p LEFT JOIN events e ON e.property = p.name AND e.feed_id = p.feed_id
             WHERE p.name = 'harbour' GROUP BY p.feed_id, p.position",
            &[],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2), row.get(3))
}

/// Waits until the hub holds `app`'s whole feed.
async fn caught_up(pg: &Postgres, db: &str, app: &TestApp) {
    let newest = app.all_events().await.last().unwrap()["sequence"].as_i64();
    eventually(
        Duration::from_secs(30),
        "the hub has every event",
        || async {
            let s = standing(pg, db).await;
            if s.1 == newest { Ok(()) } else { Err(s) }
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pushed_events_survive_a_hub_that_is_down_for_a_while() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let port = free_port();
    let hub = Hub::push(&pg, "pushed", port, "harbour", "s3cret-harbour").await;
    let mut serving = hub.serve();
    let app = Spawn::new()
        .config(move |c| c.hub = Some(hub_section(port)))
        .start()
        .await;
    let h = hotel(&app, 4).await;
    busy_day(&app, &h, 0, "Before").await;
    caught_up(&pg, "pushed", &app).await;
    let (_, first, _, _) = standing(&pg, "pushed").await;

    // The hub dies; the desk works on; the hub comes back.
    serving.0.kill().unwrap();
    serving.0.wait().unwrap();
    busy_day(&app, &h, 2, "During").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _serving = hub.serve();
    caught_up(&pg, "pushed", &app).await;

    // Rooms have no events: they go with the next batch once they changed.
    let rooms = |n: i64| {
        let pg = &pg;
        async move {
            let c = pg.client("pushed").await;
            let got: i64 = c
                .query_one("SELECT count(*) FROM rooms WHERE property = 'harbour'", &[])
                .await
                .unwrap()
                .get(0);
            if got == n { Ok(()) } else { Err(got) }
        }
    };
    eventually(Duration::from_secs(10), "the rooms", || rooms(4)).await;
    app.room("999", &h.room_type).await;
    app.guest("After", "Rooms").await;
    eventually(
        Duration::from_secs(10),
        "the new room reaches the hub",
        || rooms(5),
    )
    .await;
    caught_up(&pg, "pushed", &app).await;

    let (feed, position, held, distinct) = standing(&pg, "pushed").await;
    assert_eq!(held, distinct, "no event twice");
    let feed_now = app.get("/v1/events?limit=1").await.body["feed_id"].clone();
    assert_eq!(feed.as_deref(), feed_now.as_str());
    // Every event after the first contact's snapshot is at the hub, once, in order.
    let at_hub: Vec<i64> = pg
        .client("pushed")
        .await
        .query(
            "SELECT sequence FROM events WHERE property = 'harbour' ORDER BY sequence",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let feed_all: Vec<i64> = app
        .all_events()
        .await
        .iter()
        .filter_map(|e| e["sequence"].as_i64())
        .filter(|s| *s >= at_hub[0])
        .collect();
    assert_eq!(at_hub, feed_all);
    assert_eq!(held as usize, at_hub.len());
    assert_eq!(position, feed_all.last().copied());
    assert!(first.is_some());
    assert_mirrors(&pg, "pushed", "harbour", &app).await;
    let (ok, status) = hub.run(&["status", "--json"]).await;
    let status: Value = serde_json::from_str(&status).unwrap();
    assert!(ok);
    assert_eq!(status["properties"][0]["mode"], "push");
    assert_eq!(
        status["properties"][0]["resyncs"], 1,
        "one snapshot, at first contact"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restore_the_next_numbers_come_from_the_hub() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let port = free_port();
    let hub = Hub::push(&pg, "numbers", port, "harbour", "s3cret-harbour").await;
    let mut serving = hub.serve();
    let mut app = Spawn::new()
        .config(move |c| c.hub = Some(hub_section(port)))
        .start()
        .await;
    let h = hotel(&app, 4).await;
    let home = app.dir.take().unwrap();
    let backup = home.path().join("before.backup");
    let (d, f) = (home.path().to_path_buf(), backup.clone());
    tokio::task::spawn_blocking(move || run_ok(&d, &["backup", f.to_str().unwrap()]))
        .await
        .unwrap();
    // Four invoices after the backup: the PC dies before the next one.
    busy_day(&app, &h, 0, "Lost").await;
    caught_up(&pg, "numbers", &app).await;
    let numbers: Vec<String> = app
        .all("/v1/invoices")
        .await
        .iter()
        .map(|i| i["number"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(numbers.len(), 4);
    app.stop().await;

    let new = tempfile::tempdir().unwrap();
    let dir = new.path().join("data");
    let (d, f) = (dir.clone(), backup.clone());
    tokio::task::spawn_blocking(move || run_ok(&d, &["restore", f.to_str().unwrap()]))
        .await
        .unwrap();
    std::fs::write(
        dir.join("innkeep.toml"),
        format!("[hub]\nurl = \"http://127.0.0.1:{port}\"\nclient_id = \"harbour\"\nsecret = \"s3cret-harbour\"\npush = false\n"),
    )
    .unwrap();
    let d = dir.clone();
    let said =
        tokio::task::spawn_blocking(move || run_ok(&d, &["numbering", "confirm", "--from-hub"]))
            .await
            .unwrap();
    let highest = numbers.iter().max().unwrap();
    assert!(
        said.contains(highest.as_str()) && said.contains("Confirmed"),
        "{said}"
    );
    let d = dir.clone();
    let shown = tokio::task::spawn_blocking(move || run_ok(&d, &["numbering", "show", "--json"]))
        .await
        .unwrap();
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["held_since"], Value::Null, "{shown}");
    assert_eq!(shown["series"][0]["last"], 4, "{shown}");
    serving.0.kill().unwrap();
    serving.0.wait().unwrap();
    drop(home);
}

/// Waits until the hub's push endpoint answers on `port`.
async fn listening(http: &reqwest::Client, port: u16) {
    eventually(Duration::from_secs(20), "the hub listens", || async {
        match http
            .get(format!("http://127.0.0.1:{port}/health"))
            .send()
            .await
        {
            Ok(r) if r.status() == 200 => Ok(()),
            other => Err(format!("{other:?}")),
        }
    })
    .await;
}

/// Sends the head of a POST that announces `length` bytes and its first kilobyte, then waits
/// for an answer without sending the rest; the status line, if one came within `wait`.
fn answer_before_the_body(
    port: u16,
    auth: Option<&str>,
    length: usize,
    wait: Duration,
) -> Option<String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    let auth = auth
        .map(|a| format!("authorization: Basic {a}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "POST /v1/events HTTP/1.1\r\nhost: hub\r\ncontent-type: application/json\r\n{auth}content-length: {length}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&[b' '; 1024]).unwrap();
    let mut buf = [0u8; 256];
    match s.read(&mut buf) {
        Ok(n) if n > 0 => Some(
            String::from_utf8_lossy(&buf[..n])
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
        ),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_push_endpoint_authenticates_before_it_reads_and_throttles_guesses() {
    use base64::Engine;
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let port = free_port();
    let hub = Hub::push(&pg, "guarded", port, "harbour", "s3cret-harbour").await;
    let _serving = hub.serve();
    let http = reqwest::Client::new();
    listening(&http, port).await;
    // A caller without credentials announcing 60 MB is answered at once: nothing is read.
    let wait = Duration::from_secs(5);
    let status = tokio::task::spawn_blocking(move || {
        answer_before_the_body(port, None, 60 * 1024 * 1024, wait)
    })
    .await
    .unwrap();
    assert_eq!(status.as_deref(), Some("HTTP/1.1 401 Unauthorized"));
    // Guesses from one address are throttled; the right credentials then wait too.
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut statuses = Vec::new();
    for n in 0..6 {
        let r = http
            .get(format!("http://127.0.0.1:{port}/v1/position"))
            .header(
                "authorization",
                format!("Basic {}", b64(&format!("harbour:guess{n}"))),
            )
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429], "{statuses:?}");
    let right = http
        .get(format!("http://127.0.0.1:{port}/v1/position"))
        .basic_auth("harbour", Some("s3cret-harbour"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        right.status(),
        429,
        "a locked property waits from the guessing address"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_guesses_count_for_their_caller_only() {
    let Some(pg) = Postgres::start().await else {
        return;
    };
    let port = free_port();
    let hub = Hub::push_with(
        &pg,
        "proxied",
        port,
        "harbour",
        "s3cret-harbour",
        "trusted_proxies = [\"127.0.0.1\"]\n",
    )
    .await;
    let _serving = hub.serve();
    let http = reqwest::Client::new();
    let position = format!("http://127.0.0.1:{port}/v1/position");
    listening(&http, port).await;
    let ask = |secret: &'static str, caller: &'static str| {
        let (http, position) = (&http, &position);
        async move {
            http.get(position)
                .basic_auth("harbour", Some(secret))
                .header("x-forwarded-for", format!("203.0.113.9, {caller}"))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    for _ in 0..5 {
        assert_eq!(ask("guess", "198.51.100.66").await, 401);
    }
    assert_eq!(
        ask("guess", "198.51.100.66").await,
        429,
        "the guesser waits"
    );
    assert_eq!(
        ask("s3cret-harbour", "198.51.100.2").await,
        200,
        "the property itself, from its own address behind the proxy, does not"
    );
}
