//! Pure hotel rules: no I/O, no SQL, no HTTP.
//!
//! Everything here is deterministic and property-tested: stay dates and nights, nightly
//! availability, the reservation state machine, and the field rules applied to input.

#[macro_use]
pub mod enums;
pub mod availability;
pub mod board;
pub mod calendar;
pub mod channel;
pub mod day_close;
pub mod digest;
pub mod events;
pub mod extras;
pub mod history;
pub mod iban;
pub mod invoice;
pub mod istat;
pub mod italy;
pub mod kpd;
pub mod limits;
pub mod money;
pub mod policy;
pub mod pricing;
pub mod report;
pub mod reservation;
pub mod retention;
pub mod room_numbers;
pub mod rules;
pub mod said;
pub mod scopes;
pub mod search;
pub mod seller;
pub mod signature;
pub mod spreadsheet;
pub mod stay;
pub mod stay_lines;
pub mod submission;
pub mod webhooks;
