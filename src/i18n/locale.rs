//! Dates and money as each language writes them: `Monday 23 November 2026` and
//! `EUR 1,234.56` in English, `lunedì 23 novembre 2026` and `1.234,56 €` in Italian,
//! `ponedjeljak, 23. studenoga 2026.` and `1.234,56 €` in Croatian (months in the genitive,
//! as Croatian dates are written).

use chrono::{Datelike, NaiveDate};

use super::Lang;

const IT_DAYS: [&str; 7] = [
    "lunedì",
    "martedì",
    "mercoledì",
    "giovedì",
    "venerdì",
    "sabato",
    "domenica",
];
const IT_MONTHS: [&str; 12] = [
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
];
const HR_DAYS: [&str; 7] = [
    "ponedjeljak",
    "utorak",
    "srijeda",
    "četvrtak",
    "petak",
    "subota",
    "nedjelja",
];
/// Croatian months in the genitive (`23. studenoga`).
const HR_MONTHS: [&str; 12] = [
    "siječnja",
    "veljače",
    "ožujka",
    "travnja",
    "svibnja",
    "lipnja",
    "srpnja",
    "kolovoza",
    "rujna",
    "listopada",
    "studenoga",
    "prosinca",
];

fn weekday(d: NaiveDate) -> usize {
    d.weekday().num_days_from_monday() as usize
}

fn month(d: NaiveDate) -> usize {
    d.month0() as usize
}

/// The first `n` characters of `s`.
fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A day written out.
pub fn date(lang: Lang, d: NaiveDate) -> String {
    match lang {
        Lang::En => format!(
            "{} {} {} {}",
            d.format("%A"),
            d.day(),
            d.format("%B"),
            d.year()
        ),
        Lang::It => format!(
            "{} {} {} {}",
            IT_DAYS[weekday(d)],
            d.day(),
            IT_MONTHS[month(d)],
            d.year()
        ),
        Lang::Hr => format!(
            "{}, {}. {} {}.",
            HR_DAYS[weekday(d)],
            d.day(),
            HR_MONTHS[month(d)],
            d.year()
        ),
    }
}

/// Croatian months as a heading names them (nominative; a date uses the genitive).
const HR_MONTHS_NAMED: [&str; 12] = [
    "siječanj",
    "veljača",
    "ožujak",
    "travanj",
    "svibanj",
    "lipanj",
    "srpanj",
    "kolovoz",
    "rujan",
    "listopad",
    "studeni",
    "prosinac",
];

/// A month and its year: `November 2026`, `novembre 2026`, `studeni 2026.`.
pub fn month_year(lang: Lang, d: NaiveDate) -> String {
    match lang {
        Lang::En => format!("{} {}", d.format("%B"), d.year()),
        Lang::It => format!("{} {}", IT_MONTHS[month(d)], d.year()),
        Lang::Hr => format!("{} {}.", HR_MONTHS_NAMED[month(d)], d.year()),
    }
}

/// A column head for a day: `Mon 23`, `lun 23`, `pon 23.`.
pub fn day_head(lang: Lang, d: NaiveDate) -> String {
    match lang {
        Lang::En => format!("{} {}", d.format("%a"), d.day()),
        Lang::It => format!("{} {}", cut(IT_DAYS[weekday(d)], 3), d.day()),
        Lang::Hr => format!("{} {}.", cut(HR_DAYS[weekday(d)], 3), d.day()),
    }
}

/// A short day: `23 Nov`, `23 nov`, `23. 11.`.
pub fn short_date(lang: Lang, d: NaiveDate) -> String {
    match lang {
        Lang::En => format!("{} {}", d.day(), d.format("%b")),
        Lang::It => format!("{} {}", d.day(), cut(IT_MONTHS[month(d)], 3)),
        Lang::Hr => format!("{}. {}.", d.day(), d.month()),
    }
}

/// Digits grouped by thousands with `sep`.
fn grouped(units: i64, sep: char) -> String {
    let digits = units.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// An amount in minor units with its currency: `EUR 1,234.56`; `1.234,56 €` in Italian and
/// Croatian (the euro as its sign, other currencies by code).
pub fn money(lang: Lang, minor: i64, currency: &str) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.abs();
    let (units, cents) = (abs / 100, abs % 100);
    match lang {
        Lang::En => format!("{sign}{currency} {}.{cents:02}", grouped(units, ',')),
        Lang::It | Lang::Hr => {
            let symbol = if currency == "EUR" { "€" } else { currency };
            format!("{sign}{},{cents:02} {symbol}", grouped(units, '.'))
        }
    }
}

/// A day as a form field writes it: `15/03/1980` in Italian (and English, as the hotels'
/// countries write days first), `15.03.1980.` in Croatian.
pub fn numeric_date(lang: Lang, d: NaiveDate) -> String {
    match lang {
        Lang::Hr => d.format("%d.%m.%Y.").to_string(),
        Lang::En | Lang::It => d.format("%d/%m/%Y").to_string(),
    }
}

/// A day typed into a form, in any of the ways the pages' languages write one: `1980-03-15`,
/// `15/03/1980`, `15.03.1980.`, `15. 3. 1980.`, `15-03-1980` (the day always before the
/// month; the year in full); `None` for anything else.
pub fn read_date(typed: &str) -> Option<NaiveDate> {
    let typed = typed.trim();
    if let Ok(d) = NaiveDate::parse_from_str(typed, "%Y-%m-%d") {
        return Some(d);
    }
    let parts: Vec<&str> = typed
        .trim_end_matches('.')
        .split(['/', '.', '-'])
        .map(str::trim)
        .collect();
    let [day, month, year] = parts[..] else {
        return None;
    };
    let digits = |s: &str, max: usize| {
        (!s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    if year.len() != 4 {
        return None;
    }
    NaiveDate::from_ymd_opt(digits(year, 4)? as i32, digits(month, 2)?, digits(day, 2)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_writes_its_own_way() {
        let d = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        assert_eq!(date(Lang::It, d), "lunedì 23 novembre 2026");
        assert_eq!(date(Lang::Hr, d), "ponedjeljak, 23. studenoga 2026.");
        assert_eq!(day_head(Lang::Hr, d), "pon 23.");
        assert_eq!(short_date(Lang::It, d), "23 nov");
        assert_eq!(short_date(Lang::Hr, d), "23. 11.");
        assert_eq!(money(Lang::It, 123_456, "EUR"), "1.234,56 €");
        assert_eq!(money(Lang::Hr, -5000, "EUR"), "-50,00 €");
        assert_eq!(money(Lang::Hr, 123_456_789, "USD"), "1.234.567,89 USD");
        assert_eq!(money(Lang::En, 123_456, "EUR"), "EUR 1,234.56");
    }

    #[test]
    fn a_typed_day_is_read_the_way_each_language_writes_it() {
        let d = NaiveDate::from_ymd_opt(1980, 3, 15);
        for typed in [
            "1980-03-15",
            "15/03/1980",
            "15.03.1980.",
            "15.3.1980",
            " 15. 3. 1980. ",
            "15-03-1980",
        ] {
            assert_eq!(read_date(typed), d, "{typed}");
        }
        for typed in [
            "15/03/80",
            "03/15/1980",
            "15/03",
            "1980",
            "15/03/1980/1",
            "",
            "a/b/cdef",
        ] {
            assert_eq!(read_date(typed), None, "{typed}");
        }
        let d = d.unwrap();
        assert_eq!(numeric_date(Lang::It, d), "15/03/1980");
        assert_eq!(numeric_date(Lang::Hr, d), "15.03.1980.");
        assert_eq!(read_date(&numeric_date(Lang::Hr, d)), Some(d));
    }
}
