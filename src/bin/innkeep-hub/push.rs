//! The hub's HTTP side (`[push] listen`), for properties behind NAT and for `innkeep
//! numbering confirm --from-hub`. A property authenticates with HTTP Basic: the
//! `client_id` and `client_secret` of its `[[property]]` section.
//!
//! - `GET /v1/position`: where the hub stands in the property's feed.
//! - `POST /v1/events` `{feed_id, after, events, has_more, rooms?}` (push mode): accepted
//!   only if the hub stands exactly at `after` of `feed_id`; the events, the new position
//!   (and the rooms, when sent: they have no events) commit in one transaction. Else 409 `position_mismatch` with the hub's `feed_id` and
//!   `position`, and nothing changes.
//! - `POST /v1/snapshot` `{feed_id, head, reason, rooms, guests, reservations, invoices}`
//!   (push mode): the property's records replace the hub's and the position becomes
//!   `head` of `feed_id`, in one transaction (first contact, or a new feed after a restore).
//! - `GET /v1/numbering`: the highest invoice number the hub has seen per series.
//!
//! Every request is authenticated before its body is read: an unknown caller gets its 401 at
//! once, and the body of a known one is read up to the endpoint's limit, never beyond.
//! Failed guesses are throttled per address and per client id, as innkeep's own sign-in is.

use std::sync::Arc;

use base64::Engine;
use poem::http::StatusCode;
use poem::listener::TcpListener;
use poem::middleware::SizeLimit;
use poem::web::{Data, Json};
use poem::{Body, EndpointExt, IntoResponse, Request, Response, Route, Server, get, handler, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;
use tokio_postgres::Client;

use crate::config::{Config, Mode, Property};
use crate::store::{self, Ingested, Position};
use innkeep::auth::throttle::{Throttle, Who};

/// What the handlers share: the configuration, one PostgreSQL connection, the failed
/// guesses of credentials, and the reverse proxies whose `X-Forwarded-For` is believed.
struct Hub {
    config: Config,
    client: Mutex<Client>,
    throttle: Throttle,
    proxies: Vec<std::net::IpAddr>,
}

/// The caller's address: the connection's, or behind a trusted reverse proxy, the last
/// address its `X-Forwarded-For` names (the one the proxy itself saw).
fn caller(hub: &Hub, req: &Request) -> String {
    let peer = req.remote_addr().as_socket_addr().map(|a| a.ip());
    let forwarded = || {
        req.headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<std::net::IpAddr>().ok())
            .next_back()
    };
    match peer {
        Some(p) if hub.proxies.contains(&p) => forwarded().unwrap_or(p).to_string(),
        _ => innkeep::web::remote(req),
    }
}

type Shared = Arc<Hub>;

/// A problem+json answer.
struct Problem(StatusCode, Value);

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        Response::builder()
            .status(self.0)
            .content_type("application/problem+json")
            .body(self.1.to_string())
    }
}

fn problem(status: StatusCode, code: &str, detail: &str, extra: Value) -> Problem {
    let mut body = json!({
        "type": "about:blank", "title": status.canonical_reason().unwrap_or(""),
        "status": status.as_u16(), "code": code, "detail": detail,
    });
    if let (Some(b), Value::Object(more)) = (body.as_object_mut(), extra) {
        b.extend(more);
    }
    Problem(status, body)
}

fn failed(e: String) -> Problem {
    tracing::warn!(error = %e, "a push request failed");
    problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "hub_unavailable",
        &e,
        json!({}),
    )
}

fn digest(s: &str) -> [u8; 32] {
    Sha256::digest(s.as_bytes()).into()
}

/// The property whose Basic credentials `req` carries. Failures are counted per address and
/// client id; after too many, the caller waits (429 with `Retry-After`).
async fn property<'a>(hub: &'a Hub, req: &Request) -> Result<&'a Property, Problem> {
    let refused = || {
        problem(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Send the client_id and client_secret of this property's [[property]] section as HTTP Basic credentials.",
            json!({}),
        )
    };
    let decoded = req
        .headers()
        .get("authorization")
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Basic "))
        .and_then(|h| {
            base64::engine::general_purpose::STANDARD
                .decode(h.trim())
                .ok()
        })
        .and_then(|b| String::from_utf8(b).ok());
    let (id, secret) = decoded
        .as_deref()
        .and_then(|d| d.split_once(':'))
        .unwrap_or(("", ""));
    let addr = caller(hub, req);
    let who = [Who::Client(id), Who::Address(&addr)];
    if let Err(wait) = hub.throttle.check(&who) {
        let secs = wait.as_secs().max(1);
        return Err(problem(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_failures",
            &format!("Too many failed sign-ins from here; try again in {secs} seconds."),
            json!({"retry_after": secs}),
        ));
    }
    let found = hub
        .config
        .properties
        .iter()
        .find(|p| p.client_id == id && digest(&p.client_secret) == digest(secret));
    match found {
        Some(p) if !id.is_empty() => {
            hub.throttle.success(&who);
            Ok(p)
        }
        _ => {
            tracing::warn!(address = %addr, client = ?id, "a push request with wrong credentials was refused");
            tokio::time::sleep(hub.throttle.failure(&who)).await;
            Err(refused())
        }
    }
}

fn push_only(p: &Property) -> Result<(), Problem> {
    if p.mode == Mode::Push {
        return Ok(());
    }
    Err(problem(
        StatusCode::FORBIDDEN,
        "pull_mode",
        &format!(
            "{} is in pull mode: the hub reads its feed itself; set mode = \"push\" in its [[property]] section to push instead.",
            p.name
        ),
        json!({}),
    ))
}

/// A push-mode property and its well-formed body (read only once the credentials are
/// checked, up to `limit` bytes), or the answer that says which is wrong.
async fn allowed<'a, T: DeserializeOwned>(
    hub: &'a Hub,
    req: &Request,
    body: Body,
    limit: usize,
) -> Result<(&'a Property, T), Problem> {
    let p = property(hub, req).await?;
    push_only(p)?;
    let bytes = body.into_bytes_limit(limit).await.map_err(|e| {
        problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            &format!("The body could not be read within {} MB: {e}", limit / MB),
            json!({}),
        )
    })?;
    let body = serde_json::from_slice(&bytes).map_err(|e| {
        problem(
            StatusCode::BAD_REQUEST,
            "bad_request",
            &format!("The body is not what this endpoint takes: {e}"),
            json!({}),
        )
    })?;
    Ok((p, body))
}

/// The largest batch of events read.
const EVENTS_LIMIT: usize = 64 * MB;
/// The largest snapshot read.
const SNAPSHOT_LIMIT: usize = 1024 * MB;

fn standing(name: &str, at: Option<Position>) -> Value {
    json!({
        "property": name,
        "feed_id": at.as_ref().map(|a| a.feed_id.clone()),
        "position": at.map(|a| a.sequence),
    })
}

#[handler]
async fn position(req: &Request, hub: Data<&Shared>) -> Response {
    let p = match property(&hub, req).await {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let client = hub.client.lock().await;
    match store::position(&client, &p.name).await {
        Ok(at) => Json(standing(&p.name, at)).into_response(),
        Err(e) => failed(e).into_response(),
    }
}

/// A batch of events, as `GET /v1/events` answers them.
#[derive(Deserialize)]
struct Batch {
    feed_id: String,
    after: i64,
    events: Value,
    #[serde(default)]
    has_more: bool,
    /// Every room, now and then (rooms have no events): replaces the hub's.
    #[serde(default)]
    rooms: Option<Value>,
}

#[handler]
async fn events(req: &Request, hub: Data<&Shared>, body: Body) -> Response {
    let (p, batch): (_, Batch) = match allowed(&hub, req, body, EVENTS_LIMIT).await {
        Ok(both) => both,
        Err(r) => return r.into_response(),
    };
    if !batch.events.is_array() || batch.rooms.as_ref().is_some_and(|r| !r.is_array()) {
        return problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            "events must be an array of feed events, and rooms (when sent) an array of rooms",
            json!({}),
        )
        .into_response();
    }
    let at = Position {
        feed_id: batch.feed_id.clone(),
        sequence: batch.after,
    };
    let mut client = hub.client.lock().await;
    let rooms = batch.rooms.as_ref();
    match store::ingest(&mut client, &p.name, &at, &batch.events, !batch.has_more, rooms).await {
        Ok(Ingested::At(last)) => {
            Json(json!({"property": p.name, "feed_id": at.feed_id, "position": last}))
                .into_response()
        }
        Ok(Ingested::Elsewhere(held)) => problem(
            StatusCode::CONFLICT,
            "position_mismatch",
            "The hub does not stand where this batch starts: send from the hub's position (or a snapshot, if the hub has another feed or none).",
            standing(&p.name, held),
        )
        .into_response(),
        Err(e) => failed(e).into_response(),
    }
}

/// A property's whole state, for a first contact or a new feed.
#[derive(Deserialize)]
struct Snapshot {
    feed_id: String,
    head: i64,
    reason: String,
    rooms: Vec<Value>,
    guests: Vec<Value>,
    reservations: Vec<Value>,
    invoices: Vec<Value>,
}

async fn replace(client: &mut Client, p: &Property, s: &Snapshot) -> Result<(), String> {
    let tx = client.transaction().await.map_err(store::said)?;
    store::begin_resync(&tx, p).await?;
    for (list, records) in [
        ("/v1/rooms", &s.rooms),
        ("/v1/guests", &s.guests),
        ("/v1/reservations", &s.reservations),
        ("/v1/invoices", &s.invoices),
    ] {
        let stmt = tx
            .prepare(store::put_page(list))
            .await
            .map_err(store::said)?;
        for chunk in records.chunks(500) {
            tx.execute(&stmt, &[&p.name, &Value::Array(chunk.to_vec())])
                .await
                .map_err(store::said)?;
        }
    }
    let head = Position {
        feed_id: s.feed_id.clone(),
        sequence: s.head,
    };
    store::finish_resync(&tx, &p.name, &head, &s.reason).await?;
    tx.commit().await.map_err(store::said)
}

#[handler]
async fn snapshot(req: &Request, hub: Data<&Shared>, body: Body) -> Response {
    let (p, s): (_, Snapshot) = match allowed(&hub, req, body, SNAPSHOT_LIMIT).await {
        Ok(both) => both,
        Err(r) => return r.into_response(),
    };
    let mut client = hub.client.lock().await;
    match replace(&mut client, p, &s).await {
        Ok(()) => {
            tracing::info!(property = %p.name, feed_id = %s.feed_id, head = s.head, reason = %s.reason, "snapshot pushed");
            Json(json!({"property": p.name, "feed_id": s.feed_id, "position": s.head}))
                .into_response()
        }
        Err(e) => failed(e).into_response(),
    }
}

#[handler]
async fn numbering(req: &Request, hub: Data<&Shared>) -> Response {
    let p = match property(&hub, req).await {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let client = hub.client.lock().await;
    let rows = client
        .query(
            "SELECT series, last_seq, last_number,
                    to_char(seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')
             FROM invoice_numbers WHERE property = $1 ORDER BY series",
            &[&p.name],
        )
        .await;
    let contact = client
        .query_one(
            "SELECT to_char(last_contact_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM properties WHERE name = $1",
            &[&p.name],
        )
        .await;
    match (rows, contact) {
        (Ok(rows), Ok(contact)) => {
            let series: Vec<Value> = rows
                .iter()
                .map(|r| {
                    json!({"series": r.get::<_, String>(0), "last_seq": r.get::<_, i64>(1),
                           "last_number": r.get::<_, String>(2), "seen_at": r.get::<_, String>(3)})
                })
                .collect();
            Json(json!({"property": p.name, "last_contact_at": contact.get::<_, Option<String>>(0), "series": series}))
                .into_response()
        }
        (Err(e), _) | (_, Err(e)) => failed(store::said(e)).into_response(),
    }
}

#[handler]
fn health() -> &'static str {
    "ok"
}

const MB: usize = 1024 * 1024;

/// Serves the push endpoint on `listen` until the process stops.
pub async fn serve(config: Config, listen: String) -> Result<(), String> {
    let client = store::connect(&config.database.url).await?;
    let proxies = config
        .push
        .as_ref()
        .map(|p| p.trusted_proxies.clone())
        .unwrap_or_default();
    let hub: Shared = Arc::new(Hub {
        config,
        client: Mutex::new(client),
        throttle: Throttle::new(5, std::time::Duration::from_secs(60)),
        proxies,
    });
    let app = Route::new()
        .at("/health", get(health))
        .at("/v1/position", get(position))
        .at(
            "/v1/events",
            post(events).with(SizeLimit::new(EVENTS_LIMIT)),
        )
        .at(
            "/v1/snapshot",
            post(snapshot).with(SizeLimit::new(SNAPSHOT_LIMIT)),
        )
        .at("/v1/numbering", get(numbering))
        .data(hub);
    tracing::info!(%listen, "the push endpoint is listening");
    Server::new(TcpListener::bind(listen))
        .run(app)
        .await
        .map_err(|e| format!("the push endpoint stopped: {e}"))
}
