//! The city-tax report (`GET /v1/reports/city-tax?year=&quarter=`, the desk's page): a
//! quarter's stays, month by month, as the return asks: every guest-night, those exempt by
//! age and those beyond the cap per stay, those taxed at the ordinary rate and what they
//! come to; beside them what the invoices billed. Counted at check-out, when innkeep bills
//! the tax. Scope `reports:read`.
//!
//! Only the exemptions innkeep's city-tax settings know are split out (age, the cap of
//! nights); a municipality's other categories (residents, drivers, patients' companions…)
//! and reduced rates are not recorded per guest yet, so their nights count as taxed.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::domain::money::{CityTaxRule, CityTaxSplit, city_tax_split};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{CityTaxMonth, CityTaxReport, Principal};
use crate::service::Services;
use crate::store;

fn month_row(
    month: String,
    stays: i64,
    s: CityTaxSplit,
    rate: i64,
    billed: (i64, i64),
) -> CityTaxMonth {
    CityTaxMonth {
        month,
        stays,
        person_nights: s.person_nights,
        exempt_age: s.exempt_age,
        exempt_beyond_cap: s.exempt_cap,
        taxed: s.taxed,
        due: s.taxed * rate,
        billed_person_nights: billed.0,
        billed: billed.1,
    }
}

/// The first day of `quarter` (1 to 4) of `year`, or a 422 naming `quarter`.
fn quarter_start(year: i32, quarter: u32) -> AppResult<NaiveDate> {
    (1..=4)
        .contains(&quarter)
        .then(|| NaiveDate::from_ymd_opt(year, (quarter - 1) * 3 + 1, 1))
        .flatten()
        .ok_or_else(|| {
            AppError::invalid_field("quarter", "out_of_range", "must be 1, 2, 3 or 4").field_said(
                "rule-out_of_range",
                vec![
                    ("n1", crate::domain::said::Value::Num(1)),
                    ("n2", crate::domain::said::Value::Num(4)),
                ],
            )
        })
}

/// The city tax of `quarter` of `year`.
pub async fn report(
    svc: &Services,
    p: &Principal,
    year: i32,
    quarter: u32,
) -> AppResult<CityTaxReport> {
    p.require(Scope::ReportsRead)?;
    let from = quarter_start(year, quarter)?;
    let to = from + chrono::Months::new(3);
    let (stays, billed, settings) = svc
        .db()
        .read(move |c| {
            let tz = store::settings::get(c)?.time_zone;
            let (start, _) = crate::clock::day_bounds(from, &tz);
            let (end, _) = crate::clock::day_bounds(to, &tz);
            Ok((
                store::reports::checked_out_stays(c, &start, &end)?,
                store::reports::city_tax_billed(c, &from.to_string(), &to.to_string())?,
                store::settings::get(c)?,
            ))
        })
        .await?;
    let tax = settings.city_tax.as_ref();
    let rule = CityTaxRule {
        amount_per_person_night: tax.map_or(0, |t| t.amount_per_person_night.0),
        max_nights: tax.and_then(|t| t.max_nights.map(|n| n.0)),
        exempt_under_age: tax.and_then(|t| t.exempt_under_age.map(|a| a.0)),
    };
    let months: Vec<String> = (0..3)
        .map(|i| (from + chrono::Months::new(i)).format("%Y-%m").to_string())
        .collect();
    let mut by_month: BTreeMap<String, (i64, CityTaxSplit)> = months
        .iter()
        .map(|m| (m.clone(), Default::default()))
        .collect();
    for (out_at, arrival, nights, persons, births) in stays {
        let Some((day, _)) = crate::clock::local_time(&out_at, &settings.time_zone) else {
            continue;
        };
        let births: Vec<Option<NaiveDate>> = births
            .and_then(|b| serde_json::from_str::<Vec<Option<String>>>(&b).ok())
            .unwrap_or_default()
            .into_iter()
            .map(|b| b.and_then(|d| d.parse().ok()))
            .collect();
        if let Some(m) = by_month.get_mut(&day.format("%Y-%m").to_string()) {
            m.0 += 1;
            m.1.add(city_tax_split(&rule, nights, persons, &births, arrival.0));
        }
    }
    let billed: BTreeMap<String, (i64, i64)> =
        billed.into_iter().map(|(m, n, g)| (m, (n, g))).collect();
    let rate = rule.amount_per_person_night;
    let (mut all, mut count, mut all_billed) = (CityTaxSplit::default(), 0, (0, 0));
    let rows: Vec<CityTaxMonth> = by_month
        .into_iter()
        .map(|(month, (stays, split))| {
            let b = billed.get(&month).copied().unwrap_or_default();
            all.add(split);
            count += stays;
            all_billed = (all_billed.0 + b.0, all_billed.1 + b.1);
            month_row(month, stays, split, rate, b)
        })
        .collect();
    Ok(CityTaxReport {
        year,
        quarter,
        rate,
        max_nights: rule.max_nights,
        exempt_under_age: rule.exempt_under_age,
        currency: settings.currency,
        total: month_row("total".into(), count, all, rate, all_billed),
        months: rows,
    })
}
