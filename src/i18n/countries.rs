//! Countries by name: every ISO 3166-1 country's alpha-2 code with its name in English,
//! Italian and Croatian (`assets/i18n/countries.csv`, made by `scripts/countries.py` from
//! Debian's iso-codes). A receptionist types or picks "Germania" or "Njemačka"; innkeep
//! stores `DE`. Names are matched without case or accents (`cesko`, `CROAZIA`).

use std::sync::LazyLock;

use super::Lang;
use crate::model::codes::name_key;

const CSV: &str = include_str!("../../assets/i18n/countries.csv");

/// One country: its code and its names in English, Italian and Croatian.
struct Country {
    code: &'static str,
    names: [&'static str; 3],
    /// The names' keys, for matching what was typed.
    keys: [String; 3],
}

static COUNTRIES: LazyLock<Vec<Country>> = LazyLock::new(|| {
    CSV.lines()
        .skip(1)
        .filter_map(|line| {
            let mut parts = line.split(';');
            let code = parts.next()?;
            let names = [parts.next()?, parts.next()?, parts.next()?];
            Some(Country {
                code,
                keys: names.map(name_key),
                names,
            })
        })
        .collect()
});

fn column(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::It => 1,
        Lang::Hr => 2,
    }
}

/// The name of country `code` in `lang`, when it is an ISO 3166-1 code.
pub fn name(lang: Lang, code: &str) -> Option<&'static str> {
    COUNTRIES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(code.trim()))
        .map(|c| c.names[column(lang)])
}

/// The code of the country typed: its code (`de`) or its name in any of the three languages
/// (`Germania`, `njemacka`); `None` when it is neither.
pub fn code_of(typed: &str) -> Option<&'static str> {
    let typed = typed.trim();
    if let Some(c) = COUNTRIES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(typed))
    {
        return Some(c.code);
    }
    let key = name_key(typed);
    COUNTRIES
        .iter()
        .find(|c| c.keys.contains(&key))
        .map(|c| c.code)
}

/// Every country's name in `lang`, sorted by that name, for a page's list of choices.
pub fn names(lang: Lang) -> Vec<&'static str> {
    let col = column(lang);
    let mut all: Vec<(&String, &'static str)> = COUNTRIES
        .iter()
        .map(|c| (&c.keys[col], c.names[col]))
        .collect();
    all.sort();
    all.into_iter().map(|(_, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_country_is_found_by_code_or_by_name_in_any_language() {
        assert_eq!(code_of("de"), Some("DE"));
        assert_eq!(code_of("Germania"), Some("DE"));
        assert_eq!(code_of("njemacka"), Some("DE"));
        assert_eq!(code_of(" CROAZIA "), Some("HR"));
        assert_eq!(code_of("Atlantis"), None);
        assert_eq!(name(Lang::Hr, "it"), Some("Italija"));
        assert_eq!(name(Lang::It, "XX"), None);
    }

    #[test]
    fn every_country_has_a_code_and_three_names_and_no_name_is_ambiguous() {
        assert!(COUNTRIES.len() >= 249, "{}", COUNTRIES.len());
        for c in COUNTRIES.iter() {
            assert!(c.code.len() == 2 && c.code.chars().all(|x| x.is_ascii_uppercase()));
            assert!(c.names.iter().all(|n| !n.is_empty()), "{}", c.code);
            for key in &c.keys {
                let found = code_of(key);
                assert_eq!(found, Some(c.code), "{key} names more than one country");
            }
        }
        assert_eq!(names(Lang::It).len(), COUNTRIES.len());
    }
}
