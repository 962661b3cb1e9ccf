//! Concurrent check-outs, a failure after the number was taken, currencies.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use innkeep::compliance::{
    Compliance, FiscalScheme, NoFiscal, NoRegistration, ReceiptSeries, SealInput, Sealed,
};
use innkeep::error::{AppError, AppResult};
use serde_json::json;

use crate::support::{Spawn, TestApp, day, spawn_app};

async fn booked_and_checked_in(app: &TestApp, n: usize) -> Vec<String> {
    let rt = app.room_type("DBL", 2).await;
    let g = app.guest("Anna", "Rossi").await;
    let mut ids = Vec::new();
    for i in 0..n {
        let room = app.room(&format!("{i}"), &rt).await;
        let r = app
            .post(
                "/v1/reservations",
                json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room, "arrival": day(0), "departure": day(2), "adults": 1}),
            )
            .await
            .expect(201)
            .id();
        app.post("/v1/check-in", json!({"reservation_id": r}))
            .await
            .expect(200);
        ids.push(r);
    }
    app.set_today(2);
    ids
}

#[tokio::test(flavor = "multi_thread")]
async fn thirty_two_concurrent_check_outs_get_gapless_numbers() {
    let app = Arc::new(spawn_app().await);
    let ids = booked_and_checked_in(&app, 32).await;
    let tasks: Vec<_> = ids
        .into_iter()
        .map(|id| {
            let app = app.clone();
            tokio::spawn(async move {
                app.post(
                    "/v1/check-out",
                    json!({"reservation_id": id, "payment_method": "card"}),
                )
                .await
                .expect(200)
                .body["invoice"]["number"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
        })
        .collect();
    let mut numbers = Vec::new();
    for t in tasks {
        numbers.push(t.await.unwrap());
    }
    numbers.sort();
    let year = &day(2)[..4];
    let expected: Vec<String> = (1..=32).map(|n| format!("{year}-{n:06}")).collect();
    assert_eq!(numbers, expected);
}

/// A fiscal scheme that fails once when armed, after the number was allocated.
struct Flaky(Arc<AtomicBool>);

impl FiscalScheme for Flaky {
    fn name(&self) -> &'static str {
        "flaky"
    }

    fn seal(
        &self,
        input: SealInput<'_>,
        numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed> {
        if self.0.swap(false, Ordering::SeqCst) {
            assert!(
                !input.invoice.number.is_empty(),
                "the number was allocated before sealing"
            );
            return Err(AppError::conflict(
                "fiscal_unavailable",
                "Injected failure after the number was taken.",
            ));
        }
        NoFiscal.seal(input, numbers)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_check_out_leaves_no_gap() {
    let armed = Arc::new(AtomicBool::new(false));
    let app = Spawn::new()
        .compliance(Compliance {
            fiscal: Arc::new(Flaky(armed.clone())),
            registration: Arc::new(NoRegistration),
            ..Compliance::default()
        })
        .start()
        .await;
    let ids = booked_and_checked_in(&app, 3).await;
    let out = |id: &String| json!({"reservation_id": id, "payment_method": "cash"});
    let first = app.post("/v1/check-out", out(&ids[0])).await.expect(200);
    armed.store(true, Ordering::SeqCst);
    app.post("/v1/check-out", out(&ids[1]))
        .await
        .problem(409, "fiscal_unavailable");
    let r = app.get(&format!("/v1/reservations/{}", ids[1])).await.body;
    assert_eq!(
        r["status"], "checked_in",
        "the failed check-out changed nothing"
    );
    let second = app.post("/v1/check-out", out(&ids[1])).await.expect(200);
    let third = app.post("/v1/check-out", out(&ids[2])).await.expect(200);
    let n =
        |r: &crate::support::Reply| r.body["invoice"]["number"].as_str().unwrap()[5..].to_string();
    assert_eq!(
        (n(&first), n(&second), n(&third)),
        ("000001".into(), "000002".into(), "000003".into())
    );
    assert_eq!(second.body["invoice"]["fiscal"]["scheme"], "none");
}

#[tokio::test]
async fn an_invoice_never_mixes_currencies() {
    let app = spawn_app().await;
    app.put(
        "/v1/settings",
        json!({"city_tax": {"amount_per_person_night": 200}}),
    )
    .await
    .expect(200);
    let rt = app
        .post("/v1/room-types", json!({"code": "USD", "name": "Dollar room", "max_occupancy": 2, "base_rate": 10000, "currency": "USD"}))
        .await
        .expect(201)
        .id();
    let room = app.room("1", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let r = app
        .post("/v1/reservations", json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room, "arrival": day(0), "departure": day(1), "adults": 1}))
        .await
        .expect(201);
    assert_eq!(r.body["currency"], "USD");
    let id = r.id();
    app.post("/v1/check-in", json!({"reservation_id": id}))
        .await
        .expect(200);
    app.set_today(1);
    let refused = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": id, "payment_method": "cash"}),
        )
        .await
        .problem(422, "validation_failed");
    assert_eq!(
        refused.fields(),
        vec![("currency".into(), "currency_mismatch".into())]
    );
    assert_eq!(
        app.get(&format!("/v1/reservations/{id}")).await.body["status"],
        "checked_in"
    );
}
