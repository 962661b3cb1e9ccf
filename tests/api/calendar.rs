//! The compliance calendar and the inspection pack, for an Italian hotel with a telematic
//! cash register: a receipt fiscalized shows as the day's duty done; the day closed shows
//! its register closure done, a day not closed shows it late; the month's ISTAT movement
//! and the year's city-tax return are listed as the hotel's own filings; the inspection
//! pack holds the calendar, the submission with its reference, and the day's certificate
//! whose hash an inspector can recompute; the desk's page in Italian passes axe.

use std::io::Read;
use std::time::Duration;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::desk::{Browser, staff};
use crate::support::eventually;
use crate::support::rt_sim::Sim as RtSim;
use crate::support::sdi::{hotel_with_register, italian_guest, stay};
use crate::support::sdi_sim::Sim as SdiSim;

fn duty<'a>(cal: &'a Value, name: &str, period: &str) -> &'a Value {
    cal["duties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["duty"] == name && d["period"] == period)
        .unwrap_or_else(|| panic!("no {name} for {period}: {cal}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_calendar_proves_each_duty_and_the_pack_holds_the_proofs() {
    let (rt, sdi) = (RtSim::start().await, SdiSim::start().await);
    let app = hotel_with_register(Some(&sdi), &rt).await;
    let out = stay(
        &app,
        italian_guest(),
        json!({"payments": [{"method": "cash"}]}),
    )
    .await
    .expect(200)
    .body;
    let id = out["invoice"]["id"].as_str().unwrap().to_string();
    let cash = out["invoice"]["totals"]["gross"].as_i64().unwrap();
    eventually(Duration::from_secs(20), "the receipt printed", || async {
        let inv = app.get(&format!("/v1/invoices/{id}")).await.body;
        if inv["fiscal"]["status"] == "fiscalized" {
            Ok(())
        } else {
            Err(inv["fiscal"].clone())
        }
    })
    .await;
    // The next morning the 24th is closed, and the register with it.
    app.clock().set_now("2026-11-25T08:00:00Z".parse().unwrap());
    let closed = app
        .post("/v1/day-close", json!({"cash_counted": cash}))
        .await
        .expect(201)
        .body;
    assert_eq!(closed["date"], "2026-11-24");
    assert!(
        closed["cash_register"]
            .as_str()
            .unwrap()
            .starts_with("closure "),
        "{closed}"
    );

    let cal = app
        .get("/v1/compliance/calendar?from=2026-11-01&to=2026-12-01")
        .await
        .expect(200)
        .body;
    assert_eq!(
        duty(&cal, "cash_register_closure", "2026-11-24")["state"],
        "done"
    );
    assert!(
        cal["duties"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["duty"] != "cash_register_closure"
                || d["period"].as_str() >= Some("2026-11-24")),
        "no closure is owed before the first receipt: {cal}"
    );
    assert_eq!(
        duty(&cal, "cash_register_closure", "2026-11-25")["state"],
        "pending"
    );
    let istat = duty(&cal, "istat_movement", "2026-10");
    assert_eq!(
        (istat["due"].as_str(), istat["state"].as_str()),
        (Some("2026-11-05"), Some("manual"))
    );
    // The receipt is due at the register within 12 days: on the calendar of December.
    let december = app
        .get("/v1/compliance/calendar?from=2026-12-01&to=2027-01-01")
        .await
        .expect(200)
        .body;
    let receipts = duty(&december, "fiscal_receipt", "2026-12-06");
    assert_eq!(
        (receipts["state"].as_str(), receipts["count"].as_i64()),
        (Some("done"), Some(1))
    );
    let next = app
        .get("/v1/compliance/calendar?from=2027-06-01&to=2027-07-01")
        .await
        .expect(200)
        .body;
    assert_eq!(duty(&next, "city_tax_return", "2026")["due"], "2027-06-30");
    let bad = app
        .get("/v1/compliance/calendar?from=2026-12-01&to=2026-11-01")
        .await
        .expect(422);
    assert_eq!(bad.body["errors"][0]["field"], "to");

    let url = app.url("/v1/compliance/inspection-pack?from=2026-11-01&to=2026-12-01");
    let pack = app
        .client
        .get(&url)
        .bearer_auth(&app.token)
        .send()
        .await
        .unwrap();
    assert_eq!(pack.status(), 200);
    assert_eq!(pack.headers()["content-type"], "application/octet-stream");
    let bytes = pack.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut read = |name: &str| {
        let mut s = String::new();
        zip.by_name(name)
            .unwrap_or_else(|_| panic!("{name} missing"))
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    assert!(read("README.txt").contains("innkeep inspection pack"));
    assert!(
        read("calendar.csv").contains("cash_register_closure,2026-11-24,2026-11-24,done,1,1"),
        "the calendar as CSV"
    );
    let submissions = read("submissions.csv");
    assert!(
        submissions
            .lines()
            .any(|l| l.contains(&id) && l.contains(",accepted,")),
        "{submissions}"
    );
    let body = read("day-closes/2026-11-24.json");
    let hash = read("day-closes/2026-11-24.sha256");
    let mut h = Sha256::new();
    h.update(b"innkeep day certificate 1\n");
    h.update(body.as_bytes());
    assert_eq!(
        format!("{:x}\n", h.finalize()),
        hash,
        "an inspector recomputes the hash"
    );
    assert_eq!(hash.trim(), closed["hash"]);

    // Two days on, the 25th was never closed: its register closure is late.
    app.clock().set_now("2026-11-27T08:00:00Z".parse().unwrap());
    let later = app
        .get("/v1/compliance/calendar?from=2026-11-01&to=2026-12-01")
        .await
        .expect(200)
        .body;
    assert_eq!(
        duty(&later, "cash_register_closure", "2026-11-25")["state"],
        "overdue"
    );

    let password = staff(&app, "root", "admin").await;
    let b = Browser::sign_in(&app, "root", &password).await;
    let page = b.get("/compliance/calendar?month=2026-11").await;
    assert_eq!(page.status, 200);
    assert!(
        page.text
            .contains("href=\"/compliance/inspection-pack?month=2026-11\"")
    );
    let Some(c) = crate::support::browser::chrome_speaking(1280, 1200, "it").await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "root", &password).await;
    c.client
        .goto(&format!("{base}/compliance/calendar?month=2026-11"))
        .await
        .unwrap();
    let text = c.main_text_with("a cura vostra").await;
    assert!(
        text.contains("Chiusura giornaliera del registratore telematico"),
        "{text}"
    );
    c.axe("Compliance calendar").await;
    c.screenshot("desk-compliance-calendar-it").await;
}
