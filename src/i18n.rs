//! Every word the front desk shows comes from a catalogue per language: Fluent files under
//! `assets/i18n/`, compiled into the binary, with Fluent's plural rules. Dates and money are
//! formatted for the language here too (`1,234.56` in English, `1.234,56` in Italian and
//! Croatian when their catalogues arrive). A missing key shows as the key itself, and a
//! test fails when any catalogue lacks a key that English has or a page uses.

use std::sync::OnceLock;

use chrono::{Datelike, NaiveDate};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// The catalogues: `(language tag, Fluent source)`, English first.
pub const CATALOGUES: &[(&str, &str)] = &[("en", include_str!("../assets/i18n/en.ftl"))];

/// A language of the desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
}

impl Lang {
    /// The language tag, for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
        }
    }

    /// The best language for an `Accept-Language` header (English when none matches).
    pub fn negotiate(_accept: Option<&str>) -> Lang {
        Lang::En
    }
}

fn bundles() -> &'static Vec<FluentBundle<FluentResource>> {
    static BUNDLES: OnceLock<Vec<FluentBundle<FluentResource>>> = OnceLock::new();
    BUNDLES.get_or_init(|| {
        CATALOGUES
            .iter()
            .map(|(tag, source)| {
                let lang: unic_langid::LanguageIdentifier = tag.parse().unwrap_or_default();
                let mut bundle = FluentBundle::new_concurrent(vec![lang]);
                // Pages are HTML: no invisible isolation marks around placeables.
                bundle.set_use_isolating(false);
                match FluentResource::try_new(source.to_string()) {
                    Ok(r) | Err((r, _)) => {
                        let _ = bundle.add_resource(r);
                    }
                }
                bundle
            })
            .collect()
    })
}

/// The words of one language, handed to every page.
#[derive(Clone, Copy)]
pub struct T {
    lang: Lang,
}

impl T {
    /// The words of `lang`.
    pub fn new(lang: Lang) -> T {
        T { lang }
    }

    /// The language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    fn format(&self, key: &str, args: Option<&FluentArgs>) -> String {
        let bundle = &bundles()[0];
        let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) else {
            tracing::warn!(key, "missing catalogue key");
            return key.to_string();
        };
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }

    /// The text of `key`.
    pub fn t(&self, key: &str) -> String {
        self.format(key, None)
    }

    /// The text of `key` with named arguments (numbers select plural forms).
    pub fn with(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let mut a = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Num(n) => a.set(*name, FluentValue::from(*n)),
                Arg::Text(s) => a.set(*name, FluentValue::from(s.clone())),
            }
        }
        self.format(key, Some(&a))
    }

    /// The text of `key` for `count` (its `$count`).
    pub fn n(&self, key: &str, count: i64) -> String {
        self.with(key, &[("count", Arg::Num(count))])
    }

    /// A day, written out: `Monday 23 November 2026`.
    pub fn date(&self, d: NaiveDate) -> String {
        match self.lang {
            Lang::En => format!(
                "{} {} {} {}",
                d.format("%A"),
                d.day(),
                d.format("%B"),
                d.year()
            ),
        }
    }

    /// A column head for a day: `Mon 23`.
    pub fn day_head(&self, d: NaiveDate) -> String {
        match self.lang {
            Lang::En => format!("{} {}", d.format("%a"), d.day()),
        }
    }

    /// A moment: `23 Nov 14:05`.
    pub fn moment(&self, d: NaiveDate, time: chrono::NaiveTime) -> String {
        match self.lang {
            Lang::En => format!("{} {}", self.short_date(d), time.format("%H:%M")),
        }
    }

    /// A short day: `23 Nov`.
    pub fn short_date(&self, d: NaiveDate) -> String {
        match self.lang {
            Lang::En => format!("{} {}", d.day(), d.format("%b")),
        }
    }

    /// An amount in minor units with its currency: `EUR 1,234.56`, `-EUR 5.00`.
    pub fn money(&self, minor: i64, currency: &str) -> String {
        let (sign, abs) = if minor < 0 {
            ("-", -minor)
        } else {
            ("", minor)
        };
        let (units, cents) = (abs / 100, abs % 100);
        let digits = units.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        match self.lang {
            Lang::En => format!("{sign}{currency} {grouped}.{cents:02}"),
        }
    }
}

/// An argument of a message.
#[derive(Debug, Clone)]
pub enum Arg {
    /// A number (selects plural forms).
    Num(i64),
    /// Text.
    Text(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_arguments_follow_the_catalogue() {
        let t = T::new(Lang::En);
        assert_eq!(t.n("count-arrivals", 1), "1 arrival");
        assert_eq!(t.n("count-arrivals", 3), "3 arrivals");
        assert_eq!(
            t.with(
                "party",
                &[("adults", Arg::Num(2)), ("children", Arg::Num(1))]
            ),
            "2 adults, 1 child"
        );
        assert_eq!(
            t.with(
                "party",
                &[("adults", Arg::Num(1)), ("children", Arg::Num(0))]
            ),
            "1 adult"
        );
        assert_eq!(t.t("no-such-key"), "no-such-key");
    }

    #[test]
    fn money_and_dates_are_written_for_the_language() {
        let t = T::new(Lang::En);
        assert_eq!(t.money(123_456, "EUR"), "EUR 1,234.56");
        assert_eq!(t.money(-500, "EUR"), "-EUR 5.00");
        assert_eq!(t.money(7, "EUR"), "EUR 0.07");
        let d = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        assert_eq!(t.date(d), "Monday 23 November 2026");
        assert_eq!(t.short_date(d), "23 Nov");
    }
}
