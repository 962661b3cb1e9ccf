//! A Channex simulator from its public API documentation (docs.channex.io: ARI, Bookings
//! collection, Rate limits): `POST`/`GET /api/v1/availability` and `/restrictions`,
//! `GET /api/v1/booking_revisions/feed` and `POST /api/v1/booking_revisions/{id}/ack`.
//! Strict where Channex is: the `user-api-key` header, values of the known property and
//! its mapped ids only, inclusive ranges, no past dates, a rate above zero and at least one
//! restriction per value (a bad value is dropped and listed in `meta.warnings` with a 200,
//! as Channex does), 10 calls of each kind a minute (429 past that), and a revision served
//! by the feed until it is acknowledged. It can be told to fail, to be slow, or to lose an
//! answer after doing the work.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use poem::web::{Data, Path, Query};
use poem::{EndpointExt, Request, Response, Route, get, handler, http::StatusCode, post};
use serde_json::{Value, json};

pub const KEY: &str = "channex-test-key";
pub const PROPERTY: &str = "7b1e4c3a-0000-4000-8000-000000000001";

/// What the simulator is told to do to the next call.
#[derive(Debug, Clone, Copy)]
pub enum Fault {
    /// Answer 500 without doing anything.
    Fail,
    /// Do the work, then drop the connection without an answer.
    LoseAnswer,
    /// Wait this long before answering.
    Slow(Duration),
}

#[derive(Default)]
struct State {
    /// (room type, night) → rooms on sale.
    availability: BTreeMap<(String, NaiveDate), i64>,
    /// (rate plan, night) → the night's fields as last set.
    restrictions: BTreeMap<(String, NaiveDate), serde_json::Map<String, Value>>,
    room_types: Vec<String>,
    rate_plans: Vec<String>,
    /// Rate plan → its room type, as the options list tells it.
    plan_types: BTreeMap<String, String>,
    /// Revisions in order, with whether acknowledged.
    revisions: Vec<(Value, bool)>,
    /// When each kind of ARI call was made, for the rate limit.
    calls: BTreeMap<&'static str, Vec<Instant>>,
    faults: Vec<Fault>,
    /// Without the rate limit (a harness driving rounds faster than time passes).
    unlimited: bool,
    /// Faults for the booking feed and acknowledgements, kept apart from the ARI calls'.
    booking_faults: Vec<Fault>,
    today: Option<NaiveDate>,
    /// Run at the next acknowledgement, which is then not taken (innkeep dies before it
    /// reaches Channex).
    before_ack: Option<Box<dyn FnOnce() + Send>>,
    /// Every ARI call taken, by kind, in order.
    taken: Vec<&'static str>,
    /// Booking feed reads taken (an answer a fault then loses included).
    feed_reads: usize,
}

pub struct Sim {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    _server: super::sim_server::Served,
}

impl Sim {
    /// A Channex property with these room type and rate plan ids.
    pub async fn start(room_types: &[&str], rate_plans: &[&str]) -> Sim {
        let state = Arc::new(Mutex::new(State {
            room_types: room_types.iter().map(|s| s.to_string()).collect(),
            rate_plans: rate_plans.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }));
        let app = Route::new()
            .at(
                "/api/v1/availability",
                get(read_availability).post(push_availability),
            )
            .at(
                "/api/v1/restrictions",
                get(read_restrictions).post(push_restrictions),
            )
            .at("/api/v1/room_types/options", get(room_type_options))
            .at("/api/v1/rate_plans/options", get(rate_plan_options))
            .at("/api/v1/booking_revisions/feed", get(feed))
            .at("/api/v1/booking_revisions/:id/ack", post(ack))
            .data(state.clone());
        let server = super::sim_server::serve(app).await;
        Sim {
            addr: server.addr,
            state,
            _server: server,
        }
    }

    /// The base URL, as innkeep is configured with it.
    pub fn url(&self) -> String {
        format!("http://{}/api/v1", self.addr)
    }

    /// Past dates are refused from this day on (default: none are).
    pub fn set_today(&self, day: NaiveDate) {
        self.state.lock().unwrap().today = Some(day);
    }

    /// Lifts the rate limit, for a harness that drives rounds on simulated time (the year
    /// in a box); the limit itself is tested in `channex.rs`.
    #[allow(dead_code)] // Used by the year in a box, which shares this support.
    pub fn unlimited(&self) {
        self.state.lock().unwrap().unlimited = true;
    }

    /// The next calls meet these faults, one each.
    pub fn fault(&self, faults: &[Fault]) {
        self.state.lock().unwrap().faults.extend_from_slice(faults);
    }

    /// The next booking feed reads and acknowledgements meet these faults, one each.
    pub fn fault_bookings(&self, faults: &[Fault]) {
        self.state
            .lock()
            .unwrap()
            .booking_faults
            .extend_from_slice(faults);
    }

    /// Rooms on sale of `room_type` on `night`, as last pushed.
    pub fn availability(&self, room_type: &str, night: NaiveDate) -> Option<i64> {
        let s = self.state.lock().unwrap();
        s.availability.get(&(room_type.to_string(), night)).copied()
    }

    /// Someone changes a night at the channel manager by hand.
    pub fn set_availability(&self, room_type: &str, night: NaiveDate, n: i64) {
        let mut s = self.state.lock().unwrap();
        s.availability.insert((room_type.to_string(), night), n);
    }

    /// A rate plan's night as last pushed.
    pub fn night(&self, plan: &str, night: NaiveDate) -> Option<serde_json::Map<String, Value>> {
        let s = self.state.lock().unwrap();
        s.restrictions.get(&(plan.to_string(), night)).cloned()
    }

    /// The ARI calls taken, by kind (`availability`, `restrictions`), in order.
    pub fn calls(&self) -> Vec<&'static str> {
        self.state.lock().unwrap().taken.clone()
    }

    /// A booking site sends a revision (its `attributes`); its id.
    pub fn book(&self, attributes: Value) -> String {
        let mut s = self.state.lock().unwrap();
        let id = format!("rev-{}", s.revisions.len() + 1);
        let rev = json!({"id": id, "type": "booking_revision", "attributes": attributes});
        s.revisions.push((rev, false));
        id
    }

    /// Rate plans `plans` belong to room type `room_type`.
    pub fn plans_of(&self, room_type: &str, plans: &[&str]) {
        let mut s = self.state.lock().unwrap();
        for p in plans {
            s.plan_types.insert(p.to_string(), room_type.to_string());
        }
    }

    /// At the next acknowledgement, runs `f` (which kills innkeep) and does not take it.
    pub fn before_ack(&self, f: impl FnOnce() + Send + 'static) {
        self.state.lock().unwrap().before_ack = Some(Box::new(f));
    }

    /// Whether revision `id` was acknowledged.
    pub fn acked(&self, id: &str) -> bool {
        let s = self.state.lock().unwrap();
        s.revisions.iter().any(|(r, a)| *a && r["id"] == id)
    }

    /// How many times the booking feed was read.
    pub fn feed_reads(&self) -> usize {
        self.state.lock().unwrap().feed_reads
    }
}

/// A booking revision's attributes: booking `booking`, `status`, from `a` to `d` (days from
/// today), in room type `room_type`, 95.00 a night.
pub fn revision(booking: &str, status: &str, code: &str, a: i64, d: i64, room_type: &str) -> Value {
    let days: serde_json::Map<String, Value> =
        (a..d).map(|n| (super::day(n), json!("95.00"))).collect();
    json!({
        "booking_id": booking, "status": status, "ota_name": "Booking.com",
        "ota_reservation_code": code, "property_id": PROPERTY,
        "arrival_date": super::day(a), "departure_date": super::day(d), "currency": "EUR",
        "payment_collect": "ota",
        "customer": {"name": "Ana", "surname": "Horvat", "mail": "ana@example.com", "country": "HR"},
        "rooms": [{"room_type_id": room_type, "rate_plan_id": "ch-flex",
                   "occupancy": {"adults": 2, "children": 0}, "days": days}]})
}

/// The options lists' entries, as the documentation shows them in its other lists (an id
/// and `attributes`); titles are the ids in capitals.
fn options(ids: &[String], kind: &str, room_type: impl Fn(&str) -> Option<String>) -> Value {
    let data: Vec<Value> = ids
        .iter()
        .map(|id| {
            json!({"type": kind, "id": id, "attributes": {"id": id, "property_id": PROPERTY,
                   "title": id.to_uppercase(), "room_type_id": room_type(id)}})
        })
        .collect();
    json!({"data": data})
}

#[handler]
async fn room_type_options(req: &Request, state: Shared<'_>) -> Response {
    if let Err(r) = gate(req, state.0, false) {
        return *r;
    }
    let s = state.0.lock().unwrap();
    ok(options(&s.room_types, "room_type", |_| None))
}

#[handler]
async fn rate_plan_options(req: &Request, state: Shared<'_>) -> Response {
    if let Err(r) = gate(req, state.0, false) {
        return *r;
    }
    let s = state.0.lock().unwrap();
    ok(options(&s.rate_plans, "rate_plan", |id| {
        s.plan_types.get(id).cloned()
    }))
}

/// innkeep's `[channel]` for this simulator at `url`: room type FAM as `ch-fam`, its plans
/// FLEX and NR as `ch-flex` and `ch-nr`, over 60 nights.
pub fn config(url: String) -> innkeep::config::channel::ChannelConfig {
    innkeep::config::channel::ChannelConfig {
        provider: "channex".into(),
        url,
        api_key: innkeep::config::compliance::Secret::new(KEY),
        property_id: PROPERTY.into(),
        horizon_days: 60,
        room_types: BTreeMap::from([("FAM".into(), "ch-fam".into())]),
        rate_plans: BTreeMap::from([
            ("FAM/FLEX".into(), "ch-flex".into()),
            ("FAM/NR".into(), "ch-nr".into()),
        ]),
    }
}

type Shared<'a> = Data<&'a Arc<Mutex<State>>>;

/// The key check and the next fault: an answer to give instead, or a delay, or whether to
/// lose the answer after the work.
fn gate(
    req: &Request,
    state: &Mutex<State>,
    bookings: bool,
) -> Result<(Option<Duration>, bool), Box<Response>> {
    if req.header("user-api-key") != Some(KEY) {
        let refused = problem(StatusCode::UNAUTHORIZED, "unauthorized", "Unauthorized");
        return Err(Box::new(refused));
    }
    let mut s = state.lock().unwrap();
    let faults = if bookings {
        &mut s.booking_faults
    } else {
        &mut s.faults
    };
    match (!faults.is_empty()).then(|| faults.remove(0)) {
        Some(Fault::Fail) => Err(Box::new(problem(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal Server Error",
        ))),
        Some(Fault::LoseAnswer) => Ok((None, true)),
        Some(Fault::Slow(d)) => Ok((Some(d), false)),
        None => Ok((None, false)),
    }
}

fn problem(status: StatusCode, code: &str, title: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .body(json!({"errors": {"code": code, "title": title}}).to_string())
}

fn ok(body: Value) -> Response {
    Response::builder()
        .content_type("application/json")
        .body(body.to_string())
}

/// Answers after the fault's delay, or not at all.
async fn answer(fault: (Option<Duration>, bool), response: Response) -> Response {
    if let Some(d) = fault.0 {
        tokio::time::sleep(d).await;
    }
    if fault.1 {
        // The work is done; the caller never hears of it.
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
    response
}

/// The rate limit: 10 calls of a kind in the last minute.
fn limited(s: &mut State, kind: &'static str) -> bool {
    if s.unlimited {
        return false;
    }
    let now = Instant::now();
    let calls = s.calls.entry(kind).or_default();
    calls.retain(|t| now.duration_since(*t) < Duration::from_secs(60));
    if calls.len() >= 10 {
        return true;
    }
    calls.push(now);
    false
}

/// The nights of a value (`date`, or `date_from` to `date_to`), or why not.
fn nights(v: &Value, today: Option<NaiveDate>) -> Result<Vec<NaiveDate>, Value> {
    let day = |k: &str| v[k].as_str().and_then(|d| d.parse::<NaiveDate>().ok());
    let (from, to) = match (day("date"), day("date_from"), day("date_to")) {
        (Some(d), _, _) => (d, d),
        (None, Some(a), Some(b)) if a <= b => (a, b),
        _ => return Err(json!({"date": ["is required"]})),
    };
    if today.is_some_and(|t| from < t) {
        return Err(json!({"date": ["can't be in the past"]}));
    }
    let mut out = Vec::new();
    let mut d = from;
    while d <= to {
        out.push(d);
        d = d.succ_opt().unwrap();
    }
    Ok(out)
}

fn warned(v: &Value, why: Value) -> Value {
    let mut w = v.clone();
    w["warning"] = why;
    w
}

/// Applies `values`, each checked by `check` (the nights, or a warning); the answer.
fn apply(s: &mut State, body: &Value, kind: &'static str, each: Each) -> Response {
    let Some(values) = body["values"].as_array() else {
        return problem(StatusCode::BAD_REQUEST, "bad_request", "Bad Request");
    };
    if limited(s, kind) {
        return problem(
            StatusCode::TOO_MANY_REQUESTS,
            "http_too_many_requests",
            "Too Many Requests",
        );
    }
    s.taken.push(kind);
    let mut warnings = Vec::new();
    for v in values {
        if v["property_id"] != PROPERTY {
            warnings.push(warned(v, json!({"property_id": ["is invalid"]})));
            continue;
        }
        match nights(v, s.today) {
            Err(why) => warnings.push(warned(v, why)),
            Ok(days) => {
                if let Some(w) = each(s, v, &days) {
                    warnings.push(warned(v, w));
                }
            }
        }
    }
    let mut meta = json!({"message": "Success"});
    if !warnings.is_empty() {
        meta["warnings"] = json!(warnings);
    }
    ok(json!({"data": [{"id": format!("task-{}", s.taken.len()), "type": "task"}], "meta": meta}))
}

/// One value's nights applied to the state, or the warning that drops it.
type Each = fn(&mut State, &Value, &[NaiveDate]) -> Option<Value>;

/// An ARI push: the key and fault, then each value applied or warned about.
async fn ari(
    req: &Request,
    body: &Value,
    state: &Mutex<State>,
    kind: &'static str,
    each: Each,
) -> Response {
    let fault = match gate(req, state, false) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let response = apply(&mut state.lock().unwrap(), body, kind, each);
    answer(fault, response).await
}

#[handler]
async fn push_availability(
    req: &Request,
    body: poem::web::Json<Value>,
    state: Shared<'_>,
) -> Response {
    ari(req, &body.0, state.0, "availability", availability_value).await
}

fn availability_value(s: &mut State, v: &Value, days: &[NaiveDate]) -> Option<Value> {
    let rt = v["room_type_id"].as_str().unwrap_or_default().to_string();
    if !s.room_types.contains(&rt) {
        return Some(json!({"room_type_id": ["is invalid"]}));
    }
    let Some(n) = v["availability"].as_i64().filter(|n| *n >= 0) else {
        return Some(json!({"availability": ["must be a non-negative integer"]}));
    };
    for d in days {
        s.availability.insert((rt.clone(), *d), n);
    }
    None
}

/// The fields of a rate plan's night Channex takes (its documentation's list).
const RESTRICTIONS: [&str; 7] = [
    "rate",
    "min_stay_arrival",
    "min_stay_through",
    "max_stay",
    "closed_to_arrival",
    "closed_to_departure",
    "stop_sell",
];

#[handler]
async fn push_restrictions(
    req: &Request,
    body: poem::web::Json<Value>,
    state: Shared<'_>,
) -> Response {
    ari(req, &body.0, state.0, "restrictions", restrictions_value).await
}

fn restrictions_value(s: &mut State, v: &Value, days: &[NaiveDate]) -> Option<Value> {
    let plan = v["rate_plan_id"].as_str().unwrap_or_default().to_string();
    if !s.rate_plans.contains(&plan) {
        return Some(json!({"rate_plan_id": ["is invalid"]}));
    }
    if !RESTRICTIONS.iter().any(|k| v.get(*k).is_some()) {
        return Some(json!({"values": ["at least one restriction is required"]}));
    }
    if let Some(rate) = v.get("rate") {
        let minor = rate.as_i64().or_else(|| {
            rate.as_str()
                .and_then(|r| r.parse::<f64>().ok())
                .map(|f| (f * 100.0).round() as i64)
        });
        if minor.is_none_or(|m| m <= 0) {
            return Some(json!({"rate": ["must be greater than 0"]}));
        }
    }
    for d in days {
        let night = s.restrictions.entry((plan.clone(), *d)).or_default();
        for k in RESTRICTIONS {
            if let Some(x) = v.get(k) {
                night.insert(k.to_string(), x.clone());
            }
        }
    }
    None
}

#[derive(serde::Deserialize)]
struct Range {
    #[serde(rename = "filter[date][gte]")]
    from: NaiveDate,
    #[serde(rename = "filter[date][lte]")]
    to: NaiveDate,
}

#[handler]
fn read_availability(req: &Request, range: Query<Range>, state: Shared<'_>) -> Response {
    if let Err(r) = gate(req, state.0, false) {
        return *r;
    }
    let s = state.0.lock().unwrap();
    let mut out: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
    for ((rt, d), n) in &s.availability {
        if *d >= range.from && *d <= range.to {
            out.entry(rt.clone()).or_default().insert(d.to_string(), *n);
        }
    }
    ok(json!({ "data": out }))
}

#[handler]
fn read_restrictions(req: &Request, range: Query<Range>, state: Shared<'_>) -> Response {
    if let Err(r) = gate(req, state.0, false) {
        return *r;
    }
    let s = state.0.lock().unwrap();
    let mut out: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for ((plan, d), night) in &s.restrictions {
        if *d >= range.from && *d <= range.to {
            let mut night = night.clone();
            // Channex reads rates back as decimal strings in major units.
            if let Some(r) = night.get("rate").and_then(Value::as_i64) {
                night.insert("rate".into(), json!(format!("{}.{:02}", r / 100, r % 100)));
            }
            out.entry(plan.clone())
                .or_default()
                .insert(d.to_string(), Value::Object(night));
        }
    }
    ok(json!({ "data": out }))
}

/// The feed's page size: `pagination[limit]`, at most 100.
#[derive(serde::Deserialize)]
struct Page {
    #[serde(rename = "pagination[limit]")]
    limit: Option<usize>,
}

#[handler]
async fn feed(req: &Request, page: Query<Page>, state: Shared<'_>) -> Response {
    let fault = match gate(req, state.0, true) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let limit = page.limit.unwrap_or(100).clamp(1, 100);
    let (data, total) = {
        let mut s = state.0.lock().unwrap();
        s.feed_reads += 1;
        let waiting: Vec<&Value> = s
            .revisions
            .iter()
            .filter(|(_, acked)| !acked)
            .map(|(r, _)| r)
            .collect();
        let data: Vec<Value> = waiting.iter().take(limit).map(|r| (*r).clone()).collect();
        (data, waiting.len())
    };
    let meta = json!({"total": total, "page": 1, "limit": limit});
    answer(fault, ok(json!({"data": data, "meta": meta}))).await
}

#[handler]
async fn ack(req: &Request, Path(id): Path<String>, state: Shared<'_>) -> Response {
    let fault = match gate(req, state.0, true) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let armed = state.0.lock().unwrap().before_ack.take();
    if let Some(kill) = armed {
        kill();
        return problem(StatusCode::BAD_GATEWAY, "gone", "The caller died");
    }
    let found = {
        let mut s = state.0.lock().unwrap();
        match s.revisions.iter_mut().find(|(r, _)| r["id"] == id.as_str()) {
            Some((_, acked)) => {
                *acked = true;
                true
            }
            None => false,
        }
    };
    let response = if found {
        ok(json!({"meta": {"message": "Success"}}))
    } else {
        problem(StatusCode::NOT_FOUND, "not_found", "Resouce Not Found")
    };
    answer(fault, response).await
}
