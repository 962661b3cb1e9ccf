//! The owner's reports as the API serves them.

use poem_openapi::{Enum, Object};

use crate::model::Date;

/// How a report's rows are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum ReportBy {
    /// One row per night.
    Night,
    /// One row per calendar month.
    Month,
}

/// The occupancy figures of a night, a month or the whole range.
#[derive(Debug, Clone, Object)]
pub struct OccupancyRow {
    /// The night (`2026-11-27`, the night from that day to the next), the month
    /// (`2026-11`), or `total`.
    pub period: String,
    /// Room-nights on sale: the property's rooms times the nights.
    pub rooms_available: i64,
    /// Room-nights held by `confirmed`, `checked_in` and `checked_out` reservations.
    pub rooms_sold: i64,
    /// Their booked price, gross, in minor units (extras and city tax are not room
    /// revenue).
    pub room_revenue: i64,
    /// Average daily rate: `room_revenue / rooms_sold`, rounded half away from zero;
    /// null when nothing was sold.
    pub adr: Option<i64>,
    /// Revenue per available room: `room_revenue / rooms_available`, rounded; null
    /// without rooms.
    pub revpar: Option<i64>,
    /// `100 * rooms_sold / rooms_available`, one decimal; null without rooms.
    pub occupancy_percent: Option<f64>,
}

/// Occupancy, ADR, RevPAR and room revenue over a range, with the definitions of the group
/// hub's `daily_occupancy` view.
#[derive(Debug, Clone, Object)]
pub struct OccupancyReport {
    /// The first night.
    pub from: Date,
    /// The night after the last (exclusive).
    pub to: Date,
    /// How the rows are cut.
    pub by: ReportBy,
    /// ISO 4217 currency of every amount (the property's).
    pub currency: String,
    /// The rows, in order.
    pub rows: Vec<OccupancyRow>,
    /// The whole range.
    pub total: OccupancyRow,
}
