//! How long the law makes a hotel keep a document about a guest, and why: what a request to
//! erase a guest (GDPR art. 17) cannot remove before then (art. 17(3)(b)).

use chrono::{Datelike, NaiveDate};

/// A legal duty to keep a kind of document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duty {
    /// How many years.
    pub years: i32,
    /// Whether they count from the end of the document's year rather than its date.
    pub from_year_end: bool,
    /// The law, in words.
    pub law: &'static str,
    /// The same, as the catalogue key the pages say it with.
    pub key: &'static str,
}

impl Duty {
    /// The day a document of `date` may go.
    pub fn until(&self, date: NaiveDate) -> NaiveDate {
        let start = if self.from_year_end {
            NaiveDate::from_ymd_opt(date.year(), 12, 31).unwrap_or(date)
        } else {
            date
        };
        start
            .with_year(start.year() + self.years)
            // 29 February, years later, may not exist: the day after it then.
            .or_else(|| NaiveDate::from_ymd_opt(start.year() + self.years, 3, 1))
            .unwrap_or(NaiveDate::MAX)
    }
}

/// Invoices and credit notes, by the property's country.
pub fn invoices(country: Option<&str>) -> Duty {
    match country {
        Some("IT") => Duty {
            years: 10,
            from_year_end: false,
            law: "Italian Civil Code, art. 2220: accounting records and invoices are kept for \
                  ten years",
            key: "law-invoices-it",
        },
        Some("HR") => Duty {
            years: 11,
            from_year_end: true,
            law: "Croatian Accounting Act (Zakon o računovodstvu), art. 10: accounting \
                  documents are kept for eleven years after the business year",
            key: "law-invoices-hr",
        },
        _ => Duty {
            years: 10,
            from_year_end: true,
            law: "tax and accounting law: invoices are kept for ten years (the usual period in \
                  the EU; check your country's)",
            key: "law-invoices-other",
        },
    }
}

/// Guest registrations sent to the police, by scheme.
pub fn registrations(scheme: &str) -> Duty {
    match scheme {
        "it-alloggiati" => Duty {
            years: 5,
            from_year_end: false,
            law: "Italian police registration (Alloggiati Web, TULPS art. 109): the receipts \
                  of the registrations are kept for five years",
            key: "law-registrations-it",
        },
        _ => Duty {
            years: 5,
            from_year_end: false,
            law: "guest registration law: registrations are kept for five years",
            key: "law-registrations-other",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn each_country_counts_its_own_way() {
        assert_eq!(invoices(Some("IT")).until(d("2026-03-15")), d("2036-03-15"));
        assert_eq!(invoices(Some("HR")).until(d("2026-03-15")), d("2037-12-31"));
        assert_eq!(invoices(None).until(d("2026-03-15")), d("2036-12-31"));
        assert_eq!(
            registrations("it-alloggiati").until(d("2024-02-29")),
            d("2029-03-01")
        );
    }

    proptest::proptest! {
        #[test]
        fn a_document_is_kept_at_least_its_years(days in 0i64..40_000, years in 1i32..20) {
            let date = d("1990-01-01") + chrono::Duration::days(days);
            for from_year_end in [false, true] {
                let duty = Duty { years, from_year_end, law: "", key: "" };
                let until = duty.until(date);
                proptest::prop_assert!(until > date);
                proptest::prop_assert!(until.year() - date.year() >= years);
            }
        }
    }
}
