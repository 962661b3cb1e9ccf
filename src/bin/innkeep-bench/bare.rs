//! The bare baseline server (`innkeep-bench bare`): poem + rusqlite with innkeep's pragmas
//! (WAL, `synchronous=FULL`) and nothing else. It answers the benchmark's three API calls
//! with the least work that can: a create is one JSON parse, one INSERT and one COMMIT on a
//! single connection; the arrivals list is one indexed SELECT of the reservation's columns
//! on a pooled read connection, written out as JSON objects; the guest search runs the
//! store's own trigram query (there is no simpler way to find a name inside names). No
//! authentication, validation, events, idempotency, cursors or group commit.

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

/// The scratch table a create writes to (dropped by the benchmark afterwards).
pub const TABLE: &str = "bench_bare";

struct State {
    writer: Mutex<Connection>,
    readers: r2d2::Pool<SqliteConnectionManager>,
}

type Shared = Arc<State>;

/// Serves `db` on `listen` until killed.
pub fn serve(db: &Path, listen: &str) -> Result<(), String> {
    let writer = innkeep::db::open_writable(db).map_err(|e| e.to_string())?;
    writer
        .execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS {TABLE} (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT"
        ))
        .map_err(|e| e.to_string())?;
    let manager = SqliteConnectionManager::file(db).with_init(|c| {
        innkeep::db::configure(c)?;
        c.pragma_update(None, "query_only", "ON")
    });
    let readers = r2d2::Pool::builder()
        .max_size(8)
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

#[handler]
async fn create(
    Data(state): Data<&Shared>,
    Json(body): Json<Value>,
) -> poem::Result<(StatusCode, Json<Value>)> {
    let state = state.clone();
    let id = innkeep::ids::new("bch");
    let row = id.clone();
    tokio::task::spawn_blocking(move || -> rusqlite::Result<()> {
        let conn = state.writer.lock().unwrap_or_else(|p| p.into_inner());
        conn.execute_batch("BEGIN IMMEDIATE")?;
        conn.prepare_cached(&format!("INSERT INTO {TABLE} (id, body) VALUES (?1, ?2)"))?
            .execute((&row, body.to_string()))?;
        conn.execute_batch("COMMIT")
    })
    .await
    .map_err(fail)?
    .map_err(fail)?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))))
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
        let rows = stmt.query_map((from, to, limit), |r| {
            let mut object = serde_json::Map::new();
            for (i, name) in names.iter().enumerate() {
                let value = match r.get_ref(i)? {
                    rusqlite::types::ValueRef::Integer(n) => json!(n),
                    rusqlite::types::ValueRef::Text(t) => json!(String::from_utf8_lossy(t)),
                    _ => Value::Null,
                };
                object.insert(name.clone(), value);
            }
            Ok(Value::Object(object))
        });
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
