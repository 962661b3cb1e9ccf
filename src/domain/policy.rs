//! A rate plan's cancellation policy, no-show fee and deposit rule, and what each comes to
//! for a booking's nights (pure).
//!
//! Cancelling is free while at least `free_until_days` days remain before the arrival day
//! (0: free up to and on the arrival day itself); after that, or always when the plan has no
//! free period (non-refundable), the fee is charged: the first night, a percentage of the
//! stay, or the whole stay. A no-show is charged its own fee the same way. A deposit is the
//! first night or a percentage of the stay, due at booking or a number of days before the
//! arrival (never before the booking day).

use chrono::{Days, NaiveDate};

string_enum! {
    /// What a late cancellation or a no-show costs.
    pub enum FeeKind {
        /// Nothing.
        None = "none",
        /// The price of the first night.
        FirstNight = "first_night",
        /// A percentage of the stay's price (`percent`, in hundredths of a percent).
        Percent = "percent",
        /// The whole stay.
        All = "all",
    }
}

string_enum! {
    /// How a deposit is reckoned.
    pub enum DepositKind {
        /// The price of the first night.
        FirstNight = "first_night",
        /// A percentage of the stay's price (`percent`, in hundredths of a percent).
        Percent = "percent",
    }
}

/// A fee: its kind and, for `percent`, the share in hundredths of a percent (0 to 10000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fee {
    pub kind: FeeKind,
    pub percent: i64,
}

impl Fee {
    /// The fee on a stay whose nights cost `nights` (in order), in minor units.
    pub fn on(&self, nights: &[i64]) -> i64 {
        let total: i64 = nights.iter().sum();
        match self.kind {
            FeeKind::None => 0,
            FeeKind::FirstNight => nights.first().copied().unwrap_or(0),
            FeeKind::All => total,
            FeeKind::Percent => share(total, self.percent),
        }
    }
}

/// `bp` hundredths of a percent of `total`, rounded half away from zero, within the total.
pub fn share(total: i64, bp: i64) -> i64 {
    let scaled = i128::from(total) * i128::from(bp.clamp(0, 10_000));
    let (q, r) = (scaled / 10_000, scaled % 10_000);
    let rounded = if r.abs() * 2 >= 10_000 {
        q + scaled.signum()
    } else {
        q
    };
    rounded as i64
}

/// A cancellation policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancellation {
    /// Free while at least this many days remain before arrival; `None`: never free.
    pub free_until_days: Option<i64>,
    /// The fee after that.
    pub fee: Fee,
}

impl Cancellation {
    /// The last day a cancellation is free, if any.
    pub fn free_until(&self, arrival: NaiveDate) -> Option<NaiveDate> {
        let days = self.free_until_days?;
        arrival.checked_sub_days(Days::new(days.max(0) as u64))
    }

    /// What cancelling on `on` costs a stay from `arrival` whose nights cost `nights`.
    pub fn fee(&self, arrival: NaiveDate, nights: &[i64], on: NaiveDate) -> i64 {
        match self.free_until(arrival) {
            Some(last) if on <= last => 0,
            _ => self.fee.on(nights),
        }
    }
}

/// When a deposit falls due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deposit {
    pub kind: DepositKind,
    /// For `percent`, hundredths of a percent (0 to 10000).
    pub percent: i64,
    /// Due this many days before arrival; `None`: at booking.
    pub days_before: Option<i64>,
}

impl Deposit {
    /// The deposit on a stay whose nights cost `nights`.
    pub fn amount(&self, nights: &[i64]) -> i64 {
        match self.kind {
            DepositKind::FirstNight => nights.first().copied().unwrap_or(0),
            DepositKind::Percent => share(nights.iter().sum(), self.percent),
        }
    }

    /// The day it is due for a stay from `arrival` booked on `booked_on`.
    pub fn due(&self, arrival: NaiveDate, booked_on: NaiveDate) -> NaiveDate {
        let day = self
            .days_before
            .and_then(|d| arrival.checked_sub_days(Days::new(d.max(0) as u64)))
            .unwrap_or(booked_on);
        day.max(booked_on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(n: i64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, 8, 10).unwrap() + chrono::Duration::days(n)
    }

    #[test]
    fn fees_as_the_policy_says() {
        let nights = [12_000, 10_000, 10_000];
        let fee = |kind, percent| Fee { kind, percent };
        assert_eq!(fee(FeeKind::None, 0).on(&nights), 0);
        assert_eq!(fee(FeeKind::FirstNight, 0).on(&nights), 12_000);
        assert_eq!(fee(FeeKind::All, 0).on(&nights), 32_000);
        assert_eq!(fee(FeeKind::Percent, 3_333).on(&nights), 10_666, "10665.6");
        let flexible = Cancellation {
            free_until_days: Some(7),
            fee: fee(FeeKind::FirstNight, 0),
        };
        assert_eq!(
            flexible.fee(day(0), &nights, day(-7)),
            0,
            "7 days before: free"
        );
        assert_eq!(flexible.fee(day(0), &nights, day(-6)), 12_000);
        let non_refundable = Cancellation {
            free_until_days: None,
            fee: fee(FeeKind::All, 0),
        };
        assert_eq!(non_refundable.fee(day(0), &nights, day(-300)), 32_000);
    }

    #[test]
    fn a_deposit_is_due_at_booking_or_before_arrival() {
        let d = Deposit {
            kind: DepositKind::Percent,
            percent: 3_000,
            days_before: Some(14),
        };
        assert_eq!(d.amount(&[10_000, 10_001]), 6_000, "6000.3");
        assert_eq!(d.due(day(0), day(-60)), day(-14));
        assert_eq!(d.due(day(0), day(-3)), day(-3), "never before the booking");
        let now = Deposit {
            days_before: None,
            ..d
        };
        assert_eq!(now.due(day(0), day(-60)), day(-60));
    }

    proptest! {
        /// On every day relative to arrival, the fee is zero inside the free period and the
        /// policy's fee after it; it never exceeds the stay's price.
        #[test]
        fn a_cancellation_costs_what_the_policy_says_on_every_day(
            nights in proptest::collection::vec(0i64..100_000, 1..15),
            free in proptest::option::of(0i64..60),
            kind in 0usize..4,
            percent in 0i64..=10_000,
            on in -120i64..5,
        ) {
            let fee = Fee { kind: FeeKind::ALL[kind], percent };
            let policy = Cancellation { free_until_days: free, fee };
            let got = policy.fee(day(0), &nights, day(on));
            let total: i64 = nights.iter().sum();
            let free_now = free.is_some_and(|f| -on >= f);
            let want = if free_now { 0 } else {
                match fee.kind {
                    FeeKind::None => 0,
                    FeeKind::FirstNight => nights[0],
                    FeeKind::All => total,
                    FeeKind::Percent => ((total as f64) * percent as f64 / 10_000.0).round() as i64,
                }
            };
            prop_assert_eq!(got, want);
            prop_assert!(got <= total);
        }
    }
}
