//! The refusals of prices: rate plans and the restrictions of the price calendar. A
//! restriction refuses a booking with the same code `GET /offers` gives it (`min_stay`,
//! `closed_to_arrival`, ...).

use chrono::NaiveDate;

use super::{Said, Value};
use crate::domain::pricing::Reason;
use crate::error::{AppError, Kind};

/// Every refusal of prices said through the catalogues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RatesRefusal {
    /// A second plan of a room type with a code already used.
    PlanExists {
        /// The code.
        code: String,
    },
    /// A second extra with a code already used.
    ExtraExists {
        /// The code.
        code: String,
    },
    /// A plan others are derived from cannot become derived itself.
    HasChildren {
        /// The derived plans' codes.
        codes: String,
    },
    /// A restriction of the calendar stands against the stay.
    Restricted(Reason),
    /// The plan is not offered for sale.
    NotSold {
        /// The plan's code.
        code: String,
    },
    /// A deposit for a reservation that is not confirmed (one takes deposits before arrival).
    NoDeposit {
        /// The status.
        status: crate::domain::reservation::Status,
    },
}

impl RatesRefusal {
    /// The HTTP class, the stable code and what the catalogues say.
    pub fn parts(&self) -> (Kind, &'static str, Said) {
        let said = |key, values: Vec<(&'static str, Value)>| Said { key, values };
        let conflict = |code, said| (Kind::Conflict, code, said);
        match self {
            Self::PlanExists { code } => conflict(
                "already_exists",
                said(
                    "problem-rate-plan-exists",
                    vec![("code", Value::Text(code.clone()))],
                ),
            ),
            Self::ExtraExists { code } => conflict(
                "already_exists",
                said(
                    "problem-extra-exists",
                    vec![("code", Value::Text(code.clone()))],
                ),
            ),
            Self::HasChildren { codes } => conflict(
                "rate_plan_has_children",
                said(
                    "problem-rate-plan-has-children",
                    vec![("codes", Value::Text(codes.clone()))],
                ),
            ),
            Self::NotSold { code } => conflict(
                "not_sold",
                said(
                    "problem-rate-plan-not-sold",
                    vec![("code", Value::Text(code.clone()))],
                ),
            ),
            Self::NoDeposit { status } => conflict(
                "invalid_state_transition",
                said(
                    "problem-no-deposit",
                    vec![("status", Value::State(*status))],
                ),
            ),
            Self::Restricted(reason) => {
                let (key, values) = match reason {
                    Reason::StopSell(nights) => (
                        "problem-stop-sell",
                        vec![("nights", Value::Days(nights.clone()))],
                    ),
                    Reason::ClosedToArrival(d) => {
                        ("problem-closed-to-arrival", vec![("day", Value::Day(*d))])
                    }
                    Reason::ClosedToDeparture(d) => {
                        ("problem-closed-to-departure", vec![("day", Value::Day(*d))])
                    }
                    Reason::MinStay(n) => ("problem-min-stay", vec![("nights", Value::Num(*n))]),
                    Reason::MaxStay(n) => ("problem-max-stay", vec![("nights", Value::Num(*n))]),
                    Reason::MinAdvance(n) => {
                        ("problem-min-advance", vec![("days", Value::Num(*n))])
                    }
                    Reason::MaxAdvance(n) => {
                        ("problem-max-advance", vec![("days", Value::Num(*n))])
                    }
                };
                conflict(reason.code(), said(key, values))
            }
        }
    }

    /// The refusal's parameters as an API client reads them (`params`).
    pub fn params(&self) -> serde_json::Value {
        let (_, _, said) = self.parts();
        let mut out = serde_json::Map::new();
        for (name, v) in said.values {
            let value = match v {
                Value::Num(n) => serde_json::json!(n),
                Value::Day(d) => serde_json::json!(d.to_string()),
                Value::Days(ds) => {
                    serde_json::json!(ds.iter().map(NaiveDate::to_string).collect::<Vec<_>>())
                }
                Value::Text(s) => serde_json::json!(s),
                Value::State(s) => serde_json::json!(s.as_str()),
                _ => serde_json::Value::Null,
            };
            out.insert(name.to_string(), value);
        }
        serde_json::Value::Object(out)
    }

    /// One of each, for the catalogue test.
    pub fn examples() -> Vec<RatesRefusal> {
        let d = NaiveDate::from_ymd_opt(2027, 8, 14).unwrap_or_default();
        let s = |v: &str| v.to_string();
        vec![
            Self::PlanExists { code: s("FLEX") },
            Self::ExtraExists { code: s("PARK") },
            Self::HasChildren { codes: s("NR, BB") },
            Self::NotSold { code: s("FLEX") },
            Self::NoDeposit {
                status: crate::domain::reservation::Status::CheckedIn,
            },
            Self::Restricted(Reason::StopSell(vec![d])),
            Self::Restricted(Reason::ClosedToArrival(d)),
            Self::Restricted(Reason::ClosedToDeparture(d)),
            Self::Restricted(Reason::MinStay(3)),
            Self::Restricted(Reason::MaxStay(14)),
            Self::Restricted(Reason::MinAdvance(2)),
            Self::Restricted(Reason::MaxAdvance(365)),
        ]
    }
}

impl From<RatesRefusal> for AppError {
    fn from(r: RatesRefusal) -> AppError {
        let params = r.params();
        super::error(r.parts()).with_extension("params", params)
    }
}
