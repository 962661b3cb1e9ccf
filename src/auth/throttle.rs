//! Throttling of failed authentication (API.md section 10: "repeated failures are throttled").
//!
//! Each identity (a client id, a staff username, a remote address) has its own counter, so a
//! guessing attack on one never locks out another. Failures are slowed down first; after
//! `max` failures within 15 minutes the identity is refused with 429 and `Retry-After` for
//! the lockout, which doubles with each further lockout up to 15 minutes. Addresses get four
//! times as many attempts, because a hotel's staff often share one. A success clears the
//! client's or user's counter, never the address's. A locked-out client or user is still
//! let through from an address that has not failed: whoever knows a user name or client id
//! can lock it out, but only from their own addresses, and the real one, with the right
//! password or secret, still gets in from theirs, until the name has taken four lockouts'
//! worth of failures in the window (one guess from each of many addresses is still a
//! guessing attack). An IPv6 address counts for its /64. User names are counted as they are
//! looked up (see [`canonical_username`]), so `" maria"` and `Maria` share one counter. The
//! state is in memory: a restart forgives everyone, which is acceptable for a single
//! front-desk process.

use unicode_normalization::UnicodeNormalization;

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
    /// Every failure since `first` (not reset by a lockout): past [`CEILING`] times the
    /// limit, even a clean address waits out the lockout.
    total: u32,
    first: Instant,
}

/// How many lockouts' worth of failures within the window a name or client may take before
/// its lockout holds for every address, clean or not (the bypass exists for the real user,
/// not for someone with many addresses).
const CEILING: u32 = 4;

/// The network an address counts for: itself, or for IPv6 its /64 (one host picks its
/// addresses from a whole /64).
fn network(address: &str) -> String {
    match address.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        _ => address.to_string(),
    }
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
    /// A staff login name (as typed: it is made canonical and case-insensitive here).
    User(&'a str),
    /// A remote address.
    Address(&'a str),
}

impl Who<'_> {
    fn key(&self) -> String {
        match self {
            Who::Client(c) => format!("client:{c}"),
            Who::User(u) => format!("user:{}", canonical_username(u).to_lowercase()),
            Who::Address(a) => format!("addr:{}", network(a)),
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

    /// `Err(retry_after)` while an address of `who` is locked out, or a client or user of
    /// `who` is and the request does not come from an address that has not failed.
    pub fn check(&self, who: &[Who]) -> Result<(), Duration> {
        let now = Instant::now();
        let Ok(entries) = self.entries.lock() else {
            return Ok(());
        };
        let failed = |e: &Entry| {
            (e.failures > 0 && now.duration_since(e.since) <= WINDOW)
                || e.locked_until.is_some_and(|u| u > now)
        };
        let addresses: Vec<&Who> = who.iter().filter(|w| w.is_address()).collect();
        let clean_address = !addresses.is_empty()
            && addresses
                .iter()
                .all(|a| entries.get(&a.key()).is_none_or(|e| !failed(e)));
        let swamped =
            |e: &Entry| e.total >= self.max * CEILING && now.duration_since(e.first) <= WINDOW;
        let wait = who
            .iter()
            .filter_map(|w| entries.get(&w.key()).map(|e| (w, e)))
            .filter(|(w, e)| w.is_address() || !clean_address || swamped(e))
            .map(|(_, e)| e)
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
                total: 0,
                first: now,
            });
            if now.duration_since(e.since) > WINDOW {
                e.failures = 0;
                e.since = now;
            }
            if now.duration_since(e.first) > WINDOW {
                e.total = 0;
                e.first = now;
            }
            e.failures += 1;
            e.total += 1;
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

/// A user name as it is stored and looked up: without surrounding spaces, in Unicode NFC
/// (the database compares case-insensitively).
pub fn canonical_username(typed: &str) -> String {
    typed.trim().nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locked_user_gets_in_from_an_address_that_never_failed() {
        let t = Throttle::new(3, Duration::from_secs(60));
        let attacker = [Who::User("maria"), Who::Address("10.0.0.66")];
        for _ in 0..3 {
            t.failure(&attacker);
        }
        assert!(t.check(&attacker).is_err(), "the guesser is refused");
        let spaced = [Who::User(" Maria "), Who::Address("10.0.0.66")];
        assert!(
            t.check(&spaced).is_err(),
            "spaces and case are the same name"
        );
        let composed = [Who::User("mari\u{0061}"), Who::Address("10.0.0.66")];
        assert!(t.check(&composed).is_err());
        let real = [Who::User("maria"), Who::Address("10.0.0.2")];
        assert!(t.check(&real).is_ok(), "the desk PC has never failed");
        t.failure(&real);
        assert!(
            t.check(&real).is_err(),
            "once it fails, the lockout holds there too"
        );
        assert!(
            t.check(&[Who::User("maria")]).is_err(),
            "no address: locked"
        );
        // Someone with many addresses gets one guess from each, up to a ceiling.
        for n in 0..20 {
            t.failure(&[Who::User("maria"), Who::Address(&format!("10.1.0.{n}"))]);
        }
        let fresh = [Who::User("maria"), Who::Address("10.0.0.3")];
        assert!(
            t.check(&fresh).is_err(),
            "past the ceiling even a clean address waits"
        );
    }

    #[test]
    fn an_ipv6_host_counts_for_its_whole_64() {
        let t = Throttle::new(1, Duration::from_secs(60));
        let one = [Who::Address("2001:db8:1:2::10")];
        for _ in 0..4 {
            t.failure(&one);
        }
        assert!(t.check(&[Who::Address("2001:db8:1:2:ffff::1")]).is_err());
        assert!(t.check(&[Who::Address("2001:db8:1:3::10")]).is_ok());
    }

    #[test]
    fn user_names_are_canonical() {
        assert_eq!(canonical_username("  maria\t"), "maria");
        assert_eq!(canonical_username("Jose\u{0301}"), "Jos\u{e9}");
    }

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
