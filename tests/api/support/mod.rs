//! The test harness: `spawn_app()` (or the [`Spawn`] builder), typed helpers, the shared
//! fixtures by topic, and the real local servers tests talk to (the national authorities'
//! simulators, a webhook receiver, an OAuth client).

pub mod alloggiati_sim;
pub mod binary;
pub mod browser;
pub mod channex_sim;
pub mod cis_sim;
pub mod crash_check;
pub mod day_close;
pub mod desk;
pub mod eracun;
pub mod evisitor;
pub mod evisitor_sim;
pub mod fiscal;
pub mod hub;
pub mod mer_sim;
pub mod oauth;
pub mod oauth_client;
pub mod plans;
pub mod postgres;
pub mod receiver;
pub mod records;
pub mod registration;
pub mod reply;
pub mod rt_sim;
pub mod sdi;
pub mod sdi_sim;
pub mod sim_server;
pub mod smtp;
pub mod stay;
pub mod waits;
pub mod webhooks;

use std::net::SocketAddr;
use std::path::PathBuf;

use std::sync::Arc;

use innkeep::app::App;
use innkeep::auth::AuthServer;
use innkeep::config::{Config, Loaded};
use innkeep::db::Db;
use innkeep::domain::scopes::Scope;
use reqwest::Method;
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use reply::Reply;
pub use waits::{eventually, operations, submission_is};

/// A running server, with an OAuth client holding every scope.
pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub dir: Option<tempfile::TempDir>,
    /// A token with every scope, sent by default.
    pub token: String,
    /// The all-scopes client.
    pub client_id: String,
    pub client_secret: String,
    pub db: Option<Db>,
    pub auth: Arc<AuthServer>,
    /// The first-run page's one-time code, when the installation was new at start.
    pub first_run_code: Option<String>,
    stop: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

/// A fresh server: a new temporary data directory, default settings, no national schemes.
pub async fn spawn_app() -> TestApp {
    Spawn::new().start().await
}

/// How a test server starts. `Spawn::new()` is [`spawn_app`]; each method changes one
/// thing: an existing data directory (a restart), the configuration, the national schemes.
/// A change to the test configuration.
type Change<'a> = Box<dyn FnOnce(&mut Config) + 'a>;

pub struct Spawn<'a> {
    data_dir: Option<PathBuf>,
    changes: Vec<Change<'a>>,
    compliance: innkeep::compliance::Compliance,
}

impl<'a> Spawn<'a> {
    /// Defaults: a fresh temporary directory, kept as long as the `TestApp`.
    pub fn new() -> Spawn<'a> {
        Spawn {
            data_dir: None,
            changes: Vec::new(),
            compliance: innkeep::compliance::Compliance::default(),
        }
    }

    /// Serves an existing data directory (the caller keeps it, to start again on it).
    pub fn data_dir(mut self, dir: PathBuf) -> Spawn<'a> {
        self.data_dir = Some(dir);
        self
    }

    /// Changes the configuration (after the test defaults).
    pub fn config(mut self, change: impl FnOnce(&mut Config) + 'a) -> Spawn<'a> {
        self.changes.push(Box::new(change));
        self
    }

    /// The national schemes to use (simulators, or a scheme that fails on purpose).
    pub fn compliance(mut self, compliance: innkeep::compliance::Compliance) -> Spawn<'a> {
        self.compliance = compliance;
        self
    }

    /// Starts the server, with an OAuth client holding every scope.
    pub async fn start(self) -> TestApp {
        let (data_dir, owned) = match self.data_dir {
            Some(d) => (d, None),
            None => {
                let dir = tempfile::tempdir().expect("tempdir");
                (dir.path().to_path_buf(), Some(dir))
            }
        };
        let mut app = start_server(data_dir, self.changes, self.compliance).await;
        app.dir = owned;
        app
    }
}

impl Default for Spawn<'_> {
    fn default() -> Self {
        Spawn::new()
    }
}

async fn start_server(
    data_dir: PathBuf,
    changes: Vec<Change<'_>>,
    compliance: innkeep::compliance::Compliance,
) -> TestApp {
    let mut config = Config::default();
    config.server.listen = "127.0.0.1:0".parse().unwrap();
    config.server.shutdown_grace_seconds = 5;
    // Tests drive the server faster than a hotel would; the rate-limit tests lower it.
    config.limits.requests_per_second = 100_000;
    config.limits.burst = 100_000;
    for change in changes {
        change(&mut config);
    }
    let loaded = Loaded {
        config,
        data_dir: data_dir.clone(),
        file: None,
        own_file: None,
        env_keys: vec![],
    };
    let app = App::build_with(&loaded, compliance)
        .await
        .expect("app builds");
    let addr = app.local_addr();
    let (db, auth) = (app.db().clone(), app.auth());
    let first_run_code = app.first_run_code();
    let (stop, stopped) = oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        app.run(async {
            let _ = stopped.await;
        })
        .await
        .expect("server runs");
    });
    let all = Scope::NAMES.join(" ");
    let admin = innkeep::service::oauth::create_client(
        &db,
        "tests",
        &all,
        &["client_credentials".into()],
        &[],
        true,
        None,
    )
    .await
    .expect("test client");
    let client = reqwest::Client::new();
    let secret = admin.secret.clone().expect("secret");
    let token = password_token(&client, addr, &admin.client.id, &secret, None).await;
    TestApp {
        addr,
        client,
        dir: None,
        token,
        client_id: admin.client.id,
        client_secret: secret,
        db: Some(db),
        auth,
        first_run_code,
        stop: Some(stop),
        handle: Some(handle),
    }
}

/// The settings of a property in `country` ("HR", "IT"), with the seller's particulars its
/// invoices need (valid VAT numbers: an OIB, a partita IVA).
pub fn in_country(country: &str) -> serde_json::Value {
    let vat = if country == "IT" {
        "06363391001"
    } else {
        "69435151530"
    };
    serde_json::json!({"country": country, "seller": {"legal_name": "Albergo Sole s.r.l.",
        "vat_id": vat, "address": {"line1": "Via del Mare 1", "city": "Split", "country": country}}})
}

/// A client-credentials token (optionally with fewer scopes).
pub async fn password_token(
    client: &reqwest::Client,
    addr: SocketAddr,
    id: &str,
    secret: &str,
    scope: Option<&str>,
) -> String {
    let mut form = vec![("grant_type", "client_credentials")];
    if let Some(s) = scope {
        form.push(("scope", s));
    }
    let r = client
        .post(format!("http://{addr}/oauth/token"))
        .basic_auth(id, Some(secret))
        .form(&form)
        .send()
        .await
        .expect("token request");
    assert_eq!(r.status(), 200, "token request failed");
    let v: Value = r.json().await.expect("token json");
    v["access_token"]
        .as_str()
        .expect("access_token")
        .to_string()
}

impl TestApp {
    /// A new all-scopes token, by the client credentials.
    pub async fn fresh_token(&self) -> String {
        password_token(
            &self.client,
            self.addr,
            &self.client_id,
            &self.client_secret,
            None,
        )
        .await
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Stops the server gracefully and waits until the database is closed.
    pub async fn stop(&mut self) {
        if let Some(db) = self.db.take() {
            tokio::task::spawn_blocking(move || drop(db))
                .await
                .expect("db closed");
        }
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(h) = self.handle.take() {
            h.await.expect("server task");
        }
    }

    /// The server's clock (business dates), which tests move.
    pub fn clock(&self) -> &innkeep::clock::Clock {
        self.db().clock()
    }

    /// Makes the property's "today" (UTC by default) be `days` from the real today.
    pub fn set_today(&self, days: i64) {
        let noon = (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
            .and_hms_opt(12, 0, 0)
            .unwrap()
            .and_utc();
        self.clock().set_now(noon);
    }

    /// The database handle (for tests that set up clients and users directly).
    pub fn db(&self) -> &Db {
        self.db.as_ref().expect("server running")
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        self.send_as(Some(&self.token), method, path, body, headers)
            .await
    }

    /// Sends with this bearer token, or none.
    pub async fn send_as(
        &self,
        token: Option<&str>,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut req = self.client.request(method, self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        let resp = req.send().await.expect("request sent");
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.bytes().await.expect("body");
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or(Value::Null)
        };
        Reply {
            status,
            headers,
            body,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// `/metrics` as text, read with the all-scopes token.
    pub async fn metrics(&self) -> String {
        let r = self
            .client
            .get(self.url("/metrics"))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        r.text().await.unwrap()
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None, &[]).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(Method::POST, path, Some(body), &[]).await
    }

    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.send(Method::PUT, path, Some(body), &[]).await
    }

    pub async fn put_if(&self, path: &str, etag: &str, body: Value) -> Reply {
        self.send(Method::PUT, path, Some(body), &[("if-match", etag)])
            .await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// Today in UTC (the default property time zone), plus `days`.
pub fn day(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
        .format("%Y-%m-%d")
        .to_string()
}
