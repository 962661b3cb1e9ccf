//! The price calendar (`/v1/rates`): a plan's nights as they stand (its own or derived
//! price, its restrictions), bulk edits over a range and chosen weekdays (with
//! `rates.changed`), and the quote of a stay on a plan that offers and bookings share.

use chrono::{Days, NaiveDate};
use poem_openapi::types::MaybeUndefined;
use rusqlite::Connection;

use crate::domain::events::EventType;
use crate::domain::pricing::{self, Derivation, Reason, Restrictions, Weekday};
use crate::domain::said::Value;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{Date, Principal, RateCalendar, RateNight, RatePlan, RatesUpdate, RoomType};
use crate::service::{Services, fail_on};
use crate::store;
use crate::store::rates::Set;

/// The longest range one calendar request covers (two years).
pub const MAX_RANGE: i64 = 731;

/// The nights from `from` to `to` (inclusive).
fn days(from: NaiveDate, to: NaiveDate) -> impl Iterator<Item = NaiveDate> {
    (0..=(to - from).num_days()).filter_map(move |i| from.checked_add_days(Days::new(i as u64)))
}

/// Plan `plan`'s nights from `from` to `to` (inclusive): the base-occupancy price and the
/// restrictions of each. A derived plan takes its parent's prices, moved by its rule, and
/// keeps its own restrictions.
pub(crate) fn nights(
    c: &Connection,
    plan: &RatePlan,
    room_type: &RoomType,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<(NaiveDate, i64, Restrictions)>> {
    let own = store::rates::range(c, &plan.id, from, to)?;
    let (priced, rule) = match (&plan.parent_id, &plan.derivation) {
        (Some(parent), Some(d)) => {
            let parent = store::rate_plans::get(c, parent)?
                .ok_or_else(|| AppError::internal(format!("the parent of {} vanished", plan.id)))?;
            let rule = Derivation {
                kind: d.kind,
                value: d.value.0,
            };
            (parent, Some(rule))
        }
        _ => (plan.clone(), None),
    };
    let prices = if rule.is_some() {
        store::rates::range(c, &priced.id, from, to)?
    } else {
        own.clone()
    };
    let default = priced.default_price.unwrap_or(room_type.base_rate);
    Ok(days(from, to)
        .map(|d| {
            let base = prices.get(&d).and_then(|s| s.price).unwrap_or(default);
            let price = rule.map_or(base, |r| pricing::derive(base, r));
            let restrictions = own.get(&d).map(|s| s.restrictions).unwrap_or_default();
            (d, price, restrictions)
        })
        .collect())
}

/// A stay on a plan: the party's price of each night, and what stands against booking it.
pub(crate) struct Quote {
    pub nights: Vec<(NaiveDate, i64)>,
    pub reasons: Vec<Reason>,
}

/// Who stays.
#[derive(Debug, Clone, Default)]
pub(crate) struct Party {
    pub adults: i64,
    pub children: i64,
    pub ages: Vec<i64>,
    pub extra_beds: i64,
}

/// Quotes the stay `[arrival, departure)` on `plan` for `party`, booked on `booked_on`.
pub(crate) fn quote(
    c: &Connection,
    plan: &RatePlan,
    room_type: &RoomType,
    arrival: NaiveDate,
    departure: NaiveDate,
    party: &Party,
    booked_on: NaiveDate,
) -> AppResult<Quote> {
    let all = nights(c, plan, room_type, arrival, departure)?;
    let Some(((_, _, leaving), stay)) = all.split_last() else {
        return Ok(Quote {
            nights: Vec::new(),
            reasons: Vec::new(),
        });
    };
    let occ = plan_occupancy(plan);
    let priced = stay
        .iter()
        .map(|(d, base, _)| {
            let price = pricing::party_price(
                *base,
                &occ,
                party.adults,
                party.children,
                &party.ages,
                party.extra_beds,
            );
            (*d, price)
        })
        .collect();
    let restrictions: Vec<Restrictions> = stay.iter().map(|(_, _, r)| *r).collect();
    Ok(Quote {
        nights: priced,
        reasons: pricing::refusals(arrival, &restrictions, leaving, booked_on),
    })
}

/// The plan's occupancy prices as the domain reads them.
pub(crate) fn plan_occupancy(plan: &RatePlan) -> pricing::Occupancy {
    let o = &plan.occupancy;
    pricing::Occupancy {
        base_adults: o.base_adults.0,
        extra_adult: o.extra_adult.map_or(0, |p| p.0),
        children: o
            .children
            .iter()
            .flatten()
            .map(|b| pricing::ChildBand {
                max_age: b.max_age.0,
                price: b.price.0,
            })
            .collect(),
        extra_bed: o.extra_bed.map_or(0, |p| p.0),
    }
}

fn range_errors(from: NaiveDate, to: NaiveDate, errs: &mut Vec<FieldError>) {
    let span = (to - from).num_days();
    if span < 0 {
        errs.push(FieldError::new(
            "to",
            "before_from",
            "must be on or after from",
        ));
    } else if span >= MAX_RANGE {
        errs.push(
            FieldError::new(
                "to",
                "range_too_long",
                format!("the range may cover at most {MAX_RANGE} nights"),
            )
            .said("problem-range-long", vec![("n", Value::Num(MAX_RANGE))]),
        );
    }
}

fn plan_and_type(c: &Connection, id: &str, field: &str) -> AppResult<(RatePlan, RoomType)> {
    let plan = store::rate_plans::get(c, id)?.ok_or_else(|| {
        AppError::validation(vec![FieldError::new(
            field,
            "not_found",
            "no rate plan has this id",
        )])
    })?;
    let room_type = store::room_types::get(c, &plan.room_type_id)?
        .ok_or_else(|| AppError::internal(format!("the room type of {id} vanished")))?;
    Ok((plan, room_type))
}

fn calendar(
    c: &Connection,
    plan: &RatePlan,
    room_type: &RoomType,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<RateCalendar> {
    let data = nights(c, plan, room_type, from, to)?
        .into_iter()
        .map(|(d, price, r)| RateNight {
            date: Date(d),
            price,
            min_stay_arrival: r.min_stay_arrival,
            min_stay_through: r.min_stay_through,
            max_stay: r.max_stay,
            closed_to_arrival: r.closed_to_arrival,
            closed_to_departure: r.closed_to_departure,
            stop_sell: r.stop_sell,
            min_advance: r.min_advance,
            max_advance: r.max_advance,
        })
        .collect();
    Ok(RateCalendar {
        rate_plan_id: plan.id.clone(),
        from: Date(from),
        to: Date(to),
        data,
    })
}

/// `GET /v1/rates`: plan `plan_id`'s nights from `from` to `to` (inclusive).
pub async fn get(
    svc: &Services,
    p: &Principal,
    plan_id: String,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<RateCalendar> {
    p.require(Scope::RatesRead)?;
    let mut errs = Vec::new();
    range_errors(from, to, &mut errs);
    fail_on(errs)?;
    svc.db()
        .read(move |c| {
            let (plan, room_type) = plan_and_type(c, &plan_id, "rate_plan_id")?;
            calendar(c, &plan, &room_type, from, to)
        })
        .await
}

fn number<const A: i64, const B: i64>(
    v: MaybeUndefined<crate::model::fields::Int<A, B>>,
) -> Option<Set> {
    match v {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => Some(Set::Number(None)),
        MaybeUndefined::Value(n) => Some(Set::Number(Some(n.0))),
    }
}

/// `PUT /v1/rates`: sets the fields given on the plan's nights in the range and weekdays;
/// answers the range as it now stands.
pub async fn update(svc: &Services, p: &Principal, input: RatesUpdate) -> AppResult<RateCalendar> {
    p.require(Scope::RatesWrite)?;
    let (from, to) = (input.from.0, input.to.0);
    let mut errs = Vec::new();
    range_errors(from, to, &mut errs);
    let weekdays = input
        .weekdays
        .clone()
        .unwrap_or_else(|| Weekday::ALL.to_vec());
    if weekdays.is_empty() {
        errs.push(
            FieldError::new(
                "weekdays",
                "required",
                "needs at least one weekday, or leave it out for every day",
            )
            .said("rule-required", vec![]),
        );
    }
    let flag = |v: Option<bool>| v.map(Set::Flag);
    let wanted: Vec<(&str, Option<Set>)> = vec![
        ("price", number(input.price)),
        ("min_stay_arrival", number(input.min_stay_arrival)),
        ("min_stay_through", number(input.min_stay_through)),
        ("max_stay", number(input.max_stay)),
        ("closed_to_arrival", flag(input.closed_to_arrival)),
        ("closed_to_departure", flag(input.closed_to_departure)),
        ("stop_sell", flag(input.stop_sell)),
        ("min_advance", number(input.min_advance)),
        ("max_advance", number(input.max_advance)),
    ];
    let changes: Vec<(&'static str, Set)> = wanted
        .into_iter()
        .filter_map(|(c, v)| v.map(|v| (c, v)))
        .collect();
    if changes.is_empty() {
        errs.push(
            FieldError::new(
                "price",
                "nothing_to_change",
                "send at least one of price and the restrictions",
            )
            .said("problem-nothing-to-change", vec![]),
        );
    }
    fail_on(errs)?;
    let actor = p.actor.clone();
    let plan_id = input.rate_plan_id.0.clone();
    svc.db()
        .write(move |tx| {
            let (plan, room_type) = plan_and_type(tx, &plan_id, "rate_plan_id")?;
            if plan.parent_id.is_some() && changes.iter().any(|(c, _)| *c == "price") {
                return Err(AppError::validation(vec![
                    FieldError::new(
                        "price",
                        "derived_price",
                        "this plan's prices follow its parent plan: change the parent's, or its rule",
                    )
                    .said("problem-derived-price", vec![]),
                ]));
            }
            let chosen: Vec<NaiveDate> = days(from, to)
                .filter(|d| weekdays.contains(&Weekday::of(*d)))
                .collect();
            store::rates::edit(tx, &plan.id, &chosen, &changes)?;
            let fields: Vec<&str> = changes.iter().map(|(c, _)| *c).collect();
            let data = serde_json::json!({
                "rate_plan_id": plan.id, "room_type_id": plan.room_type_id,
                "from": from.to_string(), "to": to.to_string(),
                "weekdays": weekdays.iter().map(|w| w.as_str()).collect::<Vec<_>>(),
                "fields": fields, "nights": chosen.len(),
            });
            store::events::record(tx, &actor, EventType::RatesChanged, &plan.id, &data)?;
            calendar(tx, &plan, &room_type, from, to)
        })
        .await
}
