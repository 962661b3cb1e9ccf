//! The run's HTTP side: every request goes through [`Api::send`], with a token it renews;
//! [`Api::call`] counts it and records any answer the run did not expect (the run's
//! "errors"), the waits for the queue read the answers themselves; [`each`] runs a day's
//! independent requests a few at a time, answers in order; [`pay`] settles an invoice.

use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

/// How many requests a phase keeps in flight (a busy front desk plus channel managers).
const IN_FLIGHT: usize = 16;
/// How old the run's access token may grow before it gets a new one: an access token lives
/// 15 minutes, and a year on a slow machine outlives one.
const RENEW: Duration = Duration::from_secs(10 * 60);

/// The API as the run uses it.
pub struct Api<'a> {
    pub app: &'a TestApp,
    requests: AtomicU64,
    unexpected: Mutex<Vec<String>>,
    /// The token the run sends, and when it got it (none before the first request).
    token: tokio::sync::Mutex<Option<(String, Instant)>>,
}

impl<'a> Api<'a> {
    pub fn new(app: &'a TestApp) -> Api<'a> {
        Api {
            app,
            requests: AtomicU64::new(0),
            unexpected: Mutex::new(Vec::new()),
            token: tokio::sync::Mutex::new(None),
        }
    }

    /// Sends one request with the run's token, renewed as an integrator renews it (by the
    /// client credentials) before it runs out; answers whatever the server said.
    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Reply {
        let token = {
            let mut held = self.token.lock().await;
            match held.as_ref() {
                Some((token, got)) if got.elapsed() < RENEW => token.clone(),
                _ => {
                    let fresh = self.app.fresh_token().await;
                    *held = Some((fresh.clone(), Instant::now()));
                    fresh
                }
            }
        };
        self.app
            .send_as(Some(&token), method, path, body, &[])
            .await
    }

    /// Sends one request; answers it when its status is one of `ok`, else records it as
    /// unexpected (with the problem's code and detail) and answers `None`.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        ok: &[u16],
    ) -> Option<Reply> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let what = format!("{method} {path}");
        let r = self.send(method, path, body).await;
        if ok.contains(&r.status.as_u16()) {
            Some(r)
        } else {
            self.unexpected(format!(
                "{what}: {} {} {}",
                r.status, r.body["code"], r.body["detail"]
            ));
            None
        }
    }

    pub async fn get(&self, path: &str) -> Option<Value> {
        self.call(Method::GET, path, None, &[200])
            .await
            .map(|r| r.body)
    }

    pub async fn post(&self, path: &str, body: Value, ok: &[u16]) -> Option<Reply> {
        self.call(Method::POST, path, Some(body), ok).await
    }

    pub async fn put(&self, path: &str, body: Value, ok: &[u16]) -> Option<Reply> {
        self.call(Method::PUT, path, Some(body), ok).await
    }

    /// Every record of a list, following cursors.
    pub async fn all(&self, path: &str) -> Vec<Value> {
        let sep = if path.contains('?') { '&' } else { '?' };
        let mut url = format!("{path}{sep}limit=200");
        let mut out = Vec::new();
        while let Some(page) = self.get(&url).await {
            out.extend(page["data"].as_array().cloned().unwrap_or_default());
            match page["next_cursor"].as_str() {
                Some(c) => url = format!("{path}{sep}limit=200&cursor={c}"),
                None => break,
            }
        }
        out
    }

    /// Counts a request made outside [`Api::call`] (the desk's pages).
    pub fn counted(&self) {
        self.requests.fetch_add(1, Ordering::Relaxed);
    }

    /// Records something that should not have happened.
    pub fn unexpected(&self, what: String) {
        self.unexpected.lock().unwrap().push(what);
    }

    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    pub fn errors(&self) -> Vec<String> {
        self.unexpected.lock().unwrap().clone()
    }
}

/// Runs `f` over `items`, [`IN_FLIGHT`] at a time; the answers in the items' order.
pub async fn each<T, R, F, Fut>(items: Vec<T>, f: F) -> Vec<R>
where
    F: Fn(T) -> Fut,
    Fut: Future<Output = R>,
{
    stream::iter(items)
        .map(f)
        .buffered(IN_FLIGHT)
        .collect()
        .await
}

/// Pays what is open on `invoice` by `method`; answers the amount paid.
pub async fn pay(api: &Api<'_>, invoice: &Value, method: &str) -> Option<i64> {
    let amount = gross(invoice) - paid(invoice);
    if amount <= 0 {
        return Some(0);
    }
    let id = invoice["id"].as_str()?;
    api.post(
        &format!("/v1/invoices/{id}/payments"),
        json!({"amount": amount, "method": method}),
        &[201],
    )
    .await?;
    Some(amount)
}

pub fn gross(invoice: &Value) -> i64 {
    invoice["totals"]["gross"].as_i64().unwrap_or_default()
}

fn paid(invoice: &Value) -> i64 {
    invoice["paid_amount"].as_i64().unwrap_or_default()
}
