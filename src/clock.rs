//! Instants and property-local dates, in the formats the API promises, and the [`Clock`]
//! business dates come from.
//!
//! Instants are stored and served as RFC 3339 UTC with millisecond precision and a `Z`, so
//! their text order is their time order. "Today" is today in the property's time zone, read
//! from the [`Clock`], which tests can set. Security lifetimes (token expiry) follow the wall
//! clock, because JWT validation does.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, NaiveDate, SecondsFormat, TimeZone, Utc};

/// The wall clock plus an offset that tests can set; cheap to clone, shared by clones.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
    /// Woken whenever the clock is set or moved, so that work waiting for a time (the
    /// queue's retries) looks again at once rather than at its next poll.
    moved: Arc<tokio::sync::Notify>,
}

impl Clock {
    /// Now.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::milliseconds(self.offset_ms.load(Ordering::Relaxed))
    }

    /// Now, in the stored format.
    pub fn now_text(&self) -> String {
        format_instant(self.now())
    }

    /// The local date and time in the given IANA time zone (UTC if it is not a known zone).
    pub fn local_now_in(&self, time_zone: &str) -> chrono::NaiveDateTime {
        let now = self.now();
        match time_zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => now.with_timezone(&tz).naive_local(),
            Err(_) => now.naive_utc(),
        }
    }

    /// Today's date in `time_zone` (UTC if it is not a known zone).
    pub fn today_in(&self, time_zone: &str) -> NaiveDate {
        let now = self.now();
        match time_zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => now.with_timezone(&tz).date_naive(),
            Err(_) => now.date_naive(),
        }
    }

    /// Makes "now" be `at` (the clock keeps running from there). For tests and drills.
    pub fn set_now(&self, at: DateTime<Utc>) {
        self.offset_ms
            .store((at - Utc::now()).num_milliseconds(), Ordering::Relaxed);
        self.moved.notify_waiters();
    }

    /// Moves the clock by `days` (may be negative).
    pub fn advance_days(&self, days: i64) {
        self.offset_ms
            .fetch_add(days * 86_400_000, Ordering::Relaxed);
        self.moved.notify_waiters();
    }

    /// Waits until the clock is next set or moved (never, in a running hotel).
    pub async fn moved(&self) {
        self.moved.notified().await;
    }
}

/// Now, as the API and the database store it: `2026-11-22T10:15:30.123Z`.
pub fn now_text() -> String {
    format_instant(Utc::now())
}

/// An instant in the API's format.
pub fn format_instant(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Whether a string names an IANA time zone.
pub fn is_time_zone(name: &str) -> bool {
    name.parse::<chrono_tz::Tz>().is_ok()
}

/// An instant as stored (`2026-11-22T10:00:00.000Z`) as the date and the wall-clock time
/// in `time_zone` (UTC when the zone is unknown); `None` when it is not an instant.
pub fn local_time(instant: &str, time_zone: &str) -> Option<(NaiveDate, chrono::NaiveTime)> {
    let at = DateTime::parse_from_rfc3339(instant)
        .ok()?
        .with_timezone(&Utc);
    let local = match time_zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => at.with_timezone(&tz).naive_local(),
        Err(_) => at.naive_utc(),
    };
    Some((local.date(), local.time()))
}

/// The instants (RFC 3339 UTC, `Z`) a property-local day starts and the next one starts: a
/// day's stored instants lie in `[start, end)`. A midnight a clock change skips is taken as
/// the first instant after it.
pub fn day_bounds(day: NaiveDate, time_zone: &str) -> (String, String) {
    let start = |d: NaiveDate| {
        let midnight = d.and_hms_opt(0, 0, 0).unwrap_or_default();
        let utc = match time_zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => (0..=3)
                .find_map(|h| {
                    tz.from_local_datetime(&(midnight + chrono::Duration::hours(h)))
                        .earliest()
                })
                .map_or_else(|| midnight.and_utc(), |t| t.with_timezone(&Utc)),
            Err(_) => midnight.and_utc(),
        };
        format_instant(utc)
    };
    (start(day), start(day.succ_opt().unwrap_or(day)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_end_in_z() {
        let t = now_text();
        assert!(t.ends_with('Z'), "{t}");
        assert_eq!(t.len(), 24);
    }

    #[test]
    fn the_clock_can_be_set_and_moved() {
        let clock = Clock::default();
        let copy = clock.clone();
        let noon = chrono::NaiveDate::from_ymd_opt(2027, 3, 1)
            .unwrap()
            .and_hms_opt(12, 0, 0)
            .unwrap()
            .and_utc();
        clock.set_now(noon);
        assert_eq!(
            copy.today_in("Europe/Rome").to_string(),
            "2027-03-01",
            "clones share the setting"
        );
        copy.advance_days(2);
        assert_eq!(clock.today_in("UTC").to_string(), "2027-03-03");
        assert_eq!(
            clock.today_in("Pacific/Kiritimati").to_string(),
            "2027-03-04",
            "today is local"
        );
    }

    #[test]
    fn time_zones_are_checked() {
        assert!(is_time_zone("Europe/Rome"));
        assert!(!is_time_zone("Mars/Olympus"));
    }
}
