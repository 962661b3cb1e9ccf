//! The real `innkeep` binary: start-up, graceful stop, refusal of a newer schema, config.

use crate::support::binary::{
    cli_token, free_port, get_json, innkeep, serve, serve_log, terminate, wait_healthy,
};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_innkeep");

#[tokio::test]
async fn serves_stops_on_sigterm_and_keeps_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = serve(dir.path(), port);
    wait_healthy(port).await;
    let client = reqwest::Client::new();
    let token = cli_token(dir.path(), port, "guests:read guests:write").await;
    let created: serde_json::Value = client
        .post(format!("http://127.0.0.1:{port}/v1/guests"))
        .bearer_auth(&token)
        .json(&serde_json::json!({"first_name": "Anna", "last_name": "Rossi"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let status = terminate(&mut child);
    assert!(
        status.success(),
        "exit status {status}: {}",
        serve_log(dir.path())
    );
    assert!(dir.path().join("innkeep.sqlite3").exists());

    // Same port: the issuer (and so the token) stays valid across the restart, because the
    // signing key was kept in the data directory.
    let mut child = serve(dir.path(), port);
    wait_healthy(port).await;
    let id = created["id"].as_str().unwrap();
    let got = get_json(
        &client,
        &format!("http://127.0.0.1:{port}/v1/guests/{id}"),
        &token,
    )
    .await;
    assert_eq!(got, created);
    let status = terminate(&mut child);
    assert!(
        status.success(),
        "exit status {status}: {}",
        serve_log(dir.path())
    );
}

#[test]
fn refuses_a_database_from_a_newer_innkeep() {
    let dir = tempfile::tempdir().unwrap();
    let out = innkeep(dir.path())
        .args(["migrate", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["to_version"], innkeep::db::SCHEMA_VERSION);

    let conn = rusqlite::Connection::open(dir.path().join("innkeep.sqlite3")).unwrap();
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (999, 'future', '', '0')",
        [],
    )
    .unwrap();
    drop(conn);
    for args in [vec!["migrate"], vec!["serve", "--listen", "127.0.0.1:0"]] {
        let out = innkeep(dir.path()).args(&args).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("newer innkeep") && err.contains("999"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn config_check_names_unknown_keys() {
    let dir = tempfile::tempdir().unwrap();
    let ok = innkeep(dir.path())
        .args(["config", "check", "--json"])
        .output()
        .unwrap();
    assert!(ok.status.success());
    let report: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(report["config"]["server"]["listen"], "127.0.0.1:8080");

    std::fs::write(
        dir.path().join("innkeep.toml"),
        "[server]\nlisten = \"127.0.0.1:9999\"\nlistn = 1\n",
    )
    .unwrap();
    let bad = innkeep(dir.path())
        .args(["config", "check"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("listn") && err.contains("innkeep.toml"),
        "{err}"
    );

    std::fs::write(
        dir.path().join("innkeep.toml"),
        "[server]\nlisten = \"127.0.0.1:9999\"\n",
    )
    .unwrap();
    let env = innkeep(dir.path())
        .args(["config", "check", "--json"])
        .env("INNKEEP_SERVER__SHUTDOWN_GRACE", "5")
        .output()
        .unwrap();
    assert!(!env.status.success());
    assert!(String::from_utf8_lossy(&env.stderr).contains("INNKEEP_SERVER__SHUTDOWN_GRACE"));
    let good = innkeep(dir.path())
        .args(["config", "check", "--json"])
        .env("INNKEEP_LOG__LEVEL", "debug")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&good.stdout).unwrap();
    assert_eq!(report["config"]["server"]["listen"], "127.0.0.1:9999");
    assert_eq!(report["config"]["log"]["level"], "debug");
}

#[test]
fn openapi_command_prints_the_spec() {
    let out = Command::new(BIN).arg("openapi").output().unwrap();
    assert!(out.status.success());
    let spec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(spec["paths"]["/reservations"].is_object());
}
