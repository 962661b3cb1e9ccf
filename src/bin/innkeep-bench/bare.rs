//! The bare baseline server (`innkeep-bench bare`): poem + rusqlite with innkeep's pragmas
//! (WAL, `synchronous=FULL`) and nothing else. It answers the benchmark's API calls with
//! the same durable work as innkeep at its simplest, each write one transaction on a single
//! connection with one COMMIT:
//! - a create is one JSON parse and two INSERTs: the record and its event;
//! - a check-in reads the reservation, writes the stay back and an event;
//! - a check-out reads the reservation, writes the stay back, an invoice (its lines, a
//!   night each, as one JSON text), a payment and an event;
//! - the arrivals list is one indexed SELECT of the reservation's columns on a pooled read
//!   connection, written out as JSON objects;
//! - the guest search runs the store's own trigram query (there is no simpler way to find
//!   a name inside names).
//!
//! No authentication, validation, rules, numbering, history, idempotency, cursors or group
//! commit. The writes go to scratch tables ([`TABLES`], dropped afterwards).

use std::path::Path;
use std::sync::{Arc, Mutex};

use innkeep::store;
use poem::http::StatusCode;
use poem::listener::TcpListener;
use poem::web::{Data, Json, Query};
use poem::{EndpointExt, Route, Server, get, handler};
use poem_openapi::types::ToJSON;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::{Value, json};

/// The scratch tables the writes go to (dropped by the benchmark afterwards).
pub const TABLES: [&str; 4] = [
    "bench_bare",
    "bench_bare_events",
    "bench_bare_invoices",
    "bench_bare_payments",
];

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS bench_bare (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT;
    CREATE TABLE IF NOT EXISTS bench_bare_events (sequence INTEGER PRIMARY KEY, kind TEXT NOT NULL,
        subject TEXT NOT NULL, body TEXT NOT NULL) STRICT;
    CREATE TABLE IF NOT EXISTS bench_bare_invoices (id TEXT PRIMARY KEY,
        reservation_id TEXT NOT NULL, total INTEGER NOT NULL, lines TEXT NOT NULL) STRICT;
    CREATE TABLE IF NOT EXISTS bench_bare_payments (id TEXT PRIMARY KEY,
        invoice_id TEXT NOT NULL, amount INTEGER NOT NULL, method TEXT NOT NULL) STRICT;";

struct State {
    writer: Mutex<Connection>,
    readers: r2d2::Pool<SqliteConnectionManager>,
}

type Shared = Arc<State>;

/// Serves `db` on `listen` until killed.
pub fn serve(db: &Path, listen: &str) -> Result<(), String> {
    let writer = innkeep::db::open_writable(db).map_err(|e| e.to_string())?;
    writer.execute_batch(SCHEMA).map_err(|e| e.to_string())?;
    let manager = SqliteConnectionManager::file(db).with_init(|c| {
        innkeep::db::configure(c)?;
        c.pragma_update(None, "query_only", "ON")
    });
    let readers = r2d2::Pool::builder()
        .max_size(8)
        // As innkeep's pool: no test statement on each connection handed out.
        .test_on_check_out(false)
        .build(manager)
        .map_err(|e| e.to_string())?;
    let state: Shared = Arc::new(State {
        writer: Mutex::new(writer),
        readers,
    });
    let app = Route::new()
        .at("/health", get(health))
        .at("/v1/reservations", get(arrivals).post(create))
        .at("/v1/guests", get(guests))
        .at("/v1/check-in", poem::post(check_in))
        .at("/v1/check-out", poem::post(check_out))
        .data(state);
    let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    rt.block_on(Server::new(TcpListener::bind(listen)).run(app))
        .map_err(|e| e.to_string())
}

#[handler]
fn health() -> &'static str {
    "ok"
}

fn fail(e: impl std::fmt::Display) -> poem::Error {
    poem::Error::from_string(e.to_string(), StatusCode::INTERNAL_SERVER_ERROR)
}

/// Runs `work` in one write transaction on the single writer connection.
async fn write<T: Send + 'static>(
    state: &Shared,
    work: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
) -> poem::Result<T> {
    let state = state.clone();
    tokio::task::spawn_blocking(move || -> rusqlite::Result<T> {
        let conn = state.writer.lock().unwrap_or_else(|p| p.into_inner());
        conn.execute_batch("BEGIN IMMEDIATE")?;
        match work(&conn) {
            Ok(t) => conn.execute_batch("COMMIT").map(|()| t),
            Err(e) => {
                conn.execute_batch("ROLLBACK")?;
                Err(e)
            }
        }
    })
    .await
    .map_err(fail)?
    .map_err(fail)
}

/// Writes `body` as the record `id` and an event `kind` about it.
fn record(conn: &Connection, id: &str, kind: &str, body: &str) -> rusqlite::Result<()> {
    conn.prepare_cached("INSERT OR REPLACE INTO bench_bare (id, body) VALUES (?1, ?2)")?
        .execute((id, body))?;
    conn.prepare_cached("INSERT INTO bench_bare_events (kind, subject, body) VALUES (?1, ?2, ?3)")?
        .execute((kind, id, body))?;
    Ok(())
}

#[handler]
async fn create(
    Data(state): Data<&Shared>,
    Json(body): Json<Value>,
) -> poem::Result<(StatusCode, Json<Value>)> {
    let id = innkeep::ids::new("bch");
    let row = id.clone();
    write(state, move |conn| {
        record(conn, &row, "reservation.created", &body.to_string())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))))
}

/// The reservation `id` as a JSON object of its columns.
fn reservation(conn: &Connection, id: &str) -> rusqlite::Result<serde_json::Map<String, Value>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM reservations WHERE id = ?1"))?;
    let names: Vec<String> = stmt.column_names().iter().map(|n| n.to_string()).collect();
    stmt.query_row([id], |r| object(r, &names))
}

/// A row as a JSON object named by `names`.
fn object(r: &rusqlite::Row, names: &[String]) -> rusqlite::Result<serde_json::Map<String, Value>> {
    let mut object = serde_json::Map::new();
    for (i, name) in names.iter().enumerate() {
        let value = match r.get_ref(i)? {
            rusqlite::types::ValueRef::Integer(n) => json!(n),
            rusqlite::types::ValueRef::Text(t) => json!(String::from_utf8_lossy(t)),
            _ => Value::Null,
        };
        object.insert(name.clone(), value);
    }
    Ok(object)
}

/// The nights between a reservation's arrival and departure (at least one).
fn nights(r: &serde_json::Map<String, Value>) -> i64 {
    let date = |k: &str| r.get(k)?.as_str()?.parse::<chrono::NaiveDate>().ok();
    match (date("arrival"), date("departure")) {
        (Some(a), Some(d)) => (d - a).num_days().max(1),
        _ => 1,
    }
}

/// The body of a check-in or check-out.
#[derive(Deserialize)]
struct StayBody {
    reservation_id: String,
    room_id: Option<String>,
}

#[handler]
async fn check_in(
    Data(state): Data<&Shared>,
    Json(b): Json<StayBody>,
) -> poem::Result<Json<Value>> {
    let stay = write(state, move |conn| {
        let mut r = reservation(conn, &b.reservation_id)?;
        r.insert("status".into(), json!("checked_in"));
        r.insert("room_id".into(), json!(b.room_id));
        let body = Value::Object(r);
        record(
            conn,
            &b.reservation_id,
            "reservation.checked_in",
            &body.to_string(),
        )?;
        Ok(body)
    })
    .await?;
    Ok(Json(stay))
}

#[handler]
async fn check_out(
    Data(state): Data<&Shared>,
    Json(b): Json<StayBody>,
) -> poem::Result<Json<Value>> {
    let answer = write(state, move |conn| {
        let mut r = reservation(conn, &b.reservation_id)?;
        r.insert("status".into(), json!("checked_out"));
        let rate = r.get("nightly_rate").and_then(Value::as_i64).unwrap_or(0);
        let nights = nights(&r);
        let lines: Vec<Value> = (0..nights)
            .map(|n| json!({"description": "Room", "night": n, "quantity": 1, "unit_price": rate}))
            .collect();
        let invoice = innkeep::ids::new("bin");
        let total = rate * nights;
        conn.prepare_cached(
            "INSERT INTO bench_bare_invoices (id, reservation_id, total, lines) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute((&invoice, &b.reservation_id, total, Value::Array(lines.clone()).to_string()))?;
        conn.prepare_cached(
            "INSERT INTO bench_bare_payments (id, invoice_id, amount, method) VALUES (?1, ?2, ?3, 'card')",
        )?
        .execute((innkeep::ids::new("bpy"), &invoice, total))?;
        let body = Value::Object(r);
        record(conn, &b.reservation_id, "reservation.checked_out", &body.to_string())?;
        Ok(json!({"reservation": body, "invoice": {"id": invoice, "total": total, "lines": lines}}))
    })
    .await?;
    Ok(Json(answer))
}

/// The query strings the benchmark sends.
#[derive(Deserialize)]
struct ListQuery {
    arrival_from: Option<chrono::NaiveDate>,
    arrival_to: Option<chrono::NaiveDate>,
    name: Option<String>,
    limit: usize,
}

/// Runs `list` on a read connection and answers `{"data": [...]}`.
async fn page<T: ToJSON + Send + 'static, P: Send + 'static>(
    state: &Shared,
    list: impl FnOnce(&Connection, i64) -> innkeep::error::AppResult<Vec<(T, P)>> + Send + 'static,
) -> poem::Result<Json<Value>> {
    let pool = state.readers.clone();
    let rows = tokio::task::spawn_blocking(move || {
        let conn = pool.get().map_err(fail)?;
        let as_of = store::page::current_as_of(&conn).map_err(fail)?;
        list(&conn, as_of).map_err(fail)
    })
    .await
    .map_err(fail)??;
    let data: Vec<Value> = rows.iter().filter_map(|(r, _)| r.to_json()).collect();
    Ok(Json(json!({ "data": data })))
}

/// The reservation columns the arrivals list returns.
const COLUMNS: &str = "id, code, status, primary_guest_id, room_type_id, room_id, arrival, \
    departure, adults, children, nightly_rate, currency, source, notes, checked_in_at, \
    checked_out_at, cancelled_at, invoice_id, version, created_at, updated_at";

#[handler]
async fn arrivals(Data(state): Data<&Shared>, q: Query<ListQuery>) -> poem::Result<Json<Value>> {
    let (from, to) = (
        q.arrival_from.map(|d| d.to_string()),
        q.arrival_to.map(|d| d.to_string()),
    );
    let limit = q.limit as i64 + 1;
    let pool = state.readers.clone();
    let data = tokio::task::spawn_blocking(move || -> Result<Vec<Value>, String> {
        let conn = pool.get().map_err(|e| e.to_string())?;
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM reservations WHERE arrival >= ?1 AND arrival <= ?2 \
                 ORDER BY arrival, id LIMIT ?3"
            ))
            .map_err(|e| e.to_string())?;
        let names: Vec<String> = stmt.column_names().iter().map(|n| n.to_string()).collect();
        let rows = stmt.query_map((from, to, limit), |r| object(r, &names).map(Value::Object));
        rows.and_then(Iterator::collect).map_err(|e| e.to_string())
    })
    .await
    .map_err(fail)?
    .map_err(fail)?;
    Ok(Json(json!({ "data": data })))
}

#[handler]
async fn guests(Data(state): Data<&Shared>, q: Query<ListQuery>) -> poem::Result<Json<Value>> {
    let filter = store::guests::GuestFilter {
        name: q.name.clone(),
        ..Default::default()
    };
    let limit = q.limit + 1;
    page(state, move |c, as_of| {
        store::guests::list(c, &filter, None, as_of, limit)
    })
    .await
}
