//! Bookings from the channel manager across SIGKILLs of innkeep between the commit of a
//! revision and its acknowledgement: the real binary is killed as its acknowledgement
//! reaches the Channex simulator (which never takes it), restarted, and the revision,
//! served again, is acknowledged without a second reservation; a modification killed the
//! same way changes the one reservation once.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::binary::{cli_token, free_port, serve, terminate, wait_healthy};
use crate::support::channex_sim::{KEY, PROPERTY, Sim, revision};
use crate::support::eventually;

const WAIT: Duration = Duration::from_secs(40);

/// The reservations innkeep on `port` holds for booking-site code `code`.
async fn with_code(port: u16, token: &str, code: &str) -> Vec<Value> {
    let list: Value = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}/v1/reservations?limit=200"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["channel"]["ota_code"] == code)
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kill_between_commit_and_acknowledgement_never_takes_a_booking_twice() {
    let sim = Sim::start(&["ch-fam"], &["ch-flex"]).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!(
            "[channel]\nurl = \"{}\"\napi_key = \"{KEY}\"\nproperty_id = \"{PROPERTY}\"\nhorizon_days = 30\n\n[channel.room_types]\nFAM = \"ch-fam\"\n",
            sim.url()
        ),
    )
    .unwrap();
    let port = free_port();
    let child = Arc::new(Mutex::new(serve(dir.path(), port)));
    wait_healthy(port).await;
    let token = cli_token(
        dir.path(),
        port,
        "admin reservations:read reservations:write events:read",
    )
    .await;
    let client = reqwest::Client::new();
    let post = |path: &str, body: Value| {
        client
            .post(format!("http://127.0.0.1:{port}{path}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let rt: Value = post(
        "/v1/room-types",
        json!({"code": "FAM", "name": "Family", "max_occupancy": 4, "base_rate": 10000}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    for n in ["201", "202"] {
        let r = post("/v1/rooms", json!({"number": n, "room_type_id": rt["id"]}))
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }

    let steps = [
        revision("bk-1", "new", "5001", 5, 8, "ch-fam"),
        revision("bk-1", "modified", "5001", 6, 10, "ch-fam"),
        revision("bk-2", "new", "5002", 6, 7, "ch-fam"),
    ];
    for step in steps {
        let victim = child.clone();
        sim.before_ack(move || {
            let mut c = victim.lock().unwrap();
            c.kill().unwrap();
            c.wait().unwrap();
        });
        let id = sim.book(step.clone());
        eventually(WAIT, "innkeep killed at the acknowledgement", || async {
            match child.lock().unwrap().try_wait() {
                Ok(Some(_)) => Ok(()),
                _ => Err(()),
            }
        })
        .await;
        assert!(!sim.acked(&id), "the acknowledgement never arrived");
        *child.lock().unwrap() = serve(dir.path(), port);
        wait_healthy(port).await;
        eventually(WAIT, "acknowledged after the restart", || async {
            if sim.acked(&id) { Ok(()) } else { Err(()) }
        })
        .await;
        let code = step["ota_reservation_code"].as_str().unwrap();
        let held = with_code(port, &token, code).await;
        assert_eq!(held.len(), 1, "one reservation for {code}: {held:?}");
        assert_eq!(held[0]["channel"]["revision_id"], id.as_str());
        assert_eq!(held[0]["arrival"], step["arrival_date"]);
        assert_eq!(held[0]["departure"], step["departure_date"]);
        if code == "5001" {
            assert_eq!(held[0]["version"], if id == "rev-1" { 1 } else { 2 });
        }
    }
    let events: Value = client
        .get(format!("http://127.0.0.1:{port}/v1/events?limit=200"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let created = events["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "reservation.created")
        .count();
    assert_eq!(created, 2, "two bookings, each created once");
    terminate(&mut child.lock().unwrap());
}
