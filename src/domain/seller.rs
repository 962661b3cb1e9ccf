//! The seller's particulars every invoice prints (VAT Directive 2006/112/EC, art. 226):
//! which countries innkeep will not invoice in without them, and the check digits of the
//! VAT numbers it knows (Croatia's OIB, ISO 7064 MOD 11,10; Italy's partita IVA, the
//! Luhn-like rule of DM 23 December 1976).

use super::rules::Rule;

/// Whether invoices in `country` must carry the seller's particulars before innkeep issues
/// one: the two countries whose fiscal rules innkeep implements.
pub fn required_in(country: Option<&str>) -> bool {
    matches!(country, Some("HR" | "IT"))
}

/// Whether an OIB's ISO 7064 MOD 11,10 check digit is right.
pub fn oib_valid(oib: &str) -> bool {
    if oib.len() != 11 || !oib.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let d: Vec<u32> = oib.bytes().map(|b| u32::from(b - b'0')).collect();
    let mut a = 10;
    for x in &d[..10] {
        a = (a + x) % 10;
        if a == 0 {
            a = 10;
        }
        a = (a * 2) % 11;
    }
    let check = if 11 - a == 10 { 0 } else { 11 - a };
    check == d[10]
}

/// Whether a partita IVA's check digit is right.
pub fn partita_iva_valid(p: &str) -> bool {
    if p.len() != 11 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let d: Vec<u32> = p.bytes().map(|b| u32::from(b - b'0')).collect();
    let odd: u32 = d[0..10].iter().step_by(2).sum();
    let even: u32 = d[1..10]
        .iter()
        .step_by(2)
        .map(|v| if v * 2 > 9 { v * 2 - 9 } else { v * 2 })
        .sum();
    (10 - (odd + even) % 10) % 10 == d[10]
}

/// The VAT number's digits, spaces and the country prefix aside (`HR 69435151530` is
/// `69435151530`).
pub fn digits_of(country: &str, vat_id: &str) -> String {
    let plain: String = vat_id.chars().filter(|c| !c.is_whitespace()).collect();
    let upper = plain.to_ascii_uppercase();
    match upper.strip_prefix(country) {
        Some(rest) => rest.to_string(),
        None => upper,
    }
}

/// Every rule the particulars break, by field (`seller.vat_id`, `seller.address.line1`,
/// `seller.address.city`), for a property in `country`.
pub fn check(
    country: Option<&str>,
    vat_id: &str,
    has_street: bool,
    has_city: bool,
) -> Vec<(&'static str, Rule)> {
    let mut broken = Vec::new();
    let vat = match country {
        Some("HR") => Some((
            oib_valid(&digits_of("HR", vat_id)),
            "must be the OIB: 11 digits, the last of them the check digit (HR before it is allowed)",
            "problem-seller-oib",
        )),
        Some("IT") => Some((
            partita_iva_valid(&digits_of("IT", vat_id)),
            "must be the partita IVA: 11 digits, the last of them the check digit (IT before it is allowed)",
            "problem-seller-partita-iva",
        )),
        _ => None,
    };
    if let Some((false, why, key)) = vat {
        broken.push(("seller.vat_id", Rule::new("invalid", why).said(key, vec![])));
    }
    for (present, field) in [
        (has_street, "seller.address.line1"),
        (has_city, "seller.address.city"),
    ] {
        if !present {
            let rule = Rule::new("required", "is required").said("rule-required", vec![]);
            broken.push((field, rule));
        }
    }
    broken
}

/// Every rule a bill-to breaks, by field under `bill_to.`: a business buying in Croatia or
/// Italy (`country`: the buyer's, else the property's) gives its VAT number, and a VAT
/// number given there is that country's (the OIB, the partita IVA), by its check digit.
pub fn buyer_check(
    country: Option<&str>,
    business: bool,
    vat_id: Option<&str>,
) -> Vec<(&'static str, Rule)> {
    let mut broken = Vec::new();
    let local = matches!(country, Some("HR" | "IT"));
    match vat_id.map(str::trim).filter(|v| !v.is_empty()) {
        None if business && local => {
            let rule = Rule::new("required", "is required for a business in Croatia or Italy")
                .said("problem-buyer-vat-id-required", vec![]);
            broken.push(("vat_id", rule));
        }
        Some(v) => {
            let (ok, why, key) = match country {
                Some("HR") => (
                    oib_valid(&digits_of("HR", v)),
                    "must be the OIB: 11 digits, the last of them the check digit (HR before it is allowed)",
                    "problem-buyer-oib",
                ),
                Some("IT") => (
                    partita_iva_valid(&digits_of("IT", v)),
                    "must be the partita IVA: 11 digits, the last of them the check digit (IT before it is allowed)",
                    "problem-buyer-partita-iva",
                ),
                _ => (true, "", ""),
            };
            if !ok {
                broken.push(("vat_id", Rule::new("invalid", why).said(key, vec![])));
            }
        }
        None => {}
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_business_buying_at_home_gives_its_own_countrys_number() {
        assert!(buyer_check(Some("HR"), false, None).is_empty());
        assert_eq!(buyer_check(Some("HR"), true, None)[0].1.code, "required");
        assert!(buyer_check(Some("HR"), true, Some("HR 69435151530")).is_empty());
        assert_eq!(
            buyer_check(Some("HR"), true, Some("69435151531"))[0].1.code,
            "invalid"
        );
        assert_eq!(
            buyer_check(Some("IT"), true, Some("01234567890"))[0].1.code,
            "invalid"
        );
        assert!(
            buyer_check(Some("DE"), true, None).is_empty(),
            "abroad: as the buyer has it"
        );
        assert!(buyer_check(Some("DE"), true, Some("DE123456789")).is_empty());
    }

    #[test]
    fn check_digits() {
        assert!(oib_valid("69435151530"));
        assert!(!oib_valid("69435151531"));
        assert!(partita_iva_valid("06363391001"));
        assert!(partita_iva_valid("00743110157"));
        assert!(!partita_iva_valid("01234567890"));
        assert!(!partita_iva_valid("0636339100"));
    }

    #[test]
    fn each_country_checks_its_own_number_and_every_seller_an_address() {
        assert!(check(Some("HR"), "HR 69435151530", true, true).is_empty());
        assert!(check(Some("IT"), "IT06363391001", true, true).is_empty());
        assert!(check(None, "anything", true, true).is_empty());
        let broken: Vec<&str> = check(Some("IT"), "12345678901", false, false)
            .into_iter()
            .map(|(f, _)| f)
            .collect();
        assert_eq!(
            broken,
            [
                "seller.vat_id",
                "seller.address.line1",
                "seller.address.city"
            ]
        );
        assert!(required_in(Some("HR")) && required_in(Some("IT")) && !required_in(Some("AT")));
    }
}
