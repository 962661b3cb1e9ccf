//! The extras catalogue (`/v1/extras`) and an order of an extra on a reservation's folio.

use poem_openapi::Object;

use crate::domain::extras::ExtraUnit;
use crate::input_object;
use crate::model::fields::{Code, ExtraId, Int};
use crate::model::{Date, Instant, Names, Patch};

/// Something the hotel sells beside the room.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Extra {
    /// `ext_…`
    pub id: String,
    /// Short code, unique, such as `BRK` or `PARK`.
    pub code: String,
    /// Its name in the property's languages (the folio charge takes the property's).
    pub name: Names,
    /// Gross price per unit, in minor units.
    pub price: i64,
    /// Tax rate in hundredths of a percent.
    pub tax_rate: i64,
    /// `per_stay`, `per_night` or `per_person_night`.
    pub unit: ExtraUnit,
    /// Whether it is offered (an extra no longer sold stays for the folios that have it).
    pub active: bool,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was created.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

input_object! {
    /// A new extra.
    pub struct ExtraCreate {
        /// 1 to 16 of `A-Z`, `0-9`, `_`, `-`; unique.
        pub code: Code,
        /// Its name; `en` is required.
        pub name: Names,
        /// Gross price per unit, in minor units.
        pub price: Int<0, 100_000_000>,
        /// Tax rate in hundredths of a percent (default: the property's).
        pub tax_rate: Option<Int<0, 10_000>>,
        /// `per_stay`, `per_night` or `per_person_night`.
        pub unit: ExtraUnit,
        /// Offered; default true.
        pub active: Option<bool>,
    }
}

input_object! {
    /// Changes to an extra; absent fields keep their value. Charges already on folios keep
    /// their price.
    pub struct ExtraUpdate {
        /// Its code.
        pub code: Patch<Code>,
        /// Its name.
        pub name: Patch<Names>,
        /// Gross price per unit.
        pub price: Patch<Int<0, 100_000_000>>,
        /// Tax rate.
        pub tax_rate: Patch<Int<0, 10_000>>,
        /// Its unit.
        pub unit: Patch<ExtraUnit>,
        /// Offered.
        pub active: Patch<bool>,
    }
    ignore ["id", "version", "created_at", "updated_at"]
}

/// A page of extras.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct ExtraPage {
    /// Extras ordered by `code`, then id.
    pub data: Vec<Extra>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

input_object! {
    /// An extra from the catalogue put on a reservation's folio: one charge of as many
    /// units as the extra's unit makes of the stay (`per_night`: each night; per person per
    /// night: each person each night), times `count`.
    pub struct ExtraOrder {
        /// The extra (`ext_…`); it must be offered (`active`).
        pub extra_id: ExtraId,
        /// How many (default 1): two parking places, two pets.
        pub count: Option<Int<1, 99>>,
        /// The day it is delivered (default: the arrival, or today once in the house).
        pub service_date: Option<Date>,
    }
}

/// An extra on a reservation: the folio charge it was put on as.
#[derive(
    Debug, Clone, PartialEq, Eq, poem_openapi::Object, serde::Serialize, serde::Deserialize,
)]
pub struct BookedExtra {
    /// The extra (`ext_…`).
    pub extra_id: String,
    /// The folio charge it is (`chg_…`).
    pub charge_id: String,
    /// Units charged (the nights, the persons times the nights, ...).
    pub quantity: i64,
    /// Gross total, minor units.
    pub gross_amount: i64,
}
