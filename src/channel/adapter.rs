//! The boundary a channel manager's adapter fills: the calls innkeep makes (pushing
//! availability and restrictions, reading the booking feed and acknowledging each revision,
//! reading values back, listing room types and plans for the mapping) and how it reads the
//! answers, in innkeep's own terms ([`Call`], [`Pushed`], [`Revision`], [`Remote`]). The
//! queue, the services and the desk only ever talk to an `Adapter`; a second channel
//! manager (Octorate's REST API, SiteMinder's pmsXchange) is one more implementation and
//! one more name in [`adapter`].

use chrono::NaiveDate;

use super::{Call, Pushed, Remote, Revision, channex};
use crate::domain::channel::{RateNight, Run};

/// A channel manager, as innkeep talks to it. No I/O: calls out, answers in.
pub trait Adapter: Send + Sync {
    /// The request header that carries the API key.
    fn key_header(&self) -> &'static str;
    /// Rooms on sale per room type, for the runs of equal nights given.
    fn availability(&self, property: &str, runs: &[(String, Run<i64>)]) -> Call;
    /// Price and restrictions per rate plan, for the runs of equal nights given.
    fn restrictions(&self, property: &str, runs: &[(String, Run<RateNight>)]) -> Call;
    /// What a push's (or any call's) answer came to.
    fn pushed(&self, status: u16, body: &str) -> Pushed;
    /// The booking revisions not yet acknowledged, oldest first.
    fn feed(&self, property: &str) -> Call;
    /// The revisions of a feed answer, in order (one that cannot be read is an error).
    fn revisions(&self, body: &str) -> Result<Vec<Revision>, String>;
    /// The most revisions one feed answer holds: a shorter answer was the feed's end.
    fn feed_page(&self) -> usize;
    /// Acknowledges revision `revision` (after innkeep has saved it).
    fn ack(&self, revision: &str) -> Call;
    /// Reads back availability from `from` to `to`.
    fn read_availability(&self, property: &str, from: NaiveDate, to: NaiveDate) -> Call;
    /// That answer, per room type and night.
    fn availability_read(&self, body: &str) -> Result<Vec<(String, NaiveDate, i64)>, String>;
    /// Reads back prices and restrictions from `from` to `to`.
    fn read_restrictions(&self, property: &str, from: NaiveDate, to: NaiveDate) -> Call;
    /// That answer, per rate plan and night.
    fn restrictions_read(&self, body: &str) -> Result<Vec<(String, NaiveDate, RateNight)>, String>;
    /// Lists the room types, for the mapping.
    fn room_type_options(&self, property: &str) -> Call;
    /// Lists the rate plans with their room types, for the mapping.
    fn rate_plan_options(&self, property: &str) -> Call;
    /// A list's entries.
    fn options(&self, body: &str, property: &str) -> Result<Vec<Remote>, String>;
}

/// The adapter of channel manager `provider` (`channex`), if innkeep has one.
pub fn adapter(provider: &str) -> Option<&'static dyn Adapter> {
    match provider {
        "channex" => Some(&Channex),
        _ => None,
    }
}

/// Channex ([`channex`]).
pub struct Channex;

impl Adapter for Channex {
    fn key_header(&self) -> &'static str {
        channex::KEY_HEADER
    }
    fn availability(&self, property: &str, runs: &[(String, Run<i64>)]) -> Call {
        channex::availability(property, runs)
    }
    fn restrictions(&self, property: &str, runs: &[(String, Run<RateNight>)]) -> Call {
        channex::restrictions(property, runs)
    }
    fn pushed(&self, status: u16, body: &str) -> Pushed {
        channex::pushed(status, body)
    }
    fn feed(&self, property: &str) -> Call {
        channex::feed(property)
    }
    fn revisions(&self, body: &str) -> Result<Vec<Revision>, String> {
        channex::revisions(body)
    }
    fn feed_page(&self) -> usize {
        channex::FEED_PAGE
    }
    fn ack(&self, revision: &str) -> Call {
        channex::ack(revision)
    }
    fn read_availability(&self, property: &str, from: NaiveDate, to: NaiveDate) -> Call {
        channex::read_availability(property, from, to)
    }
    fn availability_read(&self, body: &str) -> Result<Vec<(String, NaiveDate, i64)>, String> {
        channex::availability_read(body)
    }
    fn read_restrictions(&self, property: &str, from: NaiveDate, to: NaiveDate) -> Call {
        channex::read_restrictions(property, from, to)
    }
    fn restrictions_read(&self, body: &str) -> Result<Vec<(String, NaiveDate, RateNight)>, String> {
        channex::restrictions_read(body)
    }
    fn room_type_options(&self, property: &str) -> Call {
        channex::room_type_options(property)
    }
    fn rate_plan_options(&self, property: &str) -> Call {
        channex::rate_plan_options(property)
    }
    fn options(&self, body: &str, property: &str) -> Result<Vec<Remote>, String> {
        channex::options(body, property)
    }
}
