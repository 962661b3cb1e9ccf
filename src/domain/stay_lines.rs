//! The words of the lines a stay's invoice gets (the nights, the city tax), in the language
//! of the property's country: Italian for IT, Croatian for HR, English otherwise. They are
//! printed on a legal document in that country, and stored with the invoice as issued.

use chrono::NaiveDate;

/// The language of an invoice's own lines, by the property's country.
pub fn language(country: Option<&str>) -> &'static str {
    match country {
        Some("IT") | Some("SM") | Some("VA") => "it",
        Some("HR") => "hr",
        _ => "en",
    }
}

/// A day as the language writes it on an invoice.
fn day(lang: &str, d: NaiveDate) -> String {
    match lang {
        "it" => d.format("%d/%m/%Y").to_string(),
        "hr" => d.format("%d.%m.%Y.").to_string(),
        _ => d.to_string(),
    }
}

/// The accommodation line: `Accommodation, room 7: 2 nights from 2026-11-22 to 2026-11-24`.
pub fn accommodation(
    country: Option<&str>,
    room: Option<&str>,
    nights: i64,
    arrival: NaiveDate,
    departure: NaiveDate,
) -> String {
    let lang = language(country);
    let (from, to) = (day(lang, arrival), day(lang, departure));
    match lang {
        "it" => format!(
            "Pernottamento{}: {nights} nott{} dal {from} al {to}",
            room.map(|n| format!(", camera {n}")).unwrap_or_default(),
            if nights == 1 { "e" } else { "i" },
        ),
        "hr" => format!(
            "Smještaj{}: {nights} {} od {from} do {to}",
            room.map(|n| format!(", soba {n}")).unwrap_or_default(),
            hr_nights(nights),
        ),
        _ => format!(
            "Accommodation{}: {nights} night{} from {from} to {to}",
            room.map(|n| format!(", room {n}")).unwrap_or_default(),
            if nights == 1 { "" } else { "s" },
        ),
    }
}

/// Runs of consecutive nights at the same price, as an invoice lists them: first night,
/// the morning after the last, how many, the price of each.
pub fn runs(nights: &[(NaiveDate, i64)]) -> Vec<(NaiveDate, NaiveDate, i64, i64)> {
    let mut out: Vec<(NaiveDate, NaiveDate, i64, i64)> = Vec::new();
    for &(d, price) in nights {
        let next = d.succ_opt().unwrap_or(d);
        match out.last_mut() {
            Some(run) if run.3 == price && run.1 == d => {
                run.1 = next;
                run.2 += 1;
            }
            _ => out.push((d, next, 1, price)),
        }
    }
    out
}

/// Croatian "noćenje" after a number (1, 21: noćenje; 2-4, 22-24: noćenja; else noćenja).
fn hr_nights(n: i64) -> &'static str {
    if n % 10 == 1 && n % 100 != 11 {
        "noćenje"
    } else {
        "noćenja"
    }
}

/// The included breakfast's line: `Breakfast included in the rate: 4 person-nights`.
pub fn breakfast(country: Option<&str>, person_nights: i64) -> String {
    match language(country) {
        "it" => format!(
            "Colazione inclusa nella tariffa: {person_nights} pernottament{}",
            if person_nights == 1 { "o" } else { "i" }
        ),
        "hr" => format!(
            "Doručak uključen u cijenu: {person_nights} {}",
            hr_nights(person_nights)
        ),
        _ => format!(
            "Breakfast included in the rate: {person_nights} person-night{}",
            if person_nights == 1 { "" } else { "s" }
        ),
    }
}

/// A run of nights at `price` each for `persons`, with breakfast at `breakfast` a person
/// and night included: the accommodation's price each night and the breakfast's (never
/// more than the night costs).
pub fn split_breakfast(price: i64, persons: i64, breakfast: i64) -> (i64, i64) {
    let per_night = (breakfast * persons.max(1)).clamp(0, price.max(0));
    (price - per_night, per_night)
}

/// The line of a fee a rate plan charges for a late cancellation (`no_show` false) or a
/// no-show, in the language of the property's country.
pub fn fee(country: Option<&str>, no_show: bool) -> String {
    match (language(country), no_show) {
        ("it", false) => "Penale di cancellazione".into(),
        ("it", true) => "Penale per mancato arrivo (no-show)".into(),
        ("hr", false) => "Naknada za otkazivanje".into(),
        ("hr", true) => "Naknada za nedolazak".into(),
        (_, false) => "Cancellation fee".into(),
        (_, true) => "No-show fee".into(),
    }
}

/// The line of an advance invoice: `Advance for the stay 14/08/2027 - 17/08/2027 (K7QF2M)`.
pub fn advance(
    country: Option<&str>,
    code: &str,
    arrival: NaiveDate,
    departure: NaiveDate,
) -> String {
    let lang = language(country);
    let (a, d) = (day(lang, arrival), day(lang, departure));
    match lang {
        "it" => format!("Acconto per il soggiorno {a} - {d} ({code})"),
        "hr" => format!("Predujam za boravak {a} - {d} ({code})"),
        _ => format!("Advance for the stay {a} - {d} ({code})"),
    }
}

/// The line of a stay's bill that deducts an advance: `Less advance, invoice 2027-000012`.
pub fn advance_deducted(country: Option<&str>, number: &str) -> String {
    match language(country) {
        "it" => format!("Detratto acconto, fattura {number}"),
        "hr" => format!("Umanjeno za predujam, račun {number}"),
        _ => format!("Less advance, invoice {number}"),
    }
}

/// Why an advance invoice is reversed: `Advance given back (K7QF2M)`.
pub fn advance_returned(country: Option<&str>, code: &str) -> String {
    match language(country) {
        "it" => format!("Restituzione dell'acconto ({code})"),
        "hr" => format!("Povrat predujma ({code})"),
        _ => format!("Advance given back ({code})"),
    }
}

/// The city tax line: `City tax: 4 person-nights`.
pub fn city_tax(country: Option<&str>, person_nights: i64) -> String {
    match language(country) {
        "it" => format!(
            "Imposta di soggiorno: {person_nights} pernottament{}",
            if person_nights == 1 { "o" } else { "i" }
        ),
        "hr" => format!(
            "Boravišna pristojba: {person_nights} {}",
            hr_nights(person_nights)
        ),
        _ => format!(
            "City tax: {person_nights} person-night{}",
            if person_nights == 1 { "" } else { "s" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Splitting an included breakfast off a night never changes what the night costs.
        #[test]
        fn a_split_breakfast_keeps_the_nights_price(price in 0i64..1_000_000, persons in 1i64..8, b in 0i64..20_000) {
            let (room, meal) = split_breakfast(price, persons, b);
            prop_assert_eq!(room + meal, price);
            prop_assert!((0..=price).contains(&meal));
            prop_assert_eq!(meal, (b * persons).min(price));
        }
    }

    #[test]
    fn lines_speak_the_propertys_language() {
        let (a, d) = (
            NaiveDate::from_ymd_opt(2026, 11, 22).unwrap(),
            NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
        );
        assert_eq!(
            accommodation(None, Some("7"), 2, a, d),
            "Accommodation, room 7: 2 nights from 2026-11-22 to 2026-11-24"
        );
        assert_eq!(
            accommodation(Some("IT"), Some("7"), 1, a, d),
            "Pernottamento, camera 7: 1 notte dal 22/11/2026 al 24/11/2026"
        );
        assert_eq!(
            accommodation(Some("HR"), None, 2, a, d),
            "Smještaj: 2 noćenja od 22.11.2026. do 24.11.2026."
        );
        assert_eq!(
            city_tax(Some("IT"), 4),
            "Imposta di soggiorno: 4 pernottamenti"
        );
        assert_eq!(city_tax(Some("HR"), 21), "Boravišna pristojba: 21 noćenje");
        assert_eq!(city_tax(Some("DE"), 1), "City tax: 1 person-night");
    }
}
