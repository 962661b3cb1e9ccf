//! Webhook delivery measured end to end: a loopback receiver (a poem server in this
//! process, on the load generator's cores) subscribed to `reservation.created`; bookings
//! made one at a time give the latency from the API's answer (the commit is done by then)
//! to the delivery's arrival; a burst of bookings gives deliveries per second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poem::http::StatusCode;
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::{Data, Json};
use poem::{EndpointExt, Route, Server, handler, post};
use serde_json::{Value, json};

use crate::load::{self, Call, Client, Stats};
use crate::ops;
use crate::seed::Dataset;

/// When each reservation's `reservation.created` delivery arrived.
type Arrivals = Arc<Mutex<HashMap<String, Instant>>>;

/// What the webhook measurement found.
pub struct Figures {
    /// Answer-to-arrival latency of single bookings.
    pub latency: Stats,
    /// Deliveries in the burst.
    pub burst: usize,
    /// Burst deliveries per second, from the first booking sent to the last delivery.
    pub per_second: f64,
    /// Deliveries that never arrived (within 60 s).
    pub missing: usize,
}

#[handler]
fn hook(Data(arrivals): Data<&Arrivals>, Json(body): Json<Value>) -> StatusCode {
    if let Some(id) = body["data"]["id"].as_str() {
        let mut map = arrivals.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(id.to_string()).or_insert_with(Instant::now);
    }
    StatusCode::NO_CONTENT
}

/// Starts the receiver on a thread of its own; its URL and what it records.
fn receiver() -> Result<(String, Arrivals), String> {
    let arrivals: Arrivals = Arc::default();
    let (tx, rx) = std::sync::mpsc::channel();
    let data = arrivals.clone();
    std::thread::spawn(move || {
        let rt = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => return drop(tx.send(Err(e.to_string()))),
        };
        rt.block_on(async move {
            let acceptor = match TcpListener::bind("127.0.0.1:0").into_acceptor().await {
                Ok(a) => a,
                Err(e) => return drop(tx.send(Err(e.to_string()))),
            };
            let addr = acceptor.local_addr().first().map(|a| a.to_string());
            let _ = tx.send(addr.ok_or_else(|| "no receiver address".to_string()));
            let app = Route::new().at("/hook", post(hook)).data(data);
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
    });
    let addr = rx.recv().map_err(|e| e.to_string())??;
    let addr = addr.trim_start_matches("socket://");
    Ok((format!("http://{addr}/hook"), arrivals))
}

/// Waits until `id` has arrived (or 10 s pass); its arrival time.
fn arrival(arrivals: &Arrivals, id: &str) -> Option<Instant> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Some(t) = arrivals.lock().ok()?.get(id) {
            return Some(*t);
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    None
}

/// Registers the receiver, measures `singles` bookings one at a time and a burst of `burst`
/// from `clients` clients, then deletes the endpoint again.
pub fn measure(
    client: &Client,
    clients: usize,
    data: &Dataset,
    singles: usize,
    burst: usize,
) -> Result<Figures, String> {
    let (url, arrivals) = receiver()?;
    let (status, endpoint) = client.send(&Call {
        method: "POST",
        path: "/v1/webhooks".into(),
        body: Some(json!({"url": url, "events": ["reservation.created"]})),
        expect: 201,
    });
    let endpoint = endpoint["id"]
        .as_str()
        .filter(|_| status == 201)
        .ok_or_else(|| format!("creating the webhook endpoint: {status} {endpoint}"))?
        .to_string();
    // Bookings far from the load phases' own (their index picks the night and the guest).
    let first = 5_000_000;
    let mut latencies = Vec::with_capacity(singles);
    let started = Instant::now();
    let mut missing = 0;
    for k in 0..singles {
        let (status, body) = client.send(&ops::create(data, first + k));
        let answered = Instant::now();
        let id = body["id"].as_str().unwrap_or_default();
        if status != 201 {
            return Err(format!("booking for the webhook: {status} {body}"));
        }
        match arrival(&arrivals, id) {
            Some(t) => latencies.push(t.saturating_duration_since(answered)),
            None => missing += 1,
        }
    }
    let latency = Stats::new(latencies, started.elapsed(), missing, 0.0);

    let before = arrivals.lock().map(|m| m.len()).unwrap_or(0);
    let sent = Instant::now();
    let made = load::run(client, clients, 3600.0, Some(burst), |i| {
        ops::create(data, first + singles + i)
    })
    .stats();
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut got, mut last) = (0, sent);
    while Instant::now() < deadline {
        let map = arrivals.lock().map_err(|e| e.to_string())?;
        got = map.len() - before;
        if got >= made.count - made.errors {
            last = map.values().copied().max().unwrap_or(sent);
            break;
        }
        drop(map);
        std::thread::sleep(Duration::from_millis(1));
    }
    client.send(&Call {
        method: "DELETE",
        path: format!("/v1/webhooks/{endpoint}"),
        body: None,
        expect: 204,
    });
    Ok(Figures {
        latency,
        burst: got,
        per_second: got as f64 / last.duration_since(sent).as_secs_f64().max(1e-9),
        missing: missing + (made.count - made.errors).saturating_sub(got),
    })
}
