//! The day close as the API serves it: what closing a day would do, and the certificate a
//! close writes.

use poem_openapi::Object;

pub use crate::domain::day_close::CheckName;
use crate::domain::enums::{SubmissionKind, SubmissionStatus};
use crate::input_object;
use crate::model::fields::{Int, ReservationId, Text};
use crate::model::{Date, Instant, PaymentTotal};

/// A reservation the day close names.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayReservation {
    /// The reservation.
    pub reservation_id: String,
    /// Its confirmation code.
    pub code: String,
    /// The primary guest, "First Last".
    pub guest: String,
    /// The room number, when one is given.
    pub room: Option<String>,
    /// Arrival.
    pub arrival: Date,
    /// Departure.
    pub departure: Date,
    /// The no-show fee charged to its folio, in minor units (no-shows only; 0 when its
    /// plan charges none).
    pub fee: Option<i64>,
}

/// Something an authority has not accepted yet.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayPending {
    /// The submission (`GET /v1/compliance/submissions/{id}`).
    pub submission_id: String,
    /// What it is.
    pub kind: SubmissionKind,
    /// Where it stands.
    pub status: SubmissionStatus,
    /// Its deadline.
    pub due_at: Instant,
    /// Whether the deadline has passed.
    pub overdue: bool,
}

/// A check the close made.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayCheck {
    /// Which.
    pub check: CheckName,
    /// Whether it held.
    pub passed: bool,
    /// What was found, in English: the counts when it held, what is wrong when not.
    pub detail: String,
}

/// The cash drawer: what the payments say, what was counted.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct CashCount {
    /// Cash payments less cash refunds recorded on the day, in minor units.
    pub recorded: i64,
    /// Cash counted in the drawer, as entered (null when not counted).
    pub counted: Option<i64>,
    /// `counted - recorded` (null when not counted).
    pub difference: Option<i64>,
}

/// The day's figures.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayFigures {
    /// Rooms on sale that night.
    pub rooms_available: i64,
    /// Rooms sold that night (as `GET /v1/reports/occupancy` counts them).
    pub rooms_sold: i64,
    /// Their booked price, gross, in minor units.
    pub room_revenue: i64,
    /// Average daily rate (null when nothing was sold).
    pub adr: Option<i64>,
    /// Revenue per available room (null without rooms).
    pub revpar: Option<i64>,
    /// Occupancy in tenths of a percent (`815` is 81.5 %; null without rooms).
    pub occupancy_tenths: Option<i64>,
    /// Reservations that arrived (checked in).
    pub arrivals: i64,
    /// Reservations that left (checked out with that departure day).
    pub departures: i64,
    /// Reservations marked no-show for the day.
    pub no_shows: i64,
    /// Reservations in the house that night.
    pub in_house: i64,
    /// Invoices issued that day.
    pub invoices_issued: i64,
    /// Their gross total.
    pub invoiced: i64,
    /// Credit notes issued that day.
    pub credit_notes_issued: i64,
    /// Their gross total, as a positive amount.
    pub credited: i64,
    /// Payments and refunds recorded that day, by method.
    pub payments: Vec<PaymentTotal>,
}

/// What closing the business day would do now (`GET /v1/day-close`): the wizard's lists.
#[derive(Debug, Clone, Object)]
pub struct DayClosePlan {
    /// The day a close would close: the day after the last one closed.
    pub date: Date,
    /// The last day closed (null before the first close).
    pub last_closed: Option<Date>,
    /// Whether it may be closed now (false while the day is not over).
    pub ready: bool,
    /// The property's currency.
    pub currency: String,
    /// Arrivals of the day still `confirmed`: name those that did not come in `no_shows`.
    pub arrivals_waiting: Vec<DayReservation>,
    /// Guests due to leave by that day and still in the house.
    pub departures_open: Vec<DayReservation>,
    /// Rooms in the house that will be set `dirty` (their numbers).
    pub rooms_to_clean: Vec<String>,
    /// Cash payments less refunds recorded that day.
    pub cash_recorded: i64,
    /// Registrations and fiscal documents not accepted yet.
    pub pending: Vec<DayPending>,
}

/// A closed day's certificate: the figures, the lists and the checks, hash-chained to the
/// day before.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayCertificate {
    /// The day closed.
    pub date: Date,
    /// The property's currency.
    pub currency: String,
    /// When it was closed.
    pub closed_at: Instant,
    /// Who closed it (a staff member's name or a client's).
    pub closed_by: String,
    /// The day's figures.
    pub figures: DayFigures,
    /// The cash drawer.
    pub cash: CashCount,
    /// Arrivals marked no-show by this close, with their fees.
    pub no_shows: Vec<DayReservation>,
    /// Arrivals kept `confirmed` (expected after midnight).
    pub arrivals_kept: Vec<DayReservation>,
    /// Guests due to leave and still in the house when the day closed.
    pub departures_open: Vec<DayReservation>,
    /// Rooms set `dirty` (their numbers).
    pub rooms_dirty: Vec<String>,
    /// Registrations and fiscal documents not accepted when the day closed.
    pub pending: Vec<DayPending>,
    /// Italy: what the cash register said to its daily closure (null where there is none).
    pub cash_register: Option<String>,
    /// The checks, each passed or not.
    pub checks: Vec<DayCheck>,
    /// A note from whoever closed the day.
    pub note: Option<String>,
    /// The previous day's certificate hash (null for the first).
    pub previous_hash: Option<String>,
}

/// A closed day (`GET /v1/day-closes`).
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayClose {
    /// `day_…`.
    pub id: String,
    /// The certificate.
    #[oai(flatten)]
    #[serde(flatten)]
    pub certificate: DayCertificate,
    /// SHA-256 (hex) of the certificate as stored, its previous hash included.
    pub hash: String,
    /// Whether the chain up to this day verifies (each body unchanged, each naming the
    /// hash before it).
    pub verified: bool,
    /// When the day was closed (a closed day never changes).
    pub created_at: Instant,
    /// The same as `created_at`.
    pub updated_at: Instant,
    /// Always 1.
    pub version: i64,
}

/// A page of closed days.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct DayClosePage {
    /// The closed days, oldest first.
    pub data: Vec<DayClose>,
    /// The cursor of the next page, or null.
    pub next_cursor: Option<String>,
}

input_object! {
    /// `POST /v1/day-close`.
    pub struct DayCloseInput {
        /// The day to close (default: the day after the last one closed). It must be over,
        /// and days close in order.
        pub date: Option<Date>,
        /// Arrivals of the day that did not come: each becomes `no_show` and its plan's fee
        /// is charged. Each must be a `confirmed` arrival of the day; others stay
        /// `confirmed`.
        pub no_shows: Option<Vec<ReservationId>>,
        /// Cash counted in the drawer, in minor units.
        pub cash_counted: Option<Int<0, 1_000_000_000_000>>,
        /// A note for the certificate.
        pub note: Option<Text<500>>,
    }
}
