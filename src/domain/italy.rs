//! Italian identifiers a fiscal document carries: the codice fiscale of a person (16
//! characters, with its check character and the omocodia substitutions) and the recipient
//! code of SdI (`CodiceDestinatario`: 7 characters, `0000000` when the buyer receives at a
//! PEC address or in the tax agency's reserved area).
//!
//! The check character follows the Ministry of Finance's decree of 23 December 1976 (as
//! every public implementation does): the 15 first characters, those in odd positions
//! through the "odd" table, those in even positions by their plain value, summed modulo 26.

/// The value of a character in an odd position (1st, 3rd, ...): digits and letters share
/// the table (`0` as `A`, `1` as `B`, ...).
const ODD: [u32; 26] = [
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];

/// The letters that stand for digits 0-9 in an omocodia codice fiscale.
const OMOCODIA: &str = "LMNPQRSTUV";

/// The months' letters (January to December).
const MONTHS: &str = "ABCDEHLMPRST";

/// Positions (0-based) that hold digits, or their omocodia letters.
const DIGITS: [usize; 7] = [6, 7, 9, 10, 12, 13, 14];

fn index(c: u8) -> Option<usize> {
    match c {
        b'0'..=b'9' => Some(usize::from(c - b'0')),
        b'A'..=b'Z' => Some(usize::from(c - b'A')),
        _ => None,
    }
}

/// The check character of the first 15 characters of a codice fiscale (upper case).
pub fn codice_fiscale_check(first15: &[u8]) -> Option<char> {
    let mut sum = 0u32;
    for (i, c) in first15.iter().enumerate() {
        let n = index(*c)?;
        sum += if i % 2 == 0 { ODD[n] } else { n as u32 };
    }
    char::from_u32('A' as u32 + sum % 26)
}

/// The codice fiscale upper-cased without spaces.
pub fn normalize(cf: &str) -> String {
    cf.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Why a codice fiscale of a person is not one, or `None` when it is: its shape (letters
/// and digits where they belong, a month letter, a day of 1-31 or 41-71) and its check
/// character.
pub fn codice_fiscale_problem(cf: &str) -> Option<&'static str> {
    let cf = normalize(cf);
    let b = cf.as_bytes();
    if b.len() != 16 || !b.iter().all(u8::is_ascii_alphanumeric) {
        return Some("must be 16 letters and digits");
    }
    let letters = [0, 1, 2, 3, 4, 5, 8, 11, 15];
    if !letters.iter().all(|&i| b[i].is_ascii_uppercase()) {
        return Some("has a digit where a letter belongs");
    }
    let mut digits = Vec::with_capacity(DIGITS.len());
    for &i in &DIGITS {
        match b[i] {
            d @ b'0'..=b'9' => digits.push(d - b'0'),
            l => match OMOCODIA.bytes().position(|o| o == l) {
                Some(p) => digits.push(p as u8),
                None => return Some("has a letter where a digit belongs"),
            },
        }
    }
    if !MONTHS.as_bytes().contains(&b[8]) {
        return Some("has no month letter in the 9th place");
    }
    let day = digits[2] * 10 + digits[3];
    if !(1..=31).contains(&day) && !(41..=71).contains(&day) {
        return Some("has no day of birth in the 10th and 11th places");
    }
    match codice_fiscale_check(&b[..15]) {
        Some(c) if c as u8 == b[15] => None,
        _ => Some("fails its check character"),
    }
}

/// Whether `code` is an SdI recipient code: 7 letters and digits (`0000000` included), or
/// 6 for a public administration.
pub fn recipient_code_valid(code: &str) -> bool {
    let b = code.as_bytes();
    (b.len() == 7 || b.len() == 6)
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// The partita IVA in `vat_id` (an `IT` prefix and spaces allowed) when it is one: 11 digits
/// whose last is the Luhn check digit of the first ten.
pub fn partita_iva(vat_id: &str) -> Option<String> {
    let t: String = vat_id.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = t
        .strip_prefix("IT")
        .or_else(|| t.strip_prefix("it"))
        .unwrap_or(&t);
    let b = digits.as_bytes();
    if b.len() != 11 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let sum: u32 = b[..10]
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let d = u32::from(c - b'0');
            match (i % 2, d * 2) {
                (0, _) => d,
                (_, x) if x > 9 => x - 9,
                (_, x) => x,
            }
        })
        .sum();
    ((10 - sum % 10) % 10 == u32::from(b[10] - b'0')).then(|| digits.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_codes() {
        for cf in [
            "RSSMRA85T10A562S",
            "MRTMTT91D08F205J",
            "BNZVCN32S10E573Z",
            "rssmra85t10a562s",
        ] {
            assert_eq!(codice_fiscale_problem(cf), None, "{cf}");
        }
        assert_eq!(
            codice_fiscale_problem("RSSMRA85T10A562T"),
            Some("fails its check character")
        );
        assert_eq!(
            codice_fiscale_problem("RSSMRA85T10A562"),
            Some("must be 16 letters and digits")
        );
        assert_eq!(
            codice_fiscale_problem("RSSMRA85Z10A562S"),
            Some("has no month letter in the 9th place")
        );
        assert_eq!(
            codice_fiscale_problem("RSSMRA85T35A562S"),
            Some("has no day of birth in the 10th and 11th places")
        );
        assert!(recipient_code_valid("0000000"));
        assert!(recipient_code_valid("M5UXCR1"));
        assert!(!recipient_code_valid("m5uxcr1"));
        assert!(!recipient_code_valid("M5UXCR12"));
    }

    #[test]
    fn partite_iva() {
        assert_eq!(partita_iva("00743110157").as_deref(), Some("00743110157"));
        assert_eq!(
            partita_iva("IT 01234567897").as_deref(),
            Some("01234567897")
        );
        assert_eq!(partita_iva("00743110158"), None);
        assert_eq!(partita_iva("0074311015"), None);
        assert_eq!(partita_iva("DE123456789"), None);
    }

    #[test]
    fn omocodia_keeps_the_code_valid_once_its_check_is_recomputed() {
        // RSSMRA85T10A562S with its last digit 2 written as N (omocodia).
        let mut b = *b"RSSMRA85T10A56NS";
        b[15] = codice_fiscale_check(&b[..15]).unwrap() as u8;
        let cf = std::str::from_utf8(&b).unwrap();
        assert_eq!(codice_fiscale_problem(cf), None, "{cf}");
    }

    proptest! {
        /// Any one character changed breaks the check (or the shape).
        #[test]
        fn one_changed_character_is_caught(pos in 0usize..15, to in 0u8..36) {
            let good = *b"RSSMRA85T10A562S";
            let mut b = good;
            let c = if to < 10 { b'0' + to } else { b'A' + to - 10 };
            prop_assume!(c != good[pos]);
            b[pos] = c;
            let cf = std::str::from_utf8(&b).unwrap().to_string();
            // Omocodia letters stand for digits: changing a digit to its own letter is the
            // same code; every other change is caught.
            let same = DIGITS.contains(&pos)
                && OMOCODIA.as_bytes().get(usize::from(good[pos] - b'0')) == Some(&c);
            prop_assume!(!same);
            prop_assert!(codice_fiscale_problem(&cf).is_some(), "{}", cf);
        }
    }
}
