//! Italy's monthly movement of guests (ISTAT model C/59) from the stays: `GET
//! /v1/reports/istat?month=` and the desk's page; CSV for the regional platform's upload
//! form or a spreadsheet. Scope `reports:read`.

use chrono::NaiveDate;

use crate::domain::istat::{self, GuestStay, Residence};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{Date, IstatDay, IstatReport, IstatResidence, Principal};
use crate::service::Services;
use crate::store;

/// The first day of `month` (`2026-11`), or a 422 naming `month`.
pub fn month_start(month: &str) -> AppResult<NaiveDate> {
    NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d")
        .ok()
        .filter(|_| month.len() == 7)
        .ok_or_else(|| {
            AppError::invalid_field("month", "invalid_month", "must be a month such as 2026-11")
                .field_said("problem-month", vec![])
        })
}

/// Italians by province first, then countries, then `unknown`.
fn order(r: &Residence) -> (u8, String) {
    match r {
        Residence::Italy(_) => (0, r.code()),
        Residence::Abroad(_) => (1, r.code()),
        Residence::Unknown => (2, String::new()),
    }
}

/// The movement of `month` (`2026-11`).
pub async fn movement(svc: &Services, p: &Principal, month: String) -> AppResult<IstatReport> {
    p.require(Scope::ReportsRead)?;
    let from = month_start(&month)?;
    let to = from
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(from);
    let (guests, rooms, beds) = svc
        .db()
        .read(move |c| {
            Ok((
                store::reports::istat_guests(c, &from.to_string(), &to.to_string())?,
                store::reports::rooms(c)?,
                store::reports::beds(c)?,
            ))
        })
        .await?;
    let stays: Vec<GuestStay> = guests
        .into_iter()
        .map(
            |(arrival, departure, room, country, region, nationality)| GuestStay {
                arrival: arrival.0,
                departure: departure.0,
                room,
                residence: Residence::of(
                    country.as_deref(),
                    region.as_deref(),
                    nationality.as_deref(),
                ),
            },
        )
        .collect();
    let m = istat::movement(from, to, &stays);
    let mut residences: Vec<(Residence, (i64, i64))> = m.by_residence.into_iter().collect();
    residences.sort_by_key(|(r, _)| order(r));
    let (arrivals, nights) = residences
        .iter()
        .fold((0, 0), |(a, n), (_, (x, y))| (a + x, n + y));
    Ok(IstatReport {
        month: from.format("%Y-%m").to_string(),
        rooms,
        beds,
        residences: residences
            .into_iter()
            .map(|(r, (arrivals, nights))| IstatResidence {
                residence: r.code(),
                arrivals,
                nights,
            })
            .collect(),
        days: m
            .days
            .into_iter()
            .map(|(d, x)| IstatDay {
                date: Date(d),
                arrivals: x.arrivals,
                departures: x.departures,
                present: x.present,
                rooms_occupied: x.rooms,
            })
            .collect(),
        arrivals,
        nights,
    })
}

/// The movement as CSV: a row per residence, then the total.
pub fn csv(r: &IstatReport) -> String {
    let mut out = String::from("residence,arrivals,nights\r\n");
    for x in &r.residences {
        out.push_str(&format!("{},{},{}\r\n", x.residence, x.arrivals, x.nights));
    }
    out.push_str(&format!("total,{},{}\r\n", r.arrivals, r.nights));
    out
}
