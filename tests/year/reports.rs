//! The occupancy report against the run's own ground truth: month by month, the rooms
//! sold (every night of every stay that was not cancelled and did not fail to show, to its
//! departure as it stands), the room-nights available (the rooms times the month's
//! nights) and the room revenue (each night at the calendar's price, as the books check
//! it was billed), to the night and to the cent.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};

use crate::api::Api;
use crate::books::Books;
use crate::run::{State, Stay};

fn month_of(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap()
}

fn next_month(d: NaiveDate) -> NaiveDate {
    d.checked_add_months(chrono::Months::new(1)).unwrap()
}

/// Compares the report with the stays; a line for the report.
pub async fn check(api: &Api<'_>, stays: &[Stay], rooms: usize, books: &mut Books) -> String {
    let held: Vec<&Stay> = stays
        .iter()
        .filter(|s| matches!(s.state, State::Confirmed | State::InHouse | State::Out))
        .collect();
    let (Some(first), Some(last)) = (
        held.iter().map(|s| s.plan.arrival).min(),
        held.iter().map(|s| s.departure).max(),
    ) else {
        return "reports: nothing sold to compare".into();
    };
    let mut truth: BTreeMap<NaiveDate, (i64, i64)> = BTreeMap::new();
    for s in &held {
        let mut night = s.plan.arrival;
        while night < s.departure {
            let e = truth.entry(month_of(night)).or_default();
            e.0 += 1;
            e.1 += crate::plan::plan_price(s.plan.room_type, s.plan.rate_plan, night);
            night = night.succ_opt().unwrap();
        }
    }
    let mut month = month_of(first);
    let mut compared = 0;
    while month < last {
        let to = next_month(month);
        let path = format!("/v1/reports/occupancy?from={month}&to={to}&by=month");
        let Some(r) = api.get(&path).await else {
            books
                .failures
                .push(format!("the occupancy report of {month} did not answer"));
            return String::new();
        };
        let row = &r["rows"][0];
        let (sold, revenue) = truth.get(&month).copied().unwrap_or((0, 0));
        let available = rooms as i64 * (to - month).num_days();
        let got = (
            row["rooms_sold"].as_i64(),
            row["room_revenue"].as_i64(),
            row["rooms_available"].as_i64(),
        );
        if got != (Some(sold), Some(revenue), Some(available)) {
            books.failures.push(format!(
                "{}: the report says sold, revenue, available {got:?}; the run {:?}",
                month.format("%Y-%m"),
                (sold, revenue, available)
            ));
        }
        compared += 1;
        month = to;
    }
    let nights: i64 = truth.values().map(|v| v.0).sum();
    let guests = istat(api, stays, books).await;
    format!(
        "reports: {compared} months of occupancy and room revenue agree with the run ({nights} room-nights); {guests}"
    )
}

/// ISTAT's monthly movement against the run: every guest of every stay checked in arrives
/// in its arrival's month and spends each night to its departure as it stands.
async fn istat(api: &Api<'_>, stays: &[Stay], books: &mut Books) -> String {
    let mut truth: BTreeMap<NaiveDate, (i64, i64)> = BTreeMap::new();
    for s in stays
        .iter()
        .filter(|s| matches!(s.state, State::InHouse | State::Out))
    {
        let persons = s.guests.len() as i64;
        truth.entry(month_of(s.plan.arrival)).or_default().0 += persons;
        let mut night = s.plan.arrival;
        while night < s.departure {
            truth.entry(month_of(night)).or_default().1 += persons;
            night = night.succ_opt().unwrap();
        }
    }
    let mut nights = 0;
    for (month, (arrivals, presenze)) in &truth {
        let path = format!("/v1/reports/istat?month={}", month.format("%Y-%m"));
        let Some(r) = api.get(&path).await else {
            books
                .failures
                .push(format!("the ISTAT movement of {month} did not answer"));
            return String::new();
        };
        let got = (r["arrivals"].as_i64(), r["nights"].as_i64());
        if got != (Some(*arrivals), Some(*presenze)) {
            books.failures.push(format!(
                "{}: ISTAT says arrivals, nights {got:?}; the run {:?}",
                month.format("%Y-%m"),
                (arrivals, presenze)
            ));
        }
        nights += presenze;
    }
    format!(
        "ISTAT: {} months of arrivals and nights agree with the run ({nights} guest-nights)",
        truth.len()
    )
}
