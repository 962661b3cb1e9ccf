//! Channex (channex.io, REST API v1), the first channel manager: the calls and the reading
//! of their answers, pure. From its public documentation (docs.channex.io: "ARI",
//! "Bookings collection", "Rate limits", "PMS certification tests"):
//!
//! - every call carries the key in the `user-api-key` header; the base URL is
//!   `https://app.channex.io/api/v1` (staging: `https://staging.channex.io/api/v1`);
//! - `POST /availability` takes `values` of `{property_id, room_type_id, date_from, date_to,
//!   availability}`; `POST /restrictions` takes `values` of `{property_id, rate_plan_id,
//!   date_from, date_to, rate, min_stay_arrival, min_stay_through, max_stay,
//!   closed_to_arrival, closed_to_departure, stop_sell}`; ranges are inclusive, values are
//!   applied in order (the last wins), omitted fields stay as they were; a rate is sent in
//!   minor units as an integer;
//! - a call may carry any number of values (under 10 MB), but a property may make only 10
//!   availability and 10 restriction calls a minute (429 `http_too_many_requests` past
//!   that: pause a minute); so innkeep sends each batch of changes as one call of each;
//! - an invalid value does not fail the call: the answer is still 200 and lists the value
//!   in `meta.warnings` with why; a whole refusal is `{"errors": {"code", "title"}}`;
//! - bookings come from `GET /booking_revisions/feed` (unacknowledged revisions, oldest
//!   first with `order[inserted_at]=asc`), each acknowledged with `POST
//!   /booking_revisions/{id}/ack` once it is saved; an unacknowledged revision is served
//!   again (for 30 minutes, then Channex warns by e-mail: innkeep pulls every minute).
//!
//! Unverified here, and easy to change in this file alone: whether a plain `rate` on a plan
//! with several occupancy options sets only the primary one (innkeep sends the plan's base
//! price as `rate`); and what Channex does with a revision never acknowledged after 30
//! minutes.

use chrono::NaiveDate;
use serde_json::{Value, json};

mod read;

pub use read::{
    availability_read, options, rate_plan_options, read_availability, read_restrictions,
    restrictions_read, room_type_options,
};

use super::{Call, Collect, Customer, Pushed, Revision, RevisionKind, RoomStay};
use crate::domain::channel::{RateNight, Run};
use crate::domain::money::parse_amount;

/// The production base URL.
pub const PRODUCTION: &str = "https://app.channex.io/api/v1";
/// The header the API key goes in.
pub const KEY_HEADER: &str = "user-api-key";
/// Revisions per page of the feed (its most), asked for with `pagination[limit]`. A shorter
/// page is read as the feed's end. Unverified: that Channex serves 100 a page when asked. If it
/// served fewer, each round would take one page and a backlog more rounds; none would be lost.
pub const FEED_PAGE: usize = 100;

/// `POST /availability`: each run of a room type's availability (Channex room type id).
pub fn availability(property: &str, runs: &[(String, Run<i64>)]) -> Call {
    let values: Vec<Value> = runs
        .iter()
        .map(|(room_type, r)| {
            json!({"property_id": property, "room_type_id": room_type,
                   "date_from": r.from.to_string(), "date_to": r.to.to_string(),
                   "availability": r.value.max(0)})
        })
        .collect();
    Call {
        method: "POST",
        path: "/availability".into(),
        body: Some(json!({ "values": values })),
    }
}

/// `POST /restrictions`: each run of a rate plan's price and restrictions (Channex rate
/// plan id). A night without a price (0) goes without `rate` (Channex refuses a rate of 0)
/// and stop-sold.
pub fn restrictions(property: &str, runs: &[(String, Run<RateNight>)]) -> Call {
    let values: Vec<Value> = runs
        .iter()
        .map(|(plan, r)| {
            let n = &r.value;
            let mut v = json!({"property_id": property, "rate_plan_id": plan,
                "date_from": r.from.to_string(), "date_to": r.to.to_string(),
                "min_stay_arrival": n.min_stay_arrival.max(1),
                "min_stay_through": n.min_stay_through.max(1),
                "max_stay": n.max_stay.max(0),
                "closed_to_arrival": n.closed_to_arrival,
                "closed_to_departure": n.closed_to_departure,
                "stop_sell": n.stop_sell || n.price <= 0});
            if n.price > 0 {
                v["rate"] = json!(n.price);
            }
            v
        })
        .collect();
    Call {
        method: "POST",
        path: "/restrictions".into(),
        body: Some(json!({ "values": values })),
    }
}

/// `GET /booking_revisions/feed` for `property`, oldest first, a full page.
pub fn feed(property: &str) -> Call {
    Call {
        method: "GET",
        path: format!(
            "/booking_revisions/feed?filter[property_id]={property}&order[inserted_at]=asc&pagination[limit]={FEED_PAGE}"
        ),
        body: None,
    }
}

/// `POST /booking_revisions/{id}/ack`.
pub fn ack(revision: &str) -> Call {
    Call {
        method: "POST",
        path: format!("/booking_revisions/{revision}/ack"),
        body: None,
    }
}

/// The answer to an ARI push (`status`, `body`).
pub fn pushed(status: u16, body: &str) -> Pushed {
    let json: Option<Value> = serde_json::from_str(body).ok();
    match status {
        200..=299 => {
            let Some(json) = json else {
                return Pushed::Retry("the answer was not JSON".into());
            };
            let warnings: Vec<String> = json["meta"]["warnings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(warning)
                .collect();
            if warnings.is_empty() {
                Pushed::Done
            } else {
                Pushed::Warned(warnings)
            }
        }
        429 => Pushed::Slow,
        400..=499 => Pushed::Refused(format!(
            "Channex refused the update ({status}): {}",
            json.as_ref().map_or_else(|| body.to_string(), error)
        )),
        _ => Pushed::Retry(format!("Channex answered {status}")),
    }
}

/// A warning of a push in words: the value's dates and what was wrong with which field.
fn warning(w: &Value) -> String {
    let what = w["warning"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(field, why)| format!("{field} {}", plain(why)))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_else(|| plain(&w["warning"]));
    let dates = match (
        w["date_from"].as_str(),
        w["date_to"].as_str(),
        w["date"].as_str(),
    ) {
        (Some(a), Some(b), _) => format!("{a} to {b}"),
        (_, _, Some(d)) => d.to_string(),
        _ => "some nights".into(),
    };
    format!("{dates}: {what}")
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(", "),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `{"errors": {"code", "title", "details"}}` in words.
fn error(v: &Value) -> String {
    let e = &v["errors"];
    let title = e["title"].as_str().unwrap_or("no reason given");
    match e.get("details").map(plain).filter(|d| !d.is_empty()) {
        Some(d) => format!("{title} ({d})"),
        None => title.to_string(),
    }
}

/// The revisions of a feed page (`GET /booking_revisions/feed`'s body), in order; a
/// revision that cannot be read is an error naming it (never skipped: it would be lost).
pub fn revisions(body: &str) -> Result<Vec<Revision>, String> {
    let json: Value =
        serde_json::from_str(body).map_err(|e| format!("the feed is not JSON: {e}"))?;
    let data = json["data"].as_array().ok_or("the feed has no data list")?;
    data.iter().map(revision).collect()
}

fn revision(v: &Value) -> Result<Revision, String> {
    let id = v["id"]
        .as_str()
        .ok_or("a revision without an id")?
        .to_string();
    let a = &v["attributes"];
    let bad = |what: &str| format!("revision {id}: {what}");
    let text = |k: &str| a[k].as_str().map(str::to_string);
    let date = |k: &str| {
        a[k].as_str()
            .and_then(|d| d.parse::<NaiveDate>().ok())
            .ok_or_else(|| bad(&format!("{k} is not a date")))
    };
    let kind = match a["status"].as_str() {
        Some("new") => RevisionKind::New,
        Some("modified") => RevisionKind::Modified,
        Some("cancelled") => RevisionKind::Cancelled,
        other => return Err(bad(&format!("status {other:?}"))),
    };
    let rooms = a["rooms"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| room(r).map_err(|e| bad(&e)))
        .collect::<Result<Vec<_>, _>>()?;
    let c = &a["customer"];
    let field = |k: &str| {
        c[k].as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    Ok(Revision {
        booking_id: text("booking_id").ok_or_else(|| bad("no booking_id"))?,
        kind,
        ota: text("ota_name").unwrap_or_default(),
        ota_code: text("ota_reservation_code").unwrap_or_default(),
        arrival: date("arrival_date")?,
        departure: date("departure_date")?,
        rooms,
        customer: Customer {
            first_name: field("name").unwrap_or_default(),
            last_name: field("surname").unwrap_or_default(),
            email: field("mail"),
            phone: field("phone"),
            country: field("country").map(|c| c.to_ascii_uppercase()),
        },
        collect: match a["payment_collect"].as_str() {
            Some("ota") => Collect::Ota,
            _ => Collect::Hotel,
        },
        currency: text("currency").unwrap_or_default(),
        notes: text("notes").filter(|n| !n.trim().is_empty()),
        id,
    })
}

fn room(r: &Value) -> Result<RoomStay, String> {
    let mut nights = Vec::new();
    for (d, price) in r["days"].as_object().into_iter().flatten() {
        let day = d
            .parse::<NaiveDate>()
            .map_err(|_| format!("night {d} is not a date"))?;
        let amount = match price {
            Value::String(s) => parse_amount(s),
            Value::Number(n) => n.as_f64().map(|f| (f * 100.0).round() as i64),
            _ => None,
        }
        .ok_or_else(|| format!("the price of {d} is not an amount"))?;
        nights.push((day, amount));
    }
    nights.sort();
    let occupancy = &r["occupancy"];
    Ok(RoomStay {
        room_type: r["room_type_id"].as_str().map(str::to_string),
        rate_plan: r["rate_plan_id"].as_str().map(str::to_string),
        adults: occupancy["adults"].as_i64().unwrap_or(1).max(1),
        children: occupancy["children"].as_i64().unwrap_or(0).max(0),
        nights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap_or_default()
    }

    #[test]
    fn a_push_carries_every_run_in_one_call() {
        let night = RateNight {
            price: 12000,
            min_stay_arrival: 3,
            min_stay_through: 0,
            max_stay: 0,
            closed_to_arrival: true,
            closed_to_departure: false,
            stop_sell: false,
        };
        let call = restrictions(
            "p1",
            &[
                (
                    "rp1".into(),
                    Run {
                        from: d("2027-08-01"),
                        to: d("2027-08-14"),
                        value: night.clone(),
                    },
                ),
                (
                    "rp1".into(),
                    Run {
                        from: d("2027-08-15"),
                        to: d("2027-08-15"),
                        value: RateNight { price: 0, ..night },
                    },
                ),
            ],
        );
        let v = &call.body.unwrap_or_default()["values"];
        assert_eq!(v[0]["rate"], 12000);
        assert_eq!(v[0]["date_to"], "2027-08-14");
        assert_eq!(v[0]["min_stay_arrival"], 3);
        assert_eq!(v[0]["min_stay_through"], 1, "no minimum is 1 night");
        assert!(
            v[1].get("rate").is_none(),
            "a night without a price is not sold"
        );
        assert_eq!(v[1]["stop_sell"], true);
    }

    #[test]
    fn answers_are_read_in_words() {
        assert_eq!(
            pushed(
                200,
                r#"{"data":[{"id":"t","type":"task"}],"meta":{"message":"Success"}}"#
            ),
            Pushed::Done
        );
        let warned = pushed(
            200,
            r#"{"meta":{"message":"Success","warnings":[{"date_from":"2027-01-01","date_to":"2027-01-02","rate_plan_id":"x","warning":{"rate":["must be greater than 0"]}}]}}"#,
        );
        assert_eq!(
            warned,
            Pushed::Warned(vec![
                "2027-01-01 to 2027-01-02: rate must be greater than 0".into()
            ])
        );
        assert_eq!(
            pushed(
                429,
                r#"{"errors":{"code":"http_too_many_requests","title":"Too Many Requests"}}"#
            ),
            Pushed::Slow
        );
        assert_eq!(
            pushed(
                401,
                r#"{"errors":{"code":"unauthorized","title":"Unauthorized"}}"#
            ),
            Pushed::Refused("Channex refused the update (401): Unauthorized".into())
        );
        assert!(matches!(pushed(502, "<html>"), Pushed::Retry(_)));
    }

    #[test]
    fn a_revision_is_read_whole_or_refused_by_name() {
        let body = r#"{"data":[{"id":"rev1","type":"booking_revision","attributes":{
            "booking_id":"b1","status":"new","ota_name":"Booking.com","ota_reservation_code":"4711",
            "arrival_date":"2027-08-01","departure_date":"2027-08-03","currency":"EUR",
            "payment_collect":"ota","notes":" ",
            "customer":{"name":"Ana","surname":"Horvat","mail":"ana@example.com","country":"hr"},
            "rooms":[{"room_type_id":"rt1","rate_plan_id":"rp1","occupancy":{"adults":2,"children":1},
                      "days":{"2027-08-02":"110.50","2027-08-01":"100.00"}}]}}]}"#;
        let r = &revisions(body).unwrap_or_default()[0];
        assert_eq!(
            (r.id.as_str(), r.kind, r.collect),
            ("rev1", RevisionKind::New, Collect::Ota)
        );
        assert_eq!(r.customer.country.as_deref(), Some("HR"));
        assert_eq!(r.notes, None);
        assert_eq!(
            r.rooms[0].nights,
            [(d("2027-08-01"), 10000), (d("2027-08-02"), 11050)]
        );
        let broken = body.replace("\"2027-08-03\"", "\"soon\"");
        assert_eq!(
            revisions(&broken),
            Err("revision rev1: departure_date is not a date".into())
        );
    }
}
