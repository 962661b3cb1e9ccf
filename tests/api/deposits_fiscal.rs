//! Deposits and the national documents: in Croatia the advance invoice and its reversal are
//! fiscalised through the simulated CIS; in Italy the advance is a FatturaPA TD02 that the
//! simulated SdI accepts (the stay's TD01 deducting it), or for a private guest a receipt
//! from the simulated cash register, the stay's receipt taking it off.

use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::cis_sim::Sim as CisSim;
use crate::support::rt_sim::Sim as RtSim;
use crate::support::sdi::{hotel, hotel_with_register, italian_guest, settles, xml};
use crate::support::sdi_sim::Sim;

/// A double room on a plan at 120.00 a night asking the first night as deposit, booked for
/// `guest` from 10 to 12 December 2026: the reservation's id.
async fn booked_with_deposit(app: &TestApp, guest: Value) -> String {
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let plan = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "BAR", "name": {"en": "Best rate", "it": "Miglior tariffa"},
                   "default_price": 12000, "deposit": {"kind": "first_night"}}),
        )
        .await
        .expect(201)
        .id();
    let guest = app.post("/v1/guests", guest).await.expect(201).id();
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
               "rate_plan_id": plan, "arrival": "2026-12-10", "departure": "2026-12-12",
               "adults": 2}),
    )
    .await
    .expect(201)
    .id()
}

#[tokio::test]
async fn a_croatian_advance_invoice_and_its_reversal_are_fiscalised() {
    let sim = CisSim::start();
    let app = crate::support::fiscal::hotel(&sim).await;
    let res = booked_with_deposit(&app, json!({"first_name": "Ivo", "last_name": "Babić"})).await;
    let advance = app
        .post(
            &format!("/v1/reservations/{res}/deposit"),
            json!({"amount": 12000, "payment_method": "card"}),
        )
        .await
        .expect(201)
        .body;
    assert!(
        advance["lines"][0]["description"]
            .as_str()
            .unwrap()
            .starts_with("Advance for the stay 2026-12-10 - 2026-12-12"),
        "{advance}"
    );
    let id = advance["id"].as_str().unwrap();
    let done = crate::support::fiscal::fiscal_is(&app, id, "fiscalized").await;
    assert!(done["fiscal"]["authority_reference"].is_string(), "{done}");
    // Cancelled long before arrival: no fee, the advance given back by a fiscalised credit note.
    app.put(
        &format!("/v1/reservations/{res}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let credit = app
        .all(&format!("/v1/invoices?reservation_id={res}"))
        .await
        .into_iter()
        .find(|i| i["kind"] == "credit_note")
        .unwrap();
    let credit = credit["id"].as_str().unwrap();
    crate::support::fiscal::fiscal_is(&app, credit, "fiscalized").await;
}

#[tokio::test]
async fn an_italian_private_guests_deposit_is_a_receipt_deducted_from_the_last_one() {
    let rt = RtSim::start().await;
    let app = hotel_with_register(None, &rt).await;
    let res = booked_with_deposit(&app, italian_guest()).await;
    let advance = app
        .post(
            &format!("/v1/reservations/{res}/deposit"),
            json!({"amount": 12000, "payment_method": "cash"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(advance["fiscal"]["scheme"], "it-rt", "{advance}");
    crate::support::eventually(
        std::time::Duration::from_secs(20),
        "the advance's receipt",
        || async {
            crate::support::fiscal::later(&app, 11);
            if rt.docs().len() == 1 {
                Ok(())
            } else {
                Err(rt.docs().len())
            }
        },
    )
    .await;
    assert_eq!(
        (rt.docs()[0].total, rt.docs()[0].paid),
        (12000, (12000, 0, 0))
    );
    app.clock().set_now("2026-12-10T14:00:00Z".parse().unwrap());
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);
    app.clock().set_now("2026-12-12T09:00:00Z".parse().unwrap());
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(200)
        .body;
    assert_eq!(out["invoice"]["totals"]["gross"], 13200, "{out}");
    crate::support::eventually(
        std::time::Duration::from_secs(20),
        "the stay's receipt",
        || async {
            crate::support::fiscal::later(&app, 11);
            if rt.docs().len() == 2 {
                Ok(())
            } else {
                Err(rt.docs().len())
            }
        },
    )
    .await;
    // The nights and the city tax, the advance taken off them; the rest by card.
    let last = &rt.docs()[1];
    assert_eq!(
        (last.total, last.paid, last.lines),
        (13200, (0, 13200, 0), 2),
        "{last:?}"
    );
}

#[tokio::test]
async fn an_italian_deposit_is_a_td02_and_the_stay_invoice_deducts_it() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let res = booked_with_deposit(&app, italian_guest()).await;
    let booked = app.get(&format!("/v1/reservations/{res}")).await.body;
    assert_eq!(booked["deposit"]["due"], 12000, "{booked}");
    let advance = app
        .post(
            &format!("/v1/reservations/{res}/deposit"),
            json!({"amount": 12000, "payment_method": "bank_transfer"}),
        )
        .await
        .expect(201)
        .id();
    settles(&app, &advance, "fiscalized").await;
    let first = xml(&app, &advance).await;
    assert!(
        first.contains("<TipoDocumento>TD02</TipoDocumento>"),
        "{first}"
    );
    assert!(first.contains("Acconto per il soggiorno 10/12/2026 - 12/12/2026"));

    app.clock().set_now("2026-12-10T14:00:00Z".parse().unwrap());
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);
    app.clock().set_now("2026-12-12T09:00:00Z".parse().unwrap());
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payments": [{"method": "card"}]}),
        )
        .await
        .expect(200)
        .body;
    let bill = out["invoice"]["id"].as_str().unwrap().to_string();
    // Two nights at 120.00 and 2 × 2 person-nights of city tax, less the 120.00 advance.
    assert_eq!(out["invoice"]["totals"]["gross"], 13200, "{out}");
    settles(&app, &bill, "fiscalized").await;
    let last = xml(&app, &bill).await;
    assert!(
        last.contains("<TipoDocumento>TD01</TipoDocumento>"),
        "{last}"
    );
    assert!(
        last.contains("<PrezzoTotale>-109.09</PrezzoTotale>"),
        "{last}"
    );
    for sent in sim.sent() {
        assert!(
            sent.errors.is_empty(),
            "{}: {:?}",
            sent.file_name,
            sent.errors
        );
    }
}
