//! Reservations and the event feed.

use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

use crate::domain::enums::Source;
use crate::domain::enums::SubmissionStatus;
use crate::domain::reservation::Status;
use crate::input_object;
use crate::model::Patch;
use crate::model::fields::{Currency, GuestId, Int, Line, RatePlanId, RoomId, RoomTypeId, Text};
use crate::model::{Date, Instant};

/// Guest registration with the national authority, when a scheme applies.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Registration {
    /// Submission status (`queued`, `accepted`, ...).
    pub status: SubmissionStatus,
    /// The compliance submission (`sub_…`).
    pub submission_id: String,
}

/// A booking of one room of a room type for a stay.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Reservation {
    /// `res_…`
    pub id: String,
    /// Short human confirmation code, such as `K7QF2M`.
    pub code: String,
    /// Where the reservation is in its life; see `GET /v1/meta/state-machines`.
    pub status: Status,
    /// The guest the reservation is for.
    pub primary_guest_id: String,
    /// Every guest staying, primary first.
    pub guest_ids: Vec<String>,
    /// The room type booked.
    pub room_type_id: String,
    /// The room assigned, if any.
    pub room_id: Option<String>,
    /// First night, property-local.
    pub arrival: Date,
    /// Departure morning (not a night of the stay).
    pub departure: Date,
    /// Number of nights (read-only).
    pub night_count: i64,
    /// The price of each night, gross, in minor units (read-only): fixed when it was booked
    /// on a rate plan; without a plan, every night at `nightly_rate`.
    pub nights: Vec<crate::model::NightPrice>,
    /// The rate plan it was booked on, if any.
    pub rate_plan_id: Option<String>,
    /// The extras from the catalogue on its folio (read-only; add one with `extras` on
    /// create or `POST /v1/reservations/{id}/extras`).
    pub extras: Vec<crate::model::BookedExtra>,
    /// Its deposit (read-only): what the plan asks and the advances paid (record one with
    /// `POST /v1/reservations/{id}/deposit`); null when none was asked or paid.
    pub deposit: Option<crate::model::Deposit>,
    /// The booking site it came from through the channel manager (read-only); null for a
    /// booking made in innkeep.
    pub channel: Option<crate::model::ReservationChannel>,
    /// Adults, at least 1.
    pub adults: i64,
    /// Children.
    pub children: i64,
    /// Each child's age in years, one per child, when known.
    pub children_ages: Option<Vec<i64>>,
    /// Extra beds to put in the room.
    pub extra_beds: i64,
    /// Cots to put in the room.
    pub cots: i64,
    /// Gross rate per night in minor units.
    pub nightly_rate: i64,
    /// Why the rate is what it is when someone set it by hand ("long-stay discount"); kept
    /// in the history with each change.
    pub rate_note: Option<String>,
    /// ISO 4217 currency of the rate.
    pub currency: String,
    /// Booking channel.
    pub source: Source,
    /// Notes for staff.
    pub notes: Option<String>,
    /// When the guests checked in.
    pub checked_in_at: Option<Instant>,
    /// When the guests checked out.
    pub checked_out_at: Option<Instant>,
    /// When it was cancelled.
    pub cancelled_at: Option<Instant>,
    /// The final invoice, after check-out.
    pub invoice_id: Option<String>,
    /// Guest registration, when a national scheme applies.
    pub registration: Option<Registration>,
    /// The guest's online pre-check-in through the pre-arrival message's link (read-only);
    /// null until they complete it.
    pub pre_check_in: Option<PreCheckIn>,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was created.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

/// An online pre-check-in: the party's registration data were given before arrival.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize, serde::Deserialize)]
pub struct PreCheckIn {
    /// When the guest completed it.
    pub completed_at: Instant,
    /// The arrival time they gave, `HH:MM` (property-local), when they gave one.
    pub arrival_time: Option<String>,
}

impl Reservation {
    /// The day it was booked (the UTC day of `created_at`), for the advance-booking rules
    /// and a deposit's due day.
    pub fn booked_on(&self) -> Option<chrono::NaiveDate> {
        self.created_at.0.get(..10).and_then(|d| d.parse().ok())
    }
}

input_object! {
    /// A new reservation. Availability is checked when it is created.
    pub struct ReservationCreate {
        /// The guest the reservation is for (`gst_…`).
        pub primary_guest_id: GuestId,
        /// Every guest staying; the primary guest is put first. Defaults to the primary alone.
        pub guest_ids: Option<Vec<GuestId>>,
        /// The room type to book (`rt_…`).
        pub room_type_id: RoomTypeId,
        /// A room of that type to assign now (`rm_…`).
        pub room_id: Option<RoomId>,
        /// First night.
        pub arrival: Date,
        /// Departure morning: after arrival, at most 365 nights later.
        pub departure: Date,
        /// Adults, at least 1.
        pub adults: Int<1, 20>,
        /// Children; adults + children may not exceed the room type's max_occupancy.
        pub children: Option<Int<0, 19>>,
        /// Each child's age in years (0 to 17), one per child, when known.
        pub children_ages: Option<Vec<Int<0, 17>>>,
        /// Extra beds to put in the room (0 to 4; they do not change max_occupancy).
        pub extra_beds: Option<Int<0, 4>>,
        /// Cots to put in the room (0 to 4).
        pub cots: Option<Int<0, 4>>,
        /// Book on this rate plan of the room type (`rp_…`): each night is priced from the
        /// plan's calendar for the party, and the booking is refused as `GET /offers` would
        /// refuse it, with the same codes (409 `min_stay`, `closed_to_arrival`, `stop_sell`,
        /// ..., or `not_sold`), unless `override_reason` is given.
        pub rate_plan_id: Option<RatePlanId>,
        /// Staff book past the plan's restrictions, saying why (one line, at most 200
        /// characters); kept in the history.
        pub override_reason: Option<Line<200>>,
        /// Extras from the catalogue to put on the folio with the booking, each as `POST
        /// /v1/reservations/{id}/extras` would (errors at `extras[i].…`).
        pub extras: Option<Vec<crate::model::ExtraOrder>>,
        /// Gross rate per night in minor units; defaults to the room type's base_rate, or on
        /// a plan to the plan's prices (given, it prices every night the same).
        pub nightly_rate: Option<Int<0, 100_000_000>>,
        /// Why the rate differs from the usual one, in a few words (one line, at most 200
        /// characters).
        pub rate_note: Option<Line<200>>,
        /// ISO 4217 currency; defaults to the room type's.
        pub currency: Option<Currency>,
        /// Booking channel; defaults to `direct`.
        pub source: Option<Source>,
        /// Notes for staff.
        pub notes: Option<Text<4000>>,
    }
    cross crate::model::input::stay_dates
}

input_object! {
    /// Changes to a reservation. Absent fields keep their value; `null` clears an optional
    /// one. `status` may move a confirmed reservation to `cancelled`, or to `no_show` on or
    /// after the arrival date. While checked in, only `departure`, `room_id`, the guests,
    /// `notes`, `extra_beds` and `cots` may change. Read-only fields may be sent back as
    /// read; they are ignored.
    pub struct ReservationUpdate {
        /// `cancelled` or `no_show` (other statuses change through check-in and check-out).
        pub status: Patch<Status>,
        /// The guest the reservation is for.
        pub primary_guest_id: Patch<GuestId>,
        /// Every guest staying.
        pub guest_ids: MaybeUndefined<Vec<GuestId>>,
        /// The room type.
        pub room_type_id: Patch<RoomTypeId>,
        /// The room assigned; null unassigns it.
        pub room_id: MaybeUndefined<RoomId>,
        /// First night.
        pub arrival: Patch<Date>,
        /// Departure morning.
        pub departure: Patch<Date>,
        /// Adults.
        pub adults: Patch<Int<1, 20>>,
        /// Children. When the reservation lists its children's ages, a new number of
        /// children comes with their ages.
        pub children: Patch<Int<0, 19>>,
        /// Each child's age in years (0 to 17), one per child; `null` clears them.
        pub children_ages: MaybeUndefined<Vec<Int<0, 17>>>,
        /// Extra beds to put in the room (0 to 4).
        pub extra_beds: Patch<Int<0, 4>>,
        /// Cots to put in the room (0 to 4).
        pub cots: Patch<Int<0, 4>>,
        /// Gross rate per night in minor units: every night at this price.
        pub nightly_rate: Patch<Int<0, 100_000_000>>,
        /// Change dates or the party past the plan's restrictions, saying why (kept in the
        /// history). A change of dates keeps the prices of the nights that stay and prices
        /// the new ones from the plan.
        pub override_reason: Option<Line<200>>,
        /// Why the rate is what it is (one line, at most 200 characters); `null` clears it.
        /// Each change is kept in the history.
        pub rate_note: MaybeUndefined<Line<200>>,
        /// ISO 4217 currency.
        pub currency: Patch<Currency>,
        /// Booking channel.
        pub source: Patch<Source>,
        /// Notes for staff.
        pub notes: MaybeUndefined<Text<4000>>,
    }
    ignore [
        "id", "code", "nights", "night_count", "checked_in_at", "checked_out_at", "cancelled_at",
        "invoice_id", "registration", "version", "created_at", "updated_at", "rate_plan_id",
        "deposit", "extras", "channel",
    ]
}

/// One entry of the durable event feed.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Event {
    /// Position in the feed; strictly increasing, never reused.
    pub sequence: i64,
    /// `evt_…`; also the `webhook-id` of its deliveries.
    pub id: String,
    /// Event type, such as `reservation.created`.
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: String,
    /// When the change happened.
    pub occurred_at: Instant,
    /// Full snapshot of the resource after the change, as `GET` returns it.
    pub data: serde_json::Value,
    /// Who caused it; `null` only for events recorded before innkeep kept actors.
    pub actor: Option<crate::model::Actor>,
}

/// A page of the event feed.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct EventPage {
    /// Events in sequence order.
    pub data: Vec<Event>,
    /// Pass as `after` to read on: the last sequence returned, or your `after` when none.
    pub next_after: i64,
    /// Whether more events were already waiting beyond this page.
    pub has_more: bool,
    /// The feed these sequences belong to. Store it with `next_after` and send it back as
    /// `feed_id`: it changes when the sequence could go backwards (a restored database),
    /// and a stale one is answered 409 `feed_reset` instead of a misleading page.
    pub feed_id: String,
}
