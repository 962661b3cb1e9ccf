//! Channel managers: the boundary between innkeep and the service that sells its rooms on
//! the booking sites. Like the compliance adapters, an adapter here does no I/O of its own:
//! it builds the requests (path and JSON body) from innkeep's state and reads the answers;
//! the queue sends them. Channex ([`channex`]) is the first; a second (Octorate, SiteMinder)
//! is one more module answering the same questions, behind [`Adapter`].

mod adapter;
pub mod channex;

pub use adapter::{Adapter, Channex, adapter};

use chrono::NaiveDate;

/// A request for the channel manager: method, path under its base URL, JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// Path and query under the base URL, such as `/availability`.
    pub path: String,
    /// The JSON body, for a `POST`.
    pub body: Option<serde_json::Value>,
}

/// What an ARI push came to, as the answer tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pushed {
    /// Taken, every value applied.
    Done,
    /// Taken, but the channel manager dropped these values, each with why, in its words.
    Warned(Vec<String>),
    /// Too many calls: pause this property's pushes and send again later.
    Slow,
    /// Refused as a whole (a wrong key, a wrong property): said in words; sending again
    /// will not help until someone fixes it.
    Refused(String),
    /// No answer to trust (a server error, an unreadable answer): send again.
    Retry(String),
}

/// Whether a booking revision is the first, a change, or the cancellation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionKind {
    /// A new booking.
    New,
    /// A change of one already taken.
    Modified,
    /// The booking cancelled.
    Cancelled,
}

/// Who takes the guest's money: the booking site, or the hotel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collect {
    /// The booking site collected it (the hotel invoices the site or nobody).
    Ota,
    /// The hotel collects at the desk.
    Hotel,
}

/// One room of a booking revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomStay {
    /// The channel manager's room type id (none: not mapped there).
    pub room_type: Option<String>,
    /// Its rate plan id (none: not mapped there).
    pub rate_plan: Option<String>,
    /// Adults.
    pub adults: i64,
    /// Children.
    pub children: i64,
    /// Price of each night, gross, minor units.
    pub nights: Vec<(NaiveDate, i64)>,
}

/// The guest a booking is for, as the booking site gave them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Customer {
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
    /// E-mail, when given.
    pub email: Option<String>,
    /// Telephone, when given.
    pub phone: Option<String>,
    /// ISO 3166 alpha-2 country, when given.
    pub country: Option<String>,
}

/// A booking revision: one message of a booking site about one booking, applied once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// The revision's id: what makes applying it idempotent, and what is acknowledged.
    pub id: String,
    /// The booking's id, the same across its revisions.
    pub booking_id: String,
    /// New, modified or cancelled.
    pub kind: RevisionKind,
    /// The booking site, such as `Booking.com`.
    pub ota: String,
    /// The booking site's own reservation code.
    pub ota_code: String,
    /// First night.
    pub arrival: NaiveDate,
    /// Departure morning.
    pub departure: NaiveDate,
    /// The rooms booked.
    pub rooms: Vec<RoomStay>,
    /// The guest.
    pub customer: Customer,
    /// Who collects the money.
    pub collect: Collect,
    /// ISO 4217 currency of the amounts.
    pub currency: String,
    /// The guest's notes to the hotel.
    pub notes: Option<String>,
}

/// A room type or rate plan as the channel manager lists it, for the mapping screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// Its id at the channel manager.
    pub id: String,
    /// Its name there.
    pub title: String,
    /// For a rate plan, the room type it belongs to.
    pub room_type: Option<String>,
}
