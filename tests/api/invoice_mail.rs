//! The invoice by e-mail after check-out, through the SMTP relay double: in Croatia it
//! waits for the JIR, then goes once in the guest's language with its PDF, which poppler
//! reads back (the title, the guest's name in Croatian letters, the JIR, and the fiscal QR
//! code zbar decodes to the invoice's own link); in Italy the FatturaPA travels beside the
//! PDF as the law wants, byte for byte the e-invoice served by the API.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::browser::{pdf_text, qr_codes_in};
use crate::support::cis_sim::Sim as Cis;
use crate::support::sdi_sim::Sim as Sdi;
use crate::support::smtp::{Relay, Taken};
use crate::support::{TestApp, eventually};

/// The one message the relay took under `message_id`, once the outbox has drained.
async fn the_message(app: &TestApp, relay: &Relay, message_id: &str) -> Taken {
    let taken = eventually(Duration::from_secs(30), "the invoice's message", || async {
        crate::support::fiscal::later(app, 2);
        let all: Vec<Taken> = relay
            .taken()
            .into_iter()
            .filter(|m| m.header("Message-ID").as_deref() == Some(message_id))
            .collect();
        if all.is_empty() {
            Err(relay.taken().len())
        } else {
            Ok(all)
        }
    })
    .await;
    // A moment more: nothing sends it a second time.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let again = relay
        .taken()
        .into_iter()
        .filter(|m| m.header("Message-ID").as_deref() == Some(message_id))
        .count();
    assert_eq!((taken.len(), again), (1, 1), "sent exactly once");
    taken.into_iter().next().unwrap()
}

/// Keeps `bytes` as `name` beside the browser tests' screenshots, to look at: its path.
fn saved(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_guest_receives_the_fiscalized_invoice_as_a_pdf_once() {
    let sim = Cis::start();
    let relay = Relay::start().await;
    let cfg = relay.config("Hotel Adriatic <desk@hotel.test>", None);
    let app = crate::support::fiscal::hotel_configured(&sim, |c| c.mail = Some(cfg)).await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let guest = app
        .post(
            "/v1/guests",
            json!({"first_name": "Đurđa", "last_name": "Đurđević", "language": "hr",
                   "email": "djurdja@example.hr"}),
        )
        .await
        .expect(201)
        .id();
    let res = app
        .reserve(&guest, &rt, "2026-11-20", "2026-11-22")
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
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "card"}),
        )
        .await
        .expect(200);
    let id = out.body["invoice"]["id"].as_str().unwrap().to_string();
    let number = out.body["invoice"]["number"].as_str().unwrap().to_string();

    let m = the_message(&app, &relay, &format!("<{id}.invoice@hotel.test>")).await;
    assert_eq!(m.to, vec!["djurdja@example.hr".to_string()]);
    let text = m.decoded();
    assert!(text.contains("Hvala što ste boravili kod nas"), "{text}");
    assert!(text.contains(&number), "{text}");
    let files = m.attachments();
    assert_eq!(files.len(), 1, "the PDF alone: no e-invoice in this sale");
    assert_eq!(files[0].0, format!("{number}.pdf"));
    assert!(files[0].1.starts_with(b"%PDF-"));
    assert!(files[0].1.len() < 120_000, "{} bytes", files[0].1.len());

    // The message waited for the JIR: the PDF carries it, and its QR code the link with it.
    let inv: Value = app
        .get(&format!("/v1/invoices/{id}"))
        .await
        .expect(200)
        .body;
    let jir = inv["fiscal"]["authority_reference"].as_str().unwrap();
    let pdf = saved("invoice-mail-hr.pdf", &files[0].1);
    if let Some(read) = pdf_text(&pdf) {
        for wanted in [&format!("Račun {number}"), "Đurđa Đurđević", jir, "Ukupno"] {
            assert!(read.contains(wanted), "{wanted} missing from:\n{read}");
        }
    }
    if let Some(codes) = qr_codes_in(&pdf) {
        assert_eq!(
            codes,
            vec![inv["fiscal"]["qr_payload"].as_str().unwrap().to_string()]
        );
    }
    let listed = app
        .get(&format!("/v1/reservations/{res}"))
        .await
        .expect(200);
    assert_eq!(listed.body["status"], "checked_out");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_italian_e_invoice_travels_as_pdf_and_fatturapa() {
    let sdi = Sdi::start().await;
    let relay = Relay::start().await;
    let cfg = relay.config("Hotel Miramare <desk@miramare.test>", None);
    let app = crate::support::sdi::hotel_configured(&sdi, |c| c.mail = Some(cfg)).await;
    let mut guest = crate::support::sdi::italian_guest();
    guest["email"] = json!("mario.rossi@example.it");
    let out = crate::support::sdi::stay(&app, guest, json!({"payment_method": "card"}))
        .await
        .expect(200);
    let id = out.body["invoice"]["id"].as_str().unwrap().to_string();
    let number = out.body["invoice"]["number"].as_str().unwrap().to_string();

    let m = the_message(&app, &relay, &format!("<{id}.invoice@miramare.test>")).await;
    let text = m.decoded();
    assert!(text.contains("fattura elettronica (XML)"), "{text}");
    let files = m.attachments();
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        vec![format!("{number}.pdf"), format!("{number}.xml")]
    );
    let served = crate::support::sdi::xml(&app, &id).await;
    assert_eq!(String::from_utf8(files[1].1.clone()).unwrap(), served);
    let pdf = saved("invoice-mail-it.pdf", &files[0].1);
    if let Some(read) = pdf_text(&pdf) {
        for wanted in [&format!("Fattura {number}"), "Mario Rossi", "Totale"] {
            assert!(read.contains(wanted), "{wanted} missing from:\n{read}");
        }
    }
}
