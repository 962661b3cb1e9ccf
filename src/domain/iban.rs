//! IBANs (ISO 13616): the account an e-invoice asks the buyer to pay into.

/// The IBAN without spaces, upper-cased.
pub fn compact(iban: &str) -> String {
    iban.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Whether `iban` (spaces allowed) is well formed and its check digits match (mod 97 = 1).
pub fn valid(iban: &str) -> bool {
    let s = compact(iban);
    let b = s.as_bytes();
    if !(15..=34).contains(&b.len())
        || !b[..2].iter().all(u8::is_ascii_uppercase)
        || !b[2..4].iter().all(u8::is_ascii_digit)
        || !b.iter().all(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    let mut rest: u32 = 0;
    for c in b[4..].iter().chain(&b[..4]) {
        let v = if c.is_ascii_digit() {
            u32::from(c - b'0')
        } else {
            u32::from(c - b'A') + 10
        };
        rest = if v >= 10 {
            (rest * 100 + v) % 97
        } else {
            (rest * 10 + v) % 97
        };
    }
    rest == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits() {
        assert!(valid("HR1210010051863000160"));
        assert!(valid("hr12 1001 0051 8630 0016 0"));
        assert!(valid("DE89370400440532013000"));
        assert!(!valid("HR1310010051863000160"));
        assert!(!valid("HR12"));
        assert!(!valid("1210010051863000160HR"));
    }
}
