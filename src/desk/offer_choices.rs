//! The offers a new booking chooses from (screen 3): every plan on sale of every room type
//! for the dates and party typed, with its total, its terms and, when the plan's rules stand
//! against it, why in the receptionist's language. A plan refused only by its rules can
//! still be chosen with a reason (the booking then says why); a full room type cannot.

use std::collections::HashMap;

use chrono::NaiveDate;

use super::DeskState;
use crate::domain::stay::StayDates;
use crate::error::AppError;
use crate::i18n::{Arg, T};
use crate::service::desk::DeskSession;
use crate::service::offers::{OfferQuery, with_words};

/// One offer as the form shows it.
pub struct OfferChoice {
    /// `rt_…|rp_…`: the radio's value.
    pub value: String,
    /// Room type and plan.
    pub title: String,
    /// Nights, total, price per night, cancellation and deposit, in words.
    pub terms: String,
    /// Why the plan's rules refuse it, in words (empty when it can be booked).
    pub reasons: Vec<String>,
    /// A room of the type is free on every night.
    pub available: bool,
}

/// The offers for the form `f` (none without valid dates, or when no plan exists).
pub async fn for_form(
    state: &DeskState,
    s: &DeskSession,
    t: &T,
    f: &HashMap<String, String>,
    window: Option<StayDates>,
) -> Result<Vec<OfferChoice>, AppError> {
    let Some(stay) = window else {
        return Ok(Vec::new());
    };
    let num = |k: &str| {
        f.get(k)
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or(0)
    };
    let ages: Vec<i64> = f
        .get("children_ages")
        .map(|a| {
            a.split([',', ';', ' '])
                .filter_map(|x| x.trim().parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let children = num("children").max(0);
    let q = OfferQuery {
        arrival: stay.arrival(),
        departure: stay.departure(),
        adults: num("adults").max(1),
        children,
        children_ages: if ages.len() as i64 == children {
            ages
        } else {
            Vec::new()
        },
    };
    let (list, words) = match with_words(&state.svc, &s.principal, q).await {
        Ok(x) => x,
        Err(e) if e.kind == crate::error::Kind::Forbidden => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let types = crate::service::room_types::list(
        &state.svc,
        &s.principal,
        crate::service::PageRequest::first(1000),
    )
    .await?;
    let type_name = |id: &str| {
        types
            .items
            .iter()
            .find(|(rt, _)| rt.id == id)
            .map_or_else(String::new, |(rt, _)| rt.name.clone())
    };
    let day = |d: NaiveDate| Arg::Text(t.short_date(d));
    Ok(list
        .data
        .into_iter()
        .zip(words)
        .map(|(o, said)| {
            let nights = o.nights.len() as i64;
            let mut terms = vec![
                t.n("free-rooms", o.rooms_left),
                t.n("nights", nights),
                t.with(
                    "offer-total",
                    &[("total", Arg::Text(t.money(o.total, &o.currency)))],
                ),
            ];
            terms.push(match o.free_cancellation_until {
                Some(d) => t.with("offer-free-until", &[("day", day(d.0))]),
                None => t.t("offer-non-refundable"),
            });
            if let Some(d) = &o.deposit {
                terms.push(t.with(
                    "offer-deposit",
                    &[
                        ("amount", Arg::Text(t.money(d.amount, &o.currency))),
                        ("day", day(d.due.0)),
                    ],
                ));
            }
            OfferChoice {
                value: format!("{}|{}", o.room_type_id, o.rate_plan_id),
                title: format!(
                    "{} · {}",
                    type_name(&o.room_type_id),
                    o.name.in_language(t.lang().tag())
                ),
                terms: terms.join(" · "),
                reasons: said.iter().map(|w| w.say(t)).collect(),
                available: o.rooms_left > 0,
            }
        })
        .collect())
}
