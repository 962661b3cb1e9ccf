//! The day close's refusals: a day not over, days out of order, and a change that would
//! reach into a closed day.

use chrono::NaiveDate;

use super::{Said, Value};
use crate::error::{AppError, Kind};

/// Every refusal of the day close said through the catalogues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DayRefusal {
    /// The day has not ended yet.
    NotOver {
        /// The day.
        day: NaiveDate,
    },
    /// Days close in order: this one comes first.
    NotNext {
        /// The day to close next.
        next: NaiveDate,
    },
    /// A change to nights of a day already closed.
    Closed {
        /// The last day closed.
        last: NaiveDate,
    },
}

impl DayRefusal {
    /// The HTTP class, the stable code and what the catalogues say.
    pub fn parts(&self) -> (Kind, &'static str, Said) {
        let said = |key, day: &NaiveDate| Said {
            key,
            values: vec![("date", Value::Day(*day))],
        };
        match self {
            Self::NotOver { day } => (
                Kind::Conflict,
                "day_not_over",
                said("problem-day-not-over", day),
            ),
            Self::NotNext { next } => (
                Kind::Conflict,
                "day_not_next",
                said("problem-day-not-next", next),
            ),
            Self::Closed { last } => (
                Kind::Conflict,
                "day_closed",
                said("problem-day-closed", last),
            ),
        }
    }

    /// One of each, for the catalogue test.
    pub fn examples() -> Vec<DayRefusal> {
        let day = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap_or_default();
        vec![
            Self::NotOver { day },
            Self::NotNext { next: day },
            Self::Closed { last: day },
        ]
    }
}

impl From<DayRefusal> for AppError {
    fn from(r: DayRefusal) -> AppError {
        let params = match &r {
            DayRefusal::NotOver { day } => serde_json::json!({ "date": day.to_string() }),
            DayRefusal::NotNext { next } => serde_json::json!({ "date": next.to_string() }),
            DayRefusal::Closed { last } => serde_json::json!({ "date": last.to_string() }),
        };
        super::error(r.parts()).with_extension("params", params)
    }
}
