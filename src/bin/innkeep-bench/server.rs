//! The real `innkeep` binary as the server under test: built by cargo next to this one,
//! started on a seeded data directory, timed until it answers, and measured from /proc.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `innkeep` binary beside this benchmark, built first (same profile) when cargo runs us.
pub fn binary() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = me.parent().ok_or("no directory for the benchmark binary")?;
    if let Ok(cargo) = std::env::var("CARGO") {
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "--bin", "innkeep"]);
        if dir.ends_with("release") {
            build.arg("--release");
        }
        let status = build.status().map_err(|e| format!("cargo build: {e}"))?;
        if !status.success() {
            return Err("cargo build --bin innkeep failed".into());
        }
    }
    let bin = dir.join("innkeep");
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "{} not found; run `cargo build --release` first",
            bin.display()
        ))
    }
}

/// A running server.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// From spawn to the first 200 from `/health`.
    pub startup: Duration,
}

impl Server {
    /// Starts `bin serve` on `dir` and a free port; waits until `/health` answers.
    pub fn start(bin: &Path, dir: &Path) -> Result<Server, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let base = format!("http://127.0.0.1:{port}");
        let log = std::fs::File::create(dir.join("serve.log")).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let child = Command::new(bin)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("INNKEEP_DATA_DIR", dir)
            .env("INNKEEP_LOG__LEVEL", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("starting {}: {e}", bin.display()))?;
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_millis(500)))
            .build()
            .new_agent();
        while t.elapsed() < Duration::from_secs(30) {
            if agent.get(format!("{base}/health")).call().is_ok() {
                return Ok(Server {
                    child,
                    base,
                    startup: t.elapsed(),
                });
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Err("the server did not answer /health within 30 s".into())
    }

    /// Resident set size of the server process, in KiB.
    pub fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Stops it with SIGTERM (a graceful stop), killing it if it hangs.
    pub fn stop(mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..300 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `innkeep migrate` on `dir`.
pub fn migrate(bin: &Path, dir: &Path) -> Result<(), String> {
    let out = Command::new(bin)
        .args(["migrate"])
        .env("INNKEEP_DATA_DIR", dir)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A client with every scope (`innkeep clients create`) and a token for it.
pub fn token(bin: &Path, dir: &Path, base: &str) -> Result<String, String> {
    let scopes = "admin guests:read guests:write reservations:read reservations:write front_desk";
    let out = Command::new(bin)
        .args([
            "clients", "create", "--name", "bench", "--scopes", scopes, "--json",
            // The benchmark measures throughput, not the rate limit.
            "--rate", "100000", "--burst", "100000",
        ])
        .env("INNKEEP_DATA_DIR", dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let (id, secret) = (
        c["client_id"].as_str().unwrap_or_default(),
        c["client_secret"].as_str().unwrap_or_default(),
    );
    let mut r = ureq::post(format!("{base}/oauth/token"))
        .send_form([
            ("grant_type", "client_credentials"),
            ("client_id", id),
            ("client_secret", secret),
        ])
        .map_err(|e| format!("token: {e}"))?;
    let v: serde_json::Value = r.body_mut().read_json().map_err(|e| e.to_string())?;
    v["access_token"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no access_token in {v}"))
}
