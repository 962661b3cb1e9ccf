//! What a channel manager is told, and how little it takes to tell it: availability per
//! room type and night, a rate plan's price and restrictions per night, and the coalescing
//! of nights into the fewest date ranges.
//!
//! A channel manager takes ARI ("availability, rates and inventory") as values over date
//! ranges, each value absolute (the last one sent for a night wins), so that a change is
//! sent as the whole state of the nights it touched: sending it twice, or after a crash,
//! does no harm. Nights whose values are equal and follow each other go as one range;
//! changed nights far apart go as separate ranges (never the nights between them, which may
//! be another plan's business).

use std::collections::BTreeSet;

use chrono::NaiveDate;

/// A rate plan's night as a channel manager is told it: price (gross, minor units) and
/// restrictions, as innkeep's calendar has them (see `domain::pricing`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateNight {
    /// Price for the plan's base occupancy.
    pub price: i64,
    /// Minimum stay counted from arrival (0: none).
    pub min_stay_arrival: i64,
    /// Minimum stay through the night (0: none).
    pub min_stay_through: i64,
    /// Maximum stay (0: none).
    pub max_stay: i64,
    /// Closed to arrival.
    pub closed_to_arrival: bool,
    /// Closed to departure.
    pub closed_to_departure: bool,
    /// Not on sale (the night's stop-sell, or the plan not sold at all).
    pub stop_sell: bool,
}

/// A run of nights, first to last inclusive, with one value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run<T> {
    /// First night.
    pub from: NaiveDate,
    /// Last night (inclusive, as channel managers count).
    pub to: NaiveDate,
    /// The value of every night of the run.
    pub value: T,
}

/// `nights` (in any order; a night given twice keeps its last value) as the fewest runs of
/// consecutive nights with equal values, in date order.
pub fn runs<T: Clone + PartialEq>(nights: &[(NaiveDate, T)]) -> Vec<Run<T>> {
    let mut sorted: Vec<(NaiveDate, T)> = Vec::with_capacity(nights.len());
    let mut seen = std::collections::BTreeMap::new();
    for (i, (d, _)) in nights.iter().enumerate() {
        seen.insert(*d, i);
    }
    for (d, i) in seen {
        sorted.push((d, nights[i].1.clone()));
    }
    let mut out: Vec<Run<T>> = Vec::new();
    for (d, v) in sorted {
        match out.last_mut() {
            Some(r) if r.value == v && r.to.succ_opt() == Some(d) => r.to = d,
            _ => out.push(Run {
                from: d,
                to: d,
                value: v,
            }),
        }
    }
    out
}

/// The nights from `from` to `to` (inclusive) of every range, merged into the fewest
/// ranges of consecutive nights: what a batch of changes touched.
pub fn merged(ranges: &[(NaiveDate, NaiveDate)]) -> Vec<(NaiveDate, NaiveDate)> {
    let mut sorted: Vec<(NaiveDate, NaiveDate)> =
        ranges.iter().filter(|(a, b)| a <= b).copied().collect();
    sorted.sort();
    let mut out: Vec<(NaiveDate, NaiveDate)> = Vec::new();
    for (a, b) in sorted {
        match out.last_mut() {
            Some(last) if last.1.succ_opt().is_some_and(|next| a <= next) => {
                last.1 = last.1.max(b);
            }
            _ => out.push((a, b)),
        }
    }
    out
}

/// Every night of `ranges` (inclusive), once.
pub fn nights_of(ranges: &[(NaiveDate, NaiveDate)]) -> BTreeSet<NaiveDate> {
    let mut out = BTreeSet::new();
    for &(a, b) in ranges {
        let mut d = a;
        while d <= b {
            out.insert(d);
            match d.succ_opt() {
                Some(n) => d = n,
                None => break,
            }
        }
    }
    out
}

impl RateNight {
    /// The night as a channel manager keeps it once sent: no minimum below 2 nights, and a
    /// night without a price stop-sold (its price then is whatever was there).
    pub fn as_sent(&self) -> RateNight {
        let min = |n: i64| if n > 1 { n } else { 0 };
        RateNight {
            price: self.price.max(0),
            min_stay_arrival: min(self.min_stay_arrival),
            min_stay_through: min(self.min_stay_through),
            max_stay: self.max_stay.max(0),
            closed_to_arrival: self.closed_to_arrival,
            closed_to_departure: self.closed_to_departure,
            stop_sell: self.stop_sell || self.price <= 0,
        }
    }

    /// Whether `theirs` is this night as sent (a night without a price matches any price).
    pub fn matches(&self, theirs: &RateNight) -> bool {
        let ours = self.as_sent();
        let theirs = RateNight {
            price: if ours.price == 0 { 0 } else { theirs.price },
            ..theirs.clone()
        };
        ours == theirs
    }
}

/// A night where the channel manager holds other than innkeep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// A room type's rooms on sale.
    Rooms {
        /// The channel manager's room type id.
        room_type: String,
        /// The night.
        night: NaiveDate,
        /// innkeep's.
        ours: i64,
        /// The channel manager's (none: it has nothing for the night).
        theirs: Option<i64>,
    },
    /// A rate plan's price or restrictions.
    Plan {
        /// The channel manager's rate plan id.
        plan: String,
        /// The night.
        night: NaiveDate,
        /// innkeep's, as sent.
        ours: RateNight,
        /// The channel manager's (none: it has nothing for the night).
        theirs: Option<RateNight>,
    },
}

impl Difference {
    /// In words, for the log and `innkeep channel check`.
    pub fn said(&self) -> String {
        match self {
            Self::Rooms {
                room_type,
                night,
                ours,
                theirs,
            } => format!(
                "room type {room_type} on {night}: innkeep has {ours} on sale, the channel manager {}",
                theirs.map_or("nothing".into(), |t| t.to_string())
            ),
            Self::Plan {
                plan,
                night,
                ours,
                theirs,
            } => format!(
                "rate plan {plan} on {night}: innkeep has {ours:?}, the channel manager {}",
                theirs
                    .as_ref()
                    .map_or("nothing".into(), |t| format!("{t:?}"))
            ),
        }
    }
}

/// Every night where `theirs` differs from `ours`, room types then plans.
pub fn compare(
    ours_rooms: &[(String, Vec<(NaiveDate, i64)>)],
    theirs_rooms: &[(String, NaiveDate, i64)],
    ours_plans: &[(String, Vec<(NaiveDate, RateNight)>)],
    theirs_plans: &[(String, NaiveDate, RateNight)],
) -> Vec<Difference> {
    use std::collections::HashMap;
    let rooms: HashMap<(&str, NaiveDate), i64> = theirs_rooms
        .iter()
        .map(|(id, d, n)| ((id.as_str(), *d), *n))
        .collect();
    let plans: HashMap<(&str, NaiveDate), &RateNight> = theirs_plans
        .iter()
        .map(|(id, d, n)| ((id.as_str(), *d), n))
        .collect();
    let mut out = Vec::new();
    for (id, nights) in ours_rooms {
        for &(night, ours) in nights {
            let theirs = rooms.get(&(id.as_str(), night)).copied();
            if theirs != Some(ours.max(0)) {
                out.push(Difference::Rooms {
                    room_type: id.clone(),
                    night,
                    ours,
                    theirs,
                });
            }
        }
    }
    for (id, nights) in ours_plans {
        for (night, ours) in nights {
            let theirs = plans.get(&(id.as_str(), *night)).copied();
            if !theirs.is_some_and(|t| ours.matches(t)) {
                out.push(Difference::Plan {
                    plan: id.clone(),
                    night: *night,
                    ours: ours.as_sent(),
                    theirs: theirs.cloned(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(n: i64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, 1, 1).unwrap_or_default() + chrono::Duration::days(n)
    }

    #[test]
    fn equal_neighbours_become_one_range_and_a_gap_splits() {
        let nights = [
            (day(2), 5),
            (day(0), 5),
            (day(1), 5),
            (day(4), 5),
            (day(3), 4),
        ];
        let got = runs(&nights);
        let spans: Vec<(NaiveDate, NaiveDate, i32)> =
            got.iter().map(|r| (r.from, r.to, r.value)).collect();
        assert_eq!(
            spans,
            [
                (day(0), day(2), 5),
                (day(3), day(3), 4),
                (day(4), day(4), 5)
            ]
        );
        let apart = runs(&[(day(0), 1), (day(5), 1)]);
        assert_eq!(apart.len(), 2, "nights far apart never cover the gap");
    }

    #[test]
    fn a_night_as_sent_matches_what_comes_back() {
        let ours = RateNight {
            price: 0,
            min_stay_arrival: 1,
            min_stay_through: 0,
            max_stay: 0,
            closed_to_arrival: false,
            closed_to_departure: false,
            stop_sell: false,
        };
        // Without a price it went stop-sold, whatever price was there before.
        let theirs = RateNight {
            price: 9000,
            stop_sell: true,
            min_stay_arrival: 0,
            ..ours.clone()
        };
        assert!(ours.matches(&theirs));
        assert!(!ours.matches(&RateNight {
            stop_sell: false,
            ..theirs.clone()
        }));
        let found = compare(
            &[("rt".into(), vec![(day(0), 2), (day(1), 2)])],
            &[("rt".into(), day(0), 2)],
            &[("rp".into(), vec![(day(0), ours.clone())])],
            &[("rp".into(), day(0), theirs)],
        );
        assert_eq!(
            found,
            [Difference::Rooms {
                room_type: "rt".into(),
                night: day(1),
                ours: 2,
                theirs: None
            }]
        );
    }

    proptest! {
        /// The runs give back exactly the nights and values they were made from (the last
        /// value of a night given twice), no two neighbouring runs could be one, and they
        /// are in date order without overlap.
        #[test]
        fn runs_are_exact_and_fewest(values in proptest::collection::vec((0i64..60, 0i32..3), 0..120)) {
            let nights: Vec<(NaiveDate, i32)> = values.iter().map(|&(d, v)| (day(d), v)).collect();
            let got = runs(&nights);
            let mut want = std::collections::BTreeMap::new();
            for (d, v) in &nights {
                want.insert(*d, *v);
            }
            let mut back = std::collections::BTreeMap::new();
            for r in &got {
                prop_assert!(r.from <= r.to);
                let mut d = r.from;
                while d <= r.to {
                    prop_assert!(back.insert(d, r.value).is_none());
                    d = d.succ_opt().unwrap();
                }
            }
            prop_assert_eq!(back, want);
            for w in got.windows(2) {
                prop_assert!(w[0].to < w[1].from);
                prop_assert!(!(w[0].value == w[1].value && w[0].to.succ_opt() == Some(w[1].from)));
            }
        }

        /// Merged ranges cover exactly the nights of the ranges given, none touching another.
        #[test]
        fn merged_ranges_cover_the_same_nights(spans in proptest::collection::vec((0i64..90, 0i64..10), 0..40)) {
            let ranges: Vec<(NaiveDate, NaiveDate)> =
                spans.iter().map(|&(a, len)| (day(a), day(a + len))).collect();
            let got = merged(&ranges);
            prop_assert_eq!(nights_of(&got), nights_of(&ranges));
            for w in got.windows(2) {
                prop_assert!(w[0].1.succ_opt().unwrap() < w[1].0);
            }
        }
    }
}
