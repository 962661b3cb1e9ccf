//! Forms that must act once: a booking, a sale. The page mints an idempotency key with the
//! form (`key`); a double click or a form sent again is answered with where the first one
//! led, never a second booking or a second invoice number. The same keys, rules and
//! crash-safety as the API's `Idempotency-Key` (API.md section 4), scoped to the staff member.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use super::{DeskSession, DeskState};
use crate::error::AppError;
use crate::service::idempotency::{self, Decision};

/// What came of a form sent with a key.
pub enum Once<E> {
    /// It ran now: where to go next, or its refusal (the key is released for a retry).
    Ran(Result<String, E>),
    /// It had run before: where its first answer led.
    Replayed(String),
    /// The same key is still being handled (a double click), or came with other fields.
    Busy,
}

/// The key a form carries, minted when the page is drawn.
pub fn new_key() -> String {
    crate::ids::new("key")
}

/// A digest of a form's fields (but its CSRF token and step), telling a resent form from a
/// changed one.
pub fn digest(f: &HashMap<String, String>) -> String {
    let mut fields: Vec<(&String, &String)> = f
        .iter()
        .filter(|(k, _)| !["csrf", "step"].contains(&k.as_str()))
        .collect();
    fields.sort();
    format!("{:x}", Sha256::digest(format!("{fields:?}").as_bytes()))
}

/// Runs `act` once for `key`: its write transaction marks the key committed, and where it led
/// (a page address) is stored for a form sent again.
pub async fn once<E>(
    state: &DeskState,
    s: &DeskSession,
    key: String,
    digest: String,
    act: impl Future<Output = Result<String, E>>,
) -> Result<Once<E>, AppError> {
    let scope = format!("desk:{}", s.principal.actor.id);
    let claimed = idempotency::claim(
        &state.svc,
        scope.clone(),
        key.clone(),
        digest,
        state.instance.to_string(),
    )
    .await?;
    match claimed {
        Decision::Proceed => {}
        Decision::Replay(rec) => {
            let to = rec
                .headers
                .iter()
                .find(|(k, _)| k == "location")
                .map(|(_, v)| v.clone());
            return Ok(Once::Replayed(to.unwrap_or_else(|| "/".into())));
        }
        _ => return Ok(Once::Busy),
    }
    let done = idempotency::run_marking(scope.clone(), key.clone(), act).await;
    let answer = done.as_ref().ok().map(|to| {
        (
            303u16,
            vec![("location".to_string(), to.clone())],
            Vec::new(),
        )
    });
    idempotency::settle(&state.svc, scope, key, answer).await?;
    Ok(Once::Ran(done))
}
