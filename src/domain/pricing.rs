//! Prices and restrictions of a rate plan, night by night (pure).
//!
//! A plan's price for a night is its own (set in the calendar, else the plan's default) or,
//! for a derived plan, its parent's adjusted by an amount or a percentage and rounded to the
//! cent. That price is for the plan's base occupancy; the party's price adds each extra
//! adult, each child by age band and each extra bed.
//!
//! Restrictions follow the definitions the distribution systems publish (checked against
//! DerbySoft's `minStayArrival`/`maxStayArrival`/`minStayThrough`, Sabre SynXis's
//! `MinimumStayArrive`/`MaximumStayArrive`/`MinimumStayThrough` and OPERA's closed to
//! departure; Channex's own page was not read, its names are the ones used here): a maximum
//! stay is the arrival's (`MaximumStayArrive`), there is no maximum stay through.
//! - `min_stay_arrival` and `max_stay` are read on the **arrival** night only;
//! - `min_stay_through` is read on **every** night of the stay: the stay must be at least the
//!   largest of them;
//! - `closed_to_arrival` on the arrival night, `closed_to_departure` on the departure day (a
//!   day that is not a night of the stay);
//! - `stop_sell` on every night;
//! - `min_advance` / `max_advance` (days from the booking day to the arrival) on the arrival
//!   night.

use chrono::NaiveDate;

string_enum! {
    /// A day of the week, for editing the calendar on chosen weekdays.
    pub enum Weekday {
        Mon = "mon",
        Tue = "tue",
        Wed = "wed",
        Thu = "thu",
        Fri = "fri",
        Sat = "sat",
        Sun = "sun",
    }
}

impl Weekday {
    /// The weekday of `d`.
    pub fn of(d: NaiveDate) -> Weekday {
        use chrono::Datelike;
        Weekday::ALL[d.weekday().num_days_from_monday() as usize]
    }
}

string_enum! {
    /// How a derived plan's price follows its parent's.
    pub enum DerivationKind {
        /// Plus or minus an amount in minor units.
        Amount = "amount",
        /// Plus or minus a percentage, in hundredths of a percent (`-1000` is 10 % less).
        Percent = "percent",
    }
}

/// A derived plan's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derivation {
    pub kind: DerivationKind,
    /// Minor units, or hundredths of a percent; negative for a lower price.
    pub value: i64,
}

/// The parent's `price` moved by `d`, rounded half away from zero to the minor unit, never
/// below zero.
pub fn derive(price: i64, d: Derivation) -> i64 {
    let moved = match d.kind {
        DerivationKind::Amount => i128::from(price) + i128::from(d.value),
        DerivationKind::Percent => {
            let scaled = i128::from(price) * (10_000 + i128::from(d.value));
            let (q, r) = (scaled / 10_000, scaled % 10_000);
            if r.abs() * 2 >= 10_000 {
                q + scaled.signum()
            } else {
                q
            }
        }
    };
    moved.clamp(0, i128::from(i64::MAX)) as i64
}

/// A child's price band: children up to `max_age` (inclusive) pay `price` a night.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChildBand {
    pub max_age: i64,
    pub price: i64,
}

/// What a party adds to the plan's price for its base occupancy.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Occupancy {
    /// Adults the plan's price is for (at least 1).
    pub base_adults: i64,
    /// Each adult beyond `base_adults`, a night.
    pub extra_adult: i64,
    /// Children's bands, by age; a child older than every band pays as an adult beyond the
    /// base. A child whose age is not known pays the dearest band's price.
    pub children: Vec<ChildBand>,
    /// Each extra bed, a night.
    pub extra_bed: i64,
}

/// The party's price for a night whose plan price is `base`.
pub fn party_price(
    base: i64,
    occ: &Occupancy,
    adults: i64,
    children: i64,
    ages: &[i64],
    extra_beds: i64,
) -> i64 {
    let base_adults = occ.base_adults.max(1);
    let mut price = base + (adults - base_adults).max(0) * occ.extra_adult;
    let dearest = occ.children.iter().map(|b| b.price).max();
    for k in 0..children.max(0) as usize {
        let band = match ages.get(k) {
            Some(age) => occ
                .children
                .iter()
                .filter(|b| *age <= b.max_age)
                .min_by_key(|b| b.max_age)
                .map(|b| b.price),
            None => dearest,
        };
        price += band.unwrap_or(occ.extra_adult);
    }
    price + extra_beds.max(0) * occ.extra_bed
}

/// A night's restrictions (absent: none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Restrictions {
    pub min_stay_arrival: Option<i64>,
    pub min_stay_through: Option<i64>,
    pub max_stay: Option<i64>,
    pub closed_to_arrival: bool,
    pub closed_to_departure: bool,
    pub stop_sell: bool,
    pub min_advance: Option<i64>,
    pub max_advance: Option<i64>,
}

/// Why a plan cannot be booked for a stay. Each has its wire `code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Stop-sold on these nights.
    StopSell(Vec<NaiveDate>),
    /// No arrival on this day.
    ClosedToArrival(NaiveDate),
    /// No departure on this day.
    ClosedToDeparture(NaiveDate),
    /// The stay must be at least this many nights.
    MinStay(i64),
    /// The stay may be at most this many nights.
    MaxStay(i64),
    /// Booked too late: at least this many days before arrival.
    MinAdvance(i64),
    /// Booked too early: at most this many days before arrival.
    MaxAdvance(i64),
}

impl Reason {
    /// The wire code.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::StopSell(_) => "stop_sell",
            Reason::ClosedToArrival(_) => "closed_to_arrival",
            Reason::ClosedToDeparture(_) => "closed_to_departure",
            Reason::MinStay(_) => "min_stay",
            Reason::MaxStay(_) => "max_stay",
            Reason::MinAdvance(_) => "min_advance",
            Reason::MaxAdvance(_) => "max_advance",
        }
    }

    /// In plain words.
    pub fn detail(&self) -> String {
        let day = |d: &NaiveDate| d.format("%Y-%m-%d").to_string();
        match self {
            Reason::StopSell(nights) => format!(
                "not sold on {}",
                nights.iter().map(day).collect::<Vec<_>>().join(", ")
            ),
            Reason::ClosedToArrival(d) => format!("no arrivals on {}", day(d)),
            Reason::ClosedToDeparture(d) => format!("no departures on {}", day(d)),
            Reason::MinStay(n) => format!("a stay of at least {n} nights is required"),
            Reason::MaxStay(n) => format!("a stay of at most {n} nights is allowed"),
            Reason::MinAdvance(n) => {
                format!("must be booked at least {n} days before arrival")
            }
            Reason::MaxAdvance(n) => format!("can be booked at most {n} days before arrival"),
        }
    }
}

/// What stands against a stay from `arrival` whose nights have `nights` (one per night, in
/// order) and whose departure day has `departure`, booked on `booked_on`; empty when it may
/// be booked.
pub fn refusals(
    arrival: NaiveDate,
    nights: &[Restrictions],
    departure: &Restrictions,
    booked_on: NaiveDate,
) -> Vec<Reason> {
    let mut out = Vec::new();
    let Some(first) = nights.first() else {
        return out;
    };
    let length = nights.len() as i64;
    let stopped: Vec<NaiveDate> = nights
        .iter()
        .enumerate()
        .filter(|(_, r)| r.stop_sell)
        .filter_map(|(i, _)| arrival.checked_add_days(chrono::Days::new(i as u64)))
        .collect();
    if !stopped.is_empty() {
        out.push(Reason::StopSell(stopped));
    }
    if first.closed_to_arrival {
        out.push(Reason::ClosedToArrival(arrival));
    }
    if departure.closed_to_departure {
        let leaving = arrival.checked_add_days(chrono::Days::new(length as u64));
        out.extend(leaving.map(Reason::ClosedToDeparture));
    }
    let through = nights.iter().filter_map(|r| r.min_stay_through).max();
    let min = first.min_stay_arrival.into_iter().chain(through).max();
    if let Some(min) = min.filter(|m| length < *m) {
        out.push(Reason::MinStay(min));
    }
    if let Some(max) = first.max_stay.filter(|m| length > *m) {
        out.push(Reason::MaxStay(max));
    }
    let ahead = (arrival - booked_on).num_days();
    if let Some(min) = first.min_advance.filter(|m| ahead < *m) {
        out.push(Reason::MinAdvance(min));
    }
    if let Some(max) = first.max_advance.filter(|m| ahead > *m) {
        out.push(Reason::MaxAdvance(max));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(n: u64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, 7, 1).unwrap() + chrono::Days::new(n)
    }

    #[test]
    fn derived_prices_round_half_away_from_zero() {
        let pct = |value| Derivation {
            kind: DerivationKind::Percent,
            value,
        };
        assert_eq!(derive(10_000, pct(-1000)), 9_000);
        assert_eq!(derive(9_999, pct(-1000)), 8_999, "8999.1 rounds down");
        assert_eq!(derive(9_995, pct(-1000)), 8_996, "8995.5 rounds up");
        assert_eq!(derive(12_345, pct(1250)), 13_888, "13888.125");
        let amount = Derivation {
            kind: DerivationKind::Amount,
            value: -2_000,
        };
        assert_eq!(derive(9_000, amount), 7_000);
        assert_eq!(derive(1_000, amount), 0, "never below zero");
    }

    #[test]
    fn min_stay_on_arrival_differs_from_min_stay_through() {
        let plain = Restrictions::default();
        let arrival_rule = Restrictions {
            min_stay_arrival: Some(3),
            ..plain
        };
        // Arriving on a min-stay-3 night for two nights is refused...
        let r = refusals(
            day(0),
            &[arrival_rule, plain],
            &plain,
            day(0) - chrono::Days::new(9),
        );
        assert_eq!(r, [Reason::MinStay(3)]);
        // ...but a two-night stay *through* that night from the day before is not.
        let r = refusals(day(0), &[plain, arrival_rule], &plain, day(0));
        assert!(r.is_empty(), "{r:?}");
        // min_stay_through binds on every night.
        let through = Restrictions {
            min_stay_through: Some(3),
            ..plain
        };
        let r = refusals(day(0), &[plain, through], &plain, day(0));
        assert_eq!(r, [Reason::MinStay(3)]);
    }

    #[test]
    fn each_restriction_has_its_reason() {
        let plain = Restrictions::default();
        let all = Restrictions {
            max_stay: Some(1),
            closed_to_arrival: true,
            stop_sell: true,
            min_advance: Some(2),
            max_advance: Some(0),
            ..plain
        };
        let leaving = Restrictions {
            closed_to_departure: true,
            ..plain
        };
        let booked = day(0) - chrono::Days::new(1);
        let codes: Vec<&str> = refusals(day(0), &[all, plain], &leaving, booked)
            .iter()
            .map(Reason::code)
            .collect();
        assert_eq!(
            codes,
            [
                "stop_sell",
                "closed_to_arrival",
                "closed_to_departure",
                "max_stay",
                "min_advance",
                "max_advance"
            ]
        );
    }

    #[test]
    fn children_pay_by_band_and_unknown_ages_the_dearest() {
        let occ = Occupancy {
            base_adults: 2,
            extra_adult: 3_000,
            children: vec![
                ChildBand {
                    max_age: 2,
                    price: 0,
                },
                ChildBand {
                    max_age: 11,
                    price: 1_500,
                },
            ],
            extra_bed: 1_000,
        };
        assert_eq!(party_price(10_000, &occ, 2, 0, &[], 0), 10_000);
        assert_eq!(party_price(10_000, &occ, 1, 0, &[], 0), 10_000);
        assert_eq!(party_price(10_000, &occ, 3, 0, &[], 0), 13_000);
        assert_eq!(party_price(10_000, &occ, 2, 2, &[1, 7], 0), 11_500);
        assert_eq!(
            party_price(10_000, &occ, 2, 1, &[15], 0),
            13_000,
            "as an adult"
        );
        assert_eq!(party_price(10_000, &occ, 2, 1, &[], 1), 12_500);
    }

    proptest! {
        /// A derived price is within half a cent of the exact one, and an amount moves it
        /// exactly.
        #[test]
        fn derived_prices_are_exact_to_the_cent(price in 0i64..10_000_000, bp in -9_999i64..20_000, amount in -100_000i64..100_000) {
            let got = derive(price, Derivation { kind: DerivationKind::Percent, value: bp });
            let exact = price as f64 * (10_000 + bp) as f64 / 10_000.0;
            prop_assert!((got as f64 - exact).abs() <= 0.5 + 1e-6, "{got} vs {exact}");
            let moved = derive(price, Derivation { kind: DerivationKind::Amount, value: amount });
            prop_assert_eq!(moved, (price + amount).max(0));
        }

        /// A stay is refused for its length exactly when it is shorter than the arrival
        /// night's minimum or any night's through-minimum, or longer than the arrival's
        /// maximum.
        #[test]
        fn length_rules_are_exactly_as_documented(
            mins in proptest::collection::vec((proptest::option::of(1i64..8), proptest::option::of(1i64..8)), 1..10),
            max in proptest::option::of(1i64..10),
        ) {
            let nights: Vec<Restrictions> = mins.iter().enumerate().map(|(i, (a, t))| Restrictions {
                min_stay_arrival: *a,
                min_stay_through: *t,
                max_stay: if i == 0 { max } else { None },
                ..Restrictions::default()
            }).collect();
            let n = nights.len() as i64;
            let got = refusals(day(0), &nights, &Restrictions::default(), day(0));
            let need = mins[0].0.unwrap_or(0).max(mins.iter().filter_map(|m| m.1).max().unwrap_or(0));
            prop_assert_eq!(got.contains(&Reason::MinStay(need)), n < need);
            prop_assert_eq!(got.iter().any(|r| matches!(r, Reason::MinStay(_))), n < need);
            prop_assert_eq!(got.iter().any(|r| matches!(r, Reason::MaxStay(_))), max.is_some_and(|m| n > m));
        }
    }
}
