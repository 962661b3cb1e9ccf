//! A Croatian hotel registering its guests with the eVisitor simulator (and, when asked,
//! fiscalizing with the CIS simulator): the configuration, the start, and guests.

use std::sync::Arc;
use std::time::Duration;

use innkeep::compliance::Compliance;
use innkeep::compliance::transport::HttpTransport;
use innkeep::config::{ComplianceConfig, RegistrationConfig, RegistrationSchemeName, Secret};
use serde_json::{Value, json};

use super::evisitor_sim::{FACILITY, PASSWORD, Sim, USER};
use super::{Spawn, TestApp, eventually};

/// The hotel's today.
pub const DAY: &str = "2026-11-22";
/// How long outcomes may take.
pub const WAIT: Duration = Duration::from_secs(15);

/// The registration configuration against `sim`.
pub fn config(sim: &Sim) -> RegistrationConfig {
    RegistrationConfig {
        scheme: RegistrationSchemeName::HrEvisitor,
        endpoint: sim.url(),
        username: USER.into(),
        password: Secret::new(PASSWORD),
        facility: FACILITY.into(),
        tax_category: "14".into(),
        ..Default::default()
    }
}

/// A hotel in Split registering with `sim` (and fiscalizing with `cis`), its clock at
/// [`DAY`] 09:30 UTC, once the code tables are fetched; calls time out after 1.5 s.
pub async fn hotel(sim: &Sim, cis: Option<&super::cis_sim::Sim>) -> TestApp {
    hotel_with(sim, cis, None).await
}

/// [`hotel`], also sending e-invoices to `mer` when given (calls to it time out after 6 s).
pub async fn hotel_with(
    sim: &Sim,
    cis: Option<&super::cis_sim::Sim>,
    mer: Option<&super::mer_sim::Sim>,
) -> TestApp {
    hotel_configured(sim, cis, mer, |_| {}).await
}

/// [`hotel_with`], its configuration changed by `change` besides.
pub async fn hotel_configured(
    sim: &Sim,
    cis: Option<&super::cis_sim::Sim>,
    mer: Option<&super::mer_sim::Sim>,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    let mut cfg = ComplianceConfig {
        registration: config(sim),
        ..Default::default()
    };
    let transport = Arc::new(HttpTransport::new(Duration::from_millis(1500)));
    if let Some(mer) = mer {
        cfg.einvoice = super::eracun::config(mer);
    }
    let mut compliance = Compliance::from_config(&cfg, transport).unwrap();
    if let Some(mer) = mer {
        let slow = Arc::new(HttpTransport::new(Duration::from_secs(6)));
        let e = ComplianceConfig {
            einvoice: super::eracun::config(mer),
            ..Default::default()
        };
        compliance.einvoice = Compliance::from_config(&e, slow).unwrap().einvoice;
    }
    if let Some(cis) = cis {
        let (f, fiscal) = super::fiscal::scheme(cis);
        cfg.fiscal = f;
        compliance.fiscal = fiscal;
    }
    sim.set_today(DAY.parse().unwrap());
    let app = Spawn::new()
        .config(|c| {
            c.compliance = cfg;
            change(c);
        })
        .compliance(compliance)
        .start()
        .await;
    app.clock()
        .set_now(format!("{DAY}T09:30:00Z").parse().unwrap());
    let mut settings = super::in_country("HR");
    settings["time_zone"] = json!("Europe/Zagreb");
    settings["currency"] = json!("EUR");
    settings["default_tax_rate"] = json!(1300);
    app.put("/v1/settings", settings).await.expect(200);
    tables_fetched(&app).await;
    app
}

/// Waits until the seven eVisitor tables are loaded.
pub async fn tables_fetched(app: &TestApp) {
    eventually(WAIT, "eVisitor's code tables fetched", || async {
        let versions = app
            .db()
            .read(innkeep::store::codes::versions)
            .await
            .unwrap();
        let n = versions
            .iter()
            .filter(|t| t.scheme == "hr-evisitor")
            .count();
        if n == 7 { Ok(()) } else { Err(n) }
    })
    .await
}

/// A German guest with everything eVisitor needs (resident in Munich, EU).
pub fn german(first: &str, last: &str, gender: &str, born: &str, passport: &str) -> Value {
    json!({"first_name": first, "last_name": last, "gender": gender, "birth_date": born,
           "nationality": "DE", "birth_place": {"country": "DE", "municipality": "München"},
           "address": {"line1": "Leopoldstraße 12", "city": "München", "country": "DE"},
           "document": {"type": "passport", "number": passport, "issuing_country": "DE"}})
}

/// A guest created from `body`; its id.
pub async fn guest(app: &TestApp, body: Value) -> String {
    app.post("/v1/guests", body).await.expect(201).id()
}

/// Books a room for `guests` from today for `nights`; the reservation id.
pub async fn book(app: &TestApp, guests: &[String], nights: u64) -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let rt = app.room_type(&format!("T{n}"), 4).await;
    let room = app.room(&format!("R{n}"), &rt).await;
    let departure = DAY.parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(nights);
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guests[0], "guest_ids": guests[1..],
            "room_type_id": rt, "room_id": room, "arrival": DAY, "departure": departure.to_string(),
            "adults": guests.len()}),
    )
    .await
    .expect(201)
    .id()
}

pub async fn checked_in(app: &TestApp, r: &str) -> String {
    let answer = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    answer.body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string()
}

pub async fn status_is(app: &TestApp, id: &str, want: &str) -> Value {
    crate::support::submission_is(app, id, want, WAIT).await
}

/// The newest submission of `kind` about reservation `r`.
pub async fn newest(app: &TestApp, r: &str, kind: &str) -> Value {
    eventually(WAIT, &format!("a {kind} submission for {r}"), || async {
        let list = app
            .get(&format!("/v1/compliance/submissions?kind={kind}&limit=100"))
            .await
            .body;
        let found = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|s| s["subject_id"] == r)
            .cloned();
        found.ok_or(list["data"].as_array().unwrap().len())
    })
    .await
}

/// Asks for submission `id` to be sent again now.
pub async fn retry(app: &TestApp, id: &str) {
    app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
        .await
        .expect(202);
}

pub fn fields_of(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect()
}
