//! The reservation state machine (API.md section 7).
//!
//! `confirmed` → `checked_in` → `checked_out`; `confirmed` → `cancelled`; `confirmed` →
//! `no_show` on or after the arrival date. Nothing leaves `checked_out`, `cancelled` or
//! `no_show`. While checked in, only the departure, the room, the guests and the notes may
//! change.

use chrono::NaiveDate;

string_enum! {
    /// Where a reservation is in its life.
    pub enum Status {
        /// Booked; holds inventory.
        Confirmed = "confirmed",
        /// The guests are in the house; holds inventory and the room.
        CheckedIn = "checked_in",
        /// The stay is over and invoiced.
        CheckedOut = "checked_out",
        /// Called off before arrival.
        Cancelled = "cancelled",
        /// The guests never came.
        NoShow = "no_show",
    }
}

impl Status {
    /// Whether the reservation holds rooms (counts against availability).
    pub fn holds_inventory(self) -> bool {
        matches!(self, Status::Confirmed | Status::CheckedIn)
    }

    /// Whether nothing can change any more.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            Status::CheckedOut | Status::Cancelled | Status::NoShow
        )
    }
}

/// How a transition is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `POST /v1/check-in`.
    CheckIn,
    /// `POST /v1/check-out`.
    CheckOut,
    /// `PUT /v1/reservations/{id}` with the new `status`.
    Put,
    /// `POST /v1/reservations/{id}/undo-check-in`: a check-in made by mistake, on its day.
    UndoCheckIn,
}

impl Via {
    /// Human description of the operation.
    pub fn describe(self) -> &'static str {
        match self {
            Via::CheckIn => "POST /v1/check-in",
            Via::CheckOut => "POST /v1/check-out",
            Via::Put => "PUT /v1/reservations/{id}",
            Via::UndoCheckIn => "POST /v1/reservations/{id}/undo-check-in",
        }
    }
}

/// Every allowed transition: from, to, how.
pub const TRANSITIONS: &[(Status, Status, Via)] = &[
    (Status::Confirmed, Status::CheckedIn, Via::CheckIn),
    (Status::CheckedIn, Status::CheckedOut, Via::CheckOut),
    (Status::Confirmed, Status::Cancelled, Via::Put),
    (Status::Confirmed, Status::NoShow, Via::Put),
    (Status::CheckedIn, Status::Confirmed, Via::UndoCheckIn),
];

/// The status an operation other than PUT moves a reservation to from `from`, or `None`
/// when the graph has no such edge.
pub fn transition(from: Status, via: Via) -> Option<Status> {
    TRANSITIONS
        .iter()
        .find(|(f, _, v)| *f == from && *v == via)
        .map(|(_, to, _)| *to)
}

/// The statuses `via` may start from, for messages ("only confirmed ones can").
pub fn sources(via: Via) -> Vec<Status> {
    TRANSITIONS
        .iter()
        .filter(|(_, _, v)| *v == via)
        .map(|(from, _, _)| *from)
        .collect()
}

/// Why a status change was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransitionError {
    /// The graph has no such edge for a PUT.
    NotAllowed {
        /// Current status.
        from: Status,
        /// Requested status.
        to: Status,
    },
    /// `no_show` before the arrival date.
    TooEarly {
        /// The arrival date.
        arrival: NaiveDate,
    },
}

/// Decides a status change requested by PUT. `Ok(None)` means "no change".
pub fn put_status(
    from: Status,
    to: Status,
    arrival: NaiveDate,
    today: NaiveDate,
) -> Result<Option<Status>, TransitionError> {
    if from == to {
        return Ok(None);
    }
    let allowed = TRANSITIONS
        .iter()
        .any(|(f, t, via)| *f == from && *t == to && *via == Via::Put);
    if !allowed {
        return Err(TransitionError::NotAllowed { from, to });
    }
    if to == Status::NoShow && today < arrival {
        return Err(TransitionError::TooEarly { arrival });
    }
    Ok(Some(to))
}

/// Which fields a PUT may change in a given status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Editable {
    /// Everything (confirmed).
    All,
    /// Departure, room, guests and notes (checked in).
    InHouse,
    /// Nothing (final states).
    Nothing,
}

/// The fields a PUT may change while in `status`.
pub fn editable(status: Status) -> Editable {
    match status {
        Status::Confirmed => Editable::All,
        Status::CheckedIn => Editable::InHouse,
        _ => Editable::Nothing,
    }
}

/// Fields that may change while checked in.
pub const IN_HOUSE_FIELDS: &[&str] = &[
    "departure",
    "room_id",
    "guest_ids",
    "primary_guest_id",
    "notes",
    "extra_beds",
    "cots",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_in_and_check_out_follow_the_graph() {
        assert_eq!(
            transition(Status::Confirmed, Via::CheckIn),
            Some(Status::CheckedIn)
        );
        assert_eq!(transition(Status::CheckedIn, Via::CheckIn), None);
        assert_eq!(
            transition(Status::CheckedIn, Via::CheckOut),
            Some(Status::CheckedOut)
        );
        assert_eq!(transition(Status::Cancelled, Via::CheckOut), None);
        assert_eq!(sources(Via::CheckIn), vec![Status::Confirmed]);
    }

    fn d(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 5, n).unwrap()
    }

    #[test]
    fn put_can_cancel_or_no_show_a_confirmed_reservation() {
        assert_eq!(
            put_status(Status::Confirmed, Status::Cancelled, d(10), d(1)),
            Ok(Some(Status::Cancelled))
        );
        assert_eq!(
            put_status(Status::Confirmed, Status::NoShow, d(10), d(10)),
            Ok(Some(Status::NoShow))
        );
        assert_eq!(
            put_status(Status::Confirmed, Status::NoShow, d(10), d(9)),
            Err(TransitionError::TooEarly { arrival: d(10) })
        );
    }

    #[test]
    fn final_states_are_final_and_put_cannot_check_in() {
        for from in [Status::CheckedOut, Status::Cancelled, Status::NoShow] {
            for to in Status::ALL.iter().copied().filter(|t| *t != from) {
                assert!(put_status(from, to, d(1), d(2)).is_err(), "{from} -> {to}");
            }
            assert_eq!(editable(from), Editable::Nothing);
        }
        assert!(put_status(Status::Confirmed, Status::CheckedIn, d(1), d(1)).is_err());
        assert!(put_status(Status::CheckedIn, Status::Cancelled, d(1), d(1)).is_err());
        assert_eq!(
            put_status(Status::CheckedIn, Status::CheckedIn, d(1), d(1)),
            Ok(None)
        );
    }
}
