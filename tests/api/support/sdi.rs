//! An Italian hotel sending FatturaPA through the SdI intermediary simulator: the
//! configuration, the start (with a cash register, and registering its guests), a stay
//! checked out, and waiting for an e-invoice's status.

use std::sync::Arc;

use innkeep::compliance::Compliance;
use innkeep::compliance::transport::HttpTransport;
use innkeep::config::einvoice::{EInvoiceConfig, EInvoiceSchemeName, IntermediaryName};
use innkeep::config::{ComplianceConfig, Secret};
use serde_json::{Value, json};

use innkeep::config::fiscal::{FiscalConfig, FiscalSchemeName};

use super::alloggiati_sim::Sim as AlloggiatiSim;
use super::rt_sim::Sim as RtSim;
use super::sdi_sim::{KEY, Sim};
use super::{Spawn, TestApp};

/// The hotel's partita IVA (valid check digit).
pub const SELLER: &str = "06363391001";

/// The e-invoice configuration against `sim` (or the manual mode without one).
pub fn config(sim: Option<&Sim>) -> EInvoiceConfig {
    EInvoiceConfig {
        scheme: EInvoiceSchemeName::ItSdi,
        intermediary: if sim.is_some() {
            IntermediaryName::Invoicetronic
        } else {
            IntermediaryName::Manual
        },
        endpoint: sim.map(Sim::url).unwrap_or_default(),
        api_key: Secret::new(KEY),
        iban: "IT60X0542811101000000123456".into(),
        ..Default::default()
    }
}

/// A hotel in Rimini sending through `sim` (or by hand), its clock at 2026-11-22 09:30 UTC,
/// accommodation at 10 % VAT and a city tax of 3.00 per person-night outside VAT.
pub async fn hotel(sim: Option<&Sim>) -> TestApp {
    start(Some(config(sim)), None, None, |_| {}).await
}

/// [`hotel`] through `sim`, its configuration changed by `change` besides.
pub async fn hotel_configured(
    sim: &Sim,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    start(Some(config(Some(sim))), None, None, change).await
}

/// A hotel in Rimini with a telematic cash register (`rt`) and, when `sdi` is given, its
/// e-invoices through SdI; calls to the register time out after 3 s.
pub async fn hotel_with_register(sdi: Option<&Sim>, rt: &RtSim) -> TestApp {
    start(sdi.map(|s| config(Some(s))), Some(rt), None, |_| {}).await
}

/// The whole Italian hotel: its guests registered with Alloggiati Web (`alloggiati`, the
/// sample code tables loaded), its e-invoices through `sdi`, its receipts from `rt`. (The
/// year in a box's Italian hotel.)
#[allow(dead_code)]
pub async fn hotel_registering(alloggiati: &AlloggiatiSim, sdi: &Sim, rt: &RtSim) -> TestApp {
    hotel_registering_configured(alloggiati, sdi, rt, |_| {}).await
}

/// [`hotel_registering`], its configuration changed by `change` besides.
pub async fn hotel_registering_configured(
    alloggiati: &AlloggiatiSim,
    sdi: &Sim,
    rt: &RtSim,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    let app = start(Some(config(Some(sdi))), Some(rt), Some(alloggiati), change).await;
    super::registration::sample_tables(&app).await;
    app
}

async fn start(
    einvoice: Option<EInvoiceConfig>,
    rt: Option<&RtSim>,
    alloggiati: Option<&AlloggiatiSim>,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    let mut cfg = match alloggiati {
        Some(a) => super::registration::config(a),
        None => ComplianceConfig::default(),
    };
    cfg.einvoice = einvoice.unwrap_or_default();
    let transport = Arc::new(HttpTransport::new(std::time::Duration::from_secs(3)));
    let mut compliance = Compliance::from_config(&cfg, transport.clone()).unwrap();
    if let Some(rt) = rt {
        cfg.fiscal = FiscalConfig {
            scheme: FiscalSchemeName::ItRt,
            rt_url: rt.url(),
            rt_serial: super::rt_sim::SERIAL.into(),
            ..FiscalConfig::default()
        };
        compliance.fiscal = Arc::new(innkeep::compliance::rt::Rt::new(
            innkeep::compliance::rt::Settings {
                url: rt.url(),
                serial: super::rt_sim::SERIAL.into(),
                departments: vec![(2200, 1), (1000, 2), (400, 3), (500, 4), (0, 11)],
            },
            transport,
        ));
    }
    let app = Spawn::new()
        .config(|c| {
            c.compliance = cfg;
            change(c);
        })
        .compliance(compliance)
        .start()
        .await;
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());
    let mut settings = super::in_country("IT");
    settings["seller"]["vat_id"] = json!(SELLER);
    settings["seller"]["address"] = json!({"line1": "Viale Vespucci 12", "city": "Rimini",
        "postal_code": "47921", "region": "RN", "country": "IT"});
    settings["time_zone"] = json!("Europe/Rome");
    settings["currency"] = json!("EUR");
    settings["default_tax_rate"] = json!(1000);
    settings["city_tax"] = json!({"amount_per_person_night": 300, "tax_rate": 0});
    app.put("/v1/settings", settings).await.expect(200);
    app
}

/// An Italian guest with a codice fiscale and a home address.
pub fn italian_guest() -> Value {
    json!({"first_name": "Mario", "last_name": "Rossi", "tax_code": "RSSMRA85T10A562S",
           "address": {"line1": "Via Roma 3", "city": "Bologna", "postal_code": "40121",
                       "region": "BO", "country": "IT"}})
}

/// A two-night stay for two at 120.00 a night for `guest`, checked in and then checked out
/// with `checkout` (its `reservation_id` filled in): the check-out's answer.
pub async fn stay(app: &TestApp, guest: Value, checkout: Value) -> super::reply::Reply {
    let res = checked_in(app, guest).await;
    app.clock().set_now("2026-11-24T08:30:00Z".parse().unwrap());
    let mut body = checkout;
    body["reservation_id"] = json!(res);
    app.post("/v1/check-out", body).await
}

/// A two-night stay for two at 120.00 a night for `guest` from 2026-11-22, checked in: the
/// reservation's id.
pub async fn checked_in(app: &TestApp, guest: Value) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());
    let rt = app.room_type(&format!("D{n}"), 2).await;
    let room = app.room(&format!("1{n}"), &rt).await;
    let guest = app.post("/v1/guests", guest).await.expect(201).id();
    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
                   "arrival": "2026-11-22", "departure": "2026-11-24", "adults": 2,
                   "nightly_rate": 12000}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);
    res
}

/// Waits until invoice `id`'s e-invoice is at `status`, moving the clock on 11 minutes at
/// each look so that the queue's follow-ups come due: the invoice.
pub async fn settles(app: &TestApp, id: &str, status: &str) -> Value {
    super::eventually(
        super::eracun::WAIT,
        &format!("invoice {id} e-invoice {status}"),
        || async {
            super::fiscal::later(app, 11);
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

/// The FatturaPA of invoice `id`, as served.
pub async fn xml(app: &TestApp, id: &str) -> String {
    app.get(&format!("/v1/invoices/{id}/einvoice.xml"))
        .await
        .expect(200)
        .text
}
