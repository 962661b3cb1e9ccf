//! The month's movement of guests as the Ross1000 platform imports it (`GET
//! /v1/reports/istat/ross1000.xml?month=`, the desk's ISTAT page): every day of the month
//! with the rooms occupied, each guest's arrival on its day and departure on its day, the
//! police's codes from the imported Alloggiati tables. A guest whose data the platform
//! would refuse is left out and named, so the rest can be filed and the guest fixed.
//! Scopes `reports:read` and `guests:read` (the file names the guests).

use chrono::NaiveDate;

use crate::compliance::ross1000::{self, Day};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// A guest left out of the file, and why (English).
#[derive(Debug, Clone)]
pub struct LeftOut {
    /// The booking's code.
    pub code: String,
    /// The reservation.
    pub reservation_id: String,
    /// The guest.
    pub guest: String,
    /// What is missing or wrong.
    pub problem: String,
}

/// The file of `month` (`2026-11`) and the guests left out of it.
pub async fn file(
    svc: &Services,
    p: &Principal,
    month: String,
) -> AppResult<(String, Vec<LeftOut>)> {
    p.require(Scope::ReportsRead)?;
    p.require(Scope::GuestsRead)?;
    let Some(structure) = svc.istat_structure().map(str::to_string) else {
        return Err(AppError::conflict(
            "not_configured",
            "The Ross1000 file needs the code the region's platform gave the hotel: set \
             [compliance.istat] structure in innkeep.toml.",
        ));
    };
    let from = crate::service::istat::month_start(&month)?;
    let to = from
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(from);
    let report = crate::service::istat::movement(svc, p, month).await?;
    svc.db()
        .read(move |c| {
            let mut days: Vec<Day> = report
                .days
                .iter()
                .map(|d| Day {
                    date: d.date.0,
                    rooms_occupied: d.rooms_occupied,
                    rooms: report.rooms,
                    beds: report.beds,
                    ..Day::default()
                })
                .collect();
            let day_of = |days: &mut Vec<Day>, d: NaiveDate| -> Option<usize> {
                days.iter().position(|x| x.date == d)
            };
            let mut left_out = Vec::new();
            for r in store::reports::istat_stays(c, &from.to_string(), &to.to_string())? {
                let mut guests = Vec::with_capacity(r.guest_ids.len());
                for id in &r.guest_ids {
                    guests.extend(store::guests::get(c, id)?);
                }
                if let Some(i) = day_of(&mut days, r.arrival.0) {
                    let (arrived, problems, orphans) = ross1000::arrivals(c, &r.code, &guests)?;
                    days[i].arrivals.extend(arrived);
                    let mut said: std::collections::BTreeMap<usize, Vec<String>> =
                        std::collections::BTreeMap::new();
                    for p in problems {
                        said.entry(p.guest_index)
                            .or_default()
                            .push(format!("{}: {}", p.field, p.message));
                    }
                    for i in orphans {
                        said.entry(i)
                            .or_default()
                            .push("the head of the party is left out".to_string());
                    }
                    left_out.extend(said.into_iter().map(|(i, problems)| LeftOut {
                        code: r.code.clone(),
                        reservation_id: r.id.clone(),
                        guest: format!("{} {}", guests[i].first_name, guests[i].last_name),
                        problem: problems.join("; "),
                    }));
                }
                let left = r.status == crate::domain::reservation::Status::CheckedOut;
                if let (true, Some(i)) = (left, day_of(&mut days, r.departure.0)) {
                    days[i]
                        .departures
                        .extend(ross1000::departures(&r.code, &guests, r.arrival.0));
                }
            }
            Ok((ross1000::document(&structure, "innkeep", &days), left_out))
        })
        .await
}
