//! The Channex adapter against the Channex simulator, both from Channex's public
//! documentation: a calendar of 500 nights goes as one availability call and one
//! restrictions call and reads back night by night as sent; a bad value comes back as a
//! warning in words; the eleventh call of a minute is told to slow down; a booking revision
//! is read whole and served until it is acknowledged, never after; and innkeep's own
//! calendar (rooms booked, prices and restrictions set through the API) reaches the
//! simulator night by night as `GET /v1/availability` and `GET /v1/rates` show it.

use chrono::{Days, NaiveDate};
use serde_json::{Value, json};

use innkeep::channel::channex::{self, KEY_HEADER};
use innkeep::channel::{Call, Pushed, RevisionKind};
use innkeep::domain::channel::{RateNight, runs};

use crate::support::channex_sim::{Fault, KEY, PROPERTY, Sim};

async fn send(sim: &Sim, call: &Call) -> (u16, String) {
    try_send(sim, call).await.unwrap()
}

/// The call with a 2 s timeout: none when no answer came.
async fn try_send(sim: &Sim, call: &Call) -> Option<(u16, String)> {
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(2))
        .build()
        .unwrap();
    let url = format!("{}{}", sim.url(), call.path);
    let req = match call.method {
        "POST" => client
            .post(url)
            .json(call.body.as_ref().unwrap_or(&json!({}))),
        _ => client.get(url),
    };
    let r = req.header(KEY_HEADER, KEY).send().await.ok()?;
    Some((r.status().as_u16(), r.text().await.ok()?))
}

fn first() -> NaiveDate {
    "2027-03-01".parse().unwrap()
}

/// Night `n`'s availability and plan night: prices by a weekly pattern, a minimum stay in
/// summer, a stop-sell now and then.
fn calendar(n: u64) -> (i64, RateNight) {
    let price = 9000 + (n / 7 % 3) as i64 * 500;
    let night = RateNight {
        price,
        min_stay_arrival: if (120..180).contains(&n) { 3 } else { 0 },
        min_stay_through: 0,
        max_stay: 0,
        closed_to_arrival: (n / 30).is_multiple_of(5),
        closed_to_departure: false,
        stop_sell: n % 97 == 5,
    };
    ((n / 10 % 4) as i64, night)
}

#[tokio::test]
async fn a_full_sync_is_two_calls_and_reads_back_as_sent() {
    let sim = Sim::start(&["rt-dbl"], &["rp-flex"]).await;
    let nights: Vec<(NaiveDate, (i64, RateNight))> = (0..500)
        .map(|n| (first() + Days::new(n), calendar(n)))
        .collect();
    let rooms: Vec<(NaiveDate, i64)> = nights.iter().map(|(d, v)| (*d, v.0)).collect();
    let plans: Vec<(NaiveDate, RateNight)> =
        nights.iter().map(|(d, v)| (*d, v.1.clone())).collect();
    let avail: Vec<_> = runs(&rooms)
        .into_iter()
        .map(|r| ("rt-dbl".to_string(), r))
        .collect();
    let rates: Vec<_> = runs(&plans)
        .into_iter()
        .map(|r| ("rp-flex".to_string(), r))
        .collect();
    assert!(
        avail.len() < 500 && rates.len() < 500,
        "equal neighbours coalesce"
    );
    for call in [
        channex::availability(PROPERTY, &avail),
        channex::restrictions(PROPERTY, &rates),
    ] {
        let (status, body) = send(&sim, &call).await;
        assert_eq!(channex::pushed(status, &body), Pushed::Done, "{body}");
    }
    assert_eq!(sim.calls(), ["availability", "restrictions"]);
    for (d, (rooms, night)) in &nights {
        assert_eq!(sim.availability("rt-dbl", *d), Some(*rooms), "{d}");
        let got = sim.night("rp-flex", *d).unwrap();
        assert_eq!(got["stop_sell"], night.stop_sell, "{d}");
        assert_eq!(got["rate"], night.price, "{d}");
        assert_eq!(got["closed_to_arrival"], night.closed_to_arrival);
        assert_eq!(got["min_stay_arrival"], night.min_stay_arrival.max(1));
    }
    // Read back as Channex reads it: rates as decimal strings.
    let last = first() + Days::new(499);
    let read = Call {
        method: "GET",
        path: format!(
            "/restrictions?filter[property_id]={PROPERTY}&filter[date][gte]={}&filter[date][lte]={last}&filter[restrictions]=rate",
            first()
        ),
        body: None,
    };
    let (status, body) = send(&sim, &read).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["data"]["rp-flex"][first().to_string()]["rate"], "90.00");
}

#[tokio::test]
async fn a_bad_value_is_a_warning_in_words_and_the_eleventh_call_must_wait() {
    let sim = Sim::start(&["rt-dbl"], &["rp-flex"]).await;
    sim.set_today(first());
    let past = first() - Days::new(1);
    let rooms = runs(&[(past, 2), (first(), 3)]);
    let call = channex::availability(
        PROPERTY,
        &rooms
            .into_iter()
            .map(|r| ("rt-dbl".to_string(), r))
            .collect::<Vec<_>>(),
    );
    let (status, body) = send(&sim, &call).await;
    assert_eq!(
        channex::pushed(status, &body),
        Pushed::Warned(vec![format!("{past} to {past}: date can't be in the past")])
    );
    assert_eq!(
        sim.availability("rt-dbl", first()),
        Some(3),
        "the good value is applied"
    );
    for _ in 0..9 {
        let (status, body) = send(&sim, &call).await;
        assert_ne!(channex::pushed(status, &body), Pushed::Slow);
    }
    let (status, body) = send(&sim, &call).await;
    assert_eq!(channex::pushed(status, &body), Pushed::Slow);
}

#[tokio::test]
async fn a_revision_is_served_until_it_is_acknowledged() {
    let sim = Sim::start(&["rt-dbl"], &["rp-flex"]).await;
    let id = sim.book(json!({
        "booking_id": "bk-1", "status": "new", "ota_name": "Booking.com",
        "ota_reservation_code": "4711", "property_id": PROPERTY,
        "arrival_date": "2027-03-10", "departure_date": "2027-03-12", "currency": "EUR",
        "payment_collect": "ota",
        "customer": {"name": "Ana", "surname": "Horvat", "mail": "ana@example.com", "country": "HR"},
        "rooms": [{"room_type_id": "rt-dbl", "rate_plan_id": "rp-flex",
                   "occupancy": {"adults": 2, "children": 0},
                   "days": {"2027-03-10": "95.00", "2027-03-11": "95.00"}}]}));
    let feed = channex::feed(PROPERTY);
    // A failing Channex is a retry, never a lost booking.
    sim.fault_bookings(&[Fault::Fail]);
    let (status, body) = send(&sim, &feed).await;
    assert!(matches!(channex::pushed(status, &body), Pushed::Retry(_)));
    sim.fault_bookings(&[Fault::Slow(std::time::Duration::from_millis(300))]);
    for _ in 0..2 {
        let (status, body) = send(&sim, &feed).await;
        assert_eq!(status, 200);
        let revs = channex::revisions(&body).unwrap();
        assert_eq!(revs.len(), 1, "served again until acknowledged");
        assert_eq!(
            (revs[0].id.as_str(), revs[0].kind),
            (id.as_str(), RevisionKind::New)
        );
        assert_eq!(
            revs[0].rooms[0].nights.iter().map(|n| n.1).sum::<i64>(),
            19000
        );
    }
    // The acknowledgement's answer lost: Channex has it all the same.
    sim.fault_bookings(&[Fault::LoseAnswer]);
    assert!(try_send(&sim, &channex::ack(&id)).await.is_none());
    assert!(sim.acked(&id));
    let (_, body) = send(&sim, &feed).await;
    assert!(channex::revisions(&body).unwrap().is_empty());
}

#[tokio::test]
async fn innkeeps_calendar_reaches_the_simulator_night_by_night() {
    use innkeep::compliance::Compliance;
    use innkeep::service::channel::{Mapping, full_sync};

    let app = crate::support::spawn_app().await;
    let (rt, flex, nr) = crate::support::plans::plans(&app, 3).await;
    let day = crate::support::day;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(5), "to": day(9), "price": 14000,
               "min_stay_arrival": 2, "closed_to_arrival": true}),
    )
    .await
    .expect(200);
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": nr, "from": day(7), "to": day(7), "stop_sell": true}),
    )
    .await
    .expect(200);
    let guest = app.guest("Ana", "Horvat").await;
    for _ in 0..2 {
        app.post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                   "arrival": day(10), "departure": day(12), "adults": 2}),
        )
        .await
        .expect(201);
    }
    let sim = Sim::start(&["ch-fam"], &["ch-flex", "ch-nr"]).await;
    let mut map = Mapping::default();
    map.room_types.insert(rt.clone(), "ch-fam".into());
    map.rate_plans.insert(flex.clone(), "ch-flex".into());
    map.rate_plans.insert(nr.clone(), "ch-nr".into());
    let svc = innkeep::service::Services::new(app.db().clone(), Compliance::default());
    let admin = innkeep::model::Principal {
        actor: innkeep::model::Actor {
            kind: innkeep::domain::enums::ActorKind::Staff,
            id: "usr_channel".into(),
            name: "channel".into(),
        },
        scopes: innkeep::domain::scopes::ScopeSet::of(&[innkeep::domain::scopes::Scope::RatesRead]),
    };
    let from: NaiveDate = day(0).parse().unwrap();
    let calls = full_sync(&svc, &admin, map, PROPERTY.into(), from, 30)
        .await
        .unwrap();
    assert_eq!(
        calls.len(),
        2,
        "one availability call, one restrictions call"
    );
    for call in &calls {
        let (status, body) = send(&sim, call).await;
        assert_eq!(channex::pushed(status, &body), Pushed::Done, "{body}");
    }
    let to = from + Days::new(29);
    let rooms = app
        .get(&format!(
            "/v1/availability?from={from}&to={to}&room_type_id={rt}"
        ))
        .await
        .body;
    for n in rooms["data"].as_array().unwrap() {
        let d: NaiveDate = n["date"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            sim.availability("ch-fam", d),
            n["available"].as_i64(),
            "{d}"
        );
    }
    assert_eq!(
        sim.availability("ch-fam", day(10).parse().unwrap()),
        Some(1)
    );
    for (plan, remote) in [(&flex, "ch-flex"), (&nr, "ch-nr")] {
        let cal = app
            .get(&format!(
                "/v1/rates?rate_plan_id={plan}&from={from}&to={to}"
            ))
            .await
            .body;
        for n in cal["data"].as_array().unwrap() {
            let d: NaiveDate = n["date"].as_str().unwrap().parse().unwrap();
            let got = sim.night(remote, d).unwrap();
            assert_eq!(got["rate"], n["price"], "{remote} {d}");
            assert_eq!(got["stop_sell"], n["stop_sell"], "{remote} {d}");
            assert_eq!(
                got["closed_to_arrival"], n["closed_to_arrival"],
                "{remote} {d}"
            );
            assert_eq!(
                got["min_stay_arrival"],
                n["min_stay_arrival"].as_i64().unwrap_or(1)
            );
        }
    }
}
