//! Instants and property-local dates, in the formats the API promises.
//!
//! Instants are stored and served as RFC 3339 UTC with millisecond precision and a `Z`, so
//! their text order is their time order. "Today" is today in the property's time zone.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

/// Now, as the API and the database store it: `2026-11-22T10:15:30.123Z`.
pub fn now_text() -> String {
    format_instant(Utc::now())
}

/// An instant in the API's format.
pub fn format_instant(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Today's date in the given IANA time zone (falls back to UTC for an unknown zone, which
/// settings validation never lets through).
pub fn today_in(time_zone: &str) -> NaiveDate {
    let now = Utc::now();
    match time_zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => now.with_timezone(&tz).date_naive(),
        Err(_) => now.date_naive(),
    }
}

/// Whether a string names an IANA time zone.
pub fn is_time_zone(name: &str) -> bool {
    name.parse::<chrono_tz::Tz>().is_ok()
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
    fn time_zones_are_checked() {
        assert!(is_time_zone("Europe/Rome"));
        assert!(!is_time_zone("Mars/Olympus"));
    }
}
