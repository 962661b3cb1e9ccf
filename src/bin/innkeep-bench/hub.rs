//! `innkeep-bench hub`: the group hub's ingest rate and lag, measured. Two properties (the
//! `innkeep` binary beside this one, each on a fresh data directory) and `innkeep-hub`
//! against PostgreSQL (`--database URL`, or a throw-away cluster this command makes with
//! `initdb` in a temporary directory).
//!
//! 1. Ingest: after a first `innkeep-hub sync` (which reads the empty lists), each property
//!    takes `--events` guest creations; the second `sync` is timed: events per second into
//!    PostgreSQL, each page committed with its position.
//! 2. Lag: `innkeep-hub serve` polls every second while both properties take `--rate`
//!    writes per second for `--seconds`; every 20 ms the benchmark reads each property's
//!    newest sequence and the hub's positions, and reports how long after a write became
//!    the property's newest the hub held it (p50, p99, max).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::load::{Call, Client};
use crate::server::{self, Server};

/// The hub benchmark's settings.
#[derive(clap::Args)]
pub struct HubArgs {
    /// Guest creations per property for the ingest measurement.
    #[arg(long, default_value_t = 5000)]
    events: usize,
    /// Writes per second per property during the lag measurement.
    #[arg(long, default_value_t = 50)]
    rate: u64,
    /// Seconds of steady load.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// A PostgreSQL connection string (default: a throw-away cluster made with initdb).
    #[arg(long)]
    database: Option<String>,
    /// Measure push mode instead: the properties send after each commit (no ingest phase).
    #[arg(long)]
    push: bool,
}

/// A throw-away PostgreSQL cluster (stopped when dropped).
struct Cluster {
    child: Child,
    url: String,
    _dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._dir);
    }
}

fn pg_bin() -> Result<PathBuf, String> {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(
            std::fs::read_dir("/usr/lib/postgresql")
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path().join("bin"))),
        )
        .find(|d| d.join("initdb").is_file())
        .ok_or_else(|| "PostgreSQL (initdb) is not installed; give --database URL".into())
}

fn cluster() -> Result<Cluster, String> {
    use std::os::unix::process::CommandExt;
    let bin = pg_bin()?;
    let dir = std::env::temp_dir().join(format!("innkeep-bench-pg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let owned = |mut c: Command| {
        if root {
            c.uid(65534).gid(65534);
        }
        c
    };
    if root {
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).map_err(|e| e.to_string())?;
    }
    let data = dir.join("data");
    let mut init = owned(Command::new(bin.join("initdb")));
    let out = init
        .args(["-U", "hub", "--auth=trust", "--no-sync", "-D"])
        .arg(&data)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("initdb: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let mut run = owned(Command::new(bin.join("postgres")));
    let child = run
        .arg("-D")
        .arg(&data)
        .args([
            "-p",
            &port.to_string(),
            "-c",
            "listen_addresses=127.0.0.1",
            "-k",
        ])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let url = format!("host=127.0.0.1 port={port} user=hub dbname=postgres");
    let c = Cluster {
        child,
        url,
        _dir: dir,
    };
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            std::thread::sleep(Duration::from_millis(200));
            return Ok(c);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err("PostgreSQL did not start".into())
}

/// One property: its server, a writer's client and the hub's credentials.
struct Property {
    server: Server,
    writer: Client,
    hub_id: String,
    hub_secret: String,
}

/// A property on `dir`; with `push`, it sends its events to the hub at `push` as `name`.
fn property(bin: &Path, dir: &Path, push: Option<(&str, &str)>) -> Result<Property, String> {
    server::migrate(bin, dir)?;
    let (hub_id, hub_secret) = match push {
        Some((_, name)) => (name.to_string(), format!("secret-of-{name}")),
        None => server::client(
            bin,
            dir,
            "events:read guests:read reservations:read invoices:read",
        )?,
    };
    let env: Vec<(String, String)> = match push {
        Some((url, _)) => vec![
            ("INNKEEP_HUB__URL".into(), url.into()),
            ("INNKEEP_HUB__CLIENT_ID".into(), hub_id.clone()),
            ("INNKEEP_HUB__SECRET".into(), hub_secret.clone()),
        ],
        None => Vec::new(),
    };
    let server = Server::start_with(bin, dir, &env)?;
    let token = server::token(bin, dir, &server.base)?;
    let writer = Client::new(&server.base, &token);
    Ok(Property {
        server,
        writer,
        hub_id,
        hub_secret,
    })
}

fn guest(i: usize) -> Call {
    Call {
        method: "POST",
        path: "/v1/guests".into(),
        body: Some(json!({"first_name": "Hub", "last_name": format!("Guest {i}")})),
        expect: 201,
    }
}

/// The property's newest event sequence.
fn newest(p: &Property) -> i64 {
    let (_, body) = p.writer.send(&Call {
        method: "GET",
        path: format!("/v1/events?after={}", i64::MAX),
        body: None,
        expect: 409,
    });
    body["newest_sequence"].as_i64().unwrap_or(0)
}

fn hub_command(hub: &Path, config: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(hub);
    c.arg("--config")
        .arg(config)
        .args(args)
        .env("INNKEEP_HUB_LOG", "warn");
    c
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or(0.0)
}

/// Runs the hub benchmark and prints its figures.
pub fn run(args: &HubArgs) -> Result<(), String> {
    let bin = server::binary()?;
    let hub = server::named("innkeep-hub")?;
    let own = match &args.database {
        Some(_) => None,
        None => Some(cluster()?),
    };
    let url = args
        .database
        .clone()
        .or(own.as_ref().map(|c| c.url.clone()))
        .unwrap_or_default();
    let work = std::env::temp_dir().join(format!("innkeep-bench-hub-{}", std::process::id()));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let push_url = format!("http://127.0.0.1:{port}");
    let props: Vec<Property> = (0..2)
        .map(|i| {
            let name = format!("p{i}");
            let push = args.push.then_some((push_url.as_str(), name.as_str()));
            property(&bin, &work.join(&name), push)
        })
        .collect::<Result<_, _>>()?;
    let mut text = format!("[database]\nurl = \"{url}\"\n[pull]\ninterval_seconds = 1\n");
    if args.push {
        text.push_str(&format!("[push]\nlisten = \"127.0.0.1:{port}\"\n"));
    }
    for (i, p) in props.iter().enumerate() {
        let place = if args.push {
            "mode = \"push\"".to_string()
        } else {
            format!("url = \"{}\"", p.server.base)
        };
        text.push_str(&format!(
            "[[property]]\nname = \"p{i}\"\n{place}\nclient_id = \"{}\"\nclient_secret = \"{}\"\n",
            p.hub_id, p.hub_secret
        ));
    }
    let config = work.join("hub.toml");
    std::fs::write(&config, text).map_err(|e| e.to_string())?;
    if args.push {
        return push_lag(args, &hub, &config, props, &url, &work);
    }
    let sync = || -> Result<(Duration, i64), String> {
        let t = Instant::now();
        let out = hub_command(&hub, &config, &["sync", "--json"])
            .output()
            .map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("sync: {e}"))?;
        let events = v["properties"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["events"].as_i64())
            .sum();
        if v["ok"] != true {
            return Err(format!("sync failed: {v}"));
        }
        Ok((t.elapsed(), events))
    };
    sync()?;
    eprintln!(
        "... {} guest creations on each of two properties",
        args.events
    );
    std::thread::scope(|s| {
        for p in &props {
            s.spawn(|| crate::load::run(&p.writer, 4, 3600.0, Some(args.events), guest));
        }
    });
    let (took, events) = sync()?;
    let ingest = events as f64 / took.as_secs_f64();
    eprintln!(
        "... steady load: {} writes/s on each property for {} s",
        args.rate, args.seconds
    );
    let mut serving = hub_command(&hub, &config, &["serve"])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let samples = steady(args, &props, &url)?;
    let _ = serving.kill();
    let _ = serving.wait();
    println!(
        "{}",
        json!({
            "ingest": {"events": events, "seconds": took.as_secs_f64(), "events_per_second": ingest.round()},
            "lag_ms": lag_report(&samples, args, "pull, polled every 1 s"),
        })
    );
    for p in props {
        p.server.stop();
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// Push mode: the hub listens, the properties send after each commit; only the lag.
fn push_lag(
    args: &HubArgs,
    hub: &Path,
    config: &Path,
    props: Vec<Property>,
    url: &str,
    work: &Path,
) -> Result<(), String> {
    let mut serving = hub_command(hub, config, &["serve"])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    // Both first contacts (each sends its snapshot) happen meanwhile.
    std::thread::sleep(Duration::from_secs(3));
    eprintln!(
        "... steady load (push): {} writes/s on each property for {} s",
        args.rate, args.seconds
    );
    let samples = steady(args, &props, url)?;
    let _ = serving.kill();
    let _ = serving.wait();
    println!(
        "{}",
        json!({"lag_ms": lag_report(&samples, args, "push, after each commit")})
    );
    for p in props {
        p.server.stop();
    }
    let _ = std::fs::remove_dir_all(work);
    Ok(())
}

/// For each sample, how long until the hub held what each property had then.
fn lag_report(samples: &[Sample], args: &HubArgs, mode: &str) -> Value {
    let mut lags: Vec<f64> = Vec::new();
    for (i, (t, news, _)) in samples.iter().enumerate() {
        for (k, newest) in news.iter().enumerate() {
            if let Some((t2, _, _)) = samples[i..].iter().find(|(_, _, held)| held[k] >= *newest) {
                lags.push(t2.duration_since(*t).as_secs_f64() * 1000.0);
            }
        }
    }
    lags.sort_by(f64::total_cmp);
    json!({"mode": mode, "rate_per_property": args.rate, "samples": lags.len(), "resolution_ms": 20,
           "p50": percentile(&lags, 0.5).round(), "p99": percentile(&lags, 0.99).round(),
           "max": lags.last().copied().unwrap_or(0.0).round()})
}

type Sample = (Instant, Vec<i64>, Vec<i64>);

/// Writes at `rate` per second on each property for `seconds`, sampling every 20 ms each
/// property's newest sequence and the hub's position for it.
fn steady(args: &HubArgs, props: &[Property], url: &str) -> Result<Vec<Sample>, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (pg, conn) = rt
        .block_on(tokio_postgres::connect(url, tokio_postgres::NoTls))
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    rt.spawn(conn);
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let gap = Duration::from_secs_f64(1.0 / args.rate.max(1) as f64);
    std::thread::scope(|s| {
        for p in props {
            s.spawn(move || {
                let mut i = 0;
                while Instant::now() < deadline {
                    let t = Instant::now();
                    p.writer.send(&guest(1_000_000 + i));
                    i += 1;
                    std::thread::sleep(gap.saturating_sub(t.elapsed()));
                }
            });
        }
        let mut samples = Vec::new();
        // Sample until the hub has caught up after the load stops (at most 30 s more).
        while Instant::now() < deadline + Duration::from_secs(30) {
            let t = Instant::now();
            let news: Vec<i64> = props.iter().map(newest).collect();
            let rows = rt
                .block_on(pg.query(
                    "SELECT coalesce(position, 0) FROM properties ORDER BY name",
                    &[],
                ))
                .map_err(|e| format!("PostgreSQL: {e}"))?;
            let held: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
            let done = Instant::now() > deadline && held.iter().zip(&news).all(|(h, n)| h >= n);
            samples.push((t, news, held));
            if done {
                break;
            }
            std::thread::sleep(Duration::from_millis(20).saturating_sub(t.elapsed()));
        }
        Ok(samples)
    })
}
