//! A property's API as the hub reads it (pull mode): a client-credentials token, the event
//! feed, the feed's head and the list endpoints. Blocking (ureq); the pull loop calls it on
//! a blocking thread. Every failure is a sentence naming the property's answer.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

use crate::config::Property;

/// One page of the feed, or the sign that the hub's position no longer holds.
pub enum Feed {
    /// Events after the position, in order.
    Page {
        /// The events.
        data: Vec<Value>,
        /// Whether more wait after these.
        has_more: bool,
    },
    /// 409 `feed_reset`, 410 `events_expired` or 409 `cursor_ahead`: resynchronise.
    Lost(String),
}

/// A property's API.
pub struct Source {
    agent: ureq::Agent,
    base: String,
    client_id: String,
    secret: String,
    token: Mutex<Option<(String, Instant)>>,
}

/// A problem+json's `code`, `title` and `detail`, in one line.
fn problem(body: &Value) -> String {
    let field = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("");
    let mut s = format!("{} ({})", field("title"), field("code"));
    if !field("detail").is_empty() {
        s.push_str(": ");
        s.push_str(field("detail"));
    }
    s
}

impl Source {
    /// A source for `p`, whose calls may take `timeout` each.
    pub fn new(p: &Property, timeout: Duration) -> Source {
        let agent = innkeep::outbound::agent(timeout, "hub").build().new_agent();
        Source {
            agent,
            base: p
                .url
                .clone()
                .unwrap_or_default()
                .trim_end_matches('/')
                .into(),
            client_id: p.client_id.clone(),
            secret: p.client_secret.clone(),
            token: Mutex::new(None),
        }
    }

    fn fresh_token(&self) -> Result<String, String> {
        let basic = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", self.client_id, self.secret));
        let mut resp = self
            .agent
            .post(format!("{}/oauth/token", self.base))
            .header("authorization", format!("Basic {basic}"))
            .send_form([("grant_type", "client_credentials")])
            .map_err(|e| format!("cannot reach {}: {e}", self.base))?;
        let status = resp.status().as_u16();
        let body: Value = resp.body_mut().read_json().unwrap_or(Value::Null);
        if status != 200 {
            return Err(format!(
                "the property refused the hub's client ({status} from /oauth/token: {}); check client_id and client_secret",
                body.get("error_description")
                    .or(body.get("error"))
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given")
            ));
        }
        let token = body["access_token"]
            .as_str()
            .ok_or("the property's token answer had no access_token")?
            .to_string();
        let lifetime = body["expires_in"]
            .as_u64()
            .unwrap_or(300)
            .saturating_sub(30);
        let until = Instant::now() + Duration::from_secs(lifetime);
        *self.token.lock().map_err(|_| "token lock poisoned")? = Some((token.clone(), until));
        Ok(token)
    }

    fn token(&self) -> Result<String, String> {
        let held = self
            .token
            .lock()
            .map_err(|_| "token lock poisoned")?
            .clone();
        match held {
            Some((t, until)) if Instant::now() < until => Ok(t),
            _ => self.fresh_token(),
        }
    }

    /// `GET path` with the hub's token (a fresh one once, if the held one is refused).
    fn get(&self, path: &str) -> Result<(u16, Value), String> {
        for attempt in 0..2 {
            let token = if attempt == 0 {
                self.token()?
            } else {
                self.fresh_token()?
            };
            let mut resp = self
                .agent
                .get(format!("{}{path}", self.base))
                .header("authorization", format!("Bearer {token}"))
                .call()
                .map_err(|e| format!("cannot reach {}: {e}", self.base))?;
            let status = resp.status().as_u16();
            if status == 401 && attempt == 0 {
                continue;
            }
            let body: Value = resp
                .body_mut()
                .with_config()
                .limit(64 * 1024 * 1024)
                .read_json()
                .map_err(|e| format!("GET {path}: the answer ({status}) is not JSON: {e}"))?;
            return Ok((status, body));
        }
        Err(format!("GET {path}: the property refused a fresh token"))
    }

    fn expect_ok(&self, path: &str) -> Result<Value, String> {
        match self.get(path)? {
            (200, body) => Ok(body),
            (status, body) => Err(format!("GET {path} answered {status}: {}", problem(&body))),
        }
    }

    /// Up to `limit` events after `after` in feed `feed_id`.
    pub fn events(&self, after: i64, feed_id: &str, limit: u32) -> Result<Feed, String> {
        let path = format!("/v1/events?after={after}&feed_id={feed_id}&limit={limit}");
        match self.get(&path)? {
            (200, body) => {
                if body["feed_id"].as_str() != Some(feed_id) {
                    return Ok(Feed::Lost("the page came from another feed".into()));
                }
                Ok(Feed::Page {
                    data: body["data"].as_array().cloned().unwrap_or_default(),
                    has_more: body["has_more"].as_bool().unwrap_or(false),
                })
            }
            (409 | 410, body)
                if matches!(
                    body["code"].as_str(),
                    Some("feed_reset" | "events_expired" | "cursor_ahead")
                ) =>
            {
                Ok(Feed::Lost(problem(&body)))
            }
            (status, body) => Err(format!(
                "GET /v1/events answered {status}: {}",
                problem(&body)
            )),
        }
    }

    /// The feed's id and newest sequence now: what a resynchronisation starts after.
    pub fn head(&self) -> Result<(String, i64), String> {
        for _ in 0..3 {
            let page = self.expect_ok("/v1/events?limit=1")?;
            let feed_id = page["feed_id"]
                .as_str()
                .ok_or("the feed's answer had no feed_id")?
                .to_string();
            let path = format!("/v1/events?after={}&feed_id={feed_id}&limit=1", i64::MAX);
            match self.get(&path)? {
                (409, body) if body["code"] == "cursor_ahead" => {
                    let newest = body["newest_sequence"]
                        .as_i64()
                        .ok_or("cursor_ahead without newest_sequence")?;
                    return Ok((feed_id, newest));
                }
                (409, body) if body["code"] == "feed_reset" => continue,
                (status, body) => {
                    return Err(format!(
                        "asking for the feed's newest event answered {status}: {}",
                        problem(&body)
                    ));
                }
            }
        }
        Err("the property's feed changed three times while the hub read its head".into())
    }

    /// One page of a list endpoint (`/v1/guests`, ...): its records and the next cursor.
    pub fn list(
        &self,
        path: &str,
        cursor: Option<&str>,
    ) -> Result<(Vec<Value>, Option<String>), String> {
        let url = match cursor {
            Some(c) => format!("{path}?limit=200&cursor={c}"),
            None => format!("{path}?limit=200"),
        };
        let body = self.expect_ok(&url)?;
        let data = body["data"].as_array().cloned().unwrap_or_default();
        Ok((data, body["next_cursor"].as_str().map(str::to_string)))
    }
}
