//! Push mode (`[hub]` with `push = true`): the server sends its event feed to the group's
//! hub, for a property the hub cannot reach (behind NAT). The feed itself is the durable
//! queue: events are recorded in the same transaction as their change and stay until
//! retention removes them, so nothing is lost while the hub is down; the hub's position is
//! the only cursor. Each round asks the hub where it stands, then sends the events after
//! that position (the hub accepts a batch only if it starts exactly there, in one
//! PostgreSQL transaction with the new position). When the hub has another feed or none
//! (first contact, a restore here), or the events it needs are no longer kept, the server
//! sends a snapshot of every room, guest, reservation and invoice instead, with the feed's
//! head read first, and carries on from that head.

use std::time::Duration;

use serde_json::{Value, json};

use crate::config::hub::HubConfig;
use crate::db::Db;
use crate::model::{Actor, Principal, snapshot};
use crate::service::{self, Services, every};
use crate::store;

/// Events per batch.
const BATCH: usize = 200;
/// How often a caught-up pusher asks again without a new event.
const IDLE: Duration = Duration::from_secs(30);
/// The longest pause after failures.
const MAX_PAUSE: Duration = Duration::from_secs(60);
/// How often the rooms (which have no events) go along with a batch even unchanged.
const ROOMS_EVERY: Duration = Duration::from_secs(600);

/// What one round did.
#[derive(Debug, PartialEq, Eq)]
pub enum Round {
    /// Sent this many events; `more` if others wait.
    Sent { events: usize, more: bool },
    /// The hub already had everything.
    Idle,
    /// Sent a snapshot (first contact or a new feed).
    Snapshot,
    /// The hub's position moved meanwhile: ask again.
    Moved,
}

/// Every record of a list service (`$list(svc, principal, filter, page)`), page by page.
/// The closure owns clones of the context, so the pusher's future stays `Send`.
macro_rules! listed {
    ($pusher:expr, $list:path) => {{
        let (svc, p) = ($pusher.svc.clone(), $pusher.who.clone());
        every(move |r| {
            let (svc, p) = (svc.clone(), p.clone());
            async move { $list(&svc, &p, Default::default(), r).await }
        })
    }};
}

/// Records as the API shows them.
fn all<T: poem_openapi::types::ToJSON>(records: Vec<T>) -> Vec<Value> {
    records.iter().map(snapshot).collect()
}

/// The pusher.
pub struct Pusher {
    svc: Services,
    who: Principal,
    agent: ureq::Agent,
    cfg: HubConfig,
    /// When the hub last got the rooms, and a digest of what it got (none yet since this
    /// server started).
    rooms_sent: std::sync::Mutex<Option<(std::time::Instant, u64)>>,
    /// Where the hub stands (its feed and position) as its last answer said; unknown after
    /// a failure, when it is asked again.
    hub_at: std::sync::Mutex<Option<Value>>,
}

/// A digest of a JSON value, to see whether the rooms changed since the hub got them.
fn digest(v: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.to_string().hash(&mut h);
    h.finish()
}

impl Pusher {
    /// A pusher for `db` to the hub in `cfg`.
    pub fn new(svc: Services, cfg: HubConfig) -> Pusher {
        let agent = crate::outbound::agent(Duration::from_secs(120), "hub push")
            .build()
            .new_agent();
        Pusher {
            svc,
            who: Principal::system(Actor::queue()),
            agent,
            cfg,
            rooms_sent: std::sync::Mutex::new(None),
            hub_at: std::sync::Mutex::new(None),
        }
    }

    /// Where the hub stands: as its last answer said, else asked.
    async fn hub_at(&self) -> Result<Value, String> {
        let known = self.hub_at.lock().ok().and_then(|at| at.clone());
        match known {
            Some(at) => Ok(at),
            None => self.ok("/v1/position", None).await,
        }
    }

    /// Remembers the hub's standing from an answer (`None`: ask next time).
    fn remember(&self, at: Option<&Value>) {
        if let Ok(mut held) = self.hub_at.lock() {
            *held = at.filter(|v| v.get("position").is_some()).cloned();
        }
    }

    /// The rooms as the API shows them, if the hub should get them with this batch: they
    /// changed since it last did (or it never did since start), or ten minutes passed.
    async fn rooms_due(&self) -> Result<Option<(Value, u64)>, String> {
        let rooms = Value::Array(all(listed!(self, service::rooms::list)
            .await
            .map_err(|e| e.operator_message())?));
        let digest = digest(&rooms);
        let due = self.rooms_sent.lock().map_or(true, |sent| match *sent {
            Some((at, d)) => d != digest || at.elapsed() > ROOMS_EVERY,
            None => true,
        });
        Ok(due.then_some((rooms, digest)))
    }

    fn rooms_went(&self, digest: u64) {
        if let Ok(mut sent) = self.rooms_sent.lock() {
            *sent = Some((std::time::Instant::now(), digest));
        }
    }

    fn db(&self) -> &Db {
        self.svc.db()
    }

    /// One call to the hub (blocking, on a blocking thread): status and JSON body.
    async fn call(&self, path: &str, body: Option<Value>) -> Result<(u16, Value), String> {
        let (agent, cfg, path) = (self.agent.clone(), self.cfg.clone(), path.to_string());
        tokio::task::spawn_blocking(move || {
            let url = format!("{}{path}", cfg.url.trim_end_matches('/'));
            let basic = base64::Engine::encode(
                &base64::engine::general_purpose::STANDARD,
                format!("{}:{}", cfg.client_id, cfg.secret.expose()),
            );
            let auth = format!("Basic {basic}");
            let sent = match &body {
                Some(b) => agent.post(&url).header("authorization", &auth).send_json(b),
                None => agent.get(&url).header("authorization", &auth).call(),
            };
            let mut resp =
                sent.map_err(|e| format!("the hub at {} cannot be reached: {e}", cfg.url))?;
            let status = resp.status().as_u16();
            let body: Value = resp.body_mut().read_json().unwrap_or(Value::Null);
            Ok((status, body))
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// The hub's answer to `path`, which must be 200.
    async fn ok(&self, path: &str, body: Option<Value>) -> Result<Value, String> {
        match self.call(path, body).await? {
            (200, v) => Ok(v),
            (status, v) => Err(format!(
                "the hub answered {status} to {path}: {}",
                v["detail"].as_str().unwrap_or("no reason given")
            )),
        }
    }

    /// Sends what the hub lacks: a batch, or a snapshot. A failure forgets where the hub
    /// stands, so the next round asks.
    pub async fn round(&self) -> Result<Round, String> {
        let result = self.try_round().await;
        if result.is_err() {
            self.remember(None);
        }
        result
    }

    async fn try_round(&self) -> Result<Round, String> {
        let at = self.hub_at().await?;
        let feed = self
            .db()
            .read(store::events::feed_id)
            .await
            .map_err(|e| e.operator_message())?;
        let (hub_feed, position) = (at["feed_id"].as_str(), at["position"].as_i64());
        let Some(after) = position.filter(|_| hub_feed == Some(feed.as_str())) else {
            let reason = match hub_feed {
                None => "first contact: the property sent everything it has".to_string(),
                Some(old) => format!(
                    "the property's feed changed ({old} to {feed}; restored?): it sent everything it has"
                ),
            };
            return self.snapshot(&feed, &reason).await;
        };
        let query = service::events::FeedQuery {
            after: Some(after),
            limit: BATCH,
            types: Vec::new(),
            feed_id: Some(feed.clone()),
        };
        let page = match service::events::list(&self.svc, &self.who, query).await {
            Ok(p) => p,
            Err(e) if matches!(e.code, "events_expired" | "cursor_ahead" | "feed_reset") => {
                let reason = format!(
                    "the hub's position is no longer in the feed ({}): the property sent everything it has",
                    e.code
                );
                return self.snapshot(&feed, &reason).await;
            }
            Err(e) => return Err(e.operator_message()),
        };
        // An empty batch still tells the hub that it holds everything (its status shows the
        // last contact and the lag).
        let events: Vec<Value> = page.data.iter().map(snapshot).collect();
        let n = events.len();
        let mut body =
            json!({"feed_id": feed, "after": after, "events": events, "has_more": page.has_more});
        let rooms = self.rooms_due().await?;
        let (rooms, rooms_digest) = rooms.unzip();
        if let Some(list) = rooms {
            body["rooms"] = list;
        }
        let answer = self.call("/v1/events", Some(body)).await?;
        if let (Some(d), 200) = (rooms_digest, answer.0) {
            self.rooms_went(d);
        }
        // A 200 says the new position, a 409 the hub's own: either is where it stands.
        self.remember(Some(&answer.1));
        match answer {
            (200, _) if n == 0 => Ok(Round::Idle),
            (200, _) => Ok(Round::Sent {
                events: n,
                more: page.has_more,
            }),
            (409, _) => Ok(Round::Moved),
            (status, v) => Err(format!(
                "the hub refused a batch ({status}): {}",
                v["detail"].as_str().unwrap_or("no reason given")
            )),
        }
    }

    /// Sends every room, guest, reservation and invoice, and the feed's head read first.
    async fn snapshot(&self, feed: &str, reason: &str) -> Result<Round, String> {
        let said = |e: crate::error::AppError| e.operator_message();
        let (_, head) = self.db().read(store::events::extent).await.map_err(said)?;
        let rooms = listed!(self, service::rooms::list);
        let guests = listed!(self, service::guests::list);
        let reservations = listed!(self, service::reservations::list);
        let invoices = listed!(self, service::invoices::list);
        let body = json!({
            "feed_id": feed, "head": head, "reason": reason,
            "rooms": all(rooms.await.map_err(said)?),
            "guests": all(guests.await.map_err(said)?),
            "reservations": all(reservations.await.map_err(said)?),
            "invoices": all(invoices.await.map_err(said)?),
        });
        let rooms_digest = digest(&body["rooms"]);
        let at = self.ok("/v1/snapshot", Some(body)).await?;
        self.rooms_went(rooms_digest);
        self.remember(Some(&at));
        tracing::info!(%reason, head, "the hub has this property's snapshot");
        Ok(Round::Snapshot)
    }

    /// Pushes until the task is dropped: at once after each commit that recorded events
    /// (and while a batch leaves more), every 30 s otherwise, and after a failure with a
    /// growing pause (the events wait in the feed meanwhile).
    pub async fn run(self) {
        let mut commits = self.db().commits();
        let mut pause = Duration::from_secs(1);
        loop {
            let seen = commits.borrow_and_update().events;
            match self.round().await {
                Ok(Round::Sent { more: true, .. } | Round::Snapshot | Round::Moved) => {}
                Ok(_) => {
                    pause = Duration::from_secs(1);
                    super::events_after(&mut commits, seen, IDLE).await;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "pushing events to the hub failed; they wait in the feed and go when it answers");
                    pause = (pause * 2).min(MAX_PAUSE);
                    tokio::time::sleep(pause).await;
                }
            }
        }
    }
}
