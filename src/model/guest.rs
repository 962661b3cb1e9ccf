//! Guests and their identity data.

use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

use crate::domain::enums::{DocumentType, Gender};
use crate::input_object;
use crate::model::Patch;
use crate::model::fields::{CodiceFiscale, Country, Email, Line, Phone, Text};
use crate::model::{Date, Instant};

input_object! {
    stored
    /// Where a guest was born, as police registration systems ask for it.
    pub struct BirthPlace {
        /// ISO 3166-1 alpha-2 country.
        pub country: Option<Country>,
        /// Municipality (town or city).
        pub municipality: Option<Line<100>>,
        /// Region, province or county.
        pub region: Option<Line<100>>,
    }
}

input_object! {
    stored
    /// An identity document.
    pub struct Document {
        /// Passport, identity card, driving licence or other.
        pub kind as "type": DocumentType,
        /// The document number.
        pub number: Line<40>,
        /// ISO 3166-1 alpha-2 country that issued it.
        pub issuing_country: Option<Country>,
        /// Place (authority or town) that issued it.
        pub issuing_place: Option<Line<100>>,
        /// Last day it is valid.
        pub expiry_date: Option<Date>,
    }
}

input_object! {
    stored
    /// A postal address.
    pub struct Address {
        /// Street and number.
        pub line1: Option<Line<200>>,
        /// Further address line.
        pub line2: Option<Line<200>>,
        /// Town or city.
        pub city: Option<Line<100>>,
        /// Postal code.
        pub postal_code: Option<Line<20>>,
        /// Region, province or state.
        pub region: Option<Line<100>>,
        /// ISO 3166-1 alpha-2 country.
        pub country: Option<Country>,
    }
}

input_object! {
    stored
    /// What a tourist board asks of a guest's stay beyond identity (Croatia's eVisitor).
    /// The property's defaults (`[compliance.registration]`) fill the first three when absent.
    pub struct Tourist {
        /// Tourist-tax category code (eVisitor `TTPaymentCategory`, such as `14` for a tourist
        /// in a hotel or `1` for a child under 12); it must be one the facility may use.
        pub tax_category: Option<Line<20>>,
        /// How the guest came (`ArrivalOrganisation` code: `I` on their own, `A` through an
        /// agency).
        pub arrival_organisation: Option<Line<20>>,
        /// The service given (`OfferedServiceType` name, such as `Noćenje`).
        pub service_type: Option<Line<60>>,
        /// For a guest resident outside the EU: the border crossing where they entered (its
        /// code or name in eVisitor's list).
        pub border_crossing: Option<Line<100>>,
        /// For a guest resident outside the EU: the day they entered.
        pub entry_date: Option<Date>,
    }
}

/// A person who stays, or will stay, at the property.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Guest {
    /// `gst_…`
    pub id: String,
    /// Given name(s).
    pub first_name: String,
    /// Family name(s).
    pub last_name: String,
    /// E-mail address.
    pub email: Option<String>,
    /// Phone number.
    pub phone: Option<String>,
    /// Date of birth.
    pub birth_date: Option<Date>,
    /// Gender as registration systems record it.
    pub gender: Option<Gender>,
    /// Nationality, ISO 3166-1 alpha-2.
    pub nationality: Option<String>,
    /// Place of birth.
    pub birth_place: Option<BirthPlace>,
    /// Identity document.
    pub document: Option<Document>,
    /// Home address.
    pub address: Option<Address>,
    /// What a tourist board asks beyond identity (Croatia).
    pub tourist: Option<Tourist>,
    /// Italian codice fiscale, upper-case (Italy: what an invoice or receipt names a
    /// private buyer by).
    pub tax_code: Option<String>,
    /// The language everything sent to the guest is in (`en`, `it`, `hr`); null: the
    /// property's (Italian in Italy, Croatian in Croatia, else English).
    pub language: Option<crate::domain::enums::Language>,
    /// Free-text notes for staff.
    pub notes: Option<String>,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When the guest was created.
    pub created_at: Instant,
    /// When the guest last changed.
    pub updated_at: Instant,
}

input_object! {
    /// A new guest.
    pub struct GuestCreate {
        /// Given name(s).
        pub first_name: Line<100>,
        /// Family name(s).
        pub last_name: Line<100>,
        /// E-mail address.
        pub email: Option<Email>,
        /// Phone number.
        pub phone: Option<Phone>,
        /// Date of birth (not in the future).
        pub birth_date: Option<Date>,
        /// male, female or other.
        pub gender: Option<Gender>,
        /// Nationality, ISO 3166-1 alpha-2.
        pub nationality: Option<Country>,
        /// Place of birth.
        pub birth_place: Option<BirthPlace>,
        /// Identity document.
        pub document: Option<Document>,
        /// Home address.
        pub address: Option<Address>,
        /// What a tourist board asks beyond identity (Croatia).
        pub tourist: Option<Tourist>,
        /// Italian codice fiscale (16 characters; spaces and case as typed are accepted;
        /// `422 invalid_codice_fiscale` when its shape or check character is wrong).
        pub tax_code: Option<CodiceFiscale>,
        /// The language to write to the guest in: `en`, `it` or `hr`.
        pub language: Option<crate::domain::enums::Language>,
        /// Notes for staff.
        pub notes: Option<Text<4000>>,
    }
}

input_object! {
    /// Changes to a guest. Absent fields keep their value; `null` clears an optional one.
    /// Read-only fields (`id`, `version`, `created_at`, `updated_at`) may be sent back as
    /// read; they are ignored.
    pub struct GuestUpdate {
        /// Given name(s); cannot be null.
        pub first_name: Patch<Line<100>>,
        /// Family name(s); cannot be null.
        pub last_name: Patch<Line<100>>,
        /// E-mail address.
        pub email: MaybeUndefined<Email>,
        /// Phone number.
        pub phone: MaybeUndefined<Phone>,
        /// Date of birth.
        pub birth_date: MaybeUndefined<Date>,
        /// male, female or other.
        pub gender: MaybeUndefined<Gender>,
        /// Nationality, ISO 3166-1 alpha-2.
        pub nationality: MaybeUndefined<Country>,
        /// Place of birth (replaced as a whole).
        pub birth_place: MaybeUndefined<BirthPlace>,
        /// Identity document (replaced as a whole).
        pub document: MaybeUndefined<Document>,
        /// Home address (replaced as a whole).
        pub address: MaybeUndefined<Address>,
        /// What a tourist board asks beyond identity (replaced as a whole).
        pub tourist: MaybeUndefined<Tourist>,
        /// Italian codice fiscale; null clears it.
        pub tax_code: MaybeUndefined<CodiceFiscale>,
        /// The language to write to the guest in: `en`, `it` or `hr`.
        pub language: MaybeUndefined<crate::domain::enums::Language>,
        /// Notes for staff.
        pub notes: MaybeUndefined<Text<4000>>,
    }
    ignore ["id", "version", "created_at", "updated_at"]
}
