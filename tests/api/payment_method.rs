//! The change of an issued invoice's payment method (`POST /v1/invoices/{id}/payment-method`),
//! against the CIS simulator: reported with `PromijeniNacPlac` on the day of issue, after the
//! receipt itself is accepted; refused the next day; a change CIS refuses is left for a
//! person with plain words; where no fiscal system is configured, only the invoice changes.

use serde_json::{Value, json};

use crate::support::cis_sim::Sim;
use crate::support::fiscal::{WAIT, fiscal_is, hotel, later, sale};
use crate::support::{TestApp, eventually, spawn_app};

async fn change(app: &TestApp, id: &str, method: &str) -> crate::support::Reply {
    app.post(
        &format!("/v1/invoices/{id}/payment-method"),
        json!({ "payment_method": method }),
    )
    .await
}

async fn changes_of(app: &TestApp, invoice: &str) -> Vec<Value> {
    app.all("/v1/compliance/submissions?kind=fiscal_payment_change")
        .await
        .into_iter()
        .filter(|s| s["subject_id"] == invoice)
        .collect()
}

async fn change_is(app: &TestApp, invoice: &str, status: &str) -> Value {
    eventually(
        WAIT,
        &format!("the change of {invoice} {status}"),
        || async {
            let all = changes_of(app, invoice).await;
            match all.last() {
                Some(s) if s["status"] == status => Ok(s.clone()),
                other => Err(other.map(|s| s["status"].clone())),
            }
        },
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_receipt_changes_its_payment_method_on_the_day_of_issue() {
    let sim = Sim::start();
    sim.set_today("2026-11-22".parse().unwrap());
    let app = hotel(&sim).await;

    // Booked as a bank transfer, paid by card at the desk: CIS hears of it after the receipt.
    let inv = sale(&app, "bank_transfer").await;
    let id = inv["id"].as_str().unwrap();
    fiscal_is(&app, id, "fiscalized").await;
    let changed = change(&app, id, "card").await.expect(200);
    assert_eq!(changed.body["payment_method"], "card");
    assert_eq!(
        changed.body["version"],
        inv["version"].as_i64().unwrap() + 2
    );
    assert_eq!(
        changed.body["fiscal"]["status"], "fiscalized",
        "the receipt stays"
    );
    let done = change_is(&app, id, "accepted").await;
    assert_eq!(done["authority_reference"], "p001");
    let cis = sim.changes();
    assert_eq!(cis.len(), 1);
    assert_eq!(
        (cis[0].number.as_str(), cis[0].method.as_str()),
        ("1/POSL1/1", "K")
    );
    let events = app.all_events().await;
    let said: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "invoice.payment_method_changed")
        .collect();
    assert_eq!(said.len(), 1);
    assert_eq!(said[0]["data"]["payment_method"], "card");

    // The same method again changes nothing.
    change(&app, id, "card").await.expect(200);
    assert_eq!(changes_of(&app, id).await.len(), 1);

    // While CIS is unreachable the receipt waits, and the change waits for the receipt.
    sim.set_offline(true);
    let cash = sale(&app, "cash").await;
    let cash_id = cash["id"].as_str().unwrap();
    fiscal_is(&app, cash_id, "offline").await;
    change(&app, cash_id, "card").await.expect(200);
    let waiting = change_is(&app, cash_id, "retrying").await;
    assert!(
        waiting["last_error"]
            .as_str()
            .unwrap()
            .contains("waiting for CIS"),
        "{waiting}"
    );
    // Changed again before anything left: the one report now says the last word.
    change(&app, cash_id, "other").await.expect(200);
    assert_eq!(changes_of(&app, cash_id).await.len(), 1);
    sim.set_offline(false);
    later(&app, 2);
    fiscal_is(&app, cash_id, "fiscalized").await;
    later(&app, 2);
    change_is(&app, cash_id, "accepted").await;
    assert_eq!(sim.changes().len(), 2);
    assert_eq!(sim.changes()[1].method, "O");
    assert_eq!(sim.violations(), Vec::<String>::new());

    // The authority's day has turned: CIS refuses, and the submission says what to do.
    sim.set_today("2026-11-23".parse().unwrap());
    change(&app, id, "cash").await.expect(200);
    let refused = change_is(&app, id, "rejected").await;
    let why = refused["last_error"].as_str().unwrap();
    assert!(why.contains("s007") && why.contains("credit note"), "{why}");

    // The next day innkeep itself refuses, in words.
    let tomorrow = app.clock().now() + chrono::Duration::days(1);
    app.clock().set_now(tomorrow);
    let late = change(&app, id, "other").await.expect(409);
    assert_eq!(late.body["code"], "payment_method_change_too_late");
    let detail = late.body["detail"].as_str().unwrap();
    assert!(detail.contains("only on the day of issue"), "{detail}");

    // Input and state refusals.
    let bad = change(&app, id, "cheque").await.expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "payment_method");
    change(&app, "inv_nope", "cash").await.expect(404);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_fiscal_system_only_the_invoice_changes() {
    let app = spawn_app().await;
    let guest = app.guest("Ana", "Kovač").await;
    let inv = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "cash", "lines": [
                {"description": "Wine", "quantity": 1, "unit_price": 1999}]}),
        )
        .await
        .expect(201)
        .body;
    let id = inv["id"].as_str().unwrap();
    let changed = change(&app, id, "card").await.expect(200);
    assert_eq!(changed.body["payment_method"], "card");
    assert!(changes_of(&app, id).await.is_empty());
    let credit = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": id, "reason": "wrong guest"}),
        )
        .await
        .expect(201);
    assert!(credit.body["id"].is_string());
    let reversed = change(&app, id, "cash").await.expect(409);
    assert_eq!(reversed.body["code"], "invalid_state_transition");
}
