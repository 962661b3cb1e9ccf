//! The servers under test: the real `innkeep` binary (built by cargo next to this one) and
//! the bare baseline (this binary's `bare` command), each started on the seeded data
//! directory, pinned to core 0 when the machine has two or more (the load generator then
//! runs on the others), timed until it answers, and measured from /proc: CPU time, RSS.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether servers are pinned to core 0 (see [`pin`]).
static PINNED: AtomicBool = AtomicBool::new(false);

/// With two or more cores, moves this process (every thread it will start) off core 0,
/// which the servers get to themselves. Returns a description for the report.
pub fn pin() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 {
        return "not pinned (one core)".into();
    }
    let me = std::process::id().to_string();
    let ok = Command::new("taskset")
        .args(["-a", "-p", "-c", &format!("1-{}", cores - 1), &me])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        PINNED.store(true, Ordering::Relaxed);
        format!("server on core 0, load generator on cores 1-{}", cores - 1)
    } else {
        "not pinned (taskset failed)".into()
    }
}

/// A command running `program`, on core 0 when pinning is on.
fn pinned(program: &Path) -> Command {
    if PINNED.load(Ordering::Relaxed) {
        let mut c = Command::new("taskset");
        c.arg("-c").arg("0").arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux).
fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The `innkeep` binary beside this benchmark, built first (same profile) when cargo runs us.
pub fn binary() -> Result<PathBuf, String> {
    named("innkeep")
}

/// The package's binary `name` beside this benchmark, built first as [`binary`] does.
pub fn named(name: &str) -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = me.parent().ok_or("no directory for the benchmark binary")?;
    if let Ok(cargo) = std::env::var("CARGO") {
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "--bin", name]);
        if dir.ends_with("release") {
            build.arg("--release");
        }
        let status = build.status().map_err(|e| format!("cargo build: {e}"))?;
        if !status.success() {
            return Err(format!("cargo build --bin {name} failed"));
        }
    }
    let bin = dir.join(name);
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
        Server::start_with(bin, dir, &[])
    }

    /// [`Server::start`] with more `INNKEEP_*` settings in the environment.
    pub fn start_with(bin: &Path, dir: &Path, env: &[(String, String)]) -> Result<Server, String> {
        let port = free_port()?;
        let mut cmd = pinned(bin);
        cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("INNKEEP_DATA_DIR", dir)
            .env("INNKEEP_LOG__LEVEL", "warn")
            .envs(env.iter().map(|(k, v)| (k, v)));
        Server::launch(cmd, port, &dir.join("serve.log"))
    }

    /// Starts the bare baseline server (this binary's `bare` command) on `dir`'s database.
    pub fn start_bare(dir: &Path) -> Result<Server, String> {
        let port = free_port()?;
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut cmd = pinned(&me);
        cmd.args(["bare", "--listen", &format!("127.0.0.1:{port}"), "--db"])
            .arg(dir.join(innkeep::db::DB_FILE));
        Server::launch(cmd, port, &dir.join("bare.log"))
    }

    fn launch(mut cmd: Command, port: u16, log: &Path) -> Result<Server, String> {
        let base = format!("http://127.0.0.1:{port}");
        let log = std::fs::File::create(log).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let child = cmd
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("starting {:?}: {e}", cmd.get_program()))?;
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
        let mut child = child;
        let _ = child.kill();
        Err("the server did not answer /health within 30 s".into())
    }

    /// CPU time (user and system, every thread) the server has used so far, in µs.
    pub fn cpu_us(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the parenthesised command name: state is the first, utime the 12th.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or("", |(_, rest)| rest)
            .split_whitespace()
            .collect();
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        (ticks(11) + ticks(12)) * 1e6 / clock_ticks()
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
    let scopes = "admin guests:read guests:write reservations:read reservations:write front_desk \
                  webhooks:manage events:read rates:read rates:write reports:read \
                  night_audit compliance";
    let (id, secret) = client(bin, dir, scopes)?;
    let mut r = ureq::post(format!("{base}/oauth/token"))
        .send_form([
            ("grant_type", "client_credentials"),
            ("client_id", id.as_str()),
            ("client_secret", secret.as_str()),
        ])
        .map_err(|e| format!("token: {e}"))?;
    let v: serde_json::Value = r.body_mut().read_json().map_err(|e| e.to_string())?;
    v["access_token"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no access_token in {v}"))
}

/// A new OAuth client with `scopes` (`innkeep clients create`): its id and secret.
pub fn client(bin: &Path, dir: &Path, scopes: &str) -> Result<(String, String), String> {
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
    let field = |k: &str| c[k].as_str().unwrap_or_default().to_string();
    Ok((field("client_id"), field("client_secret")))
}
