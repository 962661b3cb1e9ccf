//! The channel manager as the API shows it: where a reservation came from, and how the
//! connection is doing (`GET /v1/channel/health`).

use poem_openapi::Object;
use serde::{Deserialize, Serialize};

use crate::domain::enums::ChannelPayment;

/// Where a channel booking came from: the booking site, its code, and the revision of it
/// innkeep last applied.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct ReservationChannel {
    /// The channel manager it came through: `channex`.
    pub name: String,
    /// The booking site, such as `Booking.com`.
    pub ota: String,
    /// The booking site's own reservation code, as the guest has it.
    pub ota_code: String,
    /// The channel manager's booking id, the same across the booking's revisions.
    pub booking_id: String,
    /// The last revision of the booking innkeep applied.
    pub revision_id: String,
    /// Who takes the guest's money: `ota` (the booking site collected it) or `hotel`.
    pub payment: ChannelPayment,
    /// Taken although no room of its type was free on some night (the guest holds it from
    /// the booking site, so it is never refused): move or cancel a booking to make room.
    pub overbooked: bool,
}

/// How the connection to the channel manager is doing.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct ChannelHealth {
    /// The channel manager configured (`channex`), or null when `[channel]` is not set.
    pub provider: Option<String>,
    /// Whether availability, prices and restrictions are sent on every change.
    pub connected: bool,
    /// When the channel manager last took a push of availability, prices and restrictions.
    pub last_push_at: Option<String>,
    /// When innkeep last read the booking feed to the end (after a read that took bookings,
    /// when it took the last of them).
    pub last_pull_at: Option<String>,
    /// Changes recorded but not yet sent (events after the last push).
    pub queue_depth: i64,
    /// Whether a full resend of the whole horizon is waiting.
    pub full_sync_pending: bool,
    /// Pushes taken since the database was made.
    pub pushes: i64,
    /// Booking revisions applied since the database was made.
    pub bookings_pulled: i64,
    /// The last problem sending, in plain words; null when the last push was taken.
    pub push_error: Option<String>,
    /// The last problem taking bookings, in plain words; null when the last pull worked.
    pub pull_error: Option<String>,
    /// When the channel manager's values were last read back and compared with innkeep's.
    pub checked_at: Option<String>,
    /// Nights where the channel manager held other values than innkeep at that check.
    pub differences: Option<i64>,
    /// The first of those differences, in words.
    pub first_differences: Option<String>,
    /// Reservations taken from a booking site with no room free, still short of a room on
    /// some night (one that fits now, after a booking was moved or cancelled, drops out).
    pub overbooked: Vec<OverbookedReservation>,
}

/// A channel booking taken without a room free.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct OverbookedReservation {
    /// The reservation (`res_…`).
    pub id: String,
    /// Its confirmation code.
    pub code: String,
    /// The booking site and its code, such as `Booking.com 4012345678`.
    pub source: String,
    /// First night.
    pub arrival: crate::model::Date,
    /// Departure morning.
    pub departure: crate::model::Date,
}
