//! Every word the front desk shows comes from a catalogue per language: Fluent files under
//! `assets/i18n/`, compiled into the binary, with Fluent's plural rules. Dates and money are
//! formatted for the language (`locale`: `EUR 1,234.56` in English, `1.234,56 €` in Italian
//! and Croatian). A missing key shows as the key itself, and a test fails when any catalogue
//! lacks a key that English has or a page uses, or leaves a message in English.

pub mod countries;
pub mod locale;

use std::sync::OnceLock;

use chrono::NaiveDate;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use crate::packed::{self, packed};

/// The catalogues: `(language tag, packed Fluent source)`, English first. Each is
/// unpacked once, into the bundle that keeps it.
pub const CATALOGUES: &[(&str, &[u8])] = &[
    ("en", packed!("assets/i18n/en.ftl")),
    ("it", packed!("assets/i18n/it.ftl")),
    ("hr", packed!("assets/i18n/hr.ftl")),
];

/// A language of the desk, in the order of [`CATALOGUES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Italian.
    It,
    /// Croatian.
    Hr,
}

impl Lang {
    /// Every language, in the order of [`CATALOGUES`].
    pub const ALL: [Lang; 3] = [Lang::En, Lang::It, Lang::Hr];

    /// The language tag, for `<html lang>` and the staff setting.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::It => "it",
            Lang::Hr => "hr",
        }
    }

    /// The language's own name, for the choice of language.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::It => "Italiano",
            Lang::Hr => "Hrvatski",
        }
    }

    /// The language of a tag (`it`, `hr-HR`, `EN`), if the desk has it.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.tag() == primary)
    }

    /// The best language for an `Accept-Language` header: the first the desk has, by the
    /// browser's weights (English when none matches).
    pub fn negotiate(accept: Option<&str>) -> Lang {
        let mut offered: Vec<(f32, usize, &str)> = crate::web::weighted(accept.unwrap_or_default())
            .enumerate()
            .map(|(i, (tag, q))| (q, i, tag))
            .collect();
        offered.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        offered
            .into_iter()
            .filter(|(q, ..)| *q > 0.0)
            .find_map(|(_, _, tag)| Lang::parse(tag))
            .unwrap_or(Lang::En)
    }

    fn index(self) -> usize {
        self as usize
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
                match FluentResource::try_new(packed::text(source)) {
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
        let bundle = &bundles()[self.lang.index()];
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
        locale::date(self.lang, d)
    }

    /// A country's name in the page's language (`DE` → "Germania"), else its code.
    pub fn country(&self, code: &str) -> String {
        countries::name(self.lang, code).map_or_else(|| code.to_string(), str::to_string)
    }

    /// Every country's name in the page's language, sorted, for a list of choices.
    pub fn countries(&self) -> Vec<&'static str> {
        countries::names(self.lang)
    }

    /// A column head for a day: `Mon 23`.
    pub fn day_head(&self, d: NaiveDate) -> String {
        locale::day_head(self.lang, d)
    }

    /// A moment: `23 Nov 14:05`.
    pub fn moment(&self, d: NaiveDate, time: chrono::NaiveTime) -> String {
        format!("{} {}", self.short_date(d), time.format("%H:%M"))
    }

    /// A month and its year: `November 2026`.
    pub fn month_year(&self, d: NaiveDate) -> String {
        locale::month_year(self.lang, d)
    }

    /// A short day: `23 Nov`.
    pub fn short_date(&self, d: NaiveDate) -> String {
        locale::short_date(self.lang, d)
    }

    /// A day as a form field writes it: `15/03/1980`, `15.03.1980.`.
    pub fn numeric_date(&self, d: NaiveDate) -> String {
        locale::numeric_date(self.lang, d)
    }

    /// An amount in minor units with its currency: `EUR 1,234.56`, `-EUR 5.00`.
    pub fn money(&self, minor: i64, currency: &str) -> String {
        locale::money(self.lang, minor, currency)
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
    fn every_catalogue_parses_whole_without_a_key_twice() {
        for (tag, source) in CATALOGUES {
            let resource = FluentResource::try_new(packed::text(source))
                .unwrap_or_else(|(_, e)| panic!("{tag}.ftl does not parse: {e:?}"));
            let mut bundle = FluentBundle::new_concurrent(vec![tag.parse().unwrap()]);
            if let Err(e) = bundle.add_resource(resource) {
                panic!("{tag}.ftl defines a key twice: {e:?}");
            }
        }
    }

    #[test]
    fn the_browser_language_is_taken_when_the_desk_has_it() {
        assert_eq!(Lang::negotiate(Some("it-IT,it;q=0.9,en;q=0.8")), Lang::It);
        assert_eq!(Lang::negotiate(Some("de-DE, hr;q=0.7, en;q=0.5")), Lang::Hr);
        assert_eq!(Lang::negotiate(Some("en;q=0.4, it;q=0.8")), Lang::It);
        assert_eq!(Lang::negotiate(Some("fr")), Lang::En);
        assert_eq!(Lang::negotiate(Some("it;q=0")), Lang::En);
        assert_eq!(Lang::negotiate(None), Lang::En);
    }

    #[test]
    fn croatian_plurals_have_three_forms() {
        let t = T::new(Lang::Hr);
        assert_eq!(t.n("count-arrivals", 1), "1 dolazak");
        assert_eq!(t.n("count-arrivals", 3), "3 dolaska");
        assert_eq!(t.n("count-arrivals", 5), "5 dolazaka");
        assert_eq!(t.n("count-arrivals", 21), "21 dolazak");
        let it = T::new(Lang::It);
        assert_eq!(it.n("nights", 2), "2 notti");
        assert_eq!(it.money(123_456, "EUR"), "1.234,56 €");
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
