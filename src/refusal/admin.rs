//! The refusals of running the hotel: rooms and room types, staff, API clients and devices,
//! webhooks and the compliance centre.

use super::Value::Text;
use super::{Said, Value};
use crate::error::{AppError, Kind};

/// Every refusal of administration said through the catalogues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminRefusal {
    /// A second room with a number already used.
    RoomExists {
        /// The number.
        number: String,
    },
    /// A second room type with a code already used.
    RoomTypeExists {
        /// The code.
        code: String,
    },
    /// A room's type changed while a reservation holds the room.
    RoomInUse {
        /// The reservation's code.
        code: String,
    },
    /// A second user with a name already used.
    UserExists {
        /// The user name.
        name: String,
    },
    /// An admin changing their own role or disabling themselves.
    OwnAccount,
    /// A change that would leave no admin.
    LastAdmin,
    /// Revoking the front desk's own client.
    FirstParty,
    /// A device code nobody is waiting with.
    NoDeviceWaiting {
        /// The code typed.
        code: String,
    },
    /// Approving a device whose scopes the approver's role grants none of.
    InsufficientRole,
    /// A delivery asked of a disabled webhook endpoint.
    EndpointDisabled,
    /// A redelivery of an event no longer kept.
    EventExpired,
    /// A retry of a submission for a scheme no longer configured.
    SchemeGone {
        /// The scheme it was for.
        scheme: String,
    },
    /// An operator mark another staff member holds.
    MarkTaken {
        /// The mark.
        mark: String,
        /// Who holds it.
        name: String,
    },
    /// A retry of a submission in a status that is not retried.
    NotRetryable {
        /// Its status.
        status: String,
    },
}

impl AdminRefusal {
    /// The HTTP class, the stable code and what the catalogues say.
    pub fn parts(&self) -> (Kind, &'static str, Said) {
        let said = |key, values: Vec<(&'static str, Value)>| Said { key, values };
        let text = |name, s: &String| vec![(name, Text(s.clone()))];
        let conflict = |code, said| (Kind::Conflict, code, said);
        match self {
            Self::RoomExists { number } => conflict(
                "already_exists",
                said("problem-room-exists", text("number", number)),
            ),
            Self::RoomTypeExists { code } => conflict(
                "already_exists",
                said("problem-room-type-exists", text("code", code)),
            ),
            Self::RoomInUse { code } => conflict(
                "room_in_use",
                said("problem-room-in-use", text("code", code)),
            ),
            Self::UserExists { name } => conflict(
                "already_exists",
                said("problem-user-exists", text("name", name)),
            ),
            Self::OwnAccount => conflict("own_account", said("problem-own-account", vec![])),
            Self::LastAdmin => conflict("last_admin", said("problem-last-admin", vec![])),
            Self::FirstParty => conflict("first_party", said("problem-first-party", vec![])),
            Self::NoDeviceWaiting { code } => (
                Kind::NotFound,
                "not_found",
                said("problem-device-unknown", text("code", code)),
            ),
            Self::InsufficientRole => conflict(
                "insufficient_role",
                said("problem-insufficient-role", vec![]),
            ),
            Self::EndpointDisabled => conflict(
                "invalid_state_transition",
                said("problem-endpoint-disabled", vec![]),
            ),
            Self::EventExpired => conflict("event_expired", said("problem-event-expired", vec![])),
            Self::SchemeGone { scheme } => conflict(
                "submission_not_retryable",
                said("problem-scheme-gone", text("scheme", scheme)),
            ),
            Self::MarkTaken { mark, name } => conflict(
                "already_exists",
                said(
                    "problem-mark-taken",
                    vec![("mark", Text(mark.clone())), ("name", Text(name.clone()))],
                ),
            ),
            Self::NotRetryable { status } => conflict(
                "submission_not_retryable",
                said("problem-not-retryable", text("status", status)),
            ),
        }
    }

    /// One of each, for the catalogue test.
    pub fn examples() -> Vec<AdminRefusal> {
        let s = |v: &str| v.to_string();
        vec![
            Self::RoomExists { number: s("101") },
            Self::RoomTypeExists { code: s("DBL") },
            Self::RoomInUse { code: s("K7QF2M") },
            Self::UserExists { name: s("marta") },
            Self::OwnAccount,
            Self::LastAdmin,
            Self::FirstParty,
            Self::NoDeviceWaiting {
                code: s("BDKT-QWMX"),
            },
            Self::InsufficientRole,
            Self::EndpointDisabled,
            Self::EventExpired,
            Self::SchemeGone {
                scheme: s("it-alloggiati"),
            },
            Self::MarkTaken {
                mark: s("MK"),
                name: s("marta"),
            },
            Self::NotRetryable {
                status: s("accepted"),
            },
        ]
    }
}

impl From<AdminRefusal> for AppError {
    fn from(r: AdminRefusal) -> AppError {
        super::error(r.parts())
    }
}
