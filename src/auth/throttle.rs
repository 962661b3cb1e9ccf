//! Throttling of failed authentication (API.md section 10: "repeated failures are throttled").
//!
//! Each identity (a client id, a staff username, a remote address) has its own counter, so a
//! guessing attack on one never locks out another. Failures are slowed down first; after
//! `max` failures within 15 minutes the identity is refused with 429 and `Retry-After` for
//! the lockout, which doubles with each further lockout up to 15 minutes. Addresses get four
//! times as many attempts, because a hotel's staff often share one. A success clears the
//! client's or user's counter, never the address's. The state is in memory: a restart
//! forgives everyone, which is acceptable for a single front-desk process.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(15 * 60);
const MAX_LOCKOUT: Duration = Duration::from_secs(15 * 60);

#[derive(Debug)]
struct Entry {
    failures: u32,
    since: Instant,
    lockouts: u32,
    locked_until: Option<Instant>,
}

/// Failure counters per identity.
#[derive(Debug)]
pub struct Throttle {
    entries: Mutex<HashMap<String, Entry>>,
    max: u32,
    lockout: Duration,
}

/// Something to count failures of.
pub enum Who<'a> {
    /// An OAuth client id.
    Client(&'a str),
    /// A staff login name (case-insensitive).
    User(&'a str),
    /// A remote address.
    Address(&'a str),
}

impl Who<'_> {
    fn key(&self) -> String {
        match self {
            Who::Client(c) => format!("client:{c}"),
            Who::User(u) => format!("user:{}", u.to_lowercase()),
            Who::Address(a) => format!("addr:{a}"),
        }
    }

    fn is_address(&self) -> bool {
        matches!(self, Who::Address(_))
    }
}

impl Throttle {
    /// `max` failures before a lockout of `lockout` (doubling).
    pub fn new(max: u32, lockout: Duration) -> Throttle {
        Throttle {
            entries: Mutex::new(HashMap::new()),
            max: max.max(1),
            lockout,
        }
    }

    /// `Err(retry_after)` while any of `who` is locked out.
    pub fn check(&self, who: &[Who]) -> Result<(), Duration> {
        let now = Instant::now();
        let Ok(entries) = self.entries.lock() else {
            return Ok(());
        };
        let wait = who
            .iter()
            .filter_map(|w| entries.get(&w.key()))
            .filter_map(|e| e.locked_until)
            .filter(|until| *until > now)
            .map(|until| until - now)
            .max();
        match wait {
            Some(d) => Err(d),
            None => Ok(()),
        }
    }

    /// Counts a failure for each of `who`; returns how long to delay the answer.
    pub fn failure(&self, who: &[Who]) -> Duration {
        let now = Instant::now();
        let Ok(mut entries) = self.entries.lock() else {
            return Duration::ZERO;
        };
        let mut worst = 0;
        for w in who {
            let max = if w.is_address() {
                self.max * 4
            } else {
                self.max
            };
            let e = entries.entry(w.key()).or_insert(Entry {
                failures: 0,
                since: now,
                lockouts: 0,
                locked_until: None,
            });
            if now.duration_since(e.since) > WINDOW {
                e.failures = 0;
                e.since = now;
            }
            e.failures += 1;
            if e.failures >= max {
                let lockout = self
                    .lockout
                    .saturating_mul(1 << e.lockouts.min(10))
                    .min(MAX_LOCKOUT);
                e.locked_until = Some(now + lockout);
                e.lockouts += 1;
                e.failures = 0;
                e.since = now;
            }
            worst = worst.max(e.failures);
        }
        if entries.len() > 100_000 {
            entries.retain(|_, e| {
                now.duration_since(e.since) <= WINDOW || e.locked_until.is_some_and(|u| u > now)
            });
        }
        Duration::from_millis(u64::from(worst.min(8)) * 100)
    }

    /// Clears the counters of the clients and users among `who`.
    pub fn success(&self, who: &[Who]) {
        if let Ok(mut entries) = self.entries.lock() {
            for w in who.iter().filter(|w| !w.is_address()) {
                entries.remove(&w.key());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_after_max_failures_and_only_that_identity() {
        let t = Throttle::new(3, Duration::from_secs(60));
        let anna = [Who::User("anna"), Who::Address("10.0.0.2")];
        for _ in 0..2 {
            t.failure(&anna);
            assert!(t.check(&anna).is_ok());
        }
        t.failure(&anna);
        let wait = t.check(&[Who::User("ANNA")]).unwrap_err();
        assert!(wait > Duration::from_secs(50));
        assert!(
            t.check(&[Who::User("bob"), Who::Address("10.0.0.2")])
                .is_ok(),
            "others go on"
        );
    }

    #[test]
    fn lockouts_expire_and_success_clears() {
        let t = Throttle::new(2, Duration::from_millis(30));
        let who = [Who::Client("cli_1")];
        t.failure(&who);
        t.success(&who);
        t.failure(&who);
        assert!(t.check(&who).is_ok(), "the success reset the count");
        t.failure(&who);
        assert!(t.check(&who).is_err());
        std::thread::sleep(Duration::from_millis(40));
        assert!(t.check(&who).is_ok(), "and it recovers");
    }
}
