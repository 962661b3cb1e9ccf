//! Rate plans, the price calendar and offers (`/v1/rate-plans`, `/v1/rates`,
//! `/v1/offers`).

use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

use crate::domain::policy::{DepositKind, FeeKind};
use crate::domain::pricing::{DerivationKind, Weekday};
use crate::input_object;
use crate::model::fields::{Code, Int, Line, RatePlanId, RoomTypeId};
use crate::model::{Date, Instant, Patch};

/// Prices in minor units.
type Price = Int<0, 100_000_000>;

input_object! {
    stored
    /// A name in the property's languages; a missing translation reads as the English.
    pub struct Names {
        /// English.
        pub en: Line<100>,
        /// Italian.
        pub it: Option<Line<100>>,
        /// Croatian.
        pub hr: Option<Line<100>>,
    }
}

impl Names {
    /// The name in `lang` (`en`, `it`, `hr`), the English where it has none.
    pub fn in_language(&self, lang: &str) -> String {
        let chosen = match lang {
            "it" => self.it.as_ref(),
            "hr" => self.hr.as_ref(),
            _ => None,
        };
        chosen.unwrap_or(&self.en).0.clone()
    }
}

input_object! {
    stored
    /// How a derived plan's price follows its parent's, night by night.
    pub struct DerivationRule {
        /// `amount` (plus or minus minor units) or `percent` (plus or minus hundredths of a
        /// percent: `-1000` is 10 % less, `1500` is 15 % more).
        pub kind: DerivationKind,
        /// The amount or the percentage; negative lowers the price. The result is rounded
        /// half away from zero to the cent and never goes below zero. A percentage lies
        /// between -9999 and 100000.
        pub value: Int<{ -100_000_000 }, 100_000_000>,
    }
}

input_object! {
    stored
    /// A children's price band.
    pub struct ChildPrice {
        /// Children up to this age (inclusive) pay `price`; the narrowest band that fits
        /// applies.
        pub max_age: Int<0, 17>,
        /// Per child and night, in minor units.
        pub price: Price,
    }
}

input_object! {
    stored
    /// What a party adds to the plan's nightly price, which is for `base_adults` adults.
    /// A child older than every band pays as an extra adult; a child whose age is not
    /// known pays the dearest band.
    pub struct OccupancyPrices {
        /// Adults the nightly price is for (1 to 20).
        pub base_adults: Int<1, 20>,
        /// Each adult beyond `base_adults`, per night (default 0).
        pub extra_adult: Option<Price>,
        /// Children's bands by age.
        pub children: Option<Vec<ChildPrice>>,
        /// Each extra bed, per night (default 0).
        pub extra_bed: Option<Price>,
    }
}

input_object! {
    stored
    /// Breakfast included in the nightly price: on the invoice it is split from the
    /// accommodation onto its own tax rate.
    pub struct IncludedBreakfast {
        /// Per person and night, gross, in minor units (part of the nightly price).
        pub price: Price,
        /// Its tax rate in hundredths of a percent (1000 is 10 %).
        pub tax_rate: Int<0, 10_000>,
    }
}

input_object! {
    stored
    /// Free cancellation while at least `free_until_days` days remain before the arrival
    /// day (0: up to and on the arrival day; absent: never, a non-refundable plan); after
    /// that, `fee`.
    pub struct CancellationPolicy {
        /// Days before arrival until which cancelling is free (0 to 365); absent: never
        /// free.
        pub free_until_days: Option<Int<0, 365>>,
        /// `none`, `first_night`, `percent` (of the stay) or `all` (the whole stay).
        pub fee: FeeKind,
        /// For `percent`: hundredths of a percent of the stay (1 to 10000).
        pub percent: Option<Int<1, 10_000>>,
    }
}

input_object! {
    stored
    /// What a no-show is charged.
    pub struct NoShowPolicy {
        /// `none`, `first_night`, `percent` (of the stay) or `all` (the whole stay).
        pub fee: FeeKind,
        /// For `percent`: hundredths of a percent of the stay (1 to 10000).
        pub percent: Option<Int<1, 10_000>>,
    }
}

input_object! {
    stored
    /// A deposit asked of a booking on this plan.
    pub struct DepositRule {
        /// `first_night` or `percent` (of the stay).
        pub kind: DepositKind,
        /// For `percent`: hundredths of a percent of the stay (1 to 10000).
        pub percent: Option<Int<1, 10_000>>,
        /// Due this many days before arrival (0 to 365; never before the booking day);
        /// absent: due at booking.
        pub days_before: Option<Int<0, 365>>,
    }
}

/// A rate plan: how one room type is sold, at what price and on which terms.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct RatePlan {
    /// `rp_…`
    pub id: String,
    /// The room type it sells.
    pub room_type_id: String,
    /// Short code, unique within the room type, such as `FLEX` or `NR`.
    pub code: String,
    /// Its name in the property's languages.
    pub name: Names,
    /// A derived plan's parent (a plan of the same room type with its own prices).
    pub parent_id: Option<String>,
    /// A derived plan's rule.
    pub derivation: Option<DerivationRule>,
    /// An own plan's price for a night the calendar gives none; absent: the room type's
    /// `base_rate`.
    pub default_price: Option<i64>,
    /// Occupancy prices.
    pub occupancy: OccupancyPrices,
    /// Breakfast included in the price, if any.
    pub breakfast: Option<IncludedBreakfast>,
    /// The cancellation policy.
    pub cancellation: CancellationPolicy,
    /// The no-show fee.
    pub no_show: NoShowPolicy,
    /// The deposit rule, if a deposit is asked.
    pub deposit: Option<DepositRule>,
    /// Whether it is offered for sale (`GET /offers`); a plan not sold can still be booked
    /// by staff with an override.
    pub sold: bool,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was created.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

input_object! {
    /// A new rate plan. Either its own prices (`default_price` and the calendar) or
    /// `parent_id` with `derivation`.
    pub struct RatePlanCreate {
        /// The room type it sells (`rt_…`).
        pub room_type_id: RoomTypeId,
        /// 1 to 16 of `A-Z`, `0-9`, `_`, `-`; unique within the room type.
        pub code: Code,
        /// Its name; `en` is required.
        pub name: Names,
        /// Derive the prices from this plan of the same room type (which is not derived
        /// itself).
        pub parent_id: Option<RatePlanId>,
        /// Required with `parent_id`, refused without it.
        pub derivation: Option<DerivationRule>,
        /// An own plan's price when the calendar gives none (refused on a derived plan).
        pub default_price: Option<Price>,
        /// Occupancy prices; default: the price is for 2 adults (1 where the room sleeps
        /// one), nothing added.
        pub occupancy: Option<OccupancyPrices>,
        /// Breakfast included in the price.
        pub breakfast: Option<IncludedBreakfast>,
        /// Default: free until 1 day before arrival, then the first night.
        pub cancellation: Option<CancellationPolicy>,
        /// Default: the first night.
        pub no_show: Option<NoShowPolicy>,
        /// A deposit rule.
        pub deposit: Option<DepositRule>,
        /// Offered for sale; default true.
        pub sold: Option<bool>,
    }
}

input_object! {
    /// Changes to a rate plan. Absent fields keep their value; `null` clears an optional
    /// one. The room type never changes.
    pub struct RatePlanUpdate {
        /// Its code.
        pub code: Patch<Code>,
        /// Its name.
        pub name: Patch<Names>,
        /// The parent; `null` makes it a plan with its own prices (its `derivation` is
        /// cleared).
        pub parent_id: MaybeUndefined<RatePlanId>,
        /// A derived plan's rule.
        pub derivation: MaybeUndefined<DerivationRule>,
        /// An own plan's default price.
        pub default_price: MaybeUndefined<Price>,
        /// Occupancy prices.
        pub occupancy: Patch<OccupancyPrices>,
        /// Included breakfast; `null`: none.
        pub breakfast: MaybeUndefined<IncludedBreakfast>,
        /// The cancellation policy.
        pub cancellation: Patch<CancellationPolicy>,
        /// The no-show fee.
        pub no_show: Patch<NoShowPolicy>,
        /// The deposit rule; `null`: none.
        pub deposit: MaybeUndefined<DepositRule>,
        /// Offered for sale.
        pub sold: Patch<bool>,
    }
    ignore ["id", "room_type_id", "version", "created_at", "updated_at"]
}

/// A page of rate plans.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct RatePlanPage {
    /// Plans ordered by room type, then code.
    pub data: Vec<RatePlan>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

/// One night of a plan's calendar, as it stands.
#[derive(Debug, Clone, Object)]
pub struct RateNight {
    /// The night.
    pub date: Date,
    /// Its price for the plan's base occupancy, in minor units (a derived plan's, from its
    /// parent's).
    pub price: i64,
    /// Arriving this night, the stay must be at least this long.
    pub min_stay_arrival: Option<i64>,
    /// A stay through this night must be at least this long.
    pub min_stay_through: Option<i64>,
    /// Arriving this night, the stay may be at most this long.
    pub max_stay: Option<i64>,
    /// No arrival this day.
    pub closed_to_arrival: bool,
    /// No departure this day (the morning after the previous night).
    pub closed_to_departure: bool,
    /// Not sold this night.
    pub stop_sell: bool,
    /// Arriving this night, booked at least this many days ahead.
    pub min_advance: Option<i64>,
    /// Arriving this night, booked at most this many days ahead.
    pub max_advance: Option<i64>,
}

/// A plan's calendar over a range.
#[derive(Debug, Clone, Object)]
pub struct RateCalendar {
    /// The plan.
    pub rate_plan_id: String,
    /// First night (inclusive).
    pub from: Date,
    /// Last night (inclusive).
    pub to: Date,
    /// One entry per night, in order.
    pub data: Vec<RateNight>,
}

input_object! {
    /// A bulk edit of a plan's calendar: every night from `from` to `to` (inclusive; at
    /// most 731 nights) on the chosen `weekdays` gets the fields given. Absent fields keep
    /// their value; `null` clears a price (back to the plan's default) or a restriction.
    pub struct RatesUpdate {
        /// The plan (`rp_…`); a derived plan's prices follow its parent and cannot be set.
        pub rate_plan_id: RatePlanId,
        /// First night.
        pub from: Date,
        /// Last night (inclusive).
        pub to: Date,
        /// Only these weekdays (`mon` … `sun`); default every day.
        pub weekdays: Option<Vec<Weekday>>,
        /// Price for the plan's base occupancy, in minor units.
        pub price: MaybeUndefined<Price>,
        /// Minimum stay when arriving on the night (1 to 365).
        pub min_stay_arrival: MaybeUndefined<Int<1, 365>>,
        /// Minimum stay of any stay through the night (1 to 365).
        pub min_stay_through: MaybeUndefined<Int<1, 365>>,
        /// Maximum stay when arriving on the night (1 to 365).
        pub max_stay: MaybeUndefined<Int<1, 365>>,
        /// No arrival on the day.
        pub closed_to_arrival: Option<bool>,
        /// No departure on the day.
        pub closed_to_departure: Option<bool>,
        /// Not sold on the night.
        pub stop_sell: Option<bool>,
        /// Arriving on the night, booked at least this many days ahead (0 to 730).
        pub min_advance: MaybeUndefined<Int<0, 730>>,
        /// Arriving on the night, booked at most this many days ahead (0 to 730).
        pub max_advance: MaybeUndefined<Int<0, 730>>,
    }
}

/// Why an offer cannot be booked, as a code with its plain words and parameters.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct OfferReason {
    /// `stop_sell`, `closed_to_arrival`, `closed_to_departure`, `min_stay`, `max_stay`,
    /// `min_advance`, `max_advance`, `no_availability`, `max_occupancy` or `not_sold`.
    pub code: String,
    /// In plain words.
    pub detail: String,
    /// The nights concerned, or the number of nights or days the rule asks for.
    pub params: serde_json::Value,
}

/// The price of one night of an offer or a reservation.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize, serde::Deserialize)]
pub struct NightPrice {
    /// The night.
    pub date: Date,
    /// Its price for the party, gross, in minor units.
    pub price: i64,
}

/// Every night from `arrival` to `departure` (exclusive) at `rate`.
pub fn at_rate(
    arrival: chrono::NaiveDate,
    departure: chrono::NaiveDate,
    rate: i64,
) -> Vec<NightPrice> {
    let n = (departure - arrival).num_days().max(0) as u64;
    (0..n)
        .filter_map(|i| arrival.checked_add_days(chrono::Days::new(i)))
        .map(|d| NightPrice {
            date: Date(d),
            price: rate,
        })
        .collect()
}

/// A stay's nights as its row stores them: its own prices (`stored`, JSON) when it has
/// them, else every night at `rate` (rows store prices only when they differ).
pub fn stored_or_at_rate(
    arrival: chrono::NaiveDate,
    departure: chrono::NaiveDate,
    rate: i64,
    stored: Option<&str>,
) -> serde_json::Result<Vec<NightPrice>> {
    match stored {
        Some(json) => serde_json::from_str(json),
        None => Ok(at_rate(arrival, departure, rate)),
    }
}

/// One plan of one room type for the stay asked.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Offer {
    /// The room type.
    pub room_type_id: String,
    /// Its code.
    pub room_type_code: String,
    /// The plan.
    pub rate_plan_id: String,
    /// Its code.
    pub rate_plan_code: String,
    /// Its name.
    pub name: Names,
    /// Rooms of the type still free on every night of the stay.
    pub rooms_left: i64,
    /// Whether it can be booked as asked (`reasons` is then empty).
    pub bookable: bool,
    /// The price of each night for the party.
    pub nights: Vec<NightPrice>,
    /// The sum of the nights.
    pub total: i64,
    /// ISO 4217 currency.
    pub currency: String,
    /// Free cancellation until this day (inclusive); absent: never free.
    pub free_cancellation_until: Option<Date>,
    /// The deposit asked and when it is due, if any.
    pub deposit: Option<DepositDue>,
    /// What stands against booking it.
    pub reasons: Vec<OfferReason>,
}

/// A deposit: how much and by when.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DepositDue {
    /// Minor units.
    pub amount: i64,
    /// Due on this day.
    pub due: Date,
}

/// Every plan of every room type for one stay.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct OfferList {
    /// First night.
    pub arrival: Date,
    /// Departure morning.
    pub departure: Date,
    /// Plans by room type code, then plan code; bookable or not.
    pub data: Vec<Offer>,
}
