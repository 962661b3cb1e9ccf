//! The price of each night of a reservation. Booked on a rate plan, each night is priced
//! from the plan's calendar for the party and the booking is refused as `GET /offers`
//! would refuse it (the same codes), unless staff override it with a reason, kept in the
//! history. Without a plan every night is at `nightly_rate`, as before plans. A change of
//! dates keeps the prices of the nights that stay and prices only the new ones.

use std::collections::HashMap;

use chrono::NaiveDate;

use crate::db::Tx;
use crate::domain::history::Note;
use crate::domain::stay::StayDates;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{Actor, NightPrice, RatePlan, Reservation, at_rate};
use crate::service::offers::price_booking;
use crate::service::rates::Party;
use crate::store;

/// The party of `r`, as prices read it.
fn party(r: &Reservation) -> Party {
    Party {
        adults: r.adults,
        children: r.children,
        ages: r.children_ages.clone().unwrap_or_default(),
        extra_beds: r.extra_beds,
    }
}

/// Plan `id` for reservation `r` (422 at `rate_plan_id` when it is not one of its room
/// type's).
fn plan_for(tx: &Tx, id: &str, r: &Reservation) -> AppResult<RatePlan> {
    let bad = |code: &'static str, why: &'static str| {
        AppError::validation(vec![FieldError::new("rate_plan_id", code, why)])
    };
    match store::rate_plans::get(tx, id)? {
        None => Err(bad("not_found", "no rate plan has this id")),
        Some(p) if p.room_type_id != r.room_type_id => Err(bad(
            "other_room_type",
            "must be a plan of the booked room type",
        )),
        Some(p) => Ok(p),
    }
}

/// Adds the field error of `r`'s plan, if it is not one of its room type's.
pub(super) fn check_plan(tx: &Tx, r: &Reservation, errs: &mut Vec<FieldError>) -> AppResult<()> {
    if let Some(id) = &r.rate_plan_id
        && let Err(e) = plan_for(tx, id, r)
    {
        errs.extend(e.errors);
    }
    Ok(())
}

/// Prices `r`'s nights: on its plan (refusing as an offer would unless `overridden`), or at
/// its nightly rate when `rate_given` or without a plan. The plan's first night becomes the
/// nightly rate when none was given. Answers whether the booking went past the plan's
/// rules (overridden).
pub(super) fn price(
    tx: &Tx,
    r: &mut Reservation,
    rate_given: bool,
    overridden: bool,
    today: NaiveDate,
) -> AppResult<bool> {
    let Some(plan_id) = r.rate_plan_id.clone() else {
        r.nights = at_rate(r.arrival.0, r.departure.0, r.nightly_rate);
        return Ok(false);
    };
    let plan = plan_for(tx, &plan_id, r)?;
    let Ok(stay) = StayDates::new(r.arrival.0, r.departure.0) else {
        return Ok(false);
    };
    let room_type = store::room_types::get(tx, &r.room_type_id)?
        .ok_or_else(|| AppError::not_found("room type", &r.room_type_id))?;
    let booked = r.booked_on().unwrap_or(today);
    let (quoted, past_rules) =
        price_booking(tx, &plan, &room_type, &stay, &party(r), booked, overridden)?;
    if rate_given {
        r.nights = at_rate(r.arrival.0, r.departure.0, r.nightly_rate);
    } else {
        r.nights = quoted
            .into_iter()
            .map(|(d, price)| NightPrice {
                date: crate::model::Date(d),
                price,
            })
            .collect();
        r.nightly_rate = r.nights.first().map_or(r.nightly_rate, |n| n.price);
    }
    // The plan's deposit, fixed at booking like the prices.
    r.deposit = crate::service::offers::deposit(&plan).map(|d| {
        let prices: Vec<i64> = r.nights.iter().map(|n| n.price).collect();
        crate::model::Deposit {
            due: d.amount(&prices),
            due_by: Some(crate::model::Date(d.due(r.arrival.0, booked))),
            ..Default::default()
        }
        .tally()
    });
    Ok(past_rules)
}

/// Prices `r`'s nights after a change from `old`: a new nightly rate prices every night;
/// otherwise the nights kept keep their prices and the new ones are priced as at booking
/// (refused as an offer would be, unless `overridden`, when the dates or the party moved).
/// Answers whether the change went past the plan's rules (overridden).
pub(super) fn reprice(
    tx: &Tx,
    old: &Reservation,
    r: &mut Reservation,
    rate_given: bool,
    overridden: bool,
    today: NaiveDate,
) -> AppResult<bool> {
    if rate_given && r.nightly_rate != old.nightly_rate {
        r.nights = at_rate(r.arrival.0, r.departure.0, r.nightly_rate);
        return Ok(false);
    }
    let moved = old.arrival != r.arrival
        || old.departure != r.departure
        || old.room_type_id != r.room_type_id
        || old.adults != r.adults
        || old.children != r.children;
    if !moved {
        return Ok(false);
    }
    let kept: HashMap<NaiveDate, i64> = if old.room_type_id == r.room_type_id {
        old.nights.iter().map(|n| (n.date.0, n.price)).collect()
    } else {
        HashMap::new()
    };
    let mut priced = r.clone();
    let mut past_rules = false;
    if r.rate_plan_id.is_some() && r.status.holds_inventory() {
        past_rules = price(tx, &mut priced, false, overridden, today)?;
    } else {
        priced.nights = at_rate(r.arrival.0, r.departure.0, r.nightly_rate);
    }
    r.nights = priced
        .nights
        .into_iter()
        .map(|n| NightPrice {
            price: kept.get(&n.date.0).copied().unwrap_or(n.price),
            date: n.date,
        })
        .collect();
    Ok(past_rules)
}

/// Keeps in `r`'s history that staff booked it past the plan's restrictions, and why (as
/// the change `override_reason`), after the booking's own entry.
pub(super) fn record_override(tx: &Tx, actor: &Actor, r: &Reservation, why: &str) -> AppResult<()> {
    let kind = Note::RestrictionOverridden.as_str();
    let change = crate::domain::history::Change {
        field: "override_reason".into(),
        from: serde_json::Value::Null,
        to: serde_json::Value::String(why.to_string()),
    };
    store::history::note(tx, actor, kind, &r.id, &[change], None)
}

/// The fee `r`'s plan charges for its cancellation (`r` now cancelled) or its no-show, put
/// on its folio as a charge (returned; 0 when none): nothing when it has no plan, or
/// cancels within the free period. The fee is taxed
/// at the property's default rate, the accommodation's: whether a retained fee is
/// consideration for the stay (VAT) or damages (outside VAT) is decided per country by the
/// tax authority and not verified here; a fee billed wrongly is corrected by a credit note.
pub(super) fn charge_fee(
    tx: &Tx,
    actor: &Actor,
    r: &Reservation,
    today: NaiveDate,
) -> AppResult<i64> {
    let Some(plan) = r.rate_plan_id.as_deref() else {
        return Ok(0);
    };
    let Some(plan) = store::rate_plans::get(tx, plan)? else {
        return Ok(0);
    };
    let prices: Vec<i64> = r.nights.iter().map(|n| n.price).collect();
    let no_show = r.status == crate::domain::reservation::Status::NoShow;
    let fee = if no_show {
        crate::domain::policy::Fee {
            kind: plan.no_show.fee,
            percent: plan.no_show.percent.map_or(0, |p| p.0),
        }
        .on(&prices)
    } else {
        crate::service::offers::cancellation(&plan).fee(r.arrival.0, &prices, today)
    };
    if fee <= 0 {
        return Ok(0);
    }
    let settings = store::settings::get(tx)?;
    let line = crate::service::invoicing::DraftLine {
        description: crate::domain::stay_lines::fee(settings.country.as_deref(), no_show),
        quantity: 1,
        unit_price: fee,
        tax_rate: settings.default_tax_rate,
        service_date: Some(crate::model::Date(today)),
        charge_id: None,
        kind: crate::domain::enums::LineKind::Charge,
        kpd_code: None,
    };
    let now = crate::model::Instant(tx.now_text());
    crate::service::charges::insert(tx, actor, r, line, &now)?;
    Ok(fee)
}
