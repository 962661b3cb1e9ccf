//! Offers (`GET /v1/offers`): every sold plan of every room type for one stay and party,
//! with the price of each night and the total, or the reasons it cannot be booked. A
//! booking refuses what an offer would refuse, with the same codes ([`refusal`]).

use chrono::NaiveDate;
use rusqlite::Connection;

use super::rates::{Party, quote};
use crate::domain::availability::nightly_booked;
use crate::domain::policy::{Cancellation, Deposit, Fee};
use crate::domain::scopes::Scope;
use crate::domain::stay::StayDates;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{
    Date, DepositDue, Offer, OfferList, OfferReason, Principal, RatePlan, RoomType,
};
use crate::refusal::{RatesRefusal, Said, Value};
use crate::service::{Services, fail_on};
use crate::store;

/// An offer's reason from a refusal: its code, the English words and the parameters.
fn reason(code: &str, said: Said, params: serde_json::Value) -> OfferReason {
    let detail = said.say(&crate::i18n::T::new(crate::i18n::Lang::En));
    OfferReason {
        code: code.to_string(),
        detail,
        params,
    }
}

/// The plan's cancellation policy as the domain reads it.
pub(crate) fn cancellation(plan: &RatePlan) -> Cancellation {
    Cancellation {
        free_until_days: plan.cancellation.free_until_days.map(|d| d.0),
        fee: Fee {
            kind: plan.cancellation.fee,
            percent: plan.cancellation.percent.map_or(0, |p| p.0),
        },
    }
}

/// The plan's deposit rule as the domain reads it.
pub(crate) fn deposit(plan: &RatePlan) -> Option<Deposit> {
    plan.deposit.as_ref().map(|d| Deposit {
        kind: d.kind,
        percent: d.percent.map_or(0, |p| p.0),
        days_before: d.days_before.map(|x| x.0),
    })
}

/// Rooms of `room_type` free on every night of `stay`, and the nights with none free.
fn rooms_left(
    c: &Connection,
    room_type: &str,
    stay: &StayDates,
) -> AppResult<(i64, Vec<NaiveDate>)> {
    let (total, out_of_order) = store::rooms::count_of_type(c, room_type)?;
    let capacity = (total - out_of_order).max(0);
    let booked = store::reservations::stays_of_type(c, room_type, stay, None)?;
    let nightly = nightly_booked(stay, &booked);
    let busiest = nightly
        .iter()
        .map(|(_, n)| i64::from(*n))
        .max()
        .unwrap_or(0);
    let full = nightly
        .into_iter()
        .filter(|(_, n)| i64::from(*n) >= capacity)
        .map(|(d, _)| d)
        .collect();
    Ok(((capacity - busiest).max(0), full))
}

/// One plan's offer.
fn offer(
    c: &Connection,
    plan: &RatePlan,
    room_type: &RoomType,
    stay: &StayDates,
    party: &Party,
    today: NaiveDate,
    (left, full): &(i64, Vec<NaiveDate>),
) -> AppResult<(Offer, Vec<Said>)> {
    let left = *left;
    let (arrival, departure) = (stay.arrival(), stay.departure());
    let q = quote(c, plan, room_type, arrival, departure, party, today)?;
    let mut reasons: Vec<OfferReason> = Vec::new();
    let mut words: Vec<Said> = Vec::new();
    for r in q.reasons {
        let refusal = RatesRefusal::Restricted(r);
        let (_, code, said) = refusal.parts();
        words.push(said.clone());
        reasons.push(reason(code, said, refusal.params()));
    }
    if party.adults + party.children > room_type.max_occupancy {
        let said = Said {
            key: "problem-offer-max-occupancy",
            values: vec![("max", Value::Num(room_type.max_occupancy))],
        };
        let params = serde_json::json!({"max_occupancy": room_type.max_occupancy});
        words.push(said.clone());
        reasons.push(reason("max_occupancy", said, params));
    }
    if left == 0 {
        let said = Said {
            key: "problem-offer-no-availability",
            values: vec![("nights", Value::Days(full.clone()))],
        };
        let days: Vec<String> = full.iter().map(NaiveDate::to_string).collect();
        words.push(said.clone());
        reasons.push(reason(
            "no_availability",
            said,
            serde_json::json!({"nights": days}),
        ));
    }
    let prices: Vec<i64> = q.nights.iter().map(|(_, p)| *p).collect();
    let policy = cancellation(plan);
    let offer = Offer {
        room_type_id: room_type.id.clone(),
        room_type_code: room_type.code.clone(),
        rate_plan_id: plan.id.clone(),
        rate_plan_code: plan.code.clone(),
        name: plan.name.clone(),
        rooms_left: left,
        bookable: reasons.is_empty(),
        total: prices.iter().sum(),
        nights: q
            .nights
            .into_iter()
            .map(|(d, price)| crate::model::NightPrice {
                date: Date(d),
                price,
            })
            .collect(),
        currency: room_type.currency.clone(),
        free_cancellation_until: policy.free_until(arrival).map(Date),
        deposit: deposit(plan).map(|d| DepositDue {
            amount: d.amount(&prices),
            due: Date(d.due(arrival, today)),
        }),
        reasons,
    };
    Ok((offer, words))
}

/// What `GET /v1/offers` asks.
pub struct OfferQuery {
    pub arrival: NaiveDate,
    pub departure: NaiveDate,
    pub adults: i64,
    pub children: i64,
    pub children_ages: Vec<i64>,
}

/// `GET /v1/offers`.
pub async fn list(svc: &Services, p: &Principal, q: OfferQuery) -> AppResult<OfferList> {
    Ok(with_words(svc, p, q).await?.0)
}

/// [`list`], and each offer's reasons as the catalogues say them (for a page).
pub async fn with_words(
    svc: &Services,
    p: &Principal,
    q: OfferQuery,
) -> AppResult<(OfferList, Vec<Vec<Said>>)> {
    p.require(Scope::RatesRead)?;
    let mut errs = Vec::new();
    let stay = StayDates::new(q.arrival, q.departure);
    if stay.is_err() {
        errs.push(FieldError::new(
            "departure",
            "invalid_stay",
            format!(
                "must be after arrival, at most {} nights later",
                crate::domain::stay::MAX_NIGHTS
            ),
        ));
    }
    if !q.children_ages.is_empty() && q.children_ages.len() as i64 != q.children {
        errs.push(FieldError::new(
            "children_ages",
            "count_mismatch",
            "gives one age per child",
        ));
    }
    fail_on(errs)?;
    let stay = stay.map_err(|_| AppError::internal("the stay was checked"))?;
    let party = Party {
        adults: q.adults,
        children: q.children,
        ages: q.children_ages,
        extra_beds: 0,
    };
    let db = svc.db();
    let clock = db.clock().clone();
    db.read(move |c| {
        let today = clock.today_in(&store::settings::get(c)?.time_zone);
        let plans = store::rate_plans::all(c)?;
        let (mut data, mut words) = (Vec::new(), Vec::new());
        for room_type in store::room_types::all(c)? {
            let left = rooms_left(c, &room_type.id, &stay)?;
            for plan in plans
                .iter()
                .filter(|p| p.room_type_id == room_type.id && p.sold)
            {
                let (o, w) = offer(c, plan, &room_type, &stay, &party, today, &left)?;
                data.push(o);
                words.push(w);
            }
        }
        let list = OfferList {
            arrival: Date(q.arrival),
            departure: Date(q.departure),
            data,
        };
        Ok((list, words))
    })
    .await
}

/// Refuses booking `plan` for the stay as an offer would (409 with the reason's code), or
/// answers the price of each night and whether the booking goes past the plan's rules
/// (only when `overridden`: staff booking it anyway).
pub(crate) fn price_booking(
    c: &Connection,
    plan: &RatePlan,
    room_type: &RoomType,
    stay: &StayDates,
    party: &Party,
    today: NaiveDate,
    overridden: bool,
) -> AppResult<(Vec<(NaiveDate, i64)>, bool)> {
    let q = quote(
        c,
        plan,
        room_type,
        stay.arrival(),
        stay.departure(),
        party,
        today,
    )?;
    let past_rules = !plan.sold || !q.reasons.is_empty();
    if past_rules && !overridden {
        if !plan.sold {
            return Err(RatesRefusal::NotSold {
                code: plan.code.clone(),
            }
            .into());
        }
        if let Some(first) = q.reasons.into_iter().next() {
            return Err(RatesRefusal::Restricted(first).into());
        }
    }
    Ok((q.nights, past_rules))
}
