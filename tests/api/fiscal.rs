//! Croatian fiscal receipts (hr-cis), end to end against the CIS simulator over TLS with a
//! client certificate: online issue with JIR and QR link, a check-out offline delivered
//! late with NakDost, and credit notes (the ZKI golden vector is a unit test of
//! `compliance::cis::receipt`; faults and the sealed fields are in `fiscal_faults`).

use serde_json::json;

use crate::support::cis_sim::Sim;
use crate::support::fiscal::{WAIT, fiscal_is, hotel, later, sale, submission_of, zki_like};

#[tokio::test]
async fn online_issue_gets_its_jir_and_the_qr_link_carries_it() {
    let sim = Sim::start();
    let app = hotel(&sim).await;
    let inv = sale(&app, "cash").await;
    let id = inv["id"].as_str().unwrap();
    let f = &inv["fiscal"];
    assert_eq!(f["scheme"], "hr-cis");
    assert!(zki_like(&f["local_proof"]), "{f}");
    assert_eq!(f["receipt_number"], "1/POSL1/1");
    assert!(
        f["deliver_by"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-24T09:30:0"),
        "{f}"
    );
    let zki = f["local_proof"].as_str().unwrap();
    assert_eq!(
        f["qr_payload"],
        format!("https://porezna.gov.hr/rn?zki={zki}&datv=20261122_1030&izn=4498")
    );

    let done = fiscal_is(&app, id, "fiscalized").await;
    assert_eq!(sim.violations(), Vec::<String>::new());
    let got = sim.received();
    assert_eq!(got.len(), 1);
    let r = &got[0];
    assert!(!r.late);
    assert_eq!(
        (r.number.as_str(), r.total.as_str(), r.payment.as_str()),
        ("1/POSL1/1", "44.98", "G")
    );
    assert_eq!(r.zki, zki);
    assert_eq!(
        r.vat,
        vec![
            ("13.00".into(), "4.42".into(), "0.58".into()),
            ("25.00".into(), "31.98".into(), "8.00".into())
        ]
    );
    let jir = r.jir.clone().unwrap();
    let f = &done["fiscal"];
    assert_eq!(f["authority_reference"], jir.as_str());
    assert_eq!(f["local_proof"], zki);
    assert_eq!(
        f["qr_payload"],
        format!("https://porezna.gov.hr/rn?jir={jir}&datv=20261122_1030&izn=4498")
    );
    assert!(f["sent_at"].is_string() && f["last_error"].is_null());
    let s = submission_of(&app, id).await;
    assert_eq!(
        (s["status"].as_str(), s["attempts"].as_i64()),
        (Some("accepted"), Some(1))
    );
    assert_eq!(s["authority_reference"], jir.as_str());
    let request = s["exchanges"][0]["request"].as_str().unwrap();
    assert!(
        request.contains("<tns:NakDost>false</tns:NakDost>"),
        "{request}"
    );
    let events = app.all_events().await;
    let fiscalized: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "invoice.fiscalized")
        .collect();
    assert_eq!(fiscalized.len(), 1);
    assert_eq!(
        fiscalized[0]["data"]["fiscal"]["authority_reference"],
        jir.as_str()
    );
    // The authority's answer is recorded by innkeep's queue, not by whoever issued it.
    assert_eq!(fiscalized[0]["actor"]["type"], "system");
    assert_eq!(fiscalized[0]["actor"]["id"], "queue");

    // Numbers run on per premises and device; since 2026 a bank transfer is fiscalized too
    // (NacinPlac T), like every receipt to a private person.
    let second = sale(&app, "card").await;
    assert_eq!(second["fiscal"]["receipt_number"], "2/POSL1/1");
    let transfer = sale(&app, "bank_transfer").await;
    assert_eq!(transfer["fiscal"]["receipt_number"], "3/POSL1/1");
    assert!(transfer["fiscal"]["local_proof"].is_string());
    let third = sale(&app, "other").await;
    assert_eq!(third["fiscal"]["receipt_number"], "4/POSL1/1");
    fiscal_is(&app, third["id"].as_str().unwrap(), "fiscalized").await;
    let paid = |n: &str| {
        sim.received()
            .into_iter()
            .find(|r| r.number == n)
            .map(|r| r.payment)
    };
    assert_eq!(paid("4/POSL1/1").as_deref(), Some("O"));
    fiscal_is(&app, transfer["id"].as_str().unwrap(), "fiscalized").await;
    assert_eq!(paid("3/POSL1/1").as_deref(), Some("T"));
    fiscal_is(&app, second["id"].as_str().unwrap(), "fiscalized").await;
    assert_eq!(paid("2/POSL1/1").as_deref(), Some("K"));

    // A business paying at the desk by card: its OIB travels on the receipt (schema 1.9's
    // OibPrimateljaRacuna, "only for B2B"); a foreign VAT number does not.
    let guest = app.guest("Marko", "Marić").await;
    let b2b = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "card",
                   "bill_to": {"name": "Jadran d.o.o.", "tax_id": "HR 69435151530"},
                   "lines": [{"description": "Meeting room", "quantity": 1, "unit_price": 12000}]}),
        )
        .await
        .expect(201)
        .body;
    fiscal_is(&app, b2b["id"].as_str().unwrap(), "fiscalized").await;
    let sent = sim.received().into_iter().last().unwrap();
    assert_eq!(sent.buyer_oib.as_deref(), Some("69435151530"));
    assert!(
        sim.received()
            .iter()
            .rev()
            .skip(1)
            .all(|r| r.buyer_oib.is_none())
    );
    assert_eq!(sim.violations(), Vec::<String>::new());
}

#[tokio::test]
async fn a_guest_checked_out_offline_gets_the_zki_at_once_and_the_jir_later() {
    let sim = Sim::start();
    let app = hotel(&sim).await;
    let room_type = app
        .post(
            "/v1/room-types",
            json!({"code": "DBL", "name": "Double", "max_occupancy": 2, "base_rate": 10000}),
        )
        .await
        .expect(201)
        .id();
    let room = app.room("101", &room_type).await;
    let guest = app.guest("Marko", "Kovač").await;
    let res = app
        .reserve(&guest, &room_type, "2026-11-20", "2026-11-22")
        .await
        .expect(201)
        .id();
    app.clock().set_now("2026-11-20T14:00:00Z".parse().unwrap());
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": room}),
    )
    .await
    .expect(200);
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());

    sim.set_offline(true);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "card"}),
        )
        .await
        .expect(200);
    let inv = &out.body["invoice"];
    let id = inv["id"].as_str().unwrap().to_string();
    let zki = inv["fiscal"]["local_proof"].as_str().unwrap().to_string();
    assert!(zki_like(&inv["fiscal"]["local_proof"]));
    assert!(
        inv["fiscal"]["qr_payload"]
            .as_str()
            .unwrap()
            .contains(&format!("zki={zki}"))
    );

    let offline = fiscal_is(&app, &id, "offline").await;
    assert!(
        offline["fiscal"]["last_error"]
            .as_str()
            .unwrap()
            .contains("could not be reached")
    );
    assert_eq!(offline["fiscal"]["local_proof"], zki.as_str());
    assert!(sim.received().is_empty());

    // A day and a half on, the deadline is near: the API, /metrics and the CLI say so.
    later(&app, 31 * 60);
    let s = submission_of(&app, &id).await;
    assert_eq!(
        (s["due_soon"].as_bool(), s["overdue"].as_bool()),
        (Some(true), Some(false))
    );
    let metrics = app.metrics().await;
    assert!(
        metrics.contains("innkeep_compliance_due_soon{kind=\"fiscal_receipt\"} 1"),
        "{metrics}"
    );

    sim.set_offline(false);
    // Moving the clock above wakes the queue at once: its attempt may still fail (CIS was
    // off) after the next move, and is then scheduled from the clock as it stands by then.
    // Move on by the backoff's longest step (30 min) until the receipt goes.
    let mut done = None;
    for _ in 0..4 {
        later(&app, 31);
        let wait = std::time::Duration::from_secs(5);
        if let Ok(inv) = tokio::time::timeout(wait, fiscal_is(&app, &id, "fiscalized")).await {
            done = Some(inv);
            break;
        }
    }
    let done = done.expect("the receipt is certified once CIS answers again");
    let got = sim.received();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].late,
        "a receipt delivered after an outage carries NakDost=true"
    );
    assert_eq!(got[0].zki, zki);
    assert_eq!(
        done["fiscal"]["authority_reference"],
        got[0].jir.clone().unwrap().as_str()
    );
    assert_eq!(sim.violations(), Vec::<String>::new());
    let s = submission_of(&app, &id).await;
    assert_eq!(s["status"], "accepted");
    let ids: Vec<String> = s["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["request"].as_str())
        .map(|r| r.split("<tns:IdPoruke>").nth(1).unwrap()[..36].to_string())
        .collect();
    assert!(ids.len() >= 2, "{s}");
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "every attempt has a new IdPoruke");
    let metrics = app.metrics().await;
    assert!(
        metrics.contains("innkeep_compliance_due_soon{kind=\"fiscal_receipt\"} 0"),
        "{metrics}"
    );
    // The invoice's history: issued, delayed once (however many attempts failed), then
    // fiscalized, the last two by innkeep's queue.
    let h = app.all(&format!("/v1/invoices/{id}/history")).await;
    let kinds: Vec<&str> = h.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "invoice.created",
            "invoice.fiscalization_delayed",
            "invoice.fiscalized"
        ]
    );
    assert_eq!(h[1]["actor"]["type"], "system");
    assert_eq!(h[2]["actor"]["type"], "system");
}

#[tokio::test]
async fn credit_notes_are_fiscalized_with_negative_amounts() {
    let sim = Sim::start();
    let app = hotel(&sim).await;
    let inv = sale(&app, "cash").await;
    let id = inv["id"].as_str().unwrap();
    fiscal_is(&app, id, "fiscalized").await;
    let credit = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": id, "reason": "Wrong room"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(credit["fiscal"]["receipt_number"], "2/POSL1/1");
    assert!(
        credit["fiscal"]["qr_payload"]
            .as_str()
            .unwrap()
            .ends_with("&izn=-4498")
    );
    fiscal_is(&app, credit["id"].as_str().unwrap(), "fiscalized").await;
    let got = sim.received();
    let r = got.last().unwrap();
    assert_eq!((r.total.as_str(), r.payment.as_str()), ("-44.98", "G"));
    assert_eq!(
        r.vat,
        vec![
            ("13.00".into(), "-4.42".into(), "-0.58".into()),
            ("25.00".into(), "-31.98".into(), "-8.00".into())
        ]
    );
    assert_eq!(sim.violations(), Vec::<String>::new());
}

/// Writes signed requests the simulator accepted, for the independent checks in
/// `.ci/xmldsig` (signxml for the signature, lxml against the official schema): a receipt to
/// a business (with the buyer's OIB) to `$INNKEEP_CIS_SAMPLE`, and the change of its payment
/// method to the same path with `.change` added.
#[tokio::test]
#[ignore]
async fn signed_request_sample() {
    let path = std::env::var("INNKEEP_CIS_SAMPLE").expect("INNKEEP_CIS_SAMPLE names the file");
    let sim = Sim::start();
    let app = hotel(&sim).await;
    let guest = app.guest("Marko", "Marić").await;
    let inv = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "bank_transfer",
                   "bill_to": {"name": "Jadran d.o.o.", "tax_id": "69435151530"},
                   "lines": [{"description": "Meeting room", "quantity": 1, "unit_price": 12000}]}),
        )
        .await
        .expect(201)
        .body;
    let id = inv["id"].as_str().unwrap();
    fiscal_is(&app, id, "fiscalized").await;
    let s = submission_of(&app, id).await;
    std::fs::write(&path, s["exchanges"][0]["request"].as_str().unwrap()).unwrap();
    sim.set_today(
        app.clock()
            .now()
            .with_timezone(&chrono_tz::Europe::Zagreb)
            .date_naive(),
    );
    app.post(
        &format!("/v1/invoices/{id}/payment-method"),
        json!({"payment_method": "card"}),
    )
    .await
    .expect(200);
    let change = crate::support::eventually(WAIT, "the change accepted", || async {
        let all = app
            .all("/v1/compliance/submissions?kind=fiscal_payment_change")
            .await;
        match all.first() {
            Some(c) if c["status"] == "accepted" => Ok(c["id"].as_str().unwrap().to_string()),
            other => Err(other.map(|c| c["status"].clone())),
        }
    })
    .await;
    let c = app
        .get(&format!("/v1/compliance/submissions/{change}"))
        .await
        .body;
    let request = c["exchanges"].as_array().unwrap().last().unwrap()["request"].clone();
    std::fs::write(format!("{path}.change"), request.as_str().unwrap()).unwrap();
    assert_eq!(sim.violations(), Vec::<String>::new());
}
