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
    let mut cfg = ComplianceConfig {
        registration: config(sim),
        ..Default::default()
    };
    let transport = Arc::new(HttpTransport::new(Duration::from_millis(1500)));
    let mut compliance = Compliance::from_config(&cfg, transport).unwrap();
    if let Some(cis) = cis {
        let (f, fiscal) = super::fiscal::scheme(cis);
        cfg.fiscal = f;
        compliance.fiscal = fiscal;
    }
    sim.set_today(DAY.parse().unwrap());
    let app = Spawn::new()
        .config(|c| c.compliance = cfg)
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
