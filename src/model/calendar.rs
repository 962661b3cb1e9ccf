//! The compliance calendar as the API serves it.

use poem_openapi::Object;

pub use crate::domain::calendar::{Duty, DutyState};
use crate::model::Date;

/// A statutory duty on the calendar: the things of one kind due on one day (registrations,
/// receipts, …), or one filing (a month's ISTAT movement, a year's city-tax return).
#[derive(Debug, Clone, Object)]
pub struct ComplianceDuty {
    /// Which duty.
    pub duty: Duty,
    /// The day (`2026-11-27`), month (`2026-11`) or year (`2026`) it covers.
    pub period: String,
    /// Its deadline, a property-local day.
    pub due: Date,
    /// `done` (proven: every item accepted by the authority, or the register's closure
    /// recorded), `pending` (on its way, in time), `overdue`, `refused` (an authority
    /// refused an item: correct it and send again), `upcoming` (not due yet), `manual`
    /// (filed by the hotel outside innkeep, which cannot prove it).
    pub state: DutyState,
    /// Items it covers.
    pub count: i64,
    /// Of those, done.
    pub done: i64,
    /// What the duty is and what to do, in English.
    pub about: String,
}

/// `GET /v1/compliance/calendar`.
#[derive(Debug, Clone, Object)]
pub struct ComplianceCalendar {
    /// The first day.
    pub from: Date,
    /// The day after the last.
    pub to: Date,
    /// Every duty due in the range, by deadline.
    pub duties: Vec<ComplianceDuty>,
}
