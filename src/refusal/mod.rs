//! One way to say a refusal. A use case refuses with a [`Refusal`]: a stable code and typed
//! values (a room number, a day, a status), defined once here. The API's `detail` is the
//! English catalogue's sentence for it; a desk page says the same key and values in its own
//! language, each value written the language's way (a day as `20 nov`, a status in words).
//! No page translates an English sentence back by matching its words.
//!
//! A failing field says its rule the same way: its English message is the API's, and it
//! carries the catalogue's sentence ([`Said`], listed in `domain::said::SENTENCES`) that a
//! page says in its language. Tests prove that every refusal and every field sentence has
//! its words in every language, using exactly the values it carries.

mod admin;
mod day;
mod fiscal;
mod rates;
mod stay;

use chrono::NaiveDate;

pub use crate::domain::said::{Said, Value};
pub use admin::AdminRefusal;
pub use day::DayRefusal;
pub use fiscal::FiscalRefusal;
pub use rates::RatesRefusal;
pub use stay::Refusal;

use crate::error::{AppError, Kind};
use crate::i18n::{Arg, Lang, T};

impl Said {
    /// The sentence in `t`'s language.
    pub fn say(&self, t: &T) -> String {
        let english = t.lang() == Lang::En;
        let day = |d: &NaiveDate| {
            if english {
                d.to_string()
            } else {
                t.short_date(*d)
            }
        };
        let args: Vec<(&str, Arg)> = self
            .values
            .iter()
            .map(|(name, v)| {
                let text = match v {
                    Value::Num(n) => return (*name, Arg::Num(*n)),
                    Value::Text(s) => s.clone(),
                    Value::Decimal(s) if english => s.clone(),
                    Value::Decimal(s) => s.replace('.', ","),
                    Value::Day(d) => day(d),
                    Value::Days(ds) => ds.iter().map(day).collect::<Vec<_>>().join(", "),
                    Value::State(s) if english => s.as_str().to_string(),
                    Value::State(s) => t.t(&format!("status-{}", s.as_str())),
                    Value::InvoiceState(s) if english => s.as_str().to_string(),
                    Value::InvoiceState(s) => t.t(&format!("invoice-status-{}", s.as_str())),
                    Value::Moment(at) if english => at.clone(),
                    Value::Moment(at) => match chrono::DateTime::parse_from_rfc3339(at) {
                        Ok(at) => {
                            let utc = at.naive_utc();
                            format!("{} UTC", t.moment(utc.date(), utc.time()))
                        }
                        Err(_) => at.clone(),
                    },
                };
                (*name, Arg::Text(text))
            })
            .collect();
        t.with(self.key, &args)
    }
}

/// The error a refusal's parts make: the API's detail in English, the page's words kept.
fn error((kind, code, said): (Kind, &'static str, Said)) -> AppError {
    let detail = said.say(&T::new(Lang::En));
    AppError::new(kind, code, detail).with_said(said)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::reservation::Status;

    /// The `{ $name }`s of `key`'s message in the catalogue `ftl` (its line and the
    /// indented lines that continue it).
    fn variables(ftl: &str, key: &str) -> Option<Vec<String>> {
        let mut lines = ftl
            .lines()
            .skip_while(|l| !l.starts_with(&format!("{key} = ")));
        let first = lines.next()?;
        let text: Vec<&str> = std::iter::once(first)
            .chain(lines.take_while(|l| l.starts_with(' ')))
            .collect();
        let mut names: Vec<String> = text
            .join("\n")
            .split("{ $")
            .skip(1)
            .filter_map(|s| s.split([' ', '}']).next().map(str::to_string))
            .collect();
        names.sort();
        names.dedup();
        Some(names)
    }

    /// Every sentence a field rule may say ([`crate::domain::said::SENTENCES`]) is in every
    /// catalogue, using exactly the values the rule gives it.
    #[test]
    fn every_field_sentence_is_said_in_every_language_with_its_values() {
        let catalogues = [
            ("en", include_str!("../../assets/i18n/en.ftl")),
            ("it", include_str!("../../assets/i18n/it.ftl")),
            ("hr", include_str!("../../assets/i18n/hr.ftl")),
        ];
        for (key, names) in crate::domain::said::SENTENCES {
            let mut given: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            given.sort();
            for (lang, ftl) in catalogues {
                let used = variables(ftl, key).unwrap_or_else(|| panic!("{lang} has no {key}"));
                assert_eq!(used, given, "{lang} {key}");
            }
        }
    }

    #[test]
    fn every_refusal_is_said_in_every_language_with_its_own_values() {
        let catalogues = [
            ("en", include_str!("../../assets/i18n/en.ftl")),
            ("it", include_str!("../../assets/i18n/it.ftl")),
            ("hr", include_str!("../../assets/i18n/hr.ftl")),
        ];
        let all: Vec<(Kind, &str, Said)> = Refusal::examples()
            .iter()
            .map(Refusal::parts)
            .chain(AdminRefusal::examples().iter().map(AdminRefusal::parts))
            .chain(FiscalRefusal::examples().iter().map(FiscalRefusal::parts))
            .chain(RatesRefusal::examples().iter().map(RatesRefusal::parts))
            .chain(DayRefusal::examples().iter().map(DayRefusal::parts))
            .collect();
        for (_, _, said) in all {
            let r = said.key;
            let mut given: Vec<String> = said.values.iter().map(|(n, _)| n.to_string()).collect();
            given.sort();
            for (lang, ftl) in catalogues {
                let used = variables(ftl, said.key)
                    .unwrap_or_else(|| panic!("{lang} has no {} ({r:?})", said.key));
                for name in &used {
                    assert!(
                        given.contains(name),
                        "{lang} {} uses ${name}, not given",
                        said.key
                    );
                }
                if lang == "en" {
                    assert_eq!(used, given, "English says every value of {}", said.key);
                }
            }
        }
    }

    #[test]
    fn the_api_says_it_in_english_and_a_page_in_its_language() {
        let e: AppError = Refusal::CheckInTooEarly {
            arrival: NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
        }
        .into();
        assert_eq!(e.code, "too_early");
        assert_eq!(
            e.detail,
            "This reservation arrives on 2026-11-20; check-in opens that day."
        );
        let it = e.said.as_ref().unwrap().say(&T::new(Lang::It));
        assert!(it.contains("20 nov"), "{it}");
        let state: AppError = Refusal::NoLongerChanges {
            status: Status::CheckedOut,
        }
        .into();
        assert_eq!(
            state.detail,
            "A checked_out reservation can no longer change."
        );
        let hr = state.said.unwrap().say(&T::new(Lang::Hr));
        assert!(!hr.contains("checked_out"), "{hr}");
    }
}
