//! What moj-eRačun's answers mean.
//!
//! From its public manual and from clients that talk to the live service (research notes in
//! docs/research/hr-eracun.md and the MER notes beside them): every method answers JSON; a
//! send that worked carries `ElectronicId`; a refusal is an object keyed by the field at
//! fault, `{"Username": {"Value": …, "Messages": ["…"]}}`, apparently with HTTP 200, so
//! success is read from the body, never from the status alone. The exchange status
//! (`StatusId`): 10/20 in preparation or validation, 30 sent, 40 delivered, 45 cancelled,
//! 50 unsuccessful, 70 delivered through e-reporting (the buyer has no e-invoice address).
//! Fiscalization messages: status 0 success, 1 failure, 2 pending; errors S001-S004 are
//! the tax administration's own trouble (wait), S005-S012 are data errors (the invoice must
//! be cancelled and issued again under a new number).

use serde_json::Value as Json;

use crate::compliance::Outcome;
use crate::compliance::einvoice::Tracked;
use crate::compliance::transport::{Reply, TransportError};
use crate::domain::enums::EInvoiceStatus;

/// The fields whose refusal means the account settings are wrong, not the document.
const ACCOUNT_FIELDS: [&str; 5] = [
    "Username",
    "Password",
    "CompanyId",
    "CompanyBu",
    "SoftwareId",
];

/// A refusal's messages, `Field: message`, when the body is a refusal.
pub fn refusal(body: &Json) -> Option<(bool, String)> {
    let map = body.as_object()?;
    let mut account = false;
    let mut said = Vec::new();
    for (field, v) in map {
        let Some(messages) = v.get("Messages").and_then(Json::as_array) else {
            continue;
        };
        account |= ACCOUNT_FIELDS.contains(&field.as_str());
        for m in messages.iter().filter_map(Json::as_str) {
            said.push(format!("{field}: {}", m.trim()));
        }
    }
    (!said.is_empty()).then(|| (account, said.join("; ")))
}

/// The outcome of a call that got no usable answer, or `Ok(json)` to read further.
pub fn read(result: &Result<Reply, TransportError>) -> Result<Json, Outcome> {
    let r = match result {
        Err(TransportError::NotSent(m)) => {
            return Err(Outcome::Retry {
                reason: format!("moj-eRačun could not be reached: {m}"),
                after: None,
            });
        }
        Err(TransportError::NoAnswer(m)) => {
            return Err(Outcome::Unknown {
                reason: format!("moj-eRačun did not answer: {m}"),
            });
        }
        Ok(r) => r,
    };
    if r.status >= 500 || r.status == 429 {
        return Err(Outcome::Retry {
            reason: format!("moj-eRačun answered HTTP {}", r.status),
            after: r.retry_after,
        });
    }
    let json: Json = match serde_json::from_str(r.body.trim()) {
        Ok(j) => j,
        Err(_) if r.status >= 400 => {
            return Err(Outcome::Rejected {
                reason: format!("moj-eRačun answered HTTP {}", r.status),
                rows: Vec::new(),
            });
        }
        Err(_) => {
            return Err(Outcome::Unknown {
                reason: format!(
                    "moj-eRačun answered HTTP {} with something that is not JSON",
                    r.status
                ),
            });
        }
    };
    if let Some((account, said)) = refusal(&json) {
        let reason = if account {
            format!(
                "moj-eRačun refused the account settings ({said}): check username, password, company_id and software_id under [compliance.einvoice]"
            )
        } else {
            format!("moj-eRačun refused it: {said}")
        };
        return Err(Outcome::Rejected {
            reason,
            rows: Vec::new(),
        });
    }
    if r.status >= 400 {
        return Err(Outcome::Rejected {
            reason: format!("moj-eRačun answered HTTP {}", r.status),
            rows: Vec::new(),
        });
    }
    Ok(json)
}

/// A JSON number or numeric string as text.
pub fn id_text(v: Option<&Json>) -> Option<String> {
    match v? {
        Json::Number(n) => Some(n.to_string()),
        Json::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

/// The exchange status of a `StatusId`, with a note for the unusual ones.
pub fn exchange_status(id: i64) -> (EInvoiceStatus, Option<String>) {
    match id {
        40 => (EInvoiceStatus::Delivered, None),
        70 => (
            EInvoiceStatus::Delivered,
            Some("the buyer has no e-invoice address, so moj-eRačun reported the invoice to the tax administration instead (e-reporting): give the buyer the printed invoice".into()),
        ),
        45 => (
            EInvoiceStatus::Rejected,
            Some("the e-invoice was cancelled at moj-eRačun".into()),
        ),
        50 => (
            EInvoiceStatus::Rejected,
            Some("moj-eRačun could not deliver it to the buyer's intermediary".into()),
        ),
        _ => (EInvoiceStatus::Sent, None),
    }
}

/// A document row (from a send or an outbox query) as tracked.
pub fn row(v: &Json) -> Option<Tracked> {
    let reference = id_text(v.get("ElectronicId"))?;
    let (status, reason) = exchange_status(v.get("StatusId").and_then(Json::as_i64).unwrap_or(20));
    Some(Tracked::At {
        reference,
        status,
        reason,
    })
}

/// The fiscalization of a document from a `statusOutbox` answer: `Some(Ok(()))` done,
/// `Some(Err(reason))` refused for good, `None` still pending (or the tax administration's
/// own trouble, which the intermediary retries), for messages of `message_type`.
pub fn fiscalization(v: &Json, message_type: i64) -> Option<Result<(), String>> {
    let items = v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]);
    let messages: Vec<Json> = items
        .iter()
        .filter_map(|i| i.get("messages").and_then(Json::as_array))
        .flatten()
        .filter(|m| m.get("messageType").and_then(Json::as_i64).unwrap_or(0) == message_type)
        .cloned()
        .collect();
    let last = messages.last()?;
    match last.get("status").and_then(Json::as_i64) {
        Some(0) => Some(Ok(())),
        Some(1) => {
            let code = last.get("errorCode").and_then(Json::as_str).unwrap_or("");
            if matches!(code, "S001" | "S002" | "S003" | "S004") {
                return None;
            }
            let words = [
                code,
                last.get("errorCodeDescription")
                    .and_then(Json::as_str)
                    .unwrap_or(""),
                last.get("message").and_then(Json::as_str).unwrap_or(""),
            ]
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(": ");
            Some(Err(format!(
                "the tax administration refused to fiscalize it ({words}); cancel the invoice with a credit note and issue it again under a new number"
            )))
        }
        _ => None,
    }
}

/// How many messages of `message_type` an answer lists that the tax administration took or
/// is still taking (success or pending: either way the report arrived).
pub fn successes(v: &Json, message_type: i64) -> usize {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i.get("messages").and_then(Json::as_array))
        .flatten()
        .filter(|m| {
            m.get("messageType").and_then(Json::as_i64).unwrap_or(0) == message_type
                && matches!(m.get("status").and_then(Json::as_i64), Some(0 | 2))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_refusal_names_its_field() {
        let body = json!({"Username": {"Value": "x", "Messages": ["Korisničko ime i lozinka nisu ispravni."]}});
        let (account, said) = refusal(&body).unwrap();
        assert!(account);
        assert_eq!(said, "Username: Korisničko ime i lozinka nisu ispravni.");
        assert!(refusal(&json!({"ElectronicId": 1, "StatusId": 30})).is_none());
    }

    #[test]
    fn fiscalization_messages() {
        let ok = json!([{"messages": [{"status": 2, "messageType": 0}, {"status": 0, "messageType": 0}]}]);
        assert_eq!(fiscalization(&ok, 0), Some(Ok(())));
        let wait = json!([{"messages": [{"status": 1, "messageType": 0, "errorCode": "S002"}]}]);
        assert_eq!(fiscalization(&wait, 0), None);
        let bad = json!([{"messages": [{"status": 1, "messageType": 0, "errorCode": "S006", "errorCodeDescription": "Neispravan OIB"}]}]);
        let why = fiscalization(&bad, 0).unwrap().unwrap_err();
        assert!(why.contains("S006: Neispravan OIB"), "{why}");
        assert_eq!(fiscalization(&json!([]), 0), None);
        assert_eq!(successes(&ok, 0), 2, "a pending one counts: it arrived");
    }

    #[test]
    fn statuses() {
        assert_eq!(exchange_status(30).0, EInvoiceStatus::Sent);
        assert_eq!(exchange_status(40).0, EInvoiceStatus::Delivered);
        assert_eq!(exchange_status(50).0, EInvoiceStatus::Rejected);
        assert!(exchange_status(70).1.is_some());
    }
}
