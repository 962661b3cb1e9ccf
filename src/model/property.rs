//! Property settings, room types, rooms and availability.

use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

use crate::domain::enums::HousekeepingStatus;
use crate::input_object;
use crate::model::Patch;
use crate::model::fields::{
    Cin, Code, Country, Currency, Int, Kpd, Line, RoomTypeId, Series, Text, TimeZone,
};
use crate::model::{Date, Instant};

input_object! {
    stored
    /// The property's tourist tax, charged per guest per night.
    pub struct CityTax {
        /// Gross amount per person per night, in minor units.
        pub amount_per_person_night: Int<0, 1_000_000>,
        /// VAT on the city tax, in basis points (usually 0).
        pub tax_rate: Option<Int<0, 10_000>>,
        /// Nights per stay after which no more tax is due (null: no cap).
        pub max_nights: Option<Int<1, 365>>,
        /// Guests younger than this many years on arrival pay nothing (null: nobody exempt).
        pub exempt_under_age: Option<Int<0, 120>>,
    }
}

/// The national compliance schemes in force.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct ComplianceSchemes {
    /// Guest registration: `none` or `it-alloggiati`.
    pub registration: String,
    /// Fiscal receipts: `none` or `hr-cis` (Croatia).
    pub fiscal: String,
}

impl Default for ComplianceSchemes {
    fn default() -> Self {
        ComplianceSchemes {
            registration: "none".into(),
            fiscal: "none".into(),
        }
    }
}

input_object! {
    stored
    /// The seller's particulars, printed on every invoice (VAT Directive 2006/112/EC,
    /// art. 226): who issues it, where, under which VAT number.
    pub struct Seller {
        /// The registered legal name (the company, or the owner as a sole trader).
        pub legal_name: Line<200>,
        /// The registered address; `line1` and `city` are needed.
        pub address: super::Address,
        /// The VAT identification number: in Croatia the OIB (11 digits, alone or after
        /// `HR`), in Italy the partita IVA (11 digits, alone or after `IT`); both are checked
        /// by their check digit.
        pub vat_id: Line<40>,
        /// A tax code besides it, where the country has one (Italy: the codice fiscale).
        pub tax_code: Option<Line<40>>,
    }
}

/// Property-wide settings.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Settings {
    /// The property's name, printed on invoices.
    pub name: String,
    /// IANA time zone; "today" is today here.
    pub time_zone: String,
    /// Default ISO 4217 currency for rates and invoices.
    pub currency: String,
    /// ISO 3166-1 alpha-2 country of the property.
    pub country: Option<String>,
    /// City tax, or null when the property charges none.
    pub city_tax: Option<CityTax>,
    /// Invoice number series pattern; `{year}` is the issue year.
    pub invoice_series: String,
    /// Tax rate for charges that do not name one, in basis points.
    pub default_tax_rate: i64,
    /// The seller's particulars printed on invoices, or null until set. In Croatia and
    /// Italy no invoice is issued without them (409 `seller_particulars_missing`).
    pub seller: Option<Seller>,
    /// Italy: the property's national identification code (CIN) from the Ministry of
    /// Tourism, which every booking confirmation carries; null where none is set.
    pub cin: Option<String>,
    /// The national compliance schemes enabled (read-only: they and their credentials are
    /// set in the configuration file or environment, and credentials are never shown).
    pub compliance: ComplianceSchemes,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When the settings were created.
    pub created_at: Instant,
    /// When the settings last changed.
    pub updated_at: Instant,
}

input_object! {
    /// Changes to the settings. Absent fields keep their value; `null` clears an optional one.
    pub struct SettingsUpdate {
        /// The property's name.
        pub name: Patch<Line<200>>,
        /// IANA time zone, such as Europe/Rome.
        pub time_zone: Patch<TimeZone>,
        /// ISO 4217 currency, such as EUR.
        pub currency: Patch<Currency>,
        /// ISO 3166-1 alpha-2 country, such as IT; null clears it.
        pub country: MaybeUndefined<Country>,
        /// City tax, or null for none.
        pub city_tax: MaybeUndefined<CityTax>,
        /// Invoice number series pattern, such as `{year}` or `B-{year}`: letters, digits,
        /// `-`, `_`, `/` and the placeholder `{year}`.
        pub invoice_series: Patch<Series>,
        /// Default tax rate in basis points (1300 = 13 %).
        pub default_tax_rate: Patch<Int<0, 10_000>>,
        /// The seller's particulars, whole; null clears them.
        pub seller: MaybeUndefined<Seller>,
        /// Italy: the CIN (`IT`, six digits, then 3 to 10 capital letters and digits);
        /// null clears it.
        pub cin: MaybeUndefined<Cin>,
    }
    ignore ["compliance", "version", "created_at", "updated_at"]
}

/// A kind of room, which reservations book.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct RoomType {
    /// `rt_…`
    pub id: String,
    /// Short unique code, `A-Z0-9_-`, up to 16 characters.
    pub code: String,
    /// Display name.
    pub name: String,
    /// Longer description.
    pub description: Option<String>,
    /// Most guests (adults + children) one room holds, 1 to 20.
    pub max_occupancy: i64,
    /// Default gross nightly rate in minor units.
    pub base_rate: i64,
    /// ISO 4217 currency of `base_rate`.
    pub currency: String,
    /// The KPD 2025 code its nights carry on a Croatian e-invoice; null takes the
    /// property's default (`55.10.00`, hotel accommodation, unless configured otherwise).
    pub kpd_code: Option<String>,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was created.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

input_object! {
    /// A new room type.
    pub struct RoomTypeCreate {
        /// Unique code, 1 to 16 of `A-Z0-9_-`.
        pub code: Code,
        /// Display name.
        pub name: Line<200>,
        /// Longer description.
        pub description: Option<Text<2000>>,
        /// Most guests one room holds, 1 to 20.
        pub max_occupancy: Int<1, 20>,
        /// Default gross nightly rate in minor units.
        pub base_rate: Int<0, 100_000_000>,
        /// ISO 4217 currency; defaults to the property's.
        pub currency: Option<Currency>,
        /// The KPD 2025 code its nights carry on a Croatian e-invoice (`NN.NN.NN`); absent
        /// takes the property's default.
        pub kpd_code: Option<Kpd>,
    }
}

input_object! {
    /// Changes to a room type. Absent fields keep their value.
    pub struct RoomTypeUpdate {
        /// Unique code, 1 to 16 of `A-Z0-9_-`.
        pub code: Patch<Code>,
        /// Display name.
        pub name: Patch<Line<200>>,
        /// Longer description; null clears it.
        pub description: MaybeUndefined<Text<2000>>,
        /// Most guests one room holds, 1 to 20.
        pub max_occupancy: Patch<Int<1, 20>>,
        /// Default gross nightly rate in minor units.
        pub base_rate: Patch<Int<0, 100_000_000>>,
        /// ISO 4217 currency.
        pub currency: Patch<Currency>,
        /// The KPD 2025 code its nights carry on a Croatian e-invoice; null clears it.
        pub kpd_code: MaybeUndefined<Kpd>,
    }
    ignore ["id", "version", "created_at", "updated_at"]
}

/// A physical room.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Room {
    /// `rm_…`
    pub id: String,
    /// The room number on the door; unique.
    pub number: String,
    /// Its room type.
    pub room_type_id: String,
    /// Floor (0 is the ground floor; negative below ground).
    pub floor: Option<i64>,
    /// Housekeeping state; `out_of_order` rooms are not sold.
    pub housekeeping_status: HousekeepingStatus,
    /// Read-only: a checked-in reservation holds the room.
    pub occupied: bool,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was created.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

input_object! {
    /// A new room.
    pub struct RoomCreate {
        /// The room number on the door; unique.
        pub number: Line<16>,
        /// Its room type (`rt_…`).
        pub room_type_id: RoomTypeId,
        /// Floor.
        pub floor: Option<Int<-10, 200>>,
        /// Housekeeping state; defaults to `clean`.
        pub housekeeping_status: Option<HousekeepingStatus>,
    }
}

input_object! {
    /// Changes to a room. Absent fields keep their value.
    pub struct RoomUpdate {
        /// The room number on the door; unique.
        pub number: Patch<Line<16>>,
        /// Its room type (`rt_…`).
        pub room_type_id: Patch<RoomTypeId>,
        /// Floor; null clears it.
        pub floor: MaybeUndefined<Int<-10, 200>>,
        /// Housekeeping state.
        pub housekeeping_status: Patch<HousekeepingStatus>,
    }
    ignore ["id", "occupied", "version", "created_at", "updated_at"]
}

/// Availability of one room type on one night.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct AvailabilityNight {
    /// The night (the date the guest arrives for that night).
    pub date: Date,
    /// The room type.
    pub room_type_id: String,
    /// All rooms of the type.
    pub total: i64,
    /// Rooms of the type currently out of order.
    pub out_of_order: i64,
    /// Confirmed and checked-in reservations holding the night.
    pub booked: i64,
    /// Rooms still free to sell: total − out of order − booked, never below zero.
    pub available: i64,
}

/// Nightly availability, ordered by date then room type.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct AvailabilityList {
    /// One entry per night and room type.
    pub data: Vec<AvailabilityNight>,
}
