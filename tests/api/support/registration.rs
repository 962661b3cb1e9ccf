//! A hotel registering its guests with the Alloggiati Web simulator, shared by the
//! registration tests and the desk's check-in tests.

use std::sync::Arc;
use std::time::Duration;

use innkeep::compliance::Compliance;
use innkeep::compliance::transport::HttpTransport;
use innkeep::config::{ComplianceConfig, RegistrationConfig, RegistrationSchemeName, Secret};
use serde_json::{Value, json};

use super::alloggiati_sim::{PASSWORD, Sim, USER, WS_KEY};
use super::{Spawn, TestApp};

/// The hotel's today.
pub const DAY: &str = "2026-11-22";
/// How long outcomes may take.
pub const WAIT: Duration = Duration::from_secs(15);

/// The hotel's today.
pub fn day() -> chrono::NaiveDate {
    DAY.parse().unwrap()
}

/// The registration configuration against `sim`.
pub fn config(sim: &Sim) -> ComplianceConfig {
    ComplianceConfig {
        registration: RegistrationConfig {
            scheme: RegistrationSchemeName::ItAlloggiati,
            endpoint: sim.url(),
            username: USER.into(),
            password: Secret::new(PASSWORD),
            ws_key: Secret::new(WS_KEY),
            dry_run: false,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A hotel registering with the simulator; calls time out after 1.5 s.
pub async fn hotel(sim: &Sim) -> TestApp {
    start(sim, None).await
}

/// A hotel registering with `sim` that also fiscalizes its invoices with the CIS simulator
/// `cis` (its time zone Zagreb, its currency the euro).
pub async fn hotel_fiscalizing(sim: &Sim, cis: &super::cis_sim::Sim) -> TestApp {
    let app = start(sim, Some(cis)).await;
    app.put(
        "/v1/settings",
        json!({"time_zone": "Europe/Zagreb", "currency": "EUR", "default_tax_rate": 1300}),
    )
    .await
    .expect(200);
    app
}

/// [`hotel`], its configuration changed by `change` besides.
pub async fn hotel_configured(
    sim: &Sim,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    start_with(sim, None, change).await
}

async fn start(sim: &Sim, cis: Option<&super::cis_sim::Sim>) -> TestApp {
    start_with(sim, cis, |_| {}).await
}

async fn start_with(
    sim: &Sim,
    cis: Option<&super::cis_sim::Sim>,
    change: impl FnOnce(&mut innkeep::config::Config),
) -> TestApp {
    let mut cfg = config(sim);
    let transport = Arc::new(HttpTransport::new(Duration::from_millis(1500)));
    let mut compliance = Compliance::from_config(&cfg, transport).unwrap();
    if let Some(cis) = cis {
        let (f, fiscal) = super::fiscal::scheme(cis);
        cfg.fiscal = f;
        compliance.fiscal = fiscal;
    }
    let app = Spawn::new()
        .config(|c| {
            c.compliance = cfg;
            change(c);
        })
        .compliance(compliance)
        .start()
        .await;
    sample_tables(&app).await;
    app
}

/// Sets the hotel's clock to [`DAY`] and loads the sample code tables.
pub async fn sample_tables(app: &TestApp) {
    let at = format!("{DAY}T10:00:00Z").parse().unwrap();
    app.clock().set_now(at);
    for (table, text) in [
        (
            "Luoghi",
            include_str!("../../../assets/compliance/it-alloggiati/Luoghi.sample.csv"),
        ),
        (
            "Tipi_Documento",
            include_str!("../../../assets/compliance/it-alloggiati/Tipi_Documento.sample.csv"),
        ),
    ] {
        innkeep::service::registration::import_table(app.db(), table, text.into(), "sample".into())
            .await
            .unwrap();
    }
}

/// An Italian guest's body, born in `town` (`province` when not empty).
pub fn italian(
    first: &str,
    last: &str,
    gender: &str,
    born: &str,
    town: &str,
    province: &str,
) -> Value {
    let mut g = json!({"first_name": first, "last_name": last, "gender": gender, "birth_date": born,
           "nationality": "IT", "birth_place": {"country": "IT", "municipality": town}});
    if !province.is_empty() {
        g["birth_place"]["region"] = json!(province);
    }
    g
}
