//! A Croatian hotel sending e-invoices through the moj-eRačun simulator (and, when asked,
//! fiscalizing desk receipts with the CIS simulator): the configuration, the start, a stay
//! billed to a company, and waiting for an e-invoice's status.

use std::sync::Arc;
use std::time::Duration;

use innkeep::compliance::Compliance;
use innkeep::compliance::transport::HttpTransport;
use innkeep::config::einvoice::{EInvoiceConfig, EInvoiceSchemeName};
use innkeep::config::{ComplianceConfig, Secret};
use serde_json::{Value, json};

use super::mer_sim::{COMPANY, PASSWORD, SOFTWARE, Sim, USER};
use super::{Spawn, TestApp, eventually};

/// How long outcomes may take.
pub const WAIT: Duration = Duration::from_secs(20);
/// The buyer: a Croatian company with a valid OIB.
pub const BUYER_OIB: &str = "12345678903";

/// The e-invoice configuration against `sim`.
pub fn config(sim: &Sim) -> EInvoiceConfig {
    EInvoiceConfig {
        scheme: EInvoiceSchemeName::HrEracun,
        endpoint: sim.url(),
        username: USER.into(),
        password: Secret::new(PASSWORD),
        company_id: COMPANY.into(),
        software_id: SOFTWARE.into(),
        iban: "HR1210010051863000160".into(),
        operator_name: "Recepcija".into(),
        operator_oib: "98765432106".into(),
        ..Default::default()
    }
}

/// A hotel in Split sending e-invoices to `sim` (and fiscalizing receipts with `cis`), its
/// clock at 2026-11-22 09:30 UTC, with a city tax of 1.60 per person-night; calls time out
/// after 6 s (the simulator checks each document with the official rules, which takes a second or two).
pub async fn hotel(sim: &Sim, cis: Option<&super::cis_sim::Sim>) -> TestApp {
    start(config(sim), cis).await
}

/// [`hotel`] with its e-invoice settings changed by `change`.
pub async fn hotel_with(sim: &Sim, change: impl FnOnce(&mut EInvoiceConfig)) -> TestApp {
    let mut e = config(sim);
    change(&mut e);
    start(e, None).await
}

async fn start(einvoice: EInvoiceConfig, cis: Option<&super::cis_sim::Sim>) -> TestApp {
    let mut cfg = ComplianceConfig {
        einvoice,
        ..Default::default()
    };
    let transport = Arc::new(HttpTransport::new(Duration::from_secs(6)));
    let mut compliance = Compliance::from_config(&cfg, transport).unwrap();
    if let Some(cis) = cis {
        let (f, fiscal) = super::fiscal::scheme(cis);
        cfg.fiscal = f;
        compliance.fiscal = fiscal;
    }
    let app = Spawn::new()
        .config(|c| c.compliance = cfg)
        .compliance(compliance)
        .start()
        .await;
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());
    let mut settings = super::in_country("HR");
    settings["seller"]["address"]["postal_code"] = json!("21000");
    settings["time_zone"] = json!("Europe/Zagreb");
    settings["currency"] = json!("EUR");
    settings["default_tax_rate"] = json!(1300);
    settings["city_tax"] = json!({"amount_per_person_night": 160, "tax_rate": 0});
    app.put("/v1/settings", settings).await.expect(200);
    app
}

/// The company the stays are billed to.
pub fn company() -> Value {
    json!({"kind": "business", "name": "Tvrtka B d.o.o.", "vat_id": format!("HR{BUYER_OIB}"),
           "address": {"line1": "Ulica 2", "city": "Rijeka", "postal_code": "51000",
                       "country": "HR"}})
}

/// A two-night stay for two in a room at 120.00, checked in, then checked out billed to the
/// company to pay later (or as `checkout` says): the check-out's answer.
pub async fn stay_billed(app: &TestApp, checkout: Value) -> Value {
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("7", &rt).await;
    let guest = app.guest("Ana", "Kovač").await;
    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
                   "arrival": "2026-11-22", "departure": "2026-11-24", "adults": 2,
                   "nightly_rate": 12000}),
        )
        .await
        .expect(201)
        .body;
    let id = res["id"].as_str().unwrap().to_string();
    app.post("/v1/check-in", json!({"reservation_id": id}))
        .await
        .expect(200);
    app.clock().set_now("2026-11-24T08:30:00Z".parse().unwrap());
    let mut body = checkout;
    body["reservation_id"] = json!(id);
    app.post("/v1/check-out", body).await.expect(200).body
}

/// Waits until the invoice's e-invoice is at `status`: the invoice.
pub async fn einvoice_is(app: &TestApp, id: &str, status: &str) -> Value {
    eventually(
        WAIT,
        &format!("invoice {id} e-invoice {status}"),
        || async {
            let inv = app.get(&format!("/v1/invoices/{id}")).await.body;
            if inv["fiscal"]["einvoice"]["status"] == status {
                Ok(inv)
            } else {
                Err(inv["fiscal"].clone())
            }
        },
    )
    .await
}
