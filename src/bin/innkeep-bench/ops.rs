//! The measured operations, as HTTP calls the way a front desk or a channel manager makes
//! them.

use chrono::{Datelike, Duration, NaiveDate, Utc};
use serde_json::json;

use crate::load::{self, Call, Client, Sample, Stats};
use crate::seed::Dataset;
use crate::server::Server;

/// `GET /health`: the generator's own ceiling.
pub fn health(_: usize) -> Call {
    Call {
        method: "GET",
        path: "/health".into(),
        body: None,
        expect: 200,
    }
}

/// A one-night booking 30 to 730 days ahead, for a seeded guest: consecutive requests take
/// each room type in turn, then the next night, so no night fills up.
pub fn create(data: &Dataset, i: usize) -> Call {
    let today = Utc::now().date_naive();
    let per_night = i / data.room_types.len();
    let arrival = today + Duration::days(30 + per_night as i64 % 700);
    let (room_type, _) = &data.room_types[i % data.room_types.len()];
    let guest = &data.guests[(i * 7919) % data.guests.len()];
    Call {
        method: "POST",
        path: "/v1/reservations".into(),
        body: Some(json!({"primary_guest_id": guest, "room_type_id": room_type,
            "arrival": arrival.to_string(),
            "departure": (arrival + Duration::days(1)).to_string(), "adults": 1})),
        expect: 201,
    }
}

/// The arrivals of one seeded date (a page of 50).
pub fn arrivals(first: NaiveDate, span_days: i64, i: usize) -> Call {
    let d = first + Duration::days((i as i64 * 7919) % span_days);
    Call {
        method: "GET",
        path: format!("/v1/reservations?arrival_from={d}&arrival_to={d}&limit=50"),
        body: None,
        expect: 200,
    }
}

/// Three plans for every room type, as a hotel sets them up: a flexible one with its own
/// prices (every night of the next 400 given, weekends dearer), a non-refundable one 10 %
/// cheaper with a three-night minimum on Saturdays, and bed and breakfast 15 % dearer
/// (not measured).
pub fn plans(client: &Client, data: &Dataset) -> Result<(), String> {
    let today = Utc::now().date_naive();
    let until = today + Duration::days(400);
    let check = |what: &str, (status, body): (u16, serde_json::Value), want: u16| {
        if status == want {
            Ok(body)
        } else {
            Err(format!("{what}: {status} {body}"))
        }
    };
    for (n, (room_type, _)) in data.room_types.iter().enumerate() {
        let call = |method, path: &str, body| Call {
            method,
            path: path.into(),
            body: Some(body),
            expect: 0,
        };
        let flex = check(
            "a flexible plan",
            client.send(&call(
                "POST",
                "/v1/rate-plans",
                json!({"room_type_id": room_type, "code": "FLEX", "name": {"en": "Flexible"},
                       "default_price": 9000 + 1000 * n as i64}),
            )),
            201,
        )?;
        let flex = flex["id"].as_str().unwrap_or_default().to_string();
        let nr = check(
            "a non-refundable plan",
            client.send(&call(
                "POST",
                "/v1/rate-plans",
                json!({"room_type_id": room_type, "code": "NR", "name": {"en": "Non-refundable"},
                       "parent_id": flex, "derivation": {"kind": "percent", "value": -1000},
                       "cancellation": {"fee": "all"}}),
            )),
            201,
        )?;
        let nr = nr["id"].as_str().unwrap_or_default().to_string();
        check(
            "a bed-and-breakfast plan",
            client.send(&call(
                "POST",
                "/v1/rate-plans",
                json!({"room_type_id": room_type, "code": "BB", "name": {"en": "Bed and breakfast"},
                       "parent_id": flex, "derivation": {"kind": "percent", "value": 1500}}),
            )),
            201,
        )?;
        for (plan, body) in [
            (&flex, json!({"price": 9500 + 1000 * n as i64})),
            (
                &flex,
                json!({"price": 12000 + 1000 * n as i64, "weekdays": ["fri", "sat"]}),
            ),
            (&nr, json!({"min_stay_arrival": 3, "weekdays": ["sat"]})),
        ] {
            let mut body = body;
            body["rate_plan_id"] = json!(plan);
            body["from"] = json!(today.to_string());
            body["to"] = json!(until.to_string());
            check(
                "the calendar",
                client.send(&call("PUT", "/v1/rates", body)),
                200,
            )?;
        }
    }
    Ok(())
}

/// The bare server's check-in (`path` `/v1/check-in`) or check-out (`/v1/check-out`) of a
/// seeded reservation.
pub fn bare_stay(path: &'static str, data: &Dataset, i: usize) -> Call {
    let id = &data.sample[(i * 7919) % data.sample.len()];
    let room = &data.room_types[0].1[0];
    Call {
        method: "POST",
        path: path.into(),
        body: Some(json!({"reservation_id": id, "room_id": room})),
        expect: 200,
    }
}

/// Every plan of every room type for a 14-night stay for two, 1 to 300 days ahead.
pub fn offers(i: usize) -> Call {
    let arrival = Utc::now().date_naive() + Duration::days(1 + (i as i64 * 7919) % 300);
    Call {
        method: "GET",
        path: format!(
            "/v1/offers?arrival={arrival}&departure={}&adults=2",
            arrival + Duration::days(14)
        ),
        body: None,
        expect: 200,
    }
}

/// A report (`what`: `occupancy`, `revenue`, `payments`, `istat`) of one of the seeded
/// months, from `first` over `months` months.
pub fn report(what: &'static str, first: NaiveDate, months: i64, i: usize) -> Call {
    let start = first.with_day(1).unwrap_or(first)
        + chrono::Months::new(((i as i64 * 7919) % months.max(1)) as u32);
    let end = start + chrono::Months::new(1);
    let path = match what {
        "istat" => format!("/v1/reports/istat?month={}", start.format("%Y-%m")),
        "calendar" => format!("/v1/compliance/calendar?from={start}&to={end}"),
        _ => format!("/v1/reports/{what}?from={start}&to={end}"),
    };
    Call {
        method: "GET",
        path,
        body: None,
        expect: 200,
    }
}

/// Guests whose name contains a seeded guest's surname (a page of 20), as the desk types it.
pub fn search(data: &Dataset, i: usize) -> Call {
    let name = &data.last_names[(i * 7919) % data.last_names.len()];
    Call {
        method: "GET",
        path: format!("/v1/guests?name={name}&limit=20"),
        body: None,
        expect: 200,
    }
}

/// Rounds of a full house: a booking for today in every room (not measured), then every
/// guest checks in at once (measured), then every guest checks out with an invoice
/// (measured), until the two measured phases have taken `secs`.
pub fn stays(
    srv: &Server,
    client: &Client,
    clients: usize,
    secs: f64,
    data: &Dataset,
) -> (Stats, Stats) {
    let (mut ins, mut outs) = (Sample::default(), Sample::default());
    let rooms: Vec<(&String, &String)> = data
        .room_types
        .iter()
        .flat_map(|(rt, rooms)| rooms.iter().map(move |r| (rt, r)))
        .collect();
    for round in 0..100 {
        if (ins.elapsed() + outs.elapsed()).as_secs_f64() >= secs {
            break;
        }
        let bookings = book_today(client, clients, data, &rooms, round);
        let n = Some(bookings.len());
        ins.merge(load::charged(srv, || {
            load::run(client, clients, 3600.0, n, |i| Call {
                method: "POST",
                path: "/v1/check-in".into(),
                body: Some(json!({"reservation_id": bookings[i].0, "room_id": bookings[i].1})),
                expect: 200,
            })
        }));
        outs.merge(load::charged(srv, || {
            load::run(client, clients, 3600.0, n, |i| Call {
                method: "POST",
                path: "/v1/check-out".into(),
                body: Some(json!({"reservation_id": bookings[i].0, "payment_method": "card"})),
                expect: 200,
            })
        }));
    }
    (ins.stats(), outs.stats())
}

/// One booking arriving today per room: (reservation id, room id).
fn book_today(
    client: &Client,
    clients: usize,
    data: &Dataset,
    rooms: &[(&String, &String)],
    round: usize,
) -> Vec<(String, String)> {
    let today = Utc::now().date_naive();
    let per = rooms.len().div_ceil(clients.max(1));
    std::thread::scope(|s| {
        let handles: Vec<_> = rooms
            .chunks(per)
            .enumerate()
            .map(|(c, chunk)| {
                let client = client.clone();
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (k, (rt, room)) in chunk.iter().enumerate() {
                        let g = &data.guests[(round * 104_729 + c * 997 + k) % data.guests.len()];
                        let (status, body) = client.send(&Call {
                            method: "POST",
                            path: "/v1/reservations".into(),
                            body: Some(json!({"primary_guest_id": g, "room_type_id": rt,
                                "arrival": today.to_string(),
                                "departure": (today + Duration::days(1)).to_string(),
                                "adults": 1})),
                            expect: 201,
                        });
                        assert_eq!(status, 201, "booking for today: {body}");
                        let id = body["id"].as_str().unwrap_or_default().to_string();
                        out.push((id, room.to_string()));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// Bookings for today in the first `n` rooms, half of them checked in, for the check-in and
/// check-out pages: (still arriving, in the house).
pub fn desk_stays(client: &Client, data: &Dataset, n: usize) -> (Vec<String>, Vec<String>) {
    let rooms: Vec<(&String, &String)> = data
        .room_types
        .iter()
        .flat_map(|(rt, rooms)| rooms.iter().map(move |r| (rt, r)))
        .take(n)
        .collect();
    let booked = book_today(client, 1, data, &rooms, 1000);
    let (arriving, staying) = booked.split_at(booked.len() / 2);
    for (id, room) in staying {
        let (status, body) = client.send(&Call {
            method: "POST",
            path: "/v1/check-in".into(),
            body: Some(json!({"reservation_id": id, "room_id": room})),
            expect: 200,
        });
        assert_eq!(status, 200, "check-in for the check-out page: {body}");
    }
    let ids = |v: &[(String, String)]| v.iter().map(|(id, _)| id.clone()).collect();
    (ids(arriving), ids(staying))
}

/// The day close of yesterday (the first one, so every seeded night before it is history):
/// its time and the server's CPU time, ms.
pub fn day_close(srv: &Server, client: &Client) -> Result<(f64, f64), String> {
    let before = srv.cpu_us();
    let t = std::time::Instant::now();
    let (status, body) = client.send(&Call {
        method: "POST",
        path: "/v1/day-close".into(),
        body: Some(json!({})),
        expect: 201,
    });
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    if status != 201 {
        return Err(format!("the day close: {status} {body}"));
    }
    Ok((ms, (srv.cpu_us() - before) / 1000.0))
}
