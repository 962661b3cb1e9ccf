//! The owner's occupancy figures, night by night and month by month, with the definitions
//! of the group hub's `daily_occupancy` view so a hotel and its group read the same
//! numbers: a room is sold on a night when a reservation that is `confirmed`, `checked_in`
//! or `checked_out` holds that night; room revenue is the booked price of those nights
//! (gross, minor units); ADR is revenue per room sold, RevPAR revenue per room available,
//! both rounded half away from zero; occupancy is rooms sold per room available, in tenths
//! of a percent. Pure: the caller reads the stays and counts the rooms.
//!
//! The store keeps what each night sold as a running total ([`change`] applied with every
//! write of a reservation), so a report reads a row a night instead of every stay.

use chrono::{Datelike, NaiveDate};

/// A stay's nights inside the report: each night and its price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sold {
    /// (night, gross price in minor units).
    pub nights: Vec<(NaiveDate, i64)>,
}

/// The figures of a night or of a month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// Room-nights on sale: the rooms, times the nights.
    pub rooms_available: i64,
    /// Room-nights sold.
    pub rooms_sold: i64,
    /// Their booked price, gross.
    pub room_revenue: i64,
}

impl Figures {
    /// Average daily rate: revenue per room sold (none when nothing was sold).
    pub fn adr(&self) -> Option<i64> {
        divide(self.room_revenue, self.rooms_sold)
    }

    /// Revenue per available room (none when there are no rooms).
    pub fn revpar(&self) -> Option<i64> {
        divide(self.room_revenue, self.rooms_available)
    }

    /// Occupancy in tenths of a percent (`815` is 81.5 %; none when there are no rooms).
    pub fn occupancy_tenths(&self) -> Option<i64> {
        divide(self.rooms_sold * 1000, self.rooms_available)
    }

    fn add(&mut self, other: &Figures) {
        self.rooms_available += other.rooms_available;
        self.rooms_sold += other.rooms_sold;
        self.room_revenue += other.room_revenue;
    }
}

/// `a / b` rounded half away from zero, as PostgreSQL's `round(numeric)`.
fn divide(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let (q, r) = (a / b, a % b);
    Some(if 2 * r.abs() >= b.abs() {
        q + a.signum() * b.signum()
    } else {
        q
    })
}

/// What a night sold: (the night, rooms sold, their room revenue).
pub type NightSold = (NaiveDate, i64, i64);

/// Whether a reservation in `status` sells its nights.
pub fn sells(status: &str) -> bool {
    matches!(status, "confirmed" | "checked_in" | "checked_out")
}

/// What replacing the stays `before` with the stays `after` changes, night by night: a
/// negative count and revenue for a night given up, positive for one taken; nights whose
/// count and revenue stay the same are left out.
pub fn change(before: &[Sold], after: &[Sold]) -> Vec<NightSold> {
    let mut by_night: std::collections::BTreeMap<NaiveDate, (i64, i64)> = Default::default();
    for (stays, sign) in [(before, -1), (after, 1)] {
        for (night, price) in stays.iter().flat_map(|s| &s.nights) {
            let e = by_night.entry(*night).or_default();
            e.0 += sign;
            e.1 += sign * price;
        }
    }
    by_night
        .into_iter()
        .filter(|(_, d)| *d != (0, 0))
        .map(|(night, (n, revenue))| (night, n, revenue))
        .collect()
}

/// Each night from `from` to `to` (exclusive) with `rooms` rooms and what was `sold` on
/// it (nights outside the range are ignored).
pub fn nights(
    from: NaiveDate,
    to: NaiveDate,
    rooms: i64,
    sold: &[NightSold],
) -> Vec<(NaiveDate, Figures)> {
    let days = (to - from).num_days().max(0) as usize;
    let mut out: Vec<(NaiveDate, Figures)> = (0..days)
        .map(|i| {
            let date = from + chrono::Days::new(i as u64);
            let f = Figures {
                rooms_available: rooms,
                rooms_sold: 0,
                room_revenue: 0,
            };
            (date, f)
        })
        .collect();
    for (night, n, revenue) in sold {
        let i = (*night - from).num_days();
        if let Some((_, f)) = usize::try_from(i).ok().and_then(|i| out.get_mut(i)) {
            f.rooms_sold += n;
            f.room_revenue += revenue;
        }
    }
    out
}

/// The nights summed by calendar month: (the month's first day, its figures).
pub fn months(nights: &[(NaiveDate, Figures)]) -> Vec<(NaiveDate, Figures)> {
    let mut out: Vec<(NaiveDate, Figures)> = Vec::new();
    for (date, f) in nights {
        let first = date.with_day(1).unwrap_or(*date);
        match out.last_mut() {
            Some((m, total)) if *m == first => total.add(f),
            _ => out.push((first, *f)),
        }
    }
    out
}

/// All the nights summed.
pub fn total(nights: &[(NaiveDate, Figures)]) -> Figures {
    let mut t = Figures {
        rooms_available: 0,
        rooms_sold: 0,
        room_revenue: 0,
    };
    for (_, f) in nights {
        t.add(f);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `stays` sold, night by night, in order of the nights (each night once).
    fn tally(stays: &[Sold]) -> Vec<NightSold> {
        change(&[], stays)
    }

    fn day(n: u64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + chrono::Days::new(n)
    }

    #[test]
    fn rounding_is_half_away_from_zero_as_the_hub_rounds() {
        assert_eq!(divide(25, 10), Some(3));
        assert_eq!(divide(24, 10), Some(2));
        assert_eq!(divide(-25, 10), Some(-3));
        assert_eq!(divide(1, 0), None);
        let f = Figures {
            rooms_available: 12,
            rooms_sold: 7,
            room_revenue: 70_001,
        };
        assert_eq!(
            (f.adr(), f.revpar(), f.occupancy_tenths()),
            (Some(10_000), Some(5_833), Some(583))
        );
    }

    proptest! {
        /// Every night of every stay inside the range is counted once, on its own night and
        /// month, and nothing outside it; the months and the total add up to the nights.
        #[test]
        fn nights_months_and_total_agree(
            stays in prop::collection::vec((0u64..80, 1u64..15, 1_000i64..50_000), 0..40),
            rooms in 0i64..30,
        ) {
            let (from, to) = (day(10), day(70));
            let sold: Vec<Sold> = stays
                .iter()
                .map(|(a, n, p)| Sold { nights: (0..*n).map(|i| (day(a + i), *p)).collect() })
                .collect();
            let per_night = nights(from, to, rooms, &tally(&sold));
            prop_assert_eq!(per_night.len(), 60);
            let inside: Vec<(NaiveDate, i64)> = sold
                .iter()
                .flat_map(|s| s.nights.iter().copied())
                .filter(|(d, _)| *d >= from && *d < to)
                .collect();
            let t = total(&per_night);
            prop_assert_eq!(t.rooms_sold, inside.len() as i64);
            prop_assert_eq!(t.room_revenue, inside.iter().map(|(_, p)| p).sum::<i64>());
            prop_assert_eq!(t.rooms_available, 60 * rooms);
            let by_month = months(&per_night);
            prop_assert_eq!(total(&by_month), t);
            prop_assert!(by_month.iter().all(|(m, _)| m.day() == 1));
        }

        /// The running totals kept by applying each write's [`change`] equal a fresh
        /// [`tally`] of the stays as they end up, whatever the order of the writes (new
        /// stays, moved or repriced ones, ones that stop selling).
        #[test]
        fn changes_add_up_to_a_fresh_tally(
            writes in prop::collection::vec(
                (0usize..6, prop::option::of((0u64..40, 1u64..8, 0i64..30_000, any::<bool>()))),
                0..60,
            ),
        ) {
            let mut stays: Vec<Option<Sold>> = vec![None; 6];
            let mut kept: std::collections::BTreeMap<NaiveDate, (i64, i64)> = Default::default();
            for (slot, stay) in writes {
                let after = stay.map(|(a, n, p, rise)| Sold {
                    nights: (0..n).map(|i| (day(a + i), p + if rise { i as i64 * 100 } else { 0 })).collect(),
                });
                let before = stays[slot].take();
                for (night, n, revenue) in change(before.as_slice(), after.as_slice()) {
                    let e = kept.entry(night).or_default();
                    e.0 += n;
                    e.1 += revenue;
                }
                stays[slot] = after;
            }
            kept.retain(|_, v| *v != (0, 0));
            let now: Vec<Sold> = stays.into_iter().flatten().collect();
            let kept: Vec<NightSold> = kept.into_iter().map(|(d, (n, r))| (d, n, r)).collect();
            prop_assert_eq!(kept, tally(&now));
        }
    }
}
