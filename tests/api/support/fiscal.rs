//! Croatian fiscalization against the CIS simulator: a hotel configured for it, sales,
//! and waiting for a receipt's state.

use std::sync::Arc;
use std::time::Duration;

use innkeep::compliance::Compliance;
use innkeep::compliance::cis;
use innkeep::compliance::transport::HttpTransport;
use innkeep::config::{ComplianceConfig, FiscalConfig, FiscalSchemeName, Secret};
use serde_json::{Value, json};

use super::cis_sim::{Sim, pki};
use super::{Spawn, TestApp, eventually};

pub const WAIT: Duration = Duration::from_secs(20);

pub const OIB: &str = "98765432106";

pub fn config(sim: &Sim) -> FiscalConfig {
    FiscalConfig {
        scheme: FiscalSchemeName::HrCis,
        endpoint: sim.url(),
        certificate: Some(sim.pki.p12.clone()),
        certificate_password: Secret::new(pki::PASSWORD),
        ca_certificate: Some(sim.pki.ca_pem.clone()),
        oib: OIB.into(),
        operator_oib: "69435151530".into(),
        premises: "POSL1".into(),
        device: "1".into(),
        in_vat_system: true,
        ..FiscalConfig::default()
    }
}

/// The fiscal scheme against `sim` and its configuration; calls time out after 4 s
/// (generous: CI machines are slow).
pub fn scheme(sim: &Sim) -> (FiscalConfig, Arc<dyn innkeep::compliance::FiscalScheme>) {
    let f = config(sim);
    let creds = Arc::new(innkeep::compliance::fiscal_credentials(&f).unwrap());
    let transport = HttpTransport::with_client_certificate(Duration::from_secs(4), &creds).unwrap();
    let scheme = cis::Cis::new(cis::Settings::from(&f), creds, Arc::new(transport));
    (f, Arc::new(scheme))
}

/// A Croatian hotel fiscalizing with the simulator.
pub async fn hotel(sim: &Sim) -> TestApp {
    hotel_configured(sim, |_| {}).await
}

/// [`hotel`], its configuration changed by `change` besides.
pub async fn hotel_configured(
    sim: &Sim,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    let (f, fiscal) = scheme(sim);
    let compliance = Compliance {
        fiscal,
        ..Compliance::default()
    };
    let cfg = ComplianceConfig {
        fiscal: f,
        ..Default::default()
    };
    let app = Spawn::new()
        .config(|c| {
            c.compliance = cfg;
            change(c);
        })
        .compliance(compliance)
        .start()
        .await;
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());
    app.put(
        "/v1/settings",
        json!({"time_zone": "Europe/Zagreb", "currency": "EUR", "default_tax_rate": 1300}),
    )
    .await
    .expect(200);
    app
}

/// A cash sale of 2 × 19.99 at 25 % and 1 × 5.00 at 13 %.
pub async fn sale(app: &TestApp, method: &str) -> Value {
    let guest = app.guest("Ivana", "Horvat").await;
    app.post(
        "/v1/invoices",
        json!({"guest_id": guest, "payment_method": method, "lines": [
            {"description": "Wine", "quantity": 2, "unit_price": 1999, "tax_rate": 2500},
            {"description": "Breakfast", "quantity": 1, "unit_price": 500, "tax_rate": 1300}]}),
    )
    .await
    .expect(201)
    .body
}

pub async fn fiscal_is(app: &TestApp, id: &str, status: &str) -> Value {
    eventually(
        WAIT,
        &format!("invoice {id} fiscal status {status}"),
        || async {
            let inv = app.get(&format!("/v1/invoices/{id}")).await.body;
            if inv["fiscal"]["status"] == status {
                Ok(inv)
            } else {
                Err(inv["fiscal"].clone())
            }
        },
    )
    .await
}

pub async fn submission_of(app: &TestApp, invoice: &str) -> Value {
    let subs = app
        .all("/v1/compliance/submissions?kind=fiscal_receipt")
        .await;
    let s = subs.iter().find(|s| s["subject_id"] == invoice).unwrap();
    app.get(&format!(
        "/v1/compliance/submissions/{}",
        s["id"].as_str().unwrap()
    ))
    .await
    .expect(200)
    .body
}

/// Moves the server's clock on, so the queue's next attempt falls due.
pub fn later(app: &TestApp, minutes: i64) {
    let now = app.clock().now();
    app.clock()
        .set_now(now + chrono::Duration::minutes(minutes));
}

pub fn zki_like(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == 32
            && s.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    })
}

/// Issues a credit note reversing invoice `id` in full for `reason` (201 expected): the
/// credit note.
pub async fn credit_note(app: &TestApp, id: &str, reason: &str) -> Value {
    app.post(
        "/v1/invoices",
        json!({"corrects_invoice_id": id, "reason": reason}),
    )
    .await
    .expect(201)
    .body
}
