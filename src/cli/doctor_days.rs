//! `innkeep doctor`'s checks of the day close (every day certificate verifies, no more than
//! yesterday waits to be closed) and of the compliance calendar (nothing late or refused).

use super::doctor::{Check, attention, ok};

/// Nothing on the compliance calendar refused or late this past week; the filings of the
/// next two weeks named.
pub fn calendar(duties: &[crate::model::ComplianceDuty]) -> Check {
    use crate::domain::calendar::DutyState::*;
    let late: Vec<String> = duties
        .iter()
        .filter(|d| matches!(d.state, Overdue | Refused))
        .map(|d| format!("{} for {} ({})", d.duty, d.period, d.state))
        .collect();
    if !late.is_empty() {
        return attention(
            "calendar",
            format!(
                "Late or refused: {}. The compliance centre says what to do for each.",
                late.join(", ")
            ),
        );
    }
    let next: Vec<String> = duties
        .iter()
        .filter(|d| d.state == Upcoming)
        .map(|d| format!("{} for {} by {}", d.duty, d.period, d.due.0))
        .collect();
    if next.is_empty() {
        ok("calendar", "Nothing on the compliance calendar is late.")
    } else {
        ok(
            "calendar",
            format!("Nothing is late. Coming: {}.", next.join(", ")),
        )
    }
}

/// The day certificates verify, and no more than yesterday waits to be closed.
pub fn days(d: Option<&crate::service::doctor::DaysClosed>) -> Check {
    let Some(d) = d else {
        return ok(
            "days",
            "No day has been closed yet (Reports › Close the day).",
        );
    };
    if let Some(day) = d.broken {
        return attention(
            "days",
            format!(
                "The day certificate of {day} does not verify: the database was changed after \
                 that day was closed. Keep the printed certificates, and restore the last backup \
                 taken before the change or ask whoever looks after innkeep."
            ),
        );
    }
    let waiting = (d.today - d.last).num_days() - 1;
    if waiting > 1 {
        return attention(
            "days",
            format!(
                "The last day closed is {}; {waiting} days wait to be closed (Reports › Close \
                 the day, one after the other).",
                d.last
            ),
        );
    }
    ok(
        "days",
        format!(
            "Days are closed up to {}; every certificate verifies.",
            d.last
        ),
    )
}
