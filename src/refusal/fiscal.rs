//! The refusals of the fiscal rules: invoicing without the seller's particulars, and a
//! change to an issued invoice's payment method.

use chrono::NaiveDate;

use super::{Said, Value};
use crate::domain::enums::InvoiceStatus;
use crate::error::{AppError, Kind};

/// Every refusal of a change of payment method said through the catalogues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FiscalRefusal {
    /// The fiscal system takes a change of payment method only on the day of issue (CIS:
    /// until midnight); later, a credit note and a new invoice say it.
    ChangeTooLate {
        /// The invoice's number.
        number: String,
        /// The day its receipt was issued.
        issued: NaiveDate,
    },
    /// A change on a receipt sealed by a fiscal scheme no longer configured.
    SchemeGone {
        /// The scheme that sealed it.
        scheme: String,
    },
    /// An invoice in a country whose law wants the seller's particulars, before they are set.
    /// A check-in undone where the registration scheme cannot withdraw it.
    CannotWithdraw {
        /// The scheme.
        scheme: String,
    },
    /// A check-in before the registration scheme's code tables were ever loaded.
    TablesMissing {
        /// The scheme.
        scheme: String,
    },
    SellerMissing {
        /// The property's country.
        country: String,
    },
    /// A change on an invoice a credit note reversed.
    InvoiceReversed {
        /// The invoice's number.
        number: String,
        /// Its status.
        status: InvoiceStatus,
    },
    /// A corrected invoice for an invoice no credit note reversed.
    NotReversed {
        /// The invoice's number.
        number: String,
    },
    /// A second corrected invoice for one reversed invoice.
    AlreadyReissued {
        /// The reversed invoice's number.
        number: String,
    },
}

impl FiscalRefusal {
    /// The HTTP class, the stable code and what the catalogues say.
    pub fn parts(&self) -> (Kind, &'static str, Said) {
        match self {
            Self::ChangeTooLate { number, issued } => (
                Kind::Conflict,
                "payment_method_change_too_late",
                Said {
                    key: "problem-payment-change-too-late",
                    values: vec![
                        ("number", Value::Text(number.clone())),
                        ("issued", Value::Day(*issued)),
                    ],
                },
            ),
            Self::SchemeGone { scheme } => (
                Kind::Conflict,
                "fiscal_scheme_not_configured",
                Said {
                    key: "problem-payment-change-scheme-gone",
                    values: vec![("scheme", Value::Text(scheme.clone()))],
                },
            ),
            Self::CannotWithdraw { scheme } => (
                Kind::Conflict,
                "undo_not_possible",
                Said {
                    key: "problem-undo-not-possible",
                    values: vec![("scheme", Value::Text(scheme.clone()))],
                },
            ),
            Self::TablesMissing { scheme } => (
                Kind::Conflict,
                "registration_tables_missing",
                Said {
                    key: "problem-registration-tables-missing",
                    values: vec![("scheme", Value::Text(scheme.clone()))],
                },
            ),
            Self::SellerMissing { country } => (
                Kind::Conflict,
                "seller_particulars_missing",
                Said {
                    key: "problem-seller-missing",
                    values: vec![("country", Value::Text(country.clone()))],
                },
            ),
            Self::InvoiceReversed { number, status } => (
                Kind::Conflict,
                "invalid_state_transition",
                Said {
                    key: "problem-payment-change-reversed",
                    values: vec![
                        ("number", Value::Text(number.clone())),
                        ("status", Value::InvoiceState(*status)),
                    ],
                },
            ),
            Self::NotReversed { number } => (
                Kind::Conflict,
                "invalid_state_transition",
                Said {
                    key: "problem-reissue-not-reversed",
                    values: vec![("number", Value::Text(number.clone()))],
                },
            ),
            Self::AlreadyReissued { number } => (
                Kind::Conflict,
                "invalid_state_transition",
                Said {
                    key: "problem-already-reissued",
                    values: vec![("number", Value::Text(number.clone()))],
                },
            ),
        }
    }

    /// One of each, for the catalogue test.
    pub fn examples() -> Vec<FiscalRefusal> {
        let day = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap_or_default();
        vec![
            Self::ChangeTooLate {
                number: "2026-17".into(),
                issued: day,
            },
            Self::SchemeGone {
                scheme: "hr-cis".into(),
            },
            Self::SellerMissing {
                country: "HR".into(),
            },
            Self::TablesMissing {
                scheme: "hr-evisitor".into(),
            },
            Self::CannotWithdraw {
                scheme: "it-alloggiati".into(),
            },
            Self::InvoiceReversed {
                number: "2026-17".into(),
                status: InvoiceStatus::Cancelled,
            },
            Self::NotReversed {
                number: "2026-17".into(),
            },
            Self::AlreadyReissued {
                number: "2026-17".into(),
            },
        ]
    }
}

impl From<FiscalRefusal> for AppError {
    fn from(r: FiscalRefusal) -> AppError {
        super::error(r.parts())
    }
}
