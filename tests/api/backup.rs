//! `innkeep backup` and `innkeep restore` with the real binary: a backup taken while a server
//! serves and a writer writes holds every write acknowledged before it began; restored on a
//! new PC (another data directory), it serves them, with a new event feed and invoices on
//! hold until the next numbers are confirmed; a restore over a data directory keeps the old
//! one aside; a damaged or cut backup, or a running server, is refused and nothing changes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::support::binary::{
    cli_token, free_port, innkeep, run_ok, serve, terminate, wait_healthy,
};

const SCOPES: &str = "guests:read guests:write invoices:read invoices:write events:read";

async fn call(
    method: reqwest::Method,
    port: u16,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = reqwest::Client::new()
        .request(method, format!("http://127.0.0.1:{port}/v1{path}"))
        .bearer_auth(token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn guest(port: u16, token: &str, n: usize) -> String {
    let (status, body) = call(
        reqwest::Method::POST,
        port,
        "/guests",
        token,
        Some(json!({"first_name": "Writer", "last_name": format!("Guest {n}")})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

async fn sale(port: u16, token: &str, guest: &str) -> (u16, Value) {
    call(
        reqwest::Method::POST,
        port,
        "/invoices",
        token,
        Some(json!({"guest_id": guest, "payment_method": "cash",
                    "lines": [{"description": "Dinner", "quantity": 1, "unit_price": 3000}]})),
    )
    .await
}

fn fails(dir: &Path, args: &[&str]) -> String {
    let out = innkeep(dir).args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_taken_while_serving_restores_on_a_new_pc_with_invoices_on_hold() {
    let home = tempfile::tempdir().unwrap();
    let (dir, file) = (home.path().join("data"), home.path().join("tonight.backup"));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut server = serve(&dir, port);
    wait_healthy(port).await;
    let token = cli_token(&dir, port, SCOPES).await;
    let first = guest(port, &token, 0).await;
    let (status, inv) = sale(port, &token, &first).await;
    assert_eq!(status, 201, "{inv}");
    let (_, events) = call(reqwest::Method::GET, port, "/events", &token, None).await;
    let old_feed = events["feed_id"].as_str().unwrap().to_string();
    // A writer keeps writing while the backup runs.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, token) = (stop.clone(), token.clone());
        tokio::spawn(async move {
            let mut acked = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                // The moment of the acknowledgement, taken after the answer came back
                // (a tuple would take it before the request went out).
                let id = guest(port, &token, acked.len() + 1).await;
                acked.push((std::time::Instant::now(), id));
            }
            acked
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let began = std::time::Instant::now();
    let (d, f) = (dir.clone(), file.clone());
    let said = tokio::task::spawn_blocking(move || run_ok(&d, &["backup", f.to_str().unwrap()]))
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    stop.store(true, Ordering::Relaxed);
    let acked = writer.await.unwrap();
    assert!(said.contains("Verified"), "{said}");
    assert!(
        said.contains(inv["number"].as_str().unwrap()),
        "the last invoice is named: {said}"
    );
    // A restore over a served data directory is refused.
    let busy = fails(&dir, &["restore", file.to_str().unwrap()]);
    assert!(busy.contains("an innkeep server is using"), "{busy}");
    terminate(&mut server);

    // A new PC: another data directory.
    let new = home.path().join("new-pc");
    let told = run_ok(&new, &["restore", file.to_str().unwrap()]);
    assert!(told.contains("Invoices are ON HOLD"), "{told}");
    assert!(
        !told.contains("kept, untouched"),
        "nothing to keep on a new PC: {told}"
    );
    assert!(
        told.contains("series 2026: the last number here is 1"),
        "{told}"
    );
    let port = free_port();
    let mut server = serve(&new, port);
    wait_healthy(port).await;
    let token = cli_token(&new, port, SCOPES).await;
    let before: Vec<&String> = acked
        .iter()
        .filter(|(at, _)| *at < began)
        .map(|(_, id)| id)
        .collect();
    assert!(before.len() > 3, "the writer wrote before the backup");
    for id in std::iter::once(&first).chain(before) {
        let (status, _) = call(
            reqwest::Method::GET,
            port,
            &format!("/guests/{id}"),
            &token,
            None,
        )
        .await;
        assert_eq!(
            status, 200,
            "guest {id}, acknowledged before the backup, is restored"
        );
    }
    let (_, events) = call(reqwest::Method::GET, port, "/events", &token, None).await;
    assert_ne!(
        events["feed_id"].as_str().unwrap(),
        old_feed,
        "a restore starts a new feed"
    );
    let (status, held) = sale(port, &token, &first).await;
    assert_eq!(status, 409, "{held}");
    assert_eq!(held["code"], "numbering_unconfirmed", "{held}");
    let back = fails(&new, &["numbering", "confirm", "2026=1"]);
    assert!(back.contains("must be at least 2"), "{back}");
    run_ok(&new, &["numbering", "confirm", "2026=15"]);
    let (status, inv) = sale(port, &token, &first).await;
    assert_eq!(status, 201, "{inv}");
    assert_eq!(
        inv["number"], "2026-000015",
        "numbering carries on after the confirmed number"
    );
    terminate(&mut server);

    // Restoring over a data directory keeps the old one aside, untouched.
    let told = run_ok(&dir, &["restore", file.to_str().unwrap()]);
    assert!(told.contains("is kept, untouched"), "{told}");
    let aside: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("data.before-restore-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert!(aside[0].path().join("innkeep.sqlite3").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_damaged_or_cut_backup_is_refused_and_nothing_changes() {
    let home = tempfile::tempdir().unwrap();
    let (dir, file) = (home.path().join("data"), home.path().join("b.backup"));
    run_ok(&dir, &["migrate"]);
    run_ok(
        &dir,
        &["users", "create", "--username", "anna", "--role", "admin"],
    );
    run_ok(&dir, &["backup", file.to_str().unwrap()]);
    let whole = std::fs::read(&file).unwrap();
    let target = home.path().join("target");
    let cut = home.path().join("cut.backup");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let said = fails(&target, &["restore", cut.to_str().unwrap()]);
    assert!(said.contains("Nothing was changed"), "{said}");
    let mut altered = whole.clone();
    let at = whole.len() * 3 / 4;
    altered[at] ^= 0x55;
    let bad = home.path().join("altered.backup");
    std::fs::write(&bad, &altered).unwrap();
    let said = fails(&target, &["restore", bad.to_str().unwrap()]);
    assert!(said.contains("is not a whole innkeep backup"), "{said}");
    assert!(
        !target.join("innkeep.sqlite3").exists(),
        "nothing was put in place"
    );
    // A backup kept in the data directory is not copied into the next one.
    let inside = dir.join("inside.backup");
    run_ok(&dir, &["backup", inside.to_str().unwrap()]);
    let again = run_ok(
        &dir,
        &[
            "backup",
            dir.join("again.backup").to_str().unwrap(),
            "--json",
        ],
    );
    let report: Value = serde_json::from_str(&again).unwrap();
    let files: Vec<&String> = report["manifest"]["files"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert!(
        files
            .iter()
            .all(|f| !f.contains(".backup") && !f.contains(".innkeep-")),
        "{files:?}"
    );
    // The whole file restores, and the staff member is there.
    run_ok(&target, &["restore", file.to_str().unwrap()]);
    assert!(run_ok(&target, &["users", "list"]).contains("anna"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_damaged_signing_key_is_named_with_the_way_out() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("data");
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut server = serve(&dir, port);
    wait_healthy(port).await;
    terminate(&mut server);
    let keys: Vec<_> = std::fs::read_dir(dir.join("keys"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    assert_eq!(
        keys.len(),
        1,
        "one key, and no temporary file left: {keys:?}"
    );
    // What a power cut during an unsynced write used to leave: an empty key file.
    std::fs::write(&keys[0], b"").unwrap();
    let out = innkeep(&dir)
        .args(["serve", "--listen", &format!("127.0.0.1:{}", free_port())])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is damaged"), "{said}");
    assert!(said.contains("innkeep keys rotate"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_encrypted_backup_opens_only_with_its_passphrase_or_identity() {
    use age::secrecy::ExposeSecret;
    let home = tempfile::tempdir().unwrap();
    let (dir, file) = (home.path().join("data"), home.path().join("sealed.backup"));
    run_ok(
        &dir,
        &["users", "create", "--username", "anna", "--role", "admin"],
    );
    let (right, wrong) = (home.path().join("pass"), home.path().join("wrong"));
    std::fs::write(&right, "correct horse battery staple\n").unwrap();
    std::fs::write(&wrong, "incorrect horse\n").unwrap();
    let said = run_ok(
        &dir,
        &[
            "backup",
            file.to_str().unwrap(),
            "--passphrase-file",
            right.to_str().unwrap(),
        ],
    );
    assert!(said.contains("Encrypted with the passphrase"), "{said}");
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"age-encryption.org/v1"));
    assert!(!bytes.windows(5).any(|w| w == b"anna\0") && !bytes.windows(4).any(|w| w == b"anna"));
    let target = home.path().join("target");
    let none = fails(&target, &["restore", file.to_str().unwrap()]);
    assert!(none.contains("is encrypted"), "{none}");
    let bad = fails(
        &target,
        &[
            "restore",
            file.to_str().unwrap(),
            "--passphrase-file",
            wrong.to_str().unwrap(),
        ],
    );
    assert!(bad.contains("the passphrase does not open"), "{bad}");
    assert!(bad.contains("Nothing was changed"), "{bad}");
    assert!(!target.join("innkeep.sqlite3").exists());
    run_ok(
        &target,
        &[
            "restore",
            file.to_str().unwrap(),
            "--passphrase-file",
            right.to_str().unwrap(),
        ],
    );
    assert!(run_ok(&target, &["users", "list"]).contains("anna"));
    // To a recipient: only its identity file opens it.
    let id = age::x25519::Identity::generate();
    let keyfile = home.path().join("owner.key");
    std::fs::write(&keyfile, format!("{}\n", id.to_string().expose_secret())).unwrap();
    let to = home.path().join("to-owner.backup");
    run_ok(
        &dir,
        &[
            "backup",
            to.to_str().unwrap(),
            "--recipient",
            &id.to_public().to_string(),
        ],
    );
    let other = home.path().join("other");
    let refused = fails(
        &other,
        &[
            "restore",
            to.to_str().unwrap(),
            "--passphrase-file",
            right.to_str().unwrap(),
        ],
    );
    assert!(refused.contains("does not open"), "{refused}");
    run_ok(
        &other,
        &[
            "restore",
            to.to_str().unwrap(),
            "--identity",
            keyfile.to_str().unwrap(),
        ],
    );
    assert!(run_ok(&other, &["users", "list"]).contains("anna"));
}

#[tokio::test(flavor = "multi_thread")]
async fn while_invoices_are_held_the_desk_says_so_in_words() {
    use crate::support::desk::{Browser, staff};
    let app = crate::support::spawn_app().await;
    let db = app.db.clone().unwrap();
    innkeep::service::numbering::hold_after_restore(&db, "restored for a test".into())
        .await
        .unwrap();
    let pw = staff(&app, "marta", "admin").await;
    let b = Browser::sign_in(&app, "marta", &pw).await;
    let admin = b.get("/admin").await.text;
    assert!(
        admin.contains("No daily backup has been taken yet"),
        "{admin}"
    );
    let today = b.get("/").await;
    assert!(
        today.text.contains("Invoices are on hold since"),
        "{}",
        today.text
    );
    assert!(
        today.text.contains("innkeep numbering confirm"),
        "{}",
        today.text
    );
    let g = app.guest("Anna", "Rossi").await;
    let refused = app
        .post(
            "/v1/invoices",
            json!({"guest_id": g, "payment_method": "cash",
                   "lines": [{"description": "Dinner", "quantity": 1, "unit_price": 3000}]}),
        )
        .await
        .expect(409)
        .body;
    assert_eq!(refused["code"], "numbering_unconfirmed");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_takes_the_daily_backup_itself_and_keeps_the_newest() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("backups");
    std::fs::create_dir_all(&dir).unwrap();
    for old in ["2000-01-01", "2000-01-02", "2000-01-03"] {
        std::fs::write(dir.join(format!("innkeep-{old}.backup")), b"old").unwrap();
    }
    let at = dir.clone();
    let app = crate::support::Spawn::new()
        .config(move |c| {
            c.backup.dir = Some(at);
            c.backup.time = "00:00".into();
            c.backup.keep = 2;
        })
        .start()
        .await;
    let mut made = Vec::new();
    for _ in 0..200 {
        made = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| !n.starts_with("innkeep-2000"))
            .collect();
        if made.iter().any(|n| n.ends_with(".backup")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let daily: Vec<&String> = made.iter().filter(|n| n.ends_with(".backup")).collect();
    assert_eq!(daily.len(), 1, "one backup for today: {made:?}");
    // Its job finished (metrics say so) and the oldest files went.
    let mut metrics = String::new();
    for _ in 0..100 {
        metrics = app
            .client
            .get(app.url("/metrics"))
            .bearer_auth(&app.token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if metrics.contains("innkeep_backup_last_good_age_seconds ") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        metrics.contains("innkeep_backup_last_good_age_seconds "),
        "{metrics}"
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".backup"))
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left.contains(&"innkeep-2000-01-03.backup".to_string()),
        "{left:?}"
    );
    // The admin pages say how old it is.
    let root = crate::support::desk::staff(&app, "root", "admin").await;
    let admin = crate::support::desk::Browser::sign_in(&app, "root", &root).await;
    let page = admin.get("/admin").await.text;
    assert!(
        page.contains("The last daily backup was written and verified less than an hour ago."),
        "{page}"
    );
    // It restores like any backup.
    let target = home.path().join("restored");
    let told = run_ok(&target, &["restore", dir.join(daily[0]).to_str().unwrap()]);
    assert!(told.contains("Invoices are ON HOLD"), "{told}");
}
