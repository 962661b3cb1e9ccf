//! What Invoicetronic's answers mean, and SdI's discard codes in plain words.
//!
//! From its public OpenAPI (1.13.6): 201 with the `Send` for a document taken; 422 with a
//! problem (`title`, `detail`) when its pre-flight validation refuses one; `GET /update`
//! and `GET /send` answer arrays. Unauthorised keys and spent credit are refused with 401
//! or 403 (the latter documented on `/status`). SdI's discard codes come from the
//! technical rules' list of checks as intermediaries and public client projects repeat
//! them (docs/research/it-sdi.md, §4-5): what to fix is innkeep's own wording.

use serde_json::Value as Json;

use crate::compliance::Outcome;
use crate::compliance::einvoice::Tracked;
use crate::compliance::transport::{Reply, TransportError};
use crate::domain::enums::EInvoiceStatus;

/// The outcome of a call that got no usable answer, or `Ok(json)` to read further.
pub fn read(result: &Result<Reply, TransportError>) -> Result<Json, Outcome> {
    let r = match result {
        Err(TransportError::NotSent(m)) => {
            return Err(Outcome::Retry {
                reason: format!("Invoicetronic could not be reached: {m}"),
                after: None,
            });
        }
        Err(TransportError::NoAnswer(m)) => {
            return Err(Outcome::Unknown {
                reason: format!("Invoicetronic did not answer: {m}"),
            });
        }
        Ok(r) => r,
    };
    if r.status >= 500 || r.status == 429 {
        return Err(Outcome::Retry {
            reason: format!("Invoicetronic answered HTTP {}", r.status),
            after: r.retry_after,
        });
    }
    let json: Option<Json> = serde_json::from_str(r.body.trim()).ok();
    match r.status {
        200..=299 => json.ok_or_else(|| Outcome::Unknown {
            reason: format!(
                "Invoicetronic answered HTTP {} with something that is not JSON",
                r.status
            ),
        }),
        401 | 403 => Err(Outcome::Rejected {
            reason: format!(
                "Invoicetronic refused the API key or the account has no credit left (HTTP {}): check compliance.einvoice.api_key and the account at invoicetronic.com",
                r.status
            ),
            rows: Vec::new(),
        }),
        status => {
            let said = json.as_ref().map(problem).unwrap_or_default();
            Err(Outcome::Rejected {
                reason: format!("Invoicetronic refused the document (HTTP {status}){said}"),
                rows: Vec::new(),
            })
        }
    }
}

/// A problem's title and detail, `: title: detail`.
fn problem(j: &Json) -> String {
    let parts: Vec<&str> = ["title", "detail"]
        .iter()
        .filter_map(|k| j.get(*k).and_then(Json::as_str))
        .filter(|s| !s.trim().is_empty())
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(": {}", parts.join(": "))
    }
}

fn id_of(j: &Json) -> Option<String> {
    match j.get("id")? {
        Json::Number(n) => Some(n.to_string()),
        Json::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// A `Send` just taken.
pub fn sent(j: &Json) -> Tracked {
    match id_of(j) {
        Some(reference) => Tracked::At {
            reference,
            status: EInvoiceStatus::Sent,
            reason: None,
        },
        None => Tracked::Failed(Outcome::Unknown {
            reason: "Invoicetronic answered without the document's id".into(),
        }),
    }
}

/// The id of the sent document numbered `number` in a list of `Send`s.
pub fn find(j: &Json, number: &str) -> Option<String> {
    j.as_array()?
        .iter()
        .find(|s| {
            s.get("documents")
                .and_then(Json::as_array)
                .is_some_and(|d| {
                    d.iter()
                        .any(|d| d.get("number").and_then(Json::as_str) == Some(number))
                })
        })
        .and_then(id_of)
}

/// Where the document `reference` stands, from its list of updates (the latest counts).
pub fn latest(reference: &str, j: &Json) -> Tracked {
    let Some(updates) = j.as_array() else {
        return Tracked::Failed(Outcome::Unknown {
            reason: "Invoicetronic's updates were not a list".into(),
        });
    };
    let last = updates.iter().max_by_key(|u| {
        u.get("last_update")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    });
    let Some(u) = last else {
        return Tracked::At {
            reference: reference.into(),
            status: EInvoiceStatus::Sent,
            reason: Some("sent to SdI; waiting for its receipt".into()),
        };
    };
    let state = u.get("state").and_then(Json::as_str).unwrap_or("");
    let (status, reason) = match state {
        "Consegnato" | "DecorrenzaTermini" | "AccettatoDalDestinatario" => (
            EInvoiceStatus::Fiscalized,
            "SdI delivered it to the buyer".to_string(),
        ),
        "ImpossibilitaDiRecapito" => (
            EInvoiceStatus::Fiscalized,
            "issued: SdI could not deliver it to the buyer's channel and left it in their reserved area of the Agenzia delle Entrate; give the guest a courtesy copy".to_string(),
        ),
        "Scartato" | "RifiutatoDalDestinatario" => (EInvoiceStatus::Rejected, discard(u)),
        _ => (
            EInvoiceStatus::Sent,
            "sent to SdI; waiting for its receipt".to_string(),
        ),
    };
    let reason = match u
        .get("send")
        .and_then(|s| s.get("identifier"))
        .and_then(Json::as_str)
    {
        Some(sdi) => format!("{reason} (SdI id {sdi})"),
        None => reason,
    };
    Tracked::At {
        reference: reference.into(),
        status,
        reason: Some(reason),
    }
}

/// A discard in plain words: every error with its code and what to fix.
fn discard(u: &Json) -> String {
    let errors: Vec<String> = u
        .get("errors")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|e| {
            let text = |k: &str| {
                e.get(k)
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let code = text("code");
            let mut s = format!("{code} {}", text("description")).trim().to_string();
            if let Some(fix) = fix(&code) {
                s.push_str(&format!(" ({fix})"));
            } else if !text("hint").is_empty() {
                s.push_str(&format!(" ({})", text("hint")));
            }
            s
        })
        .collect();
    let what = if errors.is_empty() {
        u.get("description")
            .and_then(Json::as_str)
            .unwrap_or("no reason given")
            .to_string()
    } else {
        errors.join("; ")
    };
    format!(
        "SdI discarded it, so in law it was not issued: {what}. To fix it within 5 days: correct the buyer's details, reverse this invoice with a credit note (it stays inside innkeep, SdI never took the invoice) and issue a new invoice"
    )
}

/// What to fix for the discard codes a hotel meets.
pub fn fix(code: &str) -> Option<&'static str> {
    Some(match code {
        "00002" => "this file was already sent: innkeep looks it up before sending again",
        "00200" => "the file does not match the FatturaPA schema",
        "00305" => {
            "the buyer's partita IVA does not exist in the tax register: correct the VAT number on the bill-to"
        }
        "00306" => {
            "the buyer's codice fiscale does not exist in the tax register: correct it on the guest or the bill-to"
        }
        "00311" | "00312" => {
            "the buyer's recipient code (codice destinatario) is wrong or not active: ask the buyer for it, or leave it empty"
        }
        "00403" => {
            "the invoice date is later than the day SdI received it: check the computer's date"
        }
        "00404" => "SdI already has an invoice with this number and date from this seller",
        "00417" => "the buyer needs a codice fiscale or a partita IVA",
        "00421" | "00422" | "00423" => "the amounts do not add up as SdI computes them",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_latest_update_decides() {
        let j = json!([
            {"state": "Inviato", "last_update": "2026-11-27T10:00:00Z"},
            {"state": "Scartato", "last_update": "2026-11-27T11:00:00Z",
             "errors": [{"code": "00306", "description": "CF inesistente", "hint": null}],
             "send": {"identifier": "123456"}}
        ]);
        let Tracked::At {
            reference,
            status,
            reason,
        } = latest("7", &j)
        else {
            panic!()
        };
        assert_eq!(
            (reference.as_str(), status),
            ("7", EInvoiceStatus::Rejected)
        );
        let reason = reason.unwrap();
        assert!(reason.ends_with("(SdI id 123456)"), "{reason}");
        assert!(
            reason.contains("00306 CF inesistente (the buyer's codice fiscale"),
            "{reason}"
        );
        assert!(matches!(
            latest("7", &json!([])),
            Tracked::At {
                status: EInvoiceStatus::Sent,
                ..
            }
        ));
        let mc = json!([{"state": "ImpossibilitaDiRecapito", "last_update": "x"}]);
        assert!(matches!(
            latest("7", &mc),
            Tracked::At {
                status: EInvoiceStatus::Fiscalized,
                ..
            }
        ));
    }
}
