//! The stay's and the money's refusals: check-in, state changes, the party, availability,
//! charges, interim bills, credit notes and payments.

use chrono::NaiveDate;

use super::{Said, Value};
use crate::domain::enums::InvoiceStatus;
use crate::domain::reservation::Status;
use crate::error::{AppError, Kind};

/// Every refusal said this way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Check-in before the arrival day.
    CheckInTooEarly {
        /// The arrival.
        arrival: NaiveDate,
    },
    /// A check-in undone after the day it was made.
    UndoTooLate {
        /// The day of the check-in.
        checked_in: NaiveDate,
    },
    /// Check-in after the stay ended.
    StayEnded {
        /// The departure.
        departure: NaiveDate,
    },
    /// A stay step (check-in, check-out) from a status it does not start from.
    StayState {
        /// The reservation's status.
        status: Status,
        /// What was tried, in the API's English ("checked in").
        done: &'static str,
        /// The statuses it may start from ("confirmed").
        from: String,
    },
    /// No-show before the arrival day.
    NoShowTooEarly {
        /// The arrival.
        arrival: NaiveDate,
    },
    /// A status change the graph does not have.
    CannotBecome {
        /// From.
        from: Status,
        /// To.
        to: Status,
    },
    /// A change of a field that is locked while the guests are in the house.
    InHouseLocked {
        /// The fields tried, comma-separated API names.
        fields: String,
    },
    /// A change to a reservation in a final status.
    NoLongerChanges {
        /// The status.
        status: Status,
    },
    /// The room is out of order.
    RoomOutOfOrder {
        /// Its number.
        room: String,
    },
    /// The room has guests in it.
    RoomOccupied {
        /// Its number.
        room: String,
    },
    /// The room is given to another stay on some of the nights.
    RoomGiven {
        /// Its number.
        room: String,
        /// The other booking's code.
        code: String,
    },
    /// The room type is full on some nights.
    NoAvailability {
        /// The room type's code.
        room_type: String,
        /// The full nights.
        nights: Vec<NaiveDate>,
    },
    /// A guest joining a party already registered with the authority.
    PartyRegistered,
    /// A party change on a reservation in a final status.
    PartyClosed {
        /// The status.
        status: Status,
    },
    /// A charge on a reservation that is not confirmed or in the house.
    NoMoreCharges {
        /// The status.
        status: Status,
    },
    /// An interim bill for a reservation that is not confirmed or in the house.
    NoInterimBill {
        /// The status.
        status: Status,
    },
    /// A credit note for a credit note.
    CreditNoteReversed,
    /// A second credit note for one invoice.
    AlreadyReversed {
        /// The invoice's number.
        number: String,
    },
    /// A refund on a credit note of an invoice of which nothing was paid, or all given back.
    NothingToRefund {
        /// The reversed invoice's number.
        number: String,
    },
    /// An interim bill of a reservation whose charges are all invoiced.
    AllInvoiced,
    /// A charge already on an invoice (two bills raced for it).
    ChargeInvoiced {
        /// The charge's id.
        charge: String,
    },
    /// Issuing while a restored database waits for its numbers to be confirmed.
    NumberingUnconfirmed {
        /// Since when (the restore's time stamp).
        since: String,
    },
    /// Erasing a guest who is on a reservation not over yet.
    GuestOnOpenStay {
        /// The reservation's code.
        code: String,
        /// Its arrival.
        arrival: NaiveDate,
        /// Its departure.
        departure: NaiveDate,
    },
    /// A payment on an invoice that is paid or cancelled.
    NoMorePayments {
        /// The invoice's number.
        number: String,
        /// Its status.
        status: InvoiceStatus,
    },
}

impl Refusal {
    /// The HTTP class, the stable code and what the catalogues say.
    pub fn parts(&self) -> (Kind, &'static str, Said) {
        use Value::{Day, Days, State, Text};
        let said = |key, values| Said { key, values };
        match self {
            Self::CheckInTooEarly { arrival } => (
                Kind::Conflict,
                "too_early",
                said("problem-check-in-too-early", vec![("date", Day(*arrival))]),
            ),
            Self::UndoTooLate { checked_in } => (
                Kind::Conflict,
                "undo_too_late",
                said("problem-undo-too-late", vec![("date", Day(*checked_in))]),
            ),
            Self::StayEnded { departure } => (
                Kind::Conflict,
                "invalid_state_transition",
                said("problem-stay-ended", vec![("date", Day(*departure))]),
            ),
            Self::StayState { status, done, from } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-stay-state",
                    vec![
                        ("status", State(*status)),
                        ("done", Text((*done).into())),
                        ("from", Text(from.clone())),
                    ],
                ),
            ),
            Self::NoShowTooEarly { arrival } => (
                Kind::Conflict,
                "too_early",
                said("problem-no-show-too-early", vec![("date", Day(*arrival))]),
            ),
            Self::CannotBecome { from, to } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-cannot-become",
                    vec![("from", State(*from)), ("to", State(*to))],
                ),
            ),
            Self::InHouseLocked { fields } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-in-house-locked",
                    vec![("fields", Text(fields.clone()))],
                ),
            ),
            Self::NoLongerChanges { status } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-no-longer-changes",
                    vec![("status", State(*status))],
                ),
            ),
            Self::RoomOutOfOrder { room } => (
                Kind::Conflict,
                "room_unavailable",
                said(
                    "problem-room-out-of-order",
                    vec![("room", Text(room.clone()))],
                ),
            ),
            Self::RoomOccupied { room } => (
                Kind::Conflict,
                "room_unavailable",
                said("problem-room-occupied", vec![("room", Text(room.clone()))]),
            ),
            Self::RoomGiven { room, code } => (
                Kind::Conflict,
                "room_unavailable",
                said(
                    "problem-room-given",
                    vec![("room", Text(room.clone())), ("code", Text(code.clone()))],
                ),
            ),
            Self::NoAvailability { room_type, nights } => (
                Kind::Conflict,
                "no_availability",
                said(
                    "problem-no-availability",
                    vec![
                        ("type", Text(room_type.clone())),
                        ("nights", Days(nights.clone())),
                    ],
                ),
            ),
            Self::PartyRegistered => (
                Kind::Conflict,
                "party_registered",
                said("problem-party-registered", vec![]),
            ),
            Self::PartyClosed { status } => (
                Kind::Conflict,
                "invalid_state_transition",
                said("problem-party-closed", vec![("status", State(*status))]),
            ),
            Self::NoMoreCharges { status } => (
                Kind::Conflict,
                "invalid_state_transition",
                said("problem-no-more-charges", vec![("status", State(*status))]),
            ),
            Self::NoInterimBill { status } => (
                Kind::Conflict,
                "invalid_state_transition",
                said("problem-no-interim-bill", vec![("status", State(*status))]),
            ),
            Self::CreditNoteReversed => (
                Kind::Conflict,
                "invalid_state_transition",
                said("problem-credit-note-reversed", vec![]),
            ),
            Self::AlreadyReversed { number } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-already-reversed",
                    vec![("number", Text(number.clone()))],
                ),
            ),
            Self::NothingToRefund { number } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-nothing-to-refund",
                    vec![("number", Text(number.clone()))],
                ),
            ),
            Self::AllInvoiced => (
                Kind::Conflict,
                "already_invoiced",
                said("problem-all-invoiced", vec![]),
            ),
            Self::ChargeInvoiced { charge } => (
                Kind::Conflict,
                "already_invoiced",
                said(
                    "problem-charge-invoiced",
                    vec![("charge", Text(charge.clone()))],
                ),
            ),
            Self::NumberingUnconfirmed { since } => (
                Kind::Conflict,
                "numbering_unconfirmed",
                said(
                    "problem-numbering-unconfirmed",
                    vec![("since", Value::Moment(since.clone()))],
                ),
            ),
            Self::GuestOnOpenStay {
                code,
                arrival,
                departure,
            } => (
                Kind::Conflict,
                "guest_has_open_reservation",
                said(
                    "problem-guest-open-reservation",
                    vec![
                        ("code", Text(code.clone())),
                        ("arrival", Day(*arrival)),
                        ("departure", Day(*departure)),
                    ],
                ),
            ),
            Self::NoMorePayments { number, status } => (
                Kind::Conflict,
                "invalid_state_transition",
                said(
                    "problem-no-more-payments",
                    vec![
                        ("number", Text(number.clone())),
                        ("status", Value::InvoiceState(*status)),
                    ],
                ),
            ),
        }
    }

    /// One of each, for the catalogue test.
    pub fn examples() -> Vec<Refusal> {
        let day = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default();
        vec![
            Self::CheckInTooEarly { arrival: day },
            Self::StayEnded { departure: day },
            Self::UndoTooLate { checked_in: day },
            Self::StayState {
                status: Status::CheckedOut,
                done: "checked in",
                from: "confirmed".into(),
            },
            Self::NoShowTooEarly { arrival: day },
            Self::CannotBecome {
                from: Status::CheckedOut,
                to: Status::Cancelled,
            },
            Self::InHouseLocked {
                fields: "arrival".into(),
            },
            Self::NoLongerChanges {
                status: Status::Cancelled,
            },
            Self::RoomOutOfOrder { room: "101".into() },
            Self::RoomOccupied { room: "101".into() },
            Self::RoomGiven {
                room: "101".into(),
                code: "ABC123".into(),
            },
            Self::NoAvailability {
                room_type: "DBL".into(),
                nights: vec![day],
            },
            Self::PartyRegistered,
            Self::PartyClosed {
                status: Status::CheckedOut,
            },
            Self::NoMoreCharges {
                status: Status::CheckedOut,
            },
            Self::NoInterimBill {
                status: Status::Cancelled,
            },
            Self::CreditNoteReversed,
            Self::AlreadyReversed {
                number: "2026-17".into(),
            },
            Self::NothingToRefund {
                number: "2026-17".into(),
            },
            Self::NoMorePayments {
                number: "2026-17".into(),
                status: InvoiceStatus::Paid,
            },
            Self::AllInvoiced,
            Self::ChargeInvoiced {
                charge: "chg_1".into(),
            },
            Self::NumberingUnconfirmed {
                since: "2026-11-20T10:00:00Z".into(),
            },
            Self::GuestOnOpenStay {
                code: "K7QF2M".into(),
                arrival: day,
                departure: day,
            },
        ]
    }
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> AppError {
        super::error(r.parts())
    }
}
