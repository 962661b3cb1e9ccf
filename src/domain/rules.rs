//! Field rules: the checks every piece of client input passes, with a stable code and a
//! sentence for people. Pure functions; the API layer runs them on each field and reports
//! every failure at once.
//!
//! Rules take `&String` because they are applied to parsed `String` fields through a
//! generic `Fn(&Leaf)`, where `&str` would not fit.
#![allow(clippy::ptr_arg)]

use chrono::NaiveDate;

use crate::domain::said::{Said, Value};

/// A broken rule: a stable `code`, a plain-words `message` ("must be …", the API's
/// English) and the same as the catalogues say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// For example `too_long`.
    pub code: &'static str,
    /// For example "must be at most 100 characters".
    pub message: String,
    /// For example `rule-too_long` with `n1` = 100.
    pub said: Option<Said>,
}

impl Rule {
    /// A broken rule, said by the catalogues as its code's sentence (`rule-{code}`) where
    /// there is one.
    pub fn new(code: &'static str, message: impl Into<String>) -> Rule {
        let said = crate::domain::said::SENTENCES
            .iter()
            .find(|(k, _)| k.strip_prefix("rule-") == Some(code))
            .map(|(key, _)| Said {
                key,
                values: Vec::new(),
            });
        Rule {
            code,
            message: message.into(),
            said,
        }
    }

    /// The same, said as `key` with `values`.
    pub fn said(mut self, key: &'static str, values: Vec<(&'static str, Value)>) -> Rule {
        self.said = Some(Said::new(key, values));
        self
    }
}

/// The result of a check.
pub type Check = Result<(), Rule>;

/// "a, b or c".
pub fn one_of(choices: &[&str]) -> String {
    match choices {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Parses exactly `YYYY-MM-DD` (zero-padded, a real calendar date).
pub fn date(s: &str) -> Result<NaiveDate, Rule> {
    let shape_ok = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shape_ok {
        return Err(Rule::new(
            "invalid_date",
            "must be a date written YYYY-MM-DD",
        ));
    }
    // The shape is checked: the digits are read directly (chrono's general parser was a
    // sixth of the room board's time when it read thousands of stored days).
    let num = |r: std::ops::Range<usize>| {
        s.as_bytes()[r]
            .iter()
            .fold(0u32, |n, c| n * 10 + u32::from(c - b'0'))
    };
    NaiveDate::from_ymd_opt(num(0..4) as i32, num(5..7), num(8..10))
        .ok_or_else(|| Rule::new("invalid_date", "must be a real calendar date"))
}

/// Characters that change how text around them is shown without showing themselves: the
/// bidirectional controls (a name that reads backwards, a hidden `gpj.exe`), zero-width
/// spaces and joiners, the word joiner and invisible operators, the byte-order mark, the
/// soft hyphen and the Mongolian vowel separator. Refused in one-line texts such as names,
/// as control characters are.
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{061c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// A one-line text: not blank, at most `max` characters, no control characters and no
/// invisible formatting characters ([`is_invisible_format`]).
pub fn line(max: usize) -> impl Fn(&String) -> Check {
    move |s: &String| {
        if s.trim().is_empty() {
            Err(Rule::new("blank", "must not be blank"))
        } else if s.chars().count() > max {
            Err(
                Rule::new("too_long", format!("must be at most {max} characters"))
                    .said("rule-too_long", vec![("n1", Value::Num(max as i64))]),
            )
        } else if s.chars().any(|c| c.is_control() || is_invisible_format(c)) {
            Err(Rule::new(
                "invalid_characters",
                "must not contain control characters (nor invisible ones: bidirectional marks, zero-width spaces)",
            ))
        } else {
            Ok(())
        }
    }
}

/// Free text such as notes: may be empty or span lines, at most `max` characters.
pub fn free_text(max: usize) -> impl Fn(&String) -> Check {
    move |s: &String| {
        if s.chars().count() > max {
            Err(
                Rule::new("too_long", format!("must be at most {max} characters"))
                    .said("rule-too_long", vec![("n1", Value::Num(max as i64))]),
            )
        } else if s
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
        {
            Err(Rule::new(
                "invalid_characters",
                "must not contain control characters",
            ))
        } else {
            Ok(())
        }
    }
}

/// An integer within `min..=max`.
pub fn range(min: i64, max: i64) -> impl Fn(&i64) -> Check {
    move |n: &i64| {
        if *n < min || *n > max {
            Err(
                Rule::new("out_of_range", format!("must be between {min} and {max}")).said(
                    "rule-out_of_range",
                    vec![("n1", Value::Num(min)), ("n2", Value::Num(max))],
                ),
            )
        } else {
            Ok(())
        }
    }
}

/// A plausible e-mail address: one `@`, a dotted domain, no spaces, at most 254 characters.
pub fn email(s: &String) -> Check {
    let bad = || {
        Err(Rule::new(
            "invalid_email",
            "must be an e-mail address such as anna@example.com",
        ))
    };
    if s.len() > 254 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad();
    }
    match s.split_once('@') {
        Some((local, domain))
            if !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.') =>
        {
            Ok(())
        }
        _ => bad(),
    }
}

/// A phone number: digits with optional `+`, spaces, dashes, dots and parentheses;
/// 5 to 20 digits, at most 40 characters in all (as the OpenAPI schema says).
pub fn phone(s: &String) -> Check {
    let digits = s.chars().filter(char::is_ascii_digit).count();
    let allowed = s
        .chars()
        .enumerate()
        .all(|(i, c)| c.is_ascii_digit() || " -.()".contains(c) || (c == '+' && i == 0));
    if allowed && (5..=20).contains(&digits) && s.chars().count() <= 40 {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_phone",
            "must be a phone number such as +39 055 123 4567 (5 to 20 digits, at most 40 characters)",
        ))
    }
}

/// ISO 3166-1 alpha-2 codes, plus XK (Kosovo), which travel documents use.
pub const COUNTRIES: &str = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI \
BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ \
DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ \
GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN \
KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS \
MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT \
PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF \
TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA \
ZM ZW";

/// A country: ISO 3166-1 alpha-2, upper case.
pub fn country(s: &String) -> Check {
    if s.len() == 2 && COUNTRIES.split(' ').any(|c| c == s) {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_country",
            "must be an ISO 3166-1 alpha-2 country code in upper case, such as IT or HR",
        ))
    }
}

/// ISO 4217 active currency codes.
pub const CURRENCIES: &str = "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB \
BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR \
FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES \
KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR \
MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR \
SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH \
UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG";

/// A currency: ISO 4217, upper case.
pub fn currency(s: &String) -> Check {
    if s.len() == 3 && CURRENCIES.split(' ').any(|c| c == s) {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_currency",
            "must be an ISO 4217 currency code in upper case, such as EUR",
        ))
    }
}

/// An Italian codice fiscale of a person: 16 characters with their check character.
pub fn codice_fiscale(s: &String) -> Check {
    match crate::domain::italy::codice_fiscale_problem(s) {
        None => Ok(()),
        Some(why) => Err(Rule::new(
            "invalid_codice_fiscale",
            format!("is not a codice fiscale: it {why}"),
        )),
    }
}

/// An SdI recipient code: 7 letters and digits (6 for a public administration).
pub fn sdi_code(s: &String) -> Check {
    if crate::domain::italy::recipient_code_valid(&s.trim().to_ascii_uppercase()) {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_sdi_code",
            "must be the 7-letter-and-digit recipient code the buyer gave for SdI (0000000 when they receive by PEC or have none)",
        ))
    }
}

/// A KPD 2025 code: `NN.NN.NN`.
pub fn kpd_code(s: &String) -> Check {
    if crate::domain::kpd::valid(s) {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_kpd_code",
            "must be a KPD 2025 code of six digits in pairs, such as 55.10.00",
        ))
    }
}

/// An Italian CIN: `IT`, six digits (province and municipality), then the ISTAT class and
/// the random part, 3 to 10 capital letters and digits.
///
/// Unverified: the Ministry of Tourism's own specification of the code was not found; this
/// follows the Provincia di Trento's description (IT, the province's and the municipality's
/// ISTAT codes of three digits each, a 2-character class, up to 8 random characters), read
/// loosely so a real code is never refused. Tighten it here once the BDSR's rule is known.
pub fn cin(s: &String) -> Check {
    let b = s.as_bytes();
    let ok = (11..=18).contains(&b.len())
        && b.starts_with(b"IT")
        && b[2..8].iter().all(u8::is_ascii_digit)
        && b[8..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_cin",
            "must be the CIN the Ministry of Tourism assigned: IT, six digits, then 3 to 10 capital letters and digits, such as IT039007B1A2B3C4",
        ))
    }
}

/// A room-type code: 1 to 16 of `A-Z`, `0-9`, `_` and `-`.
pub fn room_type_code(s: &String) -> Check {
    let ok = (1..=16).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_code",
            "must be 1 to 16 characters of A-Z, 0-9, _ and -",
        ))
    }
}

/// An invoice series pattern: letters, digits, `-`, `_`, `/` and the `{year}` placeholder,
/// 1 to 32 characters.
pub fn invoice_series(s: &String) -> Check {
    let rest = s.replace("{year}", "");
    if !s.is_empty()
        && s.len() <= 32
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_/".contains(c))
    {
        Ok(())
    } else {
        Err(Rule::new(
            "invalid_pattern",
            "may contain letters, digits, -, _, / and the placeholder {year} (1 to 32 characters)",
        ))
    }
}

/// An id with the given type prefix (`gst_…`); anything else cannot exist.
pub fn id_with_prefix(prefix: &'static str) -> impl Fn(&String) -> Check {
    move |s: &String| {
        let ok = s.len() <= 64
            && s.strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix('_'))
                .is_some_and(|rest| {
                    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric())
                });
        if ok {
            Ok(())
        } else {
            Err(Rule::new(
                "invalid_id",
                format!("must be an id starting with {prefix}_"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Days read as chrono reads them (the digits are read directly); anything else is an
    /// error.
    #[test]
    fn days_are_read_as_chrono_reads_them() {
        for d in ["2026-11-27", "2024-02-29", "0001-01-01", "9999-12-31"] {
            assert_eq!(date(d), Ok(d.parse().unwrap()));
        }
        for bad in [
            "2026-02-30",
            "2026-1-27",
            "2026/11/27",
            "2026-11-27T",
            "",
            "20a6-11-27",
            "2026-13-01",
        ] {
            assert!(date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn dates_must_be_zero_padded_and_real() {
        assert!(date("2026-02-28").is_ok());
        assert_eq!(date("2026-2-28").unwrap_err().code, "invalid_date");
        assert_eq!(date("2026-02-30").unwrap_err().code, "invalid_date");
        assert!(date("2026-02-28T00:00").is_err());
    }

    #[test]
    fn lines_reject_blank_long_and_control() {
        let check = line(5);
        assert!(check(&"Anna".into()).is_ok());
        assert_eq!(check(&"  ".into()).unwrap_err().code, "blank");
        assert_eq!(check(&"Annabel".into()).unwrap_err().code, "too_long");
        assert_eq!(
            check(&"a\u{0}b".into()).unwrap_err().code,
            "invalid_characters"
        );
    }

    #[test]
    fn emails_phones_countries_currencies() {
        assert!(email(&"anna@example.com".into()).is_ok());
        assert!(email(&"anna@example".into()).is_err());
        assert!(email(&"an na@example.com".into()).is_err());
        assert!(phone(&"+39 055 123 4567".into()).is_ok());
        assert!(phone(&"12".into()).is_err());
        assert!(phone(&"12+345678".into()).is_err());
        assert!(phone(&"0........0.......0.......0.......0.......".into()).is_err());
        assert!(phone(&"0........0.......0.......0.......0......".into()).is_ok());
        assert!(country(&"IT".into()).is_ok());
        assert!(country(&"it".into()).is_err());
        assert!(country(&"ZZ".into()).is_err());
        assert!(currency(&"EUR".into()).is_ok());
        assert!(currency(&"EURO".into()).is_err());
    }

    #[test]
    fn one_of_reads_naturally() {
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
        assert_eq!(one_of(&["a"]), "a");
    }

    #[test]
    fn ids_need_their_prefix() {
        let check = id_with_prefix("gst");
        assert!(check(&"gst_06dxyz".into()).is_ok());
        assert!(check(&"res_06dxyz".into()).is_err());
        assert!(check(&"gst_".into()).is_err());
    }
}
