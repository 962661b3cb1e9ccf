//! Money: integer minor units, gross (tax-inclusive) prices, tax rates in basis points.
//!
//! API.md's rule: each line's net is its gross divided by (1 + rate), rounded half away from
//! zero to the minor unit; its tax is gross minus net; totals are sums of lines. Rounding
//! half away from zero is symmetric, so a credit note (every gross negated) has exactly the
//! negated net and tax of the invoice it reverses.

use chrono::{Datelike, NaiveDate};

/// Basis points in 100 %.
pub const BASIS: i64 = 10_000;

/// Money that no longer fits: a line too large to represent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// The amounts of a line or a total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Amounts {
    /// Net of tax.
    pub net: i64,
    /// Tax.
    pub tax: i64,
    /// Gross: net + tax.
    pub gross: i64,
}

/// Whether `country` (ISO 3166-1) charges VAT on hotel rooms: the EU's member states, the
/// EEA's, Switzerland and the United Kingdom. Where it does, a usual rate of 0 % is a
/// set-up mistake to point out.
pub fn taxes_rooms(country: &str) -> bool {
    const VAT_ON_ROOMS: &[&str] = &[
        "AT", "BE", "BG", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR",
        "HU", "IE", "IS", "IT", "LI", "LT", "LU", "LV", "MT", "NL", "NO", "PL", "PT", "RO", "SE",
        "SI", "SK",
    ];
    VAT_ON_ROOMS.contains(&country)
}

/// The VAT rates a folio charge may carry, in basis points: the property's usual rate first,
/// then its country's (Italy: 22 % standard, 10 % lodging, food and drink served, 5 % and
/// 4 % for a few goods, DPR 633/1972; Croatia: 25 % standard, 13 % lodging and food
/// served, 5 %, Zakon o PDV-u čl. 38., as they stood in 2026), then 0 for what is outside
/// VAT. Without a known country: the usual rate and 0.
pub fn charge_rates(country: Option<&str>, usual: i64) -> Vec<i64> {
    let national: &[i64] = match country {
        Some("IT") => &[2200, 1000, 500, 400],
        Some("HR") => &[2500, 1300, 500],
        _ => &[],
    };
    let mut rates = vec![usual];
    for r in national.iter().copied().chain([0]) {
        if !rates.contains(&r) {
            rates.push(r);
        }
    }
    rates
}

/// An amount in minor units as a decimal with two places and a point: `-1234.50` (what
/// [`parse_amount`] reads back).
pub fn format_amount(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    format!("{sign}{}.{:02}", m / 100, m % 100)
}

/// An amount as a person types it ("12", "12.5", "-3,50"), in minor units of a currency
/// with two decimals; `None` when it is not one.
pub fn parse_amount(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (units, cents) = match t.split_once(['.', ',']) {
        Some((u, c)) => (u, c),
        None => (t, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(units)
        || (!cents.is_empty() && !digits(cents))
        || cents.len() > 2
        || units.len() > 12
    {
        return None;
    }
    let cents: i64 = match cents.len() {
        0 => 0,
        1 => cents.parse::<i64>().ok()? * 10,
        _ => cents.parse().ok()?,
    };
    let minor = units.parse::<i64>().ok()? * 100 + cents;
    Some(if negative { -minor } else { minor })
}

/// Why payments taken together do not fit what is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// A second payment (at this index) leaves its amount out: only one may take the balance.
    SecondBalance(usize),
    /// The payment at this index takes the balance, and the others leave nothing.
    NothingLeft(usize),
}

/// What a credit note may still give back: of its total (`credit_gross`, below zero) what
/// its refunds (`refunded`, zero or below) have not yet returned, and no more than was paid
/// on the invoice it reverses (`paid_on_original`) less those refunds. Zero when nothing
/// was paid, so an unpaid invoice's credit note refunds nothing.
pub fn refundable(credit_gross: i64, refunded: i64, paid_on_original: i64) -> i64 {
    (refunded - credit_gross)
        .min(paid_on_original + refunded)
        .max(0)
}

/// The amounts of payments against `owed`, where at most one (`None`) takes whatever the
/// others leave. Payments that add up to more than is owed are left for the caller to refuse.
pub fn split_payments(owed: i64, given: &[Option<i64>]) -> Result<Vec<i64>, SplitError> {
    let mut balance_at = None;
    let mut named: i64 = 0;
    for (i, amount) in given.iter().enumerate() {
        match (amount, balance_at) {
            (Some(a), _) => named = named.saturating_add(*a),
            (None, None) => balance_at = Some(i),
            (None, Some(_)) => return Err(SplitError::SecondBalance(i)),
        }
    }
    let balance = owed.saturating_sub(named);
    if let Some(i) = balance_at
        && balance <= 0
    {
        return Err(SplitError::NothingLeft(i));
    }
    Ok(given.iter().map(|a| a.unwrap_or(balance)).collect())
}

/// `n / d` rounded half away from zero (`d > 0`).
pub fn div_round(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if 2 * r.abs() >= d { q + n.signum() } else { q }
}

/// The amounts of `quantity` × `unit_price` (gross) at `tax_rate` basis points.
pub fn line(quantity: i64, unit_price: i64, tax_rate: i64) -> Result<Amounts, Overflow> {
    let gross = quantity.checked_mul(unit_price).ok_or(Overflow)?;
    let net = div_round(
        i128::from(gross) * i128::from(BASIS),
        i128::from(BASIS + tax_rate),
    );
    let net = i64::try_from(net).map_err(|_| Overflow)?;
    Ok(Amounts {
        net,
        tax: gross - net,
        gross,
    })
}

/// The sum of amounts.
pub fn total<'a>(amounts: impl IntoIterator<Item = &'a Amounts>) -> Result<Amounts, Overflow> {
    amounts.into_iter().try_fold(Amounts::default(), |acc, a| {
        Ok(Amounts {
            net: acc.net.checked_add(a.net).ok_or(Overflow)?,
            tax: acc.tax.checked_add(a.tax).ok_or(Overflow)?,
            gross: acc.gross.checked_add(a.gross).ok_or(Overflow)?,
        })
    })
}

/// Net and tax per tax rate, lowest rate first.
pub fn breakdown(lines: &[(i64, Amounts)]) -> Vec<(i64, Amounts)> {
    let mut rates: Vec<i64> = lines.iter().map(|(r, _)| *r).collect();
    rates.sort_unstable();
    rates.dedup();
    rates
        .into_iter()
        .map(|rate| {
            let sum =
                lines
                    .iter()
                    .filter(|(r, _)| *r == rate)
                    .fold(Amounts::default(), |acc, (_, a)| Amounts {
                        net: acc.net + a.net,
                        tax: acc.tax + a.tax,
                        gross: acc.gross + a.gross,
                    });
            (rate, sum)
        })
        .collect()
}

/// Full years between `birth` and `on`.
pub fn age_on(birth: NaiveDate, on: NaiveDate) -> i64 {
    let mut years = i64::from(on.year() - birth.year());
    if (on.month(), on.day()) < (birth.month(), birth.day()) {
        years -= 1;
    }
    years
}

/// A property's tourist tax rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CityTaxRule {
    /// Gross per person per night.
    pub amount_per_person_night: i64,
    /// Nights per stay after which nothing more is due.
    pub max_nights: Option<i64>,
    /// Persons younger than this on arrival are exempt.
    pub exempt_under_age: Option<i64>,
}

/// A stay's person-nights as the city tax sees them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CityTaxSplit {
    /// Every person, every night.
    pub person_nights: i64,
    /// Those of persons young enough to be exempt.
    pub exempt_age: i64,
    /// Those of the others beyond the cap of nights.
    pub exempt_cap: i64,
    /// Those taxed.
    pub taxed: i64,
}

impl CityTaxSplit {
    /// Adds `other` to this.
    pub fn add(&mut self, other: CityTaxSplit) {
        self.person_nights += other.person_nights;
        self.exempt_age += other.exempt_age;
        self.exempt_cap += other.exempt_cap;
        self.taxed += other.taxed;
    }
}

/// A stay's person-nights split into exempt by age, exempt beyond the cap and taxed: every
/// person (`persons`) except the listed guests young enough to be exempt on `arrival` is
/// taxed for the nights up to the cap. Guests whose birth date is unknown are charged.
pub fn city_tax_split(
    rule: &CityTaxRule,
    nights: i64,
    persons: i64,
    births: &[Option<NaiveDate>],
    arrival: NaiveDate,
) -> CityTaxSplit {
    let exempt = match rule.exempt_under_age {
        Some(limit) => births
            .iter()
            .flatten()
            .filter(|b| age_on(**b, arrival) < limit)
            .count() as i64,
        None => 0,
    }
    .min(persons.max(0));
    let nights = nights.max(0);
    let chargeable = (persons - exempt).max(0);
    let capped = rule.max_nights.map_or(nights, |cap| nights.min(cap));
    CityTaxSplit {
        person_nights: persons.max(0) * nights,
        exempt_age: exempt * nights,
        exempt_cap: chargeable * (nights - capped),
        taxed: chargeable * capped,
    }
}

/// Person-nights of city tax due for a stay (the taxed part of [`city_tax_split`]).
pub fn city_tax_person_nights(
    rule: &CityTaxRule,
    nights: i64,
    persons: i64,
    births: &[Option<NaiveDate>],
    arrival: NaiveDate,
) -> i64 {
    city_tax_split(rule, nights, persons, births, arrival).taxed
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_charge_offers_the_usual_rate_first_then_the_countrys() {
        assert_eq!(charge_rates(Some("HR"), 1300), [1300, 2500, 500, 0]);
        assert_eq!(charge_rates(Some("IT"), 1000), [1000, 2200, 500, 400, 0]);
        assert_eq!(charge_rates(None, 0), [0]);
        assert_eq!(charge_rates(Some("DE"), 700), [700, 0]);
    }

    #[test]
    fn worked_examples() {
        // 120.00 at 13 %: net 106.19, tax 13.81.
        assert_eq!(
            line(1, 12000, 1300).unwrap(),
            Amounts {
                net: 10619,
                tax: 1381,
                gross: 12000
            }
        );
        // Half away from zero: 1 cent at 100 % is 0.5 net, which rounds to 1 (and -1 to -1).
        assert_eq!(
            line(1, 1, 10_000).unwrap(),
            Amounts {
                net: 1,
                tax: 0,
                gross: 1
            }
        );
        assert_eq!(
            line(1, -1, 10_000).unwrap(),
            Amounts {
                net: -1,
                tax: 0,
                gross: -1
            }
        );
        assert_eq!(
            line(3, 1000, 0).unwrap(),
            Amounts {
                net: 3000,
                tax: 0,
                gross: 3000
            }
        );
        assert_eq!(line(i64::MAX, 2, 0), Err(Overflow));
    }

    proptest! {
        #[test]
        fn the_city_tax_split_adds_up(nights in 0i64..40, persons in 0i64..8, kids in 0usize..8, cap in proptest::option::of(1i64..10)) {
            let rule = CityTaxRule { amount_per_person_night: 100, max_nights: cap, exempt_under_age: Some(14) };
            let arrival = NaiveDate::from_ymd_opt(2026, 7, 1).unwrap();
            let births: Vec<Option<NaiveDate>> = (0..kids).map(|_| NaiveDate::from_ymd_opt(2020, 1, 1)).collect();
            let s = city_tax_split(&rule, nights, persons, &births, arrival);
            prop_assert_eq!(s.exempt_age + s.exempt_cap + s.taxed, s.person_nights);
            prop_assert!(s.exempt_age >= 0 && s.exempt_cap >= 0 && s.taxed >= 0);
        }
    }

    #[test]
    fn city_tax_caps_nights_and_exempts_children() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let rule = CityTaxRule {
            amount_per_person_night: 300,
            max_nights: Some(5),
            exempt_under_age: Some(14),
        };
        let births = [Some(d(1980, 1, 1)), Some(d(2015, 6, 1)), None];
        // 3 persons, one of them 11: 2 chargeable x min(7, 5) nights.
        assert_eq!(
            city_tax_person_nights(&rule, 7, 3, &births, d(2026, 7, 1)),
            10
        );
        // The day before the 14th birthday still exempt; on it, not.
        assert_eq!(
            city_tax_person_nights(&rule, 1, 1, &[Some(d(2012, 7, 2))], d(2026, 7, 1)),
            0
        );
        assert_eq!(
            city_tax_person_nights(&rule, 1, 1, &[Some(d(2012, 7, 1))], d(2026, 7, 1)),
            1
        );
        let open = CityTaxRule {
            amount_per_person_night: 100,
            max_nights: None,
            exempt_under_age: None,
        };
        assert_eq!(
            city_tax_person_nights(&open, 10, 2, &births, d(2026, 7, 1)),
            20
        );
    }

    #[test]
    fn typed_amounts() {
        assert_eq!(parse_amount("12"), Some(1200));
        assert_eq!(parse_amount(" 12.5 "), Some(1250));
        assert_eq!(parse_amount("-3,05"), Some(-305));
        for bad in ["", "1.234", ".5", "abc", "1,2,3", "--1", "1e3"] {
            assert_eq!(parse_amount(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn typed_amounts_read_back_as_written(minor in -10_000_000_000i64..10_000_000_000) {
            prop_assert_eq!(parse_amount(&format_amount(minor)), Some(minor));
        }

        #[test]
        fn lines_add_up_and_round_within_half_a_cent(
            lines in proptest::collection::vec((1i64..50, -500_000i64..2_000_000, 0i64..3_000), 1..40),
        ) {
            let mut all = Vec::new();
            for (q, p, r) in &lines {
                let a = line(*q, *p, *r).unwrap();
                prop_assert_eq!(a.net + a.tax, a.gross);
                prop_assert_eq!(a.gross, q * p);
                // net is the exact quotient rounded: |net*(1+r) - gross| <= half a step.
                let err = (i128::from(a.net) * i128::from(BASIS + r) - i128::from(a.gross) * i128::from(BASIS)).abs();
                prop_assert!(2 * err <= i128::from(BASIS + r));
                all.push((*r, a));
            }
            let t = total(all.iter().map(|(_, a)| a)).unwrap();
            prop_assert_eq!(t.net + t.tax, t.gross);
            prop_assert_eq!(t.gross, all.iter().map(|(_, a)| a.gross).sum::<i64>());
            let b = breakdown(&all);
            prop_assert_eq!(b.iter().map(|(_, a)| a.net).sum::<i64>(), t.net);
            prop_assert_eq!(b.iter().map(|(_, a)| a.tax).sum::<i64>(), t.tax);
            prop_assert!(b.windows(2).all(|w| w[0].0 < w[1].0));
        }

        #[test]
        fn one_payment_takes_the_balance_and_the_rest_stay_as_given(
            owed in 1i64..10_000_000,
            given in proptest::collection::vec(proptest::option::weighted(0.8, 1i64..5_000_000), 1..5),
        ) {
            let blanks: Vec<usize> = (0..given.len()).filter(|i| given[*i].is_none()).collect();
            let named: i64 = given.iter().flatten().sum();
            match split_payments(owed, &given) {
                Ok(amounts) => {
                    prop_assert!(blanks.len() <= 1);
                    for (a, g) in amounts.iter().zip(&given) {
                        prop_assert!(g.is_none_or(|g| g == *a));
                    }
                    if !blanks.is_empty() {
                        prop_assert_eq!(amounts.iter().sum::<i64>(), owed);
                        prop_assert!(amounts.iter().all(|a| *a > 0));
                    }
                }
                Err(SplitError::SecondBalance(i)) => prop_assert_eq!(Some(&i), blanks.get(1)),
                Err(SplitError::NothingLeft(i)) => {
                    prop_assert_eq!(blanks.len(), 1);
                    prop_assert_eq!(i, blanks[0]);
                    prop_assert!(named >= owed);
                }
            }
        }

        #[test]
        fn a_refund_never_returns_more_than_was_paid(total in 1i64..1_000_000, paid in 0i64..1_000_000, back in 0i64..1_000_000) {
            let refunded = -back.min(total).min(paid);
            let room = refundable(-total, refunded, paid);
            prop_assert!(room >= 0);
            prop_assert!(room <= total + refunded, "within the credit note");
            prop_assert!(room <= paid + refunded, "within what was paid and not given back");
            prop_assert!(room == (total + refunded).min(paid + refunded), "and all of that");
        }

        #[test]
        fn a_credit_note_is_the_exact_negative(q in 1i64..100, p in -1_000_000i64..1_000_000, r in 0i64..3000) {
            let a = line(q, p, r).unwrap();
            let c = line(q, -p, r).unwrap();
            prop_assert_eq!(c, Amounts { net: -a.net, tax: -a.tax, gross: -a.gross });
        }
    }
}
