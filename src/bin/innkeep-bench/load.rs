//! The load generator: `clients` threads, each with its own keep-alive HTTP connection
//! (ureq), each sending its next request as soon as the last one is answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Latencies of one operation and what they add up to.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Completed operations per second.
    pub rps: f64,
    /// Median latency, ms.
    pub p50_ms: f64,
    /// 99th percentile latency, ms.
    pub p99_ms: f64,
    /// Operations done.
    pub count: usize,
    /// Answers that were not what the operation expects.
    pub errors: usize,
    /// Server CPU time (user and system) per operation, µs; 0 when not measured.
    pub cpu_us: f64,
}

impl Stats {
    /// Summarises latencies measured over `elapsed` (`cpu_us`: the server's CPU time for
    /// all of them).
    pub fn new(
        mut latencies: Vec<Duration>,
        elapsed: Duration,
        errors: usize,
        cpu_us: f64,
    ) -> Stats {
        latencies.sort();
        let pick = |q: f64| {
            if latencies.is_empty() {
                return 0.0;
            }
            let i = ((latencies.len() as f64 * q).ceil() as usize).clamp(1, latencies.len()) - 1;
            latencies[i].as_secs_f64() * 1000.0
        };
        Stats {
            rps: latencies.len() as f64 / elapsed.as_secs_f64().max(1e-9),
            p50_ms: pick(0.50),
            p99_ms: pick(0.99),
            count: latencies.len(),
            errors,
            cpu_us: cpu_us / latencies.len().max(1) as f64,
        }
    }
}

/// An HTTP client of the server under test, holding a token (or a desk session cookie).
#[derive(Clone)]
pub struct Client {
    agent: ureq::Agent,
    base: String,
    token: String,
    cookie: Option<String>,
}

/// One request of an operation: method, path and JSON body (for POST).
pub struct Call {
    pub method: &'static str,
    pub path: String,
    pub body: Option<Value>,
    pub expect: u16,
}

impl Client {
    /// A client of `base` (`http://127.0.0.1:PORT`) using `token`.
    pub fn new(base: &str, token: &str) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .max_idle_connections_per_host(1)
            .build()
            .new_agent();
        Client {
            agent,
            base: base.to_string(),
            token: token.to_string(),
            cookie: None,
        }
    }

    /// A client of the desk's pages holding the session `cookie` (`innkeep_desk=…`).
    pub fn with_cookie(base: &str, cookie: &str) -> Client {
        Client {
            cookie: Some(cookie.to_string()),
            ..Client::new(base, "")
        }
    }

    /// The same credentials on a connection of its own.
    fn fresh(&self) -> Client {
        Client {
            cookie: self.cookie.clone(),
            ..Client::new(&self.base, &self.token)
        }
    }

    /// Sends one call; the status and the parsed body (if JSON).
    pub fn send(&self, call: &Call) -> (u16, Value) {
        let url = format!("{}{}", self.base, call.path);
        let (header, value) = match &self.cookie {
            Some(c) => ("cookie", c.clone()),
            None => ("authorization", format!("Bearer {}", self.token)),
        };
        let result = match (call.method, &call.body) {
            ("POST", Some(body)) => self.agent.post(&url).header(header, &value).send_json(body),
            ("PUT", Some(body)) => self.agent.put(&url).header(header, &value).send_json(body),
            ("GET", _) => self.agent.get(&url).header(header, &value).call(),
            ("DELETE", _) => self.agent.delete(&url).header(header, &value).call(),
            (m, _) => panic!("unsupported method {m}"),
        };
        match result {
            Ok(mut r) => {
                let status = r.status().as_u16();
                // Read the whole answer (a page is not JSON) so the connection is reused.
                let text = r
                    .body_mut()
                    .with_config()
                    .limit(16 * 1024 * 1024)
                    .read_to_string()
                    .unwrap_or_default();
                let body = serde_json::from_str(&text).unwrap_or(Value::Null);
                (status, body)
            }
            Err(e) => (0, Value::String(e.to_string())),
        }
    }
}

/// Raw measurements, which can be merged before they are summarised.
#[derive(Default)]
pub struct Sample {
    latencies: Vec<Duration>,
    elapsed: Duration,
    errors: usize,
    /// The server's CPU time over the run, µs (set by [`charged`]).
    cpu_us: f64,
}

impl Sample {
    /// Adds another run's measurements.
    pub fn merge(&mut self, other: Sample) {
        self.latencies.extend(other.latencies);
        self.elapsed += other.elapsed;
        self.errors += other.errors;
        self.cpu_us += other.cpu_us;
    }

    /// Time spent so far.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// The summary.
    pub fn stats(self) -> Stats {
        Stats::new(self.latencies, self.elapsed, self.errors, self.cpu_us)
    }
}

/// Runs `f` and charges the CPU time `server` used meanwhile to its sample.
pub fn charged(server: &crate::server::Server, f: impl FnOnce() -> Sample) -> Sample {
    let before = server.cpu_us();
    let mut sample = f();
    sample.cpu_us += server.cpu_us() - before;
    sample
}

/// Runs `make(i)` calls from `clients` threads until `secs` pass (or `limit` calls are
/// made, when given), each thread with its own connection.
pub fn run(
    client: &Client,
    clients: usize,
    secs: f64,
    limit: Option<usize>,
    make: impl Fn(usize) -> Call + Send + Sync,
) -> Sample {
    let next = Arc::new(AtomicUsize::new(0));
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let start = Instant::now();
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|_| {
                let (next, make) = (next.clone(), &make);
                let client = client.fresh();
                s.spawn(move || {
                    let (mut lat, mut errors) = (Vec::new(), 0);
                    while Instant::now() < deadline {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if limit.is_some_and(|l| i >= l) {
                            break;
                        }
                        let call = make(i);
                        let t = Instant::now();
                        let (status, body) = client.send(&call);
                        lat.push(t.elapsed());
                        if status != call.expect {
                            if errors == 0 {
                                eprintln!("  {} {} -> {status}: {body}", call.method, call.path);
                            }
                            errors += 1;
                        }
                    }
                    (lat, errors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    Sample {
        elapsed: start.elapsed(),
        errors: results.iter().map(|(_, e)| e).sum(),
        cpu_us: 0.0,
        latencies: results.into_iter().flat_map(|(l, _)| l).collect(),
    }
}
