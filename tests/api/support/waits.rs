//! Waiting for what the server does in the background: [`eventually`] polls a probe,
//! [`submission_is`] waits for a compliance submission's status, and [`operations`] lists
//! what that submission exchanged with its authority.

use super::TestApp;

/// Polls `probe` every 25 ms until it yields a value; panics with `what` (and the last
/// thing the probe saw) after `timeout`.
pub async fn eventually<T, S, F, Fut>(timeout: std::time::Duration, what: &str, mut probe: F) -> T
where
    S: std::fmt::Debug,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, S>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        match probe().await {
            Ok(v) => return v,
            Err(seen) => assert!(
                tokio::time::Instant::now() < deadline,
                "{what}; last seen: {seen:?}"
            ),
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
}

/// Waits (up to `wait`) until compliance submission `id` has status `want`; the submission.
pub async fn submission_is(
    app: &TestApp,
    id: &str,
    want: &str,
    wait: std::time::Duration,
) -> serde_json::Value {
    eventually(
        wait,
        &format!("submission {id} should be {want}"),
        || async {
            let s = app
                .get(&format!("/v1/compliance/submissions/{id}"))
                .await
                .body;
            if s["status"] == want {
                Ok(s)
            } else {
                Err((s["status"].clone(), s["last_error"].clone()))
            }
        },
    )
    .await
}

/// The operations of a submission's exchange log, in order.
pub fn operations(s: &serde_json::Value) -> Vec<&str> {
    s["exchanges"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["operation"].as_str())
        .collect()
}
