//! One way to say a refusal. A use case refuses with a [`Refusal`]: a stable code and typed
//! values (a room number, a day, a status), defined once here. The API's `detail` is the
//! English catalogue's sentence for it; a desk page says the same key and values in its own
//! language, each value written the language's way (a day as `20 nov`, a status in words).
//! No page translates an English sentence back by matching its words.
//!
//! The refusals of the stay (check-in, state changes, the party, availability) are said this
//! way; the rest still go through `desk::problems` and move here one by one. A test proves
//! that every refusal has its sentence in every language, using no value it does not carry.

use chrono::NaiveDate;

use crate::domain::enums::InvoiceStatus;
use crate::domain::reservation::Status;
use crate::error::{AppError, Kind};
use crate::i18n::{Arg, Lang, T};

/// A value a refusal carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Said as it is (a room number, a booking code).
    Text(String),
    /// A day: ISO in English (as the API writes days), the language's way elsewhere.
    Day(NaiveDate),
    /// Several days, comma-separated.
    Days(Vec<NaiveDate>),
    /// A reservation's status: its API name in English, in words elsewhere.
    State(Status),
    /// An invoice's status, the same way.
    InvoiceState(InvoiceStatus),
}

/// A refusal as the catalogues say it: the key and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The catalogue key.
    pub key: &'static str,
    /// The values, by the names the sentences use.
    pub values: Vec<(&'static str, Value)>,
}

impl Said {
    /// The sentence in `t`'s language.
    pub fn say(&self, t: &T) -> String {
        let english = t.lang() == Lang::En;
        let day = |d: &NaiveDate| {
            if english {
                d.to_string()
            } else {
                t.short_date(*d)
            }
        };
        let args: Vec<(&str, Arg)> = self
            .values
            .iter()
            .map(|(name, v)| {
                let text = match v {
                    Value::Text(s) => s.clone(),
                    Value::Day(d) => day(d),
                    Value::Days(ds) => ds.iter().map(day).collect::<Vec<_>>().join(", "),
                    Value::State(s) if english => s.as_str().to_string(),
                    Value::State(s) => t.t(&format!("status-{}", s.as_str())),
                    Value::InvoiceState(s) if english => s.as_str().to_string(),
                    Value::InvoiceState(s) => t.t(&format!("invoice-status-{}", s.as_str())),
                };
                (*name, Arg::Text(text))
            })
            .collect();
        t.with(self.key, &args)
    }
}

/// Every refusal said this way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Check-in before the arrival day.
    CheckInTooEarly {
        /// The arrival.
        arrival: NaiveDate,
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
        ]
    }
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> AppError {
        let (kind, code, said) = r.parts();
        let detail = said.say(&T::new(Lang::En));
        AppError::new(kind, code, detail).with_said(said)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `{ $name }`s of `key`'s message in the catalogue `ftl` (its line and the
    /// indented lines that continue it).
    fn variables(ftl: &str, key: &str) -> Option<Vec<String>> {
        let mut lines = ftl
            .lines()
            .skip_while(|l| !l.starts_with(&format!("{key} = ")));
        let first = lines.next()?;
        let text: Vec<&str> = std::iter::once(first)
            .chain(lines.take_while(|l| l.starts_with(' ')))
            .collect();
        let mut names: Vec<String> = text
            .join("\n")
            .split("{ $")
            .skip(1)
            .filter_map(|s| s.split([' ', '}']).next().map(str::to_string))
            .collect();
        names.sort();
        names.dedup();
        Some(names)
    }

    #[test]
    fn every_refusal_is_said_in_every_language_with_its_own_values() {
        let catalogues = [
            ("en", include_str!("../assets/i18n/en.ftl")),
            ("it", include_str!("../assets/i18n/it.ftl")),
            ("hr", include_str!("../assets/i18n/hr.ftl")),
        ];
        for r in Refusal::examples() {
            let (_, _, said) = r.parts();
            let mut given: Vec<String> = said.values.iter().map(|(n, _)| n.to_string()).collect();
            given.sort();
            for (lang, ftl) in catalogues {
                let used = variables(ftl, said.key)
                    .unwrap_or_else(|| panic!("{lang} has no {} ({r:?})", said.key));
                for name in &used {
                    assert!(
                        given.contains(name),
                        "{lang} {} uses ${name}, not given",
                        said.key
                    );
                }
                if lang == "en" {
                    assert_eq!(used, given, "English says every value of {}", said.key);
                }
            }
        }
    }

    #[test]
    fn the_api_says_it_in_english_and_a_page_in_its_language() {
        let e: AppError = Refusal::CheckInTooEarly {
            arrival: NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
        }
        .into();
        assert_eq!(e.code, "too_early");
        assert_eq!(
            e.detail,
            "This reservation arrives on 2026-11-20; check-in opens that day."
        );
        let it = e.said.as_ref().unwrap().say(&T::new(Lang::It));
        assert!(it.contains("20 nov"), "{it}");
        let state: AppError = Refusal::NoLongerChanges {
            status: Status::CheckedOut,
        }
        .into();
        assert_eq!(
            state.detail,
            "A checked_out reservation can no longer change."
        );
        let hr = state.said.unwrap().say(&T::new(Lang::Hr));
        assert!(!hr.contains("checked_out"), "{hr}");
    }
}
