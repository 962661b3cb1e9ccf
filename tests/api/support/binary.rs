//! Running the real `innkeep` binary: serving on a free port, its log, signals, and CLI
//! commands.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_innkeep");

pub fn innkeep(dir: &std::path::Path) -> Command {
    let mut c = Command::new(BIN);
    c.env_remove("INNKEEP_CONFIG").env("INNKEEP_DATA_DIR", dir);
    c
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn wait_healthy(port: u16) {
    for _ in 0..200 {
        if let Ok(r) = reqwest::get(format!("http://127.0.0.1:{port}/health")).await
            && r.status() == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not become healthy");
}

/// Starts `innkeep serve`; its log goes to `serve.log` in the data directory.
pub fn serve(dir: &std::path::Path, port: u16) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("serve.log"))
        .unwrap();
    innkeep(dir)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap()
}

/// What `innkeep serve` logged in this data directory.
pub fn serve_log(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default()
}

pub fn terminate(child: &mut Child) -> std::process::ExitStatus {
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("the server did not stop on SIGTERM");
}

/// `GET url` with a bearer token, read as JSON.
pub async fn get_json(client: &reqwest::Client, url: &str, token: &str) -> serde_json::Value {
    client
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Runs `innkeep ARGS` on `dir`, asserts it succeeded, and returns its standard output.
pub fn run_ok(dir: &std::path::Path, args: &[&str]) -> String {
    let out = innkeep(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Creates an OAuth client with `innkeep clients create`: its id and secret.
pub fn cli_client(dir: &std::path::Path, scopes: &str) -> (String, String) {
    let out = run_ok(
        dir,
        &[
            "clients", "create", "--name", "cli test", "--scopes", scopes, "--json",
            // Its own limit, high enough for the crash loop's load (also tests the flags).
            "--rate", "100000", "--burst", "100000",
        ],
    );
    let c: serde_json::Value = serde_json::from_str(&out).unwrap();
    let field = |k: &str| c[k].as_str().unwrap().to_string();
    (field("client_id"), field("client_secret"))
}

/// A token for a new client made with `innkeep clients create`, from the server on `port`.
pub async fn cli_token(dir: &std::path::Path, port: u16, scopes: &str) -> String {
    let (id, secret) = cli_client(dir, scopes);
    crate::support::password_token(
        &reqwest::Client::new(),
        format!("127.0.0.1:{port}").parse().unwrap(),
        &id,
        &secret,
        None,
    )
    .await
}

/// A server process that is killed if the test fails before stopping it.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}
