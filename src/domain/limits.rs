//! Request rate limits: a token bucket per OAuth client (API.md section 1).

use crate::domain::rules::Rule;
use crate::domain::said::Value;

/// Most requests per second, or burst, a limit may name.
pub const MAX_RATE: u32 = 100_000;

/// A token bucket: `per_second` tokens are added each second, up to `burst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rate {
    /// Sustained requests per second.
    pub per_second: u32,
    /// Requests that may arrive at once after a quiet spell.
    pub burst: u32,
}

impl Rate {
    /// A limit, refused (naming the rule) unless both numbers are 1 to [`MAX_RATE`] and the
    /// burst is at least the rate.
    pub fn new(per_second: u32, burst: u32) -> Result<Rate, Rule> {
        let max = ("max", Value::Num(MAX_RATE.into()));
        if !(1..=MAX_RATE).contains(&per_second) {
            return Err(Rule::new(
                "out_of_range",
                format!("requests per second must be between 1 and {MAX_RATE}"),
            )
            .said("problem-rate-range", vec![max]));
        }
        if !(1..=MAX_RATE).contains(&burst) {
            return Err(Rule::new(
                "out_of_range",
                format!("burst must be between 1 and {MAX_RATE}"),
            )
            .said("problem-burst-range", vec![max]));
        }
        if burst < per_second {
            return Err(Rule::new(
                "out_of_range",
                "burst must be at least the requests per second",
            )
            .said("problem-burst-below-rate", vec![]));
        }
        Ok(Rate { per_second, burst })
    }

    /// A limit kept as two nullable columns: both set, or the default (`None`).
    pub fn from_columns(per_second: Option<u32>, burst: Option<u32>) -> Option<Rate> {
        Some(Rate {
            per_second: per_second?,
            burst: burst?,
        })
    }

    /// The seconds an empty bucket takes to fill: the window of the `RateLimit-Policy`.
    pub fn window_seconds(self) -> u64 {
        u64::from(self.burst.div_ceil(self.per_second))
    }

    /// Whole seconds until a bucket holding `remaining` tokens is full again.
    pub fn seconds_to_full(self, remaining: u32) -> u64 {
        u64::from(
            self.burst
                .saturating_sub(remaining)
                .div_ceil(self.per_second),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked_and_windows_round_up() {
        assert!(Rate::new(0, 5).is_err());
        assert!(Rate::new(5, 4).is_err());
        assert!(Rate::new(5, MAX_RATE + 1).is_err());
        let r = Rate::new(10, 25).unwrap();
        assert_eq!(r.window_seconds(), 3);
        assert_eq!(r.seconds_to_full(25), 0);
        assert_eq!(r.seconds_to_full(24), 1);
        assert_eq!(r.seconds_to_full(0), 3);
    }
}
