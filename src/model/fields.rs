//! Input field types that parse instead of validating.
//!
//! Each type enforces one rule when a request body is read (reporting a field error) and
//! describes the same rule in OpenAPI (pattern, length, range, enum), so the spec tells
//! integrators exactly what the server accepts. Below the API edge they are plain values.

use std::borrow::Cow;
use std::marker::PhantomData;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

use crate::domain::rules::{self, Rule};
use crate::error::FieldError;
use crate::model::input::{Errors, FromJson};

/// One line of text without control or invisible formatting characters
/// (`domain::rules::is_invisible_format`), and not blank.
const LINE_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*[^\s\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff][^\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*$";
/// Free text: no control characters except tab and line breaks.
const TEXT_PATTERN: &str = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$";

/// Implements JSON parsing (through a checker) and printing for a string newtype.
macro_rules! string_field {
    (impl [$($gen:tt)*] $ty:ty, $make:expr, $check:expr) => {
        impl<$($gen)*> FromJson for $ty {
            fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
                let s = String::from_json(value, path, errs)?;
                match ($check)(&s) {
                    Ok(()) => Some(($make)(s)),
                    Err(rule) => {
                        errs.push(FieldError::of(path, rule));
                        None
                    }
                }
            }
        }

        impl<$($gen)*> ParseFromJSON for $ty {
            fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
                let mut errs = Vec::new();
                <$ty as FromJson>::from_json(&value.unwrap_or_default(), "", &mut errs)
                    .ok_or_else(|| ParseError::custom(errs.first().map(|e| e.message.clone()).unwrap_or_default()))
            }
        }

        impl<$($gen)*> ToJSON for $ty {
            fn to_json(&self) -> Option<Value> {
                Some(Value::String(self.0.clone()))
            }
        }

        impl<$($gen)*> serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        /// Stored values were checked when they came in; they are read back as they are.
        impl<'de, $($gen)*> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d).map($make)
            }
        }
    };
}

fn string_schema(min: Option<usize>, max: usize, pattern: &str) -> MetaSchema {
    MetaSchema {
        min_length: min,
        max_length: Some(max),
        pattern: Some(pattern.to_string()),
        ..MetaSchema::new("string")
    }
}

/// A non-blank single line of at most `MAX` characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<const MAX: usize>(pub String);
scalar_type!(impl [const MAX: usize] Line<MAX>, format!("line_{MAX}"), string_schema(Some(1), MAX, LINE_PATTERN));
string_field!(impl [const MAX: usize] Line<MAX>, Line, rules::line(MAX));

/// Free text (may be empty, may span lines) of at most `MAX` characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<const MAX: usize>(pub String);
scalar_type!(impl [const MAX: usize] Text<MAX>, format!("text_{MAX}"), string_schema(None, MAX, TEXT_PATTERN));
string_field!(impl [const MAX: usize] Text<MAX>, Text, rules::free_text(MAX));

/// An e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(pub String);
scalar_type!(impl [] Email, "email".to_string(), MetaSchema {
    format: Some("email"),
    ..string_schema(Some(3), 254, r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$")
});
string_field!(impl [] Email, Email, rules::email);

/// A phone number: 5 to 20 digits, with an optional leading `+` and separators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(pub String);
scalar_type!(impl [] Phone, "phone".to_string(), string_schema(Some(5), 40, r"^\+?[ ().-]*([0-9][ ().-]*){5,20}$"));
string_field!(impl [] Phone, Phone, rules::phone);

/// A room-type code: 1 to 16 of `A-Z`, `0-9`, `_`, `-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code(pub String);
scalar_type!(impl [] Code, "room_type_code".to_string(), string_schema(Some(1), 16, "^[A-Z0-9_-]{1,16}$"));
string_field!(impl [] Code, Code, rules::room_type_code);

/// An Italian property's national identification code (CIN): `IT`, the province's and the
/// municipality's ISTAT codes (three digits each), the ISTAT class of the accommodation
/// (two characters) and up to eight random letters and digits, such as `IT039007B1A2B3C4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cin(pub String);
scalar_type!(impl [] Cin, "cin".to_string(), string_schema(Some(11), 18, r"^IT[0-9]{6}[A-Z0-9]{2}[A-Z0-9]{1,8}$"));
string_field!(impl [] Cin, Cin, rules::cin);

/// A KPD 2025 code (Croatia's product classification), `NN.NN.NN`, such as `55.10.00`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kpd(pub String);
scalar_type!(impl [] Kpd, "kpd_code".to_string(), string_schema(Some(8), 8, r"^\d{2}\.\d{2}\.\d{2}$"));
string_field!(impl [] Kpd, Kpd, rules::kpd_code);

/// An Italian codice fiscale of a person, such as `RSSMRA85T10A562S` (spaces removed and
/// upper-cased as typed; its check character verified).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodiceFiscale(pub String);
scalar_type!(impl [] CodiceFiscale, "codice_fiscale".to_string(), string_schema(Some(16), 20, "^[A-Za-z0-9 ]{16,20}$"));
string_field!(impl [] CodiceFiscale, |s: String| CodiceFiscale(crate::domain::italy::normalize(&s)), rules::codice_fiscale);

/// An SdI recipient code (`CodiceDestinatario`), such as `M5UXCR1`; upper-cased as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SdiCode(pub String);
scalar_type!(impl [] SdiCode, "sdi_code".to_string(), string_schema(Some(6), 7, "^[A-Za-z0-9]{6,7}$"));
string_field!(impl [] SdiCode, |s: String| SdiCode(s.trim().to_ascii_uppercase()), rules::sdi_code);

/// The shape of every IANA time zone name (the spec's pattern for `time_zone`).
pub const TIME_ZONE_PATTERN: &str = r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*$";

/// An IANA time zone name, such as `Europe/Rome`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeZone(pub String);

impl Type for TimeZone {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        Cow::Borrowed("TimeZoneName")
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference("TimeZoneName".to_string())
    }

    fn register(registry: &mut Registry) {
        // A string checked against the IANA database the server carries, not an enum of
        // its 597 names: generators choke on aliases such as GMT0 and Etc/GMT-0.
        registry.create_schema::<Self, _>("TimeZoneName".to_string(), |_| MetaSchema {
            description: Some(
                "IANA time zone name, such as Europe/Rome or UTC, validated against the IANA \
                 time zone database the server carries (an unknown name is 422 \
                 invalid_time_zone).",
            ),
            pattern: Some(TIME_ZONE_PATTERN.to_string()),
            min_length: Some(1),
            max_length: Some(64),
            example: Some(Value::String("Europe/Rome".into())),
            ..MetaSchema::new("string")
        });
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(std::iter::once(self))
    }
}

string_field!(impl [] TimeZone, TimeZone, |s: &String| {
    if crate::clock::is_time_zone(s) {
        Ok(())
    } else {
        Err(Rule::new("invalid_time_zone", "must be an IANA time zone such as Europe/Rome"))
    }
});

/// An invoice number series pattern: letters, digits, `-`, `_`, `/` and `{year}`, 1 to 32
/// characters. The schema gives the pattern without `minLength`/`maxLength` (the length is
/// enforced by the rule and said in the description): schemathesis folds length keywords
/// into the pattern and then cannot read the `}` of `{year}` it writes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series(pub String);
scalar_type!(impl [] Series, "invoice_series".to_string(), MetaSchema {
    pattern: Some(r"^([A-Za-z0-9_/-]|[{]year[}])+$".to_string()),
    description: Some("1 to 32 characters: letters, digits, `-`, `_`, `/` and `{year}`."),
    ..MetaSchema::new("string")
});
string_field!(impl [] Series, Series, rules::invoice_series);

/// A named enum-of-strings schema, registered once and referenced.
macro_rules! listed_code {
    ($(#[$m:meta])* $ty:ident, $schema:literal, $list:expr, $check:expr, $doc:literal) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $ty(pub String);

        impl Type for $ty {
            const IS_REQUIRED: bool = true;
            type RawValueType = Self;
            type RawElementValueType = Self;

            fn name() -> Cow<'static, str> {
                Cow::Borrowed($schema)
            }

            fn schema_ref() -> MetaSchemaRef {
                MetaSchemaRef::Reference($schema.to_string())
            }

            fn register(registry: &mut Registry) {
                registry.create_schema::<Self, _>($schema.to_string(), |_| MetaSchema {
                    description: Some($doc),
                    enum_items: $list.split(' ').map(|c| Value::String(c.to_string())).collect(),
                    ..MetaSchema::new("string")
                });
            }

            fn as_raw_value(&self) -> Option<&Self> {
                Some(self)
            }

            fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
                Box::new(std::iter::once(self))
            }
        }

        string_field!(impl [] $ty, $ty, $check);
    };
}

listed_code!(
    /// An ISO 3166-1 alpha-2 country code.
    Country, "CountryCode", rules::COUNTRIES, rules::country,
    "ISO 3166-1 alpha-2 country code, upper case (plus XK for Kosovo)."
);
listed_code!(
    /// An ISO 4217 currency code.
    Currency, "CurrencyCode", rules::CURRENCIES, rules::currency,
    "ISO 4217 currency code, upper case."
);

/// An integer within `MIN..=MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int<const MIN: i64, const MAX: i64>(pub i64);
scalar_type!(impl [const MIN: i64, const MAX: i64] Int<MIN, MAX>, format!("int_{MIN}_{MAX}"), MetaSchema {
    minimum: Some(MIN as f64),
    maximum: Some(MAX as f64),
    ..MetaSchema::new_with_format("integer", "int64")
});

impl<const MIN: i64, const MAX: i64> FromJson for Int<MIN, MAX> {
    fn from_json(value: &Value, path: &str, errs: &mut Errors) -> Option<Self> {
        let n = i64::from_json(value, path, errs)?;
        match rules::range(MIN, MAX)(&n) {
            Ok(()) => Some(Int(n)),
            Err(rule) => {
                errs.push(FieldError::of(path, rule));
                None
            }
        }
    }
}

impl<const MIN: i64, const MAX: i64> ParseFromJSON for Int<MIN, MAX> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        let mut errs = Vec::new();
        Self::from_json(&value.unwrap_or_default(), "", &mut errs)
            .ok_or_else(|| ParseError::custom("out of range"))
    }
}

impl<const MIN: i64, const MAX: i64> ToJSON for Int<MIN, MAX> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::from(self.0))
    }
}

impl<const MIN: i64, const MAX: i64> serde::Serialize for Int<MIN, MAX> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

impl<'de, const MIN: i64, const MAX: i64> serde::Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        i64::deserialize(d).map(Int)
    }
}

impl<const MIN: i64, const MAX: i64> From<Int<MIN, MAX>> for i64 {
    fn from(v: Int<MIN, MAX>) -> i64 {
        v.0
    }
}

/// The type prefix of an id.
pub trait Prefix: Send + Sync + 'static {
    /// Such as `gst`.
    const PREFIX: &'static str;
}

/// A reference to a resource by id, such as `gst_…`.
#[derive(Debug)]
pub struct Id<P: Prefix>(pub String, PhantomData<P>);

impl<P: Prefix> Clone for Id<P> {
    fn clone(&self) -> Self {
        Id(self.0.clone(), PhantomData)
    }
}

scalar_type!(impl [P: Prefix] Id<P>, format!("{}_id", P::PREFIX), MetaSchema {
    description: None,
    ..string_schema(Some(P::PREFIX.len() + 2), 64, &format!("^{}_[0-9a-zA-Z]+$", P::PREFIX))
});
string_field!(impl [P: Prefix] Id<P>, |s| Id(s, PhantomData), rules::id_with_prefix(P::PREFIX));

macro_rules! prefixes {
    ($($(#[$m:meta])* $marker:ident = $p:literal => $alias:ident;)+) => {$(
        #[doc = concat!("Marker for `", $p, "_` ids.")]
        #[derive(Debug)]
        pub struct $marker;
        impl Prefix for $marker {
            const PREFIX: &'static str = $p;
        }
        $(#[$m])*
        pub type $alias = Id<$marker>;
    )+};
}

prefixes! {
    /// A guest id.
    GuestPrefix = "gst" => GuestId;
    /// A room-type id.
    RoomTypePrefix = "rt" => RoomTypeId;
    /// A room id.
    RoomPrefix = "rm" => RoomId;
    /// A reservation id.
    ReservationPrefix = "res" => ReservationId;
    /// An invoice id.
    InvoicePrefix = "inv" => InvoiceId;
    /// A rate plan id.
    RatePlanPrefix = "rp" => RatePlanId;
    /// An extra id.
    ExtraPrefix = "ext" => ExtraId;
}

macro_rules! into_string {
    (impl [$($gen:tt)*] $ty:ty) => {
        impl<$($gen)*> From<$ty> for String {
            fn from(v: $ty) -> String {
                v.0
            }
        }
    };
}

into_string!(impl [const MAX: usize] Line<MAX>);
into_string!(impl [const MAX: usize] Text<MAX>);
into_string!(impl [] Email);
into_string!(impl [] Phone);
into_string!(impl [] Code);
into_string!(impl [] Kpd);
into_string!(impl [] Cin);
into_string!(impl [] CodiceFiscale);
into_string!(impl [] SdiCode);
into_string!(impl [] TimeZone);
into_string!(impl [] Series);
into_string!(impl [] Country);
into_string!(impl [] Currency);
into_string!(impl [P: Prefix] Id<P>);

#[cfg(test)]
mod tests {
    #[test]
    fn every_iana_name_fits_the_time_zone_pattern() {
        let re = regex::Regex::new(super::TIME_ZONE_PATTERN).unwrap();
        for tz in chrono_tz::TZ_VARIANTS {
            assert!(re.is_match(tz.name()), "{}", tz.name());
        }
    }
}
