//! A real webhook receiver on loopback: records every request and answers as told.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::listener::TcpAcceptor;
use poem::web::Data;
use poem::{EndpointExt, Request, Response, Route, Server, handler};
use tokio::sync::oneshot;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Hit {
    pub path: String,
    pub headers: http::HeaderMap,
    pub body: Vec<u8>,
    /// When it arrived, seconds since the Unix epoch (a signature's freshness is judged
    /// then, not whenever a test gets round to checking it).
    pub received: i64,
}

impl Hit {
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

type Hook = Box<dyn Fn() + Send + Sync>;

#[derive(Default)]
struct State {
    hits: Mutex<Vec<Hit>>,
    answers: Mutex<VecDeque<(u16, Option<&'static str>)>>,
    delay: Mutex<Duration>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    on_first_hit: Mutex<Option<Hook>>,
}

pub struct Receiver {
    pub addr: SocketAddr,
    state: Arc<State>,
    stop: Option<oneshot::Sender<()>>,
}

#[handler]
async fn receive(req: &Request, body: Vec<u8>, state: Data<&Arc<State>>) -> Response {
    let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    state.max_in_flight.fetch_max(now, Ordering::SeqCst);
    state.hits.lock().unwrap().push(Hit {
        path: req.uri().path().to_string(),
        headers: req.headers().clone(),
        body,
        received: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64),
    });
    if let Some(hook) = state.on_first_hit.lock().unwrap().take() {
        hook();
    }
    let delay = *state.delay.lock().unwrap();
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let (status, retry_after) = state
        .answers
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or((200, None));
    state.in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut r = Response::builder().status(http::StatusCode::from_u16(status).unwrap());
    if let Some(ra) = retry_after {
        r = r.header("retry-after", ra);
    }
    r.body("ok")
}

impl Receiver {
    pub async fn start() -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().unwrap()).await
    }

    pub async fn start_on(addr: SocketAddr) -> Receiver {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .expect("receiver binds");
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State::default());
        let app = Route::new()
            .at("/*path", poem::post(receive))
            .data(state.clone());
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = Server::new_with_acceptor(TcpAcceptor::from_tokio(listener).unwrap())
                .run_with_graceful_shutdown(
                    app,
                    async {
                        let _ = stopped.await;
                    },
                    Some(Duration::from_secs(1)),
                )
                .await;
        });
        Receiver {
            addr,
            state,
            stop: Some(stop),
        }
    }

    /// A free loopback address nobody listens on (yet).
    pub fn free_addr() -> SocketAddr {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Answers for the next requests, in order (then 200).
    pub fn answer(&self, statuses: &[(u16, Option<&'static str>)]) {
        self.state
            .answers
            .lock()
            .unwrap()
            .extend(statuses.iter().copied());
    }

    pub fn delay(&self, d: Duration) {
        *self.state.delay.lock().unwrap() = d;
    }

    /// Runs `hook` when the first request arrives (before answering it).
    pub fn on_first_hit(&self, hook: impl Fn() + Send + Sync + 'static) {
        *self.state.on_first_hit.lock().unwrap() = Some(Box::new(hook));
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.state.hits.lock().unwrap().clone()
    }

    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }

    /// Waits until at least `n` requests arrived (panics after `timeout`).
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Hit> {
        let what = format!("{n} deliveries should arrive");
        crate::support::eventually(timeout, &what, || async {
            let hits = self.hits();
            if hits.len() >= n {
                Ok(hits)
            } else {
                Err(hits.len())
            }
        })
        .await
    }

    pub fn stop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop();
    }
}
