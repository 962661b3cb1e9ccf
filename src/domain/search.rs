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

#[cfg(test)]
mod tests {
    use super::*;

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
