//! The idempotency keys' use cases (API.md section 4): claiming a key before the request
//! runs, marking it committed inside the request's own transaction, and storing (or
//! releasing) the answer afterwards. The HTTP layer (`api::idempotency`) decides what is
//! replayed and what is stored; every write happens here.

use std::sync::Arc;

use crate::db::{Tx, WriteHook, with_write_hook};
use crate::error::AppError;
use crate::service::Services;
use crate::service::maintenance::IDEMPOTENCY_TTL;
use crate::store::idempotency::{self as keys, State};

/// What to do with a request that carries an `Idempotency-Key`.
pub enum Decision {
    /// The key is claimed: run the request.
    Proceed,
    /// The first answer, to replay.
    Replay(keys::Record),
    /// The key came with another request: 422.
    Reused,
    /// The first request still runs in this process: 409.
    InProgress,
    /// The first request committed and its answer was lost in a crash: 409.
    Lost,
}

fn decide(
    tx: &Tx,
    scope: &str,
    key: &str,
    hash: &str,
    instance: &str,
) -> Result<Decision, AppError> {
    let cutoff = crate::clock::format_instant(
        tx.clock().now() - chrono::Duration::from_std(IDEMPOTENCY_TTL).unwrap_or_default(),
    );
    let decision = match keys::get(tx, scope, key)? {
        Some(rec) if rec.created_at < cutoff => Decision::Proceed,
        None => Decision::Proceed,
        Some(rec) if rec.request_hash != hash => Decision::Reused,
        Some(rec) if rec.state == State::Complete => Decision::Replay(rec),
        Some(rec) if rec.instance == instance => Decision::InProgress,
        Some(rec) if rec.state == State::InProgress => Decision::Proceed,
        Some(_) => Decision::Lost,
    };
    if matches!(decision, Decision::Proceed) {
        keys::claim(tx, scope, key, hash, instance)?;
    }
    Ok(decision)
}

/// Claims `key` for a request with body hash `hash` in process `instance`, or says why not.
pub async fn claim(
    svc: &Services,
    scope: String,
    key: String,
    hash: String,
    instance: String,
) -> Result<Decision, AppError> {
    svc.db()
        .write(move |tx| decide(tx, &scope, &key, &hash, &instance))
        .await
}

/// Runs `request` so that its write transaction also marks the key committed: a crash
/// after the commit then answers `idempotency_response_lost`, never a second change.
pub async fn run_marking<F: std::future::Future>(
    scope: String,
    key: String,
    request: F,
) -> F::Output {
    let hook: WriteHook = Arc::new(move |conn| keys::mark_committed(conn, &scope, &key));
    with_write_hook(hook, request).await
}

/// A final answer as stored for retries: status, the replayed headers, the body.
pub type Answer = (u16, Vec<(String, String)>, Vec<u8>);

/// Stores the final answer (status, replayed headers, body) for retries, or, without one,
/// releases the key so the client may retry with it.
pub async fn settle(
    svc: &Services,
    scope: String,
    key: String,
    answer: Option<Answer>,
) -> Result<(), AppError> {
    svc.db()
        .write(move |tx| match &answer {
            Some((status, headers, body)) => {
                keys::complete(tx, &scope, &key, *status, headers, body)
            }
            None => keys::release(tx, &scope, &key),
        })
        .await
}
