//! The owner's occupancy figures, night by night and month by month, with the definitions
//! of the group hub's `daily_occupancy` view so a hotel and its group read the same
//! numbers: a room is sold on a night when a reservation that is `confirmed`, `checked_in`
//! or `checked_out` holds that night; room revenue is the booked price of those nights
//! (gross, minor units); ADR is revenue per room sold, RevPAR revenue per room available,
//! both rounded half away from zero; occupancy is rooms sold per room available, in tenths
//! of a percent. Pure: the caller reads the stays and counts the rooms.

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

/// Each night from `from` to `to` (exclusive) with `rooms` rooms and what `stays` sold.
pub fn nights(
    from: NaiveDate,
    to: NaiveDate,
    rooms: i64,
    stays: &[Sold],
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
    for s in stays {
        for (night, price) in &s.nights {
            let i = (*night - from).num_days();
            if let Some((_, f)) = usize::try_from(i).ok().and_then(|i| out.get_mut(i)) {
                f.rooms_sold += 1;
                f.room_revenue += price;
            }
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
            let per_night = nights(from, to, rooms, &sold);
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
    }
}
