//! `innkeep doctor` on a real data directory beside a running server: each thing that needs
//! attention is named with what to do, and the exit code says so.

use std::process::Output;

use innkeep::domain::enums::JobKind;
use serde_json::{Value, json};

use crate::support::Spawn;
use crate::support::binary::innkeep;

fn doctor(dir: &std::path::Path, json: bool) -> (Output, Value) {
    let mut c = innkeep(dir);
    c.arg("doctor");
    if json {
        c.arg("--json");
    }
    let out = c.output().unwrap();
    let v = if json {
        serde_json::from_slice(&out.stdout).unwrap()
    } else {
        Value::Null
    };
    (out, v)
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no {name} check in {report}"))
}

#[tokio::test]
async fn doctor_names_what_needs_attention_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let backups = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!("[backup]\ndir = {:?}\ntime = \"00:00\"\n", backups.path()),
    )
    .unwrap();
    let at = backups.path().to_path_buf();
    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .config(move |c| {
            c.backup.dir = Some(at);
            c.backup.time = "00:00".into();
        })
        .start()
        .await;

    // Before the first daily backup has finished: attention, and it says where and when.
    let (out, report) = doctor(dir.path(), true);
    if check(&report, "backups")["ok"] == false {
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(report["ok"], false);
    }
    // The server takes it by itself; then the backups check is good.
    let mut good = false;
    for _ in 0..200 {
        let (_, report) = doctor(dir.path(), true);
        if check(&report, "backups")["ok"] == true {
            good = true;
            assert!(
                check(&report, "backups")["message"]
                    .as_str()
                    .unwrap()
                    .contains("hours ago"),
                "{report}"
            );
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(good, "the daily backup was never seen by doctor");
    let (out, report) = doctor(dir.path(), true);
    assert!(out.status.success(), "{report}");
    assert_eq!(report["ok"], true);
    for name in [
        "disk",
        "permissions",
        "clock",
        "jobs",
        "submissions",
        "webhooks",
    ] {
        assert_eq!(check(&report, name)["ok"], true, "{name}: {report}");
    }

    // A webhook endpoint switched off, a job that gave up, a readable data directory.
    let hook = app
        .post(
            "/v1/webhooks",
            json!({"url": "http://192.168.1.20:8080/pos", "events": ["guest.created"]}),
        )
        .await
        .expect(201);
    let path = format!("/v1/webhooks/{}", hook.body["id"].as_str().unwrap());
    app.put(&path, json!({"enabled": false})).await.expect(200);
    app.db()
        .write(|tx| {
            let id =
                innkeep::store::jobs::enqueue(tx, JobKind::Webhook, "evt_x", "{}", &tx.now_text())?;
            innkeep::store::jobs::fail(tx, id, "connection refused")
        })
        .await
        .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (out, report) = doctor(dir.path(), true);
    assert_eq!(out.status.code(), Some(1));
    let said = |name: &str| {
        check(&report, name)["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(check(&report, "webhooks")["ok"], false);
    assert!(
        said("webhooks").contains("http://192.168.1.20:8080/pos"),
        "{report}"
    );
    assert_eq!(check(&report, "jobs")["ok"], false);
    assert!(
        said("jobs").contains("connection refused") && said("jobs").contains("innkeep jobs retry")
    );
    #[cfg(unix)]
    {
        assert_eq!(check(&report, "permissions")["ok"], false);
        assert!(said("permissions").contains("chmod 700"), "{report}");
    }
    // In words, for a person: every line marked, and how many need attention.
    let (out, _) = doctor(dir.path(), false);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("ATTENTION  webhooks"), "{text}");
    assert!(text.contains("ok         clock"), "{text}");
    assert!(err.contains("things need attention"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn doctor_finds_a_day_certificate_changed_after_the_close() {
    let dir = tempfile::tempdir().unwrap();
    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .start()
        .await;
    app.post("/v1/day-close", json!({"cash_counted": 0}))
        .await
        .expect(201);
    let (_, report) = doctor(dir.path(), true);
    assert_eq!(check(&report, "days")["ok"], true, "{report}");

    // Someone edits the closed day's cash in the database.
    app.db()
        .write(|tx| {
            let changed = tx.execute(
                "UPDATE day_closes SET body = replace(body, '\"counted\":0', '\"counted\":5000')",
                [],
            )?;
            assert_eq!(changed, 1);
            Ok(())
        })
        .await
        .unwrap();
    let listed = app.get("/v1/day-closes").await.expect(200).body;
    assert_eq!(listed["data"][0]["verified"], false);
    assert_eq!(listed["data"][0]["cash"]["counted"], 5000);
    let (out, report) = doctor(dir.path(), true);
    assert_eq!(out.status.code(), Some(1));
    let days = check(&report, "days");
    assert_eq!(days["ok"], false);
    let said = days["message"].as_str().unwrap();
    assert!(
        said.contains(&crate::support::day(-1)) && said.contains("does not verify"),
        "{said}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn doctor_finds_running_totals_off_and_recount_puts_them_right() {
    let dir = tempfile::tempdir().unwrap();
    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .start()
        .await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let guest = app.guest("Ana", "Horvat").await;
    let arrival = crate::support::day(3);
    let departure = crate::support::day(5);
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": arrival,
               "departure": departure, "adults": 1, "nightly_rate": 11000}),
    )
    .await
    .expect(201);
    let (_, report) = doctor(dir.path(), true);
    assert_eq!(check(&report, "nights sold")["ok"], true, "{report}");
    assert_eq!(check(&report, "bookings made")["ok"], true, "{report}");

    // Someone edits two running totals in the database.
    let night = arrival.clone();
    app.db()
        .write(move |tx| {
            let changed = tx.execute(
                "UPDATE nights_sold SET rooms_sold = 4 WHERE night = ?1",
                [&night],
            )?;
            assert_eq!(changed, 1);
            let changed = tx.execute("UPDATE bookings_made SET nights = 7", [])?;
            assert_eq!(changed, 1);
            Ok(())
        })
        .await
        .unwrap();
    let (out, report) = doctor(dir.path(), true);
    assert_eq!(out.status.code(), Some(1));
    let said = check(&report, "nights sold");
    assert_eq!(said["ok"], false);
    let said = said["message"].as_str().unwrap();
    assert!(
        said.contains(&format!(
            "on 1 night ({arrival}: the totals say 4 rooms sold for 110.00, the reservations \
             1 room for 110.00)"
        )) && said.contains("--recount"),
        "{said}"
    );
    let said = check(&report, "bookings made");
    assert_eq!(said["ok"], false);
    let said = said["message"].as_str().unwrap();
    assert!(
        said.contains("source direct, nights: the totals say 7, the reservations 2)"),
        "{said}"
    );

    // --recount counts again, says so, and the check is then well.
    let mut c = innkeep(dir.path());
    let out = c.args(["doctor", "--json", "--recount"]).output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let recount = check(&report, "recount");
    assert_eq!(recount["ok"], true, "{report}");
    assert!(
        recount["message"]
            .as_str()
            .unwrap()
            .contains("1 night sold and 1 place of bookings made were off"),
        "{report}"
    );
    assert_eq!(check(&report, "nights sold")["ok"], true, "{report}");
    assert_eq!(check(&report, "bookings made")["ok"], true, "{report}");
    let occupancy = app
        .get(&format!(
            "/v1/reports/occupancy?from={arrival}&to={departure}"
        ))
        .await
        .expect(200)
        .body;
    assert_eq!(occupancy["rows"][0]["rooms_sold"], 1, "{occupancy}");

    // Once they agree, a recount changes nothing and says so.
    let out = innkeep(dir.path())
        .args(["doctor", "--json", "--recount"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        check(&report, "recount")["message"]
            .as_str()
            .unwrap()
            .contains("nothing was changed"),
        "{report}"
    );
}
