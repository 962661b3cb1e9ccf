//! How guests' names are searched: case-folded, and also without accents or in Latin letters
//! (`dvorak` finds Dvořák, `wojcik` finds Wójcik, `weiss` finds Weiß), as a receptionist
//! types them from a booking site's confirmation.

/// The stored keys of a name: what the name filter searches ("first last" and "last first",
/// as written and, when it differs, folded: `dvořák` also as `dvorak`) and the list order
/// (last name, then first name), both case-folded.
pub fn name_keys(first: &str, last: &str) -> (String, String) {
    let (f, l) = (first.to_lowercase(), last.to_lowercase());
    let mut search = format!("{f} {l}\n{l} {f}");
    let (ff, fl) = (fold(first), fold(last));
    if (ff.as_str(), fl.as_str()) != (f.as_str(), l.as_str()) {
        search.push_str(&format!("\n{ff} {fl}\n{fl} {ff}"));
    }
    (search, format!("{l}\u{1f}{f}"))
}

/// Text as a search compares it: lower-case, accents and other scripts transliterated
/// (`Wójcik` → `wojcik`, `Weiß` → `weiss`).
pub fn fold(text: &str) -> String {
    deunicode::deunicode(text).to_lowercase()
}

/// The digits of a phone number that identify it however it is written: its last nine
/// (`+385 91 234 5678`, `00385912345678` and `091/234-5678` all give `912345678`; an
/// Italian `+39 333 123 4567` and `333 1234567` give `331234567`). Nine digits are a whole
/// national number in Italy and Croatia without its trunk `0` or country code. `None` for
/// A name the authorities write in capitals ("REGGIO NELL'EMILIA") as people write it:
/// each word, and each part after an apostrophe, a hyphen or a slash, capitalised
/// ("Reggio Nell'Emilia").
pub fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut start = true;
    for c in name.chars() {
        if start {
            out.extend(c.to_uppercase());
        } else {
            out.extend(c.to_lowercase());
        }
        start = matches!(c, ' ' | '\'' | '-' | '/' | '(');
    }
    out
}

/// fewer than six digits (not a phone number worth matching).
pub fn phone_key(phone: &str) -> Option<String> {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    (digits.len() >= 6).then(|| digits[digits.len().saturating_sub(9)..].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitals_are_written_as_people_write_names() {
        assert_eq!(title_case("REGGIO NELL'EMILIA"), "Reggio Nell'Emilia");
        assert_eq!(title_case("SAN DONÀ DI PIAVE"), "San Donà Di Piave");
        assert_eq!(title_case("CASTELNUOVO-RANGONE"), "Castelnuovo-Rangone");
        assert_eq!(title_case("roma"), "Roma");
    }

    #[test]
    fn a_phone_number_is_the_same_however_it_is_written() {
        let key = phone_key("+385 91 234 5678");
        for typed in [
            "00385912345678",
            "091/234-5678",
            "(091) 234 5678",
            "912345678",
        ] {
            assert_eq!(phone_key(typed), key, "{typed}");
        }
        assert_eq!(phone_key("+39 333 123 4567"), phone_key("333 1234567"));
        assert_ne!(phone_key("+39 333 123 4567"), key);
        assert_eq!(phone_key("12345"), None);
        assert_eq!(phone_key("ext. 123456").as_deref(), Some("123456"));
    }

    #[test]
    fn a_name_is_found_with_or_without_its_accents() {
        let (key, order) = name_keys("Antonín", "Dvořák");
        for typed in ["Dvořák", "dvorak", "antonin dvo", "DVORAK ANTONIN"] {
            assert!(key.contains(&fold(typed)), "{typed} in {key}");
        }
        assert_eq!(order, "dvořák\u{1f}antonín");
        let (plain, _) = name_keys("Anna", "Rossi");
        assert_eq!(
            plain, "anna rossi\nrossi anna",
            "nothing added when nothing differs"
        );
        assert!(name_keys("Jan", "Wójcik").0.contains("wojcik"));
        assert!(name_keys("Ute", "Weiß").0.contains(&fold("weiß")));
    }
}
