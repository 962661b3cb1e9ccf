//! A limit per address on the requests anyone may send, unauthenticated, that make the server
//! keep something: starting a device authorization (a stored device code) and pairing a
//! kiosk. A flood of them from one address is refused with 429 before anything is written,
//! so it can neither fill the disk nor slow every other request down behind the writer.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

/// Addresses remembered before the forgotten ones are dropped.
const MAX_ADDRESSES: usize = 10_000;

/// The buckets, one per address.
pub struct Flood {
    limiter: RateLimiter<String, DefaultKeyedStateStore<String>, DefaultClock>,
    clock: DefaultClock,
}

impl Flood {
    /// `per_minute` sustained, `burst` at once, per address.
    pub fn new(per_minute: u32, burst: u32) -> Flood {
        let nz = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Flood {
            limiter: RateLimiter::keyed(Quota::per_minute(nz(per_minute)).allow_burst(nz(burst))),
            clock: DefaultClock::default(),
        }
    }

    /// Counts a request from `address`: `Err(wait)` when it is over the limit.
    pub fn admit(&self, address: &str) -> Result<(), Duration> {
        if self.limiter.len() > MAX_ADDRESSES {
            self.limiter.retain_recent();
        }
        self.limiter
            .check_key(&address.to_string())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

impl Default for Flood {
    /// Ten a minute, ten at once: plenty for a hotel's kiosks and integrations, nothing for a
    /// script.
    fn default() -> Flood {
        Flood::new(10, 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_bucket() {
        let f = Flood::new(2, 2);
        assert!(f.admit("10.0.0.9").is_ok());
        assert!(f.admit("10.0.0.9").is_ok());
        let wait = f.admit("10.0.0.9").unwrap_err();
        assert!(wait > Duration::from_secs(1));
        assert!(f.admit("10.0.0.10").is_ok(), "another address goes on");
    }
}
