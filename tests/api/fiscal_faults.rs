//! Croatian fiscal receipts, continued: refusals and injected faults, the sealed fields in
//! the database, gapless numbers under concurrency and across the new year, and the
//! certificate and deadline warnings at the command line.

use std::sync::Arc;
use std::time::Duration;

use innkeep::compliance::Compliance;
use innkeep::config::{ComplianceConfig, Secret};
use serde_json::{Value, json};

use crate::support::cis_sim::{Fault, HELD_JIR, Sim, pki};
use crate::support::fiscal::{OIB, config, fiscal_is, hotel, later, sale, submission_of};

#[tokio::test]
async fn refusals_and_faults_end_in_the_right_state() {
    let sim = Sim::start();
    let app = hotel(&sim).await;

    // s004: refused, failed, with the event; a retry after the fix delivers it late.
    sim.inject(Fault::S004);
    let a = sale(&app, "cash").await;
    let a_id = a["id"].as_str().unwrap();
    let failed = fiscal_is(&app, a_id, "failed").await;
    assert!(
        failed["fiscal"]["last_error"]
            .as_str()
            .unwrap()
            .contains("s004")
    );
    let s = submission_of(&app, a_id).await;
    assert_eq!(s["status"], "rejected");
    let events = app.all_events().await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "invoice.fiscalization_failed" && e["data"]["id"] == a_id)
    );
    app.post(
        &format!(
            "/v1/compliance/submissions/{}/retry",
            s["id"].as_str().unwrap()
        ),
        json!({}),
    )
    .await
    .expect(202);
    fiscal_is(&app, a_id, "fiscalized").await;
    assert!(sim.received().last().unwrap().late);

    // HTTP 500: offline, then delivered on the next attempt.
    sim.inject(Fault::Http500);
    let b = sale(&app, "card").await;
    let b_id = b["id"].as_str().unwrap();
    let off = fiscal_is(&app, b_id, "offline").await;
    assert!(
        off["fiscal"]["last_error"]
            .as_str()
            .unwrap()
            .contains("HTTP 500")
    );
    later(&app, 2);
    fiscal_is(&app, b_id, "fiscalized").await;

    // A timeout and a lost answer after CIS recorded the receipt: the resend gets the JIR
    // CIS already gave; there is never a second receipt.
    for fault in [Fault::Timeout(Duration::from_secs(6)), Fault::LoseAnswer] {
        sim.inject(fault);
        let c = sale(&app, "cash").await;
        let c_id = c["id"].as_str().unwrap();
        fiscal_is(&app, c_id, "offline").await;
        later(&app, 2);
        let done = fiscal_is(&app, c_id, "fiscalized").await;
        let number = c["fiscal"]["receipt_number"].as_str().unwrap();
        let copies: Vec<_> = sim
            .received()
            .into_iter()
            .filter(|r| r.number == number)
            .collect();
        assert_eq!(copies.len(), 2, "{fault:?}");
        assert_eq!(copies[0].jir, copies[1].jir);
        assert!(!copies[0].late && copies[1].late);
        assert_ne!(copies[0].message_id, copies[1].message_id);
        assert_eq!(
            done["fiscal"]["authority_reference"],
            copies[0].jir.clone().unwrap().as_str()
        );
    }

    // A receipt CIS already holds is answered with the JIR it gave then, which innkeep keeps.
    sim.inject(Fault::Duplicate);
    let d = sale(&app, "cash").await;
    let d_id = d["id"].as_str().unwrap();
    let done = fiscal_is(&app, d_id, "fiscalized").await;
    assert_eq!(done["fiscal"]["authority_reference"], HELD_JIR);
    assert!(
        done["fiscal"]["qr_payload"]
            .as_str()
            .unwrap()
            .contains(&format!("jir={HELD_JIR}"))
    );
    assert_eq!(sim.violations(), Vec::<String>::new());
}

#[tokio::test]
async fn sealed_fields_never_change_in_the_database() {
    let sim = Sim::start();
    let mut app = hotel(&sim).await;
    let inv = sale(&app, "cash").await;
    let id = inv["id"].as_str().unwrap().to_string();
    fiscal_is(&app, &id, "fiscalized").await;
    app.stop().await;
    let conn = rusqlite::Connection::open(app.dir.as_ref().unwrap().path().join("innkeep.sqlite3"))
        .unwrap();
    for sql in [
        "UPDATE fiscal_receipts SET zki = 'x'",
        "UPDATE fiscal_receipts SET number = number + 1",
        "UPDATE fiscal_receipts SET total = 1",
        "UPDATE fiscal_receipts SET issued_at = '01.01.2026T00:00:00'",
        "UPDATE fiscal_receipts SET receipt = '{}'",
        "UPDATE fiscal_receipts SET jir = 'another'",
        "DELETE FROM fiscal_receipts",
        "UPDATE invoices SET fiscal = json_set(fiscal, '$.local_proof', 'x')",
        "UPDATE invoices SET fiscal = json_set(fiscal, '$.receipt_number', '9/POSL1/1')",
        "UPDATE invoices SET fiscal = json_set(fiscal, '$.authority_reference', 'another')",
        "UPDATE invoices SET fiscal = json_set(fiscal, '$.deliver_by', '2030-01-01T00:00:00Z')",
    ] {
        let err = conn.execute(sql, []).unwrap_err().to_string();
        assert!(
            err.contains("sealed") || err.contains("never"),
            "{sql}: {err}"
        );
    }
    // What may change still can: the delivery state.
    conn.execute(
        "UPDATE invoices SET fiscal = json_set(fiscal, '$.last_error', 'note')",
        [],
    )
    .unwrap();
}

#[test]
fn the_scheme_reads_its_certificate_from_the_config() {
    let sim = Sim::start();
    let cfg = ComplianceConfig {
        fiscal: config(&sim),
        ..Default::default()
    };
    let c = Compliance::configured(&cfg).unwrap();
    assert_eq!(c.fiscal.name(), "hr-cis");
    let creds = innkeep::compliance::fiscal_credentials(&cfg.fiscal).unwrap();
    assert!(creds.subject.contains(pki::COMPANY_CN), "{}", creds.subject);
    assert_eq!(creds.serial, "19088743");
    assert_eq!(creds.not_after.to_rfc3339(), "2030-01-01T00:00:00+00:00");
    let mut wrong = cfg.clone();
    wrong.fiscal.certificate_password = Secret::new("nope");
    let err = Compliance::configured(&wrong).err().unwrap();
    assert!(err.contains("certificate_password"), "{err}");
}

#[tokio::test]
async fn receipt_numbers_are_gapless_under_concurrency_and_restart_each_year() {
    let sim = Sim::start();
    let app = Arc::new(hotel(&sim).await);
    let guest = app.guest("Ana", "Babić").await;
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let (app, guest) = (app.clone(), guest.clone());
        tasks.push(tokio::spawn(async move {
            app.post(
                "/v1/invoices",
                json!({"guest_id": guest, "payment_method": "cash",
                       "lines": [{"description": "Coffee", "quantity": 1, "unit_price": 250, "tax_rate": 2500}]}),
            )
            .await
            .expect(201)
            .body["fiscal"]["receipt_number"]
                .as_str()
                .unwrap()
                .to_string()
        }));
    }
    let mut numbers = Vec::new();
    for t in tasks {
        let n = t.await.unwrap();
        numbers.push(n.split('/').next().unwrap().parse::<i64>().unwrap());
    }
    numbers.sort();
    assert_eq!(numbers, (1..=16).collect::<Vec<_>>());

    // 23:59 on New Year's Eve in Zagreb is still 2026; a minute later numbering restarts.
    app.clock().set_now("2026-12-31T22:59:00Z".parse().unwrap());
    let last = sale(&app, "cash").await;
    assert_eq!(last["fiscal"]["receipt_number"], "17/POSL1/1");
    app.clock().set_now("2026-12-31T23:00:30Z".parse().unwrap());
    let first = sale(&app, "cash").await;
    assert_eq!(first["fiscal"]["receipt_number"], "1/POSL1/1");
    assert!(
        first["fiscal"]["qr_payload"]
            .as_str()
            .unwrap()
            .contains("&datv=20270101_0000&")
    );
    fiscal_is(&app, first["id"].as_str().unwrap(), "fiscalized").await;
    assert_eq!(sim.violations(), Vec::<String>::new());
}

#[tokio::test]
async fn the_cli_checks_the_certificate_and_warns_about_deadlines() {
    use crate::support::binary::{innkeep, run_ok};
    let sim = Sim::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&sim.pki.p12, dir.path().join("company.p12")).unwrap();
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!(
            "[compliance.fiscal]\nscheme = \"hr-cis\"\nendpoint = \"{}\"\ncertificate = \"company.p12\"\n\
             certificate_password = \"{}\"\nca_certificate = \"{}\"\noib = \"{OIB}\"\noperator_oib = \"{OIB}\"\n\
             premises = \"POSL1\"\ndevice = \"1\"\nin_vat_system = true\n",
            sim.url(),
            pki::PASSWORD,
            sim.pki.ca_pem.display()
        ),
    )
    .unwrap();
    let out = run_ok(dir.path(), &["config", "check"]);
    assert!(out.contains("fiscal:         hr-cis"), "{out}");
    assert!(out.contains(pki::COMPANY_CN), "{out}");
    assert!(
        out.contains("expires:        2030-01-01T00:00:00.000Z"),
        "{out}"
    );
    assert!(
        !out.contains(pki::PASSWORD),
        "the password is never shown: {out}"
    );

    // The same through the environment; a wrong password is an error that says so.
    let other = tempfile::tempdir().unwrap();
    let env = |cmd: &mut std::process::Command, password: &str| {
        cmd.env("INNKEEP_COMPLIANCE__FISCAL__SCHEME", "hr-cis")
            .env("INNKEEP_COMPLIANCE__FISCAL__CERTIFICATE", &sim.pki.p12)
            .env("INNKEEP_COMPLIANCE__FISCAL__CERTIFICATE_PASSWORD", password)
            .env("INNKEEP_COMPLIANCE__FISCAL__OIB", OIB)
            .env("INNKEEP_COMPLIANCE__FISCAL__OPERATOR_OIB", "12345678901")
            .env("INNKEEP_COMPLIANCE__FISCAL__PREMISES", "POSL1")
            .env("INNKEEP_COMPLIANCE__FISCAL__DEVICE", "1")
            .env("INNKEEP_COMPLIANCE__FISCAL__IN_VAT_SYSTEM", "false");
    };
    let mut cmd = innkeep(other.path());
    env(&mut cmd, pki::PASSWORD);
    let out = cmd.args(["config", "check", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["fiscal_certificate"]["subject"]
            .as_str()
            .unwrap()
            .contains(pki::COMPANY_CN)
    );
    assert_eq!(
        v["config"]["compliance"]["fiscal"]["certificate_password"],
        "[redacted]"
    );
    assert_eq!(v["config"]["compliance"]["fiscal"]["in_vat_system"], false);
    assert!(
        v["warnings"][0].as_str().unwrap().contains("operator_oib"),
        "{v}"
    );
    let mut cmd = innkeep(other.path());
    env(&mut cmd, "wrong");
    let out = cmd.args(["config", "check"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("certificate_password"));

    // A receipt issued 30 hours ago and still undelivered (the CLI reads the wall clock)
    // makes `submissions list` warn.
    sim.set_offline(true);
    let app = hotel(&sim).await;
    app.clock()
        .set_now(chrono::Utc::now() - chrono::Duration::hours(30));
    let inv = sale(&app, "cash").await;
    fiscal_is(&app, inv["id"].as_str().unwrap(), "offline").await;
    let data = app.dir.as_ref().unwrap().path().to_path_buf();
    let out = innkeep(&data)
        .args(["submissions", "list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("DUE SOON"), "{stdout}");
    assert!(
        stderr.contains("warning: 1 fiscal_receipt submission(s) (retrying) must reach the authority within a day"),
        "{stderr}"
    );
}
