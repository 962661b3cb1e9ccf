//! The owner's reports, read in one read transaction each. Occupancy: night by night or
//! month by month over at most a year, with the group hub's definitions
//! (`domain::report`), as JSON or CSV.

use chrono::NaiveDate;

use crate::domain::report::{self, Figures};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{Date, OccupancyReport, OccupancyRow, Principal, ReportBy};
use crate::service::Services;
use crate::store;

/// The longest range a report covers, in nights.
pub const MAX_NIGHTS: i64 = 366;

fn row(period: String, f: &Figures) -> OccupancyRow {
    OccupancyRow {
        period,
        rooms_available: f.rooms_available,
        rooms_sold: f.rooms_sold,
        room_revenue: f.room_revenue,
        adr: f.adr(),
        revpar: f.revpar(),
        occupancy_percent: f.occupancy_tenths().map(|t| t as f64 / 10.0),
    }
}

/// 422 unless `from` is before `to` and at most [`MAX_NIGHTS`] apart.
pub fn check_range(from: NaiveDate, to: NaiveDate) -> AppResult<()> {
    let nights = (to - from).num_days();
    if !(1..=MAX_NIGHTS).contains(&nights) {
        return Err(AppError::invalid_field(
            "to",
            "invalid_range",
            format!("must be after from, at most {MAX_NIGHTS} nights later"),
        )
        .field_said(
            "problem-report-range",
            vec![("n1", crate::domain::said::Value::Num(MAX_NIGHTS))],
        ));
    }
    Ok(())
}

/// Occupancy from `from` to `to` (exclusive), cut `by` night or month.
pub async fn occupancy(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
    by: ReportBy,
) -> AppResult<OccupancyReport> {
    p.require(Scope::ReportsRead)?;
    check_range(from.0, to.0)?;
    let (sold, rooms, currency) = svc
        .db()
        .read(move |c| {
            let sold = store::nights_sold::between(c, &from.0.to_string(), &to.0.to_string())?;
            let currency = store::settings::get(c)?.currency;
            Ok((sold, store::reports::rooms(c)?, currency))
        })
        .await?;
    let nights = report::nights(from.0, to.0, rooms, &sold);
    let total = row("total".into(), &report::total(&nights));
    let rows = match by {
        ReportBy::Night => nights.iter().map(|(d, f)| row(d.to_string(), f)).collect(),
        ReportBy::Month => report::months(&nights)
            .iter()
            .map(|(d, f)| row(d.format("%Y-%m").to_string(), f))
            .collect(),
    };
    Ok(OccupancyReport {
        from,
        to,
        by,
        currency,
        rows,
        total,
    })
}

/// `r` as CSV: a header, a row per period and the total; amounts in major units (`95.50`),
/// occupancy in percent.
pub fn occupancy_csv(r: &OccupancyReport) -> String {
    let money = |v: Option<i64>| {
        v.map(crate::domain::money::format_amount)
            .unwrap_or_default()
    };
    let mut out = String::from(
        "period,rooms_available,rooms_sold,occupancy_percent,room_revenue,adr,revpar,currency\r\n",
    );
    for x in r.rows.iter().chain([&r.total]) {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\r\n",
            x.period,
            x.rooms_available,
            x.rooms_sold,
            x.occupancy_percent
                .map(|o| format!("{o:.1}"))
                .unwrap_or_default(),
            crate::domain::money::format_amount(x.room_revenue),
            money(x.adr),
            money(x.revpar),
            r.currency
        ));
    }
    out
}

/// Everyone who stayed the night of `date` (checked in, or since checked out), with their
/// registration data: needs `reports:read` and `guests:read`.
pub async fn guest_list(
    svc: &Services,
    p: &Principal,
    date: Date,
) -> AppResult<crate::model::GuestList> {
    p.require(Scope::ReportsRead)?;
    p.require(Scope::GuestsRead)?;
    let rows = svc
        .db()
        .read(move |c| {
            let mut rows = Vec::new();
            for (reservation_id, code, room, guest_id, primary, arrival, departure) in
                store::reports::staying(c, &date.0.to_string())?
            {
                let Some(guest) = store::guests::get(c, &guest_id)? else {
                    continue;
                };
                let day = |s: &str| s.parse().map(Date).unwrap_or(date);
                rows.push(crate::model::GuestListRow {
                    reservation_id,
                    code,
                    room,
                    primary,
                    arrival: day(&arrival),
                    departure: day(&departure),
                    guest,
                });
            }
            Ok(rows)
        })
        .await?;
    Ok(crate::model::GuestList { date, rows })
}
