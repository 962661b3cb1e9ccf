//! The year's e-invoices: letting them settle (both countries), and in Croatia the checks:
//! stays billed to a company to pay by transfer, and the disputed bills re-issued to the
//! agency, go as e-invoices through the moj-eRačun simulator; at
//! the end every one is delivered and fiscalized, the simulator holds each document as
//! issued, every business invoice paid later is one, and each payment of one made in a month
//! that ended is reported exactly once.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::api::Api;
use crate::books::Books;
use crate::support::mer_sim::{Checked, Doc};

/// Moves the clock on, ten minutes at a time, until no e-invoice waits for its
/// fiscalization (the intermediary is looked at every ten minutes).
pub async fn settle(api: &Api<'_>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let path = "/v1/compliance/submissions?kind=einvoice&status=queued,sending,retrying&limit=5";
    loop {
        let r = api.send(Method::GET, path, None).await;
        if r.status == 200 && r.body["data"].as_array().is_some_and(Vec::is_empty) {
            return;
        }
        if Instant::now() > deadline {
            api.unexpected(format!("e-invoices did not settle: {}", r.body));
            return;
        }
        let now = api.app.clock().now();
        api.app.clock().set_now(now + chrono::Duration::minutes(11));
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// Checks the e-invoices against the documents the intermediary holds.
pub fn check(b: &mut Books, invoices: &[Value], submissions: &[Value], docs: &[Doc]) {
    let held: HashMap<&str, &Doc> = docs.iter().map(|d| (d.number.as_str(), d)).collect();
    for inv in invoices {
        let f = &inv["fiscal"];
        let business_later = inv["bill_to"]["kind"] == "business"
            && inv["kind"] == "invoice"
            && inv["payment_method"] == "bank_transfer";
        if f["scheme"] != "hr-eracun" {
            if business_later {
                b.fail(format!(
                    "invoice {}: billed to a company to pay later, but no e-invoice",
                    inv["number"]
                ));
            }
            continue;
        }
        let number = text(&inv["number"]);
        if f["status"] != "fiscalized" || f["einvoice"]["status"] != "fiscalized" {
            b.fail(format!(
                "e-invoice {number}: {} / {}",
                f["status"], f["einvoice"]["status"]
            ));
        }
        match held.get(number) {
            None => b.fail(format!("e-invoice {number}: the intermediary never got it")),
            Some(d) => {
                let sha: String = Sha256::digest(d.xml.as_bytes())
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect();
                if sha != text(&f["einvoice"]["sha256"]) {
                    b.fail(format!(
                        "e-invoice {number}: the intermediary holds another document"
                    ));
                }
                if let Checked::Refused(why) = &d.checked {
                    b.fail(format!("e-invoice {number}: the rules refuse it: {why:?}"));
                }
                b.einvoices += 1;
            }
        }
    }
    if docs.len() != b.einvoices {
        b.fail(format!(
            "{} documents sent, {} e-invoices issued",
            docs.len(),
            b.einvoices
        ));
    }
    let reports: Vec<&Value> = submissions
        .iter()
        .filter(|s| s["kind"] == "einvoice_payments")
        .collect();
    let sent: usize = docs.iter().map(|d| d.payments.len()).sum();
    let accepted = reports.iter().filter(|s| s["status"] == "accepted").count();
    if sent != accepted {
        b.fail(format!(
            "{sent} payment reports reached the intermediary, {accepted} accepted"
        ));
    }
    for s in reports.iter().filter(|s| s["status"] != "accepted") {
        if s["overdue"] == true || s["status"] != "queued" {
            b.fail(format!(
                "payment report {}: {} (due {})",
                s["id"], s["status"], s["due_at"]
            ));
        }
    }
    b.payments_reported = accepted;
    b.payments_waiting = reports.len() - accepted;
}
