//! Stay dates: `[arrival, departure)` in property-local calendar days.
//!
//! A stay of arrival 10 May and departure 12 May occupies the nights of 10 and 11 May. Two
//! stays overlap when each starts before the other ends; back-to-back stays (one departs
//! the day the next arrives) do not.

use chrono::{Days, NaiveDate};

/// The longest stay one reservation may cover.
pub const MAX_NIGHTS: i64 = 365;

/// Why two dates do not make a stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StayError {
    /// Departure is on or before arrival.
    DepartureNotAfterArrival,
    /// More than [`MAX_NIGHTS`] nights.
    TooLong,
}

/// A valid stay: departure after arrival, at most [`MAX_NIGHTS`] nights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StayDates {
    arrival: NaiveDate,
    departure: NaiveDate,
}

impl StayDates {
    /// Checks and builds a stay.
    pub fn new(arrival: NaiveDate, departure: NaiveDate) -> Result<StayDates, StayError> {
        let nights = (departure - arrival).num_days();
        if nights < 1 {
            Err(StayError::DepartureNotAfterArrival)
        } else if nights > MAX_NIGHTS {
            Err(StayError::TooLong)
        } else {
            Ok(StayDates { arrival, departure })
        }
    }

    /// The first night.
    pub fn arrival(&self) -> NaiveDate {
        self.arrival
    }

    /// The morning the guest leaves (not a night of the stay).
    pub fn departure(&self) -> NaiveDate {
        self.departure
    }

    /// Number of nights.
    pub fn nights(&self) -> i64 {
        (self.departure - self.arrival).num_days()
    }

    /// Whether the two stays share at least one night.
    pub fn overlaps(&self, other: &StayDates) -> bool {
        self.arrival < other.departure && other.arrival < self.departure
    }

    /// Whether the guest sleeps here on the night of `date`.
    pub fn has_night(&self, date: NaiveDate) -> bool {
        self.arrival <= date && date < self.departure
    }

    /// Each night, in order.
    pub fn each_night(&self) -> impl Iterator<Item = NaiveDate> + use<> {
        let arrival = self.arrival;
        (0..self.nights()).filter_map(move |i| arrival.checked_add_days(Days::new(i as u64)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(n: i64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + chrono::Duration::days(n)
    }

    #[test]
    fn rejects_empty_reversed_and_overlong_stays() {
        assert_eq!(
            StayDates::new(day(1), day(1)),
            Err(StayError::DepartureNotAfterArrival)
        );
        assert_eq!(
            StayDates::new(day(2), day(1)),
            Err(StayError::DepartureNotAfterArrival)
        );
        assert!(StayDates::new(day(0), day(365)).is_ok());
        assert_eq!(StayDates::new(day(0), day(366)), Err(StayError::TooLong));
    }

    #[test]
    fn back_to_back_stays_do_not_overlap() {
        let a = StayDates::new(day(0), day(2)).unwrap();
        let b = StayDates::new(day(2), day(4)).unwrap();
        assert!(!a.overlaps(&b));
    }

    proptest! {
        #[test]
        fn nights_match_the_nights_iterated(a in 0i64..800, len in 1i64..=365) {
            let s = StayDates::new(day(a), day(a + len)).unwrap();
            let nights: Vec<_> = s.each_night().collect();
            prop_assert_eq!(nights.len() as i64, s.nights());
            prop_assert_eq!(nights.first().copied(), Some(s.arrival()));
            prop_assert!(nights.iter().all(|d| s.has_night(*d)));
            prop_assert!(!s.has_night(s.departure()));
        }

        #[test]
        fn overlap_is_symmetric_and_means_a_shared_night(
            a in 0i64..60, la in 1i64..20, b in 0i64..60, lb in 1i64..20,
        ) {
            let x = StayDates::new(day(a), day(a + la)).unwrap();
            let y = StayDates::new(day(b), day(b + lb)).unwrap();
            prop_assert_eq!(x.overlaps(&y), y.overlaps(&x));
            let shared = x.each_night().any(|n| y.has_night(n));
            prop_assert_eq!(x.overlaps(&y), shared);
        }
    }
}
