//! Alloggiati Web's code tables fetched with `Tabella` instead of imported by hand: on start
//! and from the compliance centre's button, each table read from the simulator's CSV and
//! loaded with its source; a refused token is asked for again.

use crate::support::alloggiati_sim::{Fault, Sim};
use crate::support::desk::{Browser, staff};
use crate::support::registration::{day, hotel};

#[tokio::test(flavor = "multi_thread")]
async fn the_tables_are_fetched_with_tabella() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/compliance").await;
    let csrf = Browser::csrf(&page);
    // The token the server holds is gone: Tabella refuses it, innkeep asks for a new one.
    sim.inject("Tabella", Fault::ExpireTokens);
    let done = a
        .post("/admin/compliance/tables/fetch", &[("csrf", &csrf)])
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let calls = sim.calls();
    assert!(
        calls.iter().filter(|c| *c == "Tabella").count() >= 2,
        "{calls:?}"
    );
    let versions = app
        .db()
        .read(innkeep::store::codes::versions)
        .await
        .unwrap();
    let mine: Vec<(&str, i64, &str)> = versions
        .iter()
        .filter(|v| v.scheme == "it-alloggiati")
        .map(|v| (v.table.as_str(), v.rows, v.source.as_str()))
        .collect();
    assert!(
        mine.iter().any(|(t, rows, source)| *t == "Luoghi"
            && *rows > 10
            && *source == "fetched from it-alloggiati"),
        "{mine:?}"
    );
    assert!(
        mine.iter().any(|(t, _, source)| *t == "Tipi_Documento"
            && *source == "fetched from it-alloggiati"),
        "{mine:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_days_receipt_is_fetched_and_kept() {
    use serde_json::json;
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let mut mario =
        crate::support::registration::italian("Mario", "Rossi", "male", "1980-05-15", "Roma", "RM");
    mario["document"] =
        json!({"type": "id_card", "number": "CA 12345-AB", "issuing_place": "Roma"});
    let guest = app.post("/v1/guests", mario).await.expect(201).id();
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let r = app
        .post("/v1/reservations", json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
               "arrival": crate::support::registration::DAY, "departure": "2026-11-24", "adults": 1}))
        .await
        .expect(201)
        .id();
    let sub = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200)
        .body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string();
    crate::support::submission_is(&app, &sub, "accepted", crate::support::registration::WAIT).await;
    // The next day the receipt is there; the centre's button fetches it.
    app.clock().set_now("2026-11-23T08:00:00Z".parse().unwrap());
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/compliance").await;
    let csrf = Browser::csrf(&page);
    a.post("/admin/compliance/tables/fetch", &[("csrf", &csrf)])
        .await
        .expect(303);
    assert!(sim.calls().contains(&"Ricevuta".to_string()));
    let list = app
        .get("/v1/compliance/registration/receipts?from=2026-11-01&to=2026-12-01")
        .await
        .expect(200)
        .body;
    assert_eq!(list["data"][0]["date"], "2026-11-22", "{list}");
    let pdf = app
        .client
        .get(app.url("/v1/compliance/registration/receipts/2026-11-22"))
        .bearer_auth(&app.token)
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.headers()["content-type"], "application/octet-stream");
    let body = pdf.bytes().await.unwrap();
    assert!(
        body.starts_with(b"%PDF")
            && String::from_utf8_lossy(&body).contains("22/11/2026: 1 schedine")
    );
    app.get("/v1/compliance/registration/receipts/2026-11-21")
        .await
        .expect(404);
    let cal = a.get("/compliance/calendar?month=2026-11").await;
    assert!(
        cal.text
            .contains("href=\"/compliance/receipts/2026-11-22\""),
        "{}",
        cal.text
    );
    let pack = app
        .client
        .get(app.url("/v1/compliance/inspection-pack?from=2026-11-01&to=2026-12-01"))
        .bearer_auth(&app.token)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(pack.to_vec())).unwrap();
    assert!(zip.by_name("receipts/2026-11-22.pdf").is_ok());
}
