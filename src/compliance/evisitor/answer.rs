//! What an eVisitor answer means: an action's empty 200 is done; `{"UserMessage",
//! "SystemMessage"}` is a refusal (with HTTP 400, or defensively with 200), except "user is
//! not authenticated" (sign in again) and, after a lost answer, "already checked out" or
//! "already cancelled" (done); 5xx and a firewall's page are tried again.

use serde_json::Value as Json;

use super::tourist::CHECK_IN;
use crate::compliance::Outcome;
use crate::compliance::transport::Reply;

/// How one action went.
pub enum Step {
    /// Done.
    Done,
    /// Refused, in eVisitor's words.
    Refused(String),
    /// The batch stops here.
    Stop(Outcome),
}

/// The error message of an eVisitor answer, if it carries one (`[[[…]]]` marks removed).
pub fn message(body: &str) -> Option<String> {
    let doc: Json = serde_json::from_str(body.trim()).ok()?;
    let pick = |k: &str| {
        doc.get(k)
            .and_then(Json::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let text = pick("UserMessage").or_else(|| pick("SystemMessage"))?;
    Some(
        text.trim_start_matches("[[[")
            .trim_end_matches("]]]")
            .to_string(),
    )
}

/// What an action's answer means.
pub fn judge(r: &Reply, op: &str) -> Step {
    let body = r.body.trim();
    let said = message(body);
    let expired = |m: &str| m.to_lowercase().contains("not authenticated");
    match (r.status, said) {
        (200, None) if body.is_empty() || body == "null" => Step::Done,
        (401 | 403, _) => Step::Stop(Outcome::Reauthenticate {
            reason: format!("eVisitor answered HTTP {}", r.status),
        }),
        (_, Some(m)) if expired(&m) => Step::Stop(Outcome::Reauthenticate { reason: m }),
        (500.., m) => Step::Stop(Outcome::Retry {
            reason: format!(
                "eVisitor answered HTTP {}: {}",
                r.status,
                m.unwrap_or_default()
            ),
            after: r.retry_after,
        }),
        // A check-out or cancellation repeated after a lost answer: already done.
        (_, Some(m)) if op != CHECK_IN && already_done(&m) => Step::Done,
        (200 | 400, Some(m)) => Step::Refused(m),
        (status, None) => Step::Stop(Outcome::Retry {
            reason: format!(
                "eVisitor's answer (HTTP {status}) is not one of its own; a firewall page such as \"The requested URL was rejected\" means the request was blocked before it was processed"
            ),
            after: r.retry_after,
        }),
        (status, Some(m)) => Step::Stop(Outcome::Retry {
            reason: format!("eVisitor answered HTTP {status}: {m}"),
            after: r.retry_after,
        }),
    }
}

/// Whether a refusal says the guest is already checked out or the check-in already cancelled
/// (the wording is not documented; these are the simulator's and the likely phrases).
fn already_done(m: &str) -> bool {
    let m = m.to_lowercase();
    m.contains("već odjavljen") || m.contains("već poništen") || m.contains("već storniran")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.into(),
            retry_after: None,
            cookies: Vec::new(),
        }
    }

    fn said(step: Step) -> String {
        match step {
            Step::Done => "done".into(),
            Step::Refused(m) => format!("refused: {m}"),
            Step::Stop(Outcome::Reauthenticate { .. }) => "sign in".into(),
            Step::Stop(Outcome::Retry { .. }) => "retry".into(),
            Step::Stop(other) => format!("{other:?}"),
        }
    }

    #[test]
    fn each_answer_means_one_thing() {
        let refusal = r#"{"UserMessage":"Turist je već prijavljen u navedenom objektu.","SystemMessage":null}"#;
        let expired = r#"{"UserMessage":null,"SystemMessage":"User is not authenticated."}"#;
        for (status, body, op, want) in [
            (200, "", CHECK_IN, "done".to_string()),
            (200, "null", CHECK_IN, "done".into()),
            (
                400,
                refusal,
                CHECK_IN,
                "refused: Turist je već prijavljen u navedenom objektu.".into(),
            ),
            (
                200,
                refusal,
                CHECK_IN,
                "refused: Turist je već prijavljen u navedenom objektu.".into(),
            ),
            (400, expired, CHECK_IN, "sign in".into()),
            (401, "", CHECK_IN, "sign in".into()),
            (
                500,
                r#"{"SystemMessage":"Internal server error occurred."}"#,
                CHECK_IN,
                "retry".into(),
            ),
            (
                200,
                "<html>The requested URL was rejected.</html>",
                CHECK_IN,
                "retry".into(),
            ),
            (
                400,
                r#"{"UserMessage":"Turist je već odjavljen."}"#,
                "CheckOutTourist",
                "done".into(),
            ),
            (
                400,
                r#"{"UserMessage":"[[[Nije zadan ID.]]]"}"#,
                CHECK_IN,
                "refused: Nije zadan ID.".into(),
            ),
        ] {
            assert_eq!(
                said(judge(&reply(status, body), op)),
                want,
                "{status} {body}"
            );
        }
    }
}
