//! Reading Channex's ARI back (`GET /availability`, `GET /restrictions`) to compare it
//! with innkeep's night by night: the calls and the reading of their answers, pure.

use chrono::NaiveDate;
use serde_json::Value;

use crate::channel::Call;
use crate::domain::channel::RateNight;
use crate::domain::money::parse_amount;

/// The restrictions innkeep reads back.
const READ_BACK: &str = "rate,min_stay_arrival,min_stay_through,max_stay,closed_to_arrival,closed_to_departure,stop_sell";

/// `GET /availability` of `property` from `from` to `to` (inclusive).
pub fn read_availability(property: &str, from: NaiveDate, to: NaiveDate) -> Call {
    Call {
        method: "GET",
        path: format!(
            "/availability?filter[property_id]={property}&filter[date][gte]={from}&filter[date][lte]={to}"
        ),
        body: None,
    }
}

/// `GET /restrictions` of `property` from `from` to `to` (inclusive), the fields innkeep
/// sends.
pub fn read_restrictions(property: &str, from: NaiveDate, to: NaiveDate) -> Call {
    Call {
        method: "GET",
        path: format!(
            "/restrictions?filter[property_id]={property}&filter[date][gte]={from}&filter[date][lte]={to}&filter[restrictions]={READ_BACK}"
        ),
        body: None,
    }
}

/// `{"data": {id: {date: value}}}` as (id, night) → value, each value read by `read`.
fn per_night<T>(
    body: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<Vec<(String, NaiveDate, T)>, String> {
    let json: Value = serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
    let data = json["data"].as_object().ok_or("no data in the answer")?;
    let mut out = Vec::new();
    for (id, nights) in data {
        for (d, v) in nights.as_object().into_iter().flatten() {
            let day = d
                .parse::<NaiveDate>()
                .map_err(|_| format!("{d} is not a date"))?;
            let value = read(v).ok_or_else(|| format!("{id} on {d}: {v} cannot be read"))?;
            out.push((id.clone(), day, value));
        }
    }
    Ok(out)
}

/// The availability Channex holds: (room type, night, rooms on sale).
pub fn availability_read(body: &str) -> Result<Vec<(String, NaiveDate, i64)>, String> {
    per_night(body, Value::as_i64)
}

/// The rate plan nights Channex holds, as innkeep sends them (a minimum of 1 night is none;
/// a rate comes back as a decimal string).
pub fn restrictions_read(body: &str) -> Result<Vec<(String, NaiveDate, RateNight)>, String> {
    per_night(body, |v| {
        let number = |k: &str| v[k].as_i64().unwrap_or(0);
        let flag = |k: &str| v[k].as_bool().unwrap_or(false) || v[k].as_i64() == Some(1);
        let price = match &v["rate"] {
            Value::String(s) => parse_amount(s)?,
            Value::Number(n) => n.as_i64()?,
            _ => 0,
        };
        let min = |k: &str| Some(number(k)).filter(|n| *n > 1).unwrap_or(0);
        Some(RateNight {
            price,
            min_stay_arrival: min("min_stay_arrival"),
            min_stay_through: min("min_stay_through"),
            max_stay: number("max_stay"),
            closed_to_arrival: flag("closed_to_arrival"),
            closed_to_departure: flag("closed_to_departure"),
            stop_sell: flag("stop_sell"),
        })
    })
}

/// `GET /room_types/options` of `property`: every room type, unpaginated (the mapping
/// screen's list).
pub fn room_type_options(property: &str) -> Call {
    Call {
        method: "GET",
        path: format!("/room_types/options?filter[property_id]={property}"),
        body: None,
    }
}

/// `GET /rate_plans/options` of `property`: every rate plan with its room type.
pub fn rate_plan_options(property: &str) -> Call {
    Call {
        method: "GET",
        path: format!("/rate_plans/options?filter[property_id]={property}"),
        body: None,
    }
}

/// The room types or rate plans of an options answer, by title. The documentation shows
/// the fields (`id`, `title`, `property_id`, `room_type_id`) but not whether they sit in
/// `attributes` as in its other lists: both are read (unverified against the live API).
pub fn options(body: &str, property: &str) -> Result<Vec<crate::channel::Remote>, String> {
    let json: Value = serde_json::from_str(body)
        .map_err(|e| format!("the channel manager's list is not JSON: {e}"))?;
    let data = json["data"]
        .as_array()
        .ok_or("the channel manager's list has no data")?;
    let mut out = Vec::new();
    for item in data {
        let field = |k: &str| {
            item["attributes"][k]
                .as_str()
                .or_else(|| item[k].as_str())
                .map(str::to_string)
        };
        let Some(id) = field("id") else {
            return Err("an entry of the channel manager's list has no id".into());
        };
        if field("property_id").is_some_and(|p| p != property) {
            continue;
        }
        out.push(crate::channel::Remote {
            title: field("title").unwrap_or_else(|| id.clone()),
            room_type: field("room_type_id"),
            id,
        });
    }
    out.sort_by(|a, b| a.title.cmp(&b.title).then(a.id.cmp(&b.id)));
    Ok(out)
}
