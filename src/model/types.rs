//! Scalar types shared by every resource: calendar dates, instants and string enums.
//!
//! poem-openapi's own chrono types document non-standard formats (`naive-date`) and print
//! instants with `+00:00`; these print exactly what API.md promises (`YYYY-MM-DD`, and
//! RFC 3339 UTC with `Z`) and document `format: date` / `format: date-time`.

use chrono::NaiveDate;
use poem_openapi::registry::MetaSchema;
use poem_openapi::types::{ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON};
use serde_json::Value;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::domain::calendar::{Duty, DutyState};
use crate::domain::day_close::CheckName;
use crate::domain::enums::{
    ActorKind, BuyerKind, ChannelPayment, DeliveryOutcome, DeviceCodeStatus, DocumentType,
    EInvoiceStatus, FiscalStatus, Gender, HousekeepingStatus, InvoiceKind, InvoiceStatus, JobKind,
    JobStatus, Language, LineKind, PaymentKind, PaymentMethod, ReportBy, RowStatus, Source,
    SubmissionKind, SubmissionStatus,
};
use crate::domain::extras::ExtraUnit;
use crate::domain::policy::{DepositKind, FeeKind};
use crate::domain::pricing::{DerivationKind, Weekday};
use crate::domain::reservation::Status;
use crate::domain::rules::{self, Rule};
use crate::error::FieldError;
use crate::model::input::FromJson;

/// A property-local calendar date, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub NaiveDate);

scalar_type!(impl [] Date, "date".to_string(), MetaSchema::new_with_format("string", "date"));

impl Date {
    /// Parses exactly `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Result<Date, Rule> {
        rules::date(s).map(Date)
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
        let s = String::deserialize(d)?;
        Date::parse(&s).map_err(|r| serde::de::Error::custom(r.message))
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m-%d"))
    }
}

impl ParseFromJSON for Date {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            Some(Value::String(s)) => Date::parse(&s).map_err(|r| ParseError::custom(r.message)),
            _ => Err(ParseError::custom("must be a date written YYYY-MM-DD")),
        }
    }
}

impl ParseFromParameter for Date {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Date::parse(value).map_err(|r| ParseError::custom(r.message))
    }
}

impl ToJSON for Date {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.to_string()))
    }
}

/// An instant, RFC 3339 in UTC with a `Z`, as stored in the database.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Instant(pub String);

scalar_type!(impl [] Instant, "date-time".to_string(), MetaSchema::new_with_format("string", "date-time"));

impl ParseFromJSON for Instant {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            Some(Value::String(s)) if chrono::DateTime::parse_from_rfc3339(&s).is_ok() => {
                Ok(Instant(s))
            }
            _ => Err(ParseError::custom("must be an RFC 3339 instant")),
        }
    }
}

impl ToJSON for Instant {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.clone()))
    }
}

/// Gives the domain's string enums their OpenAPI schema (`enum` of strings), their JSON and
/// query-parameter parsing, and their SQLite mapping.
macro_rules! enum_glue {
    ($($ty:ty),+ $(,)?) => {$(
        scalar_type!(impl [] $ty, stringify!($ty).to_string(), {
            let mut schema = MetaSchema::new("string");
            schema.enum_items = <$ty>::NAMES.iter().map(|n| Value::String(n.to_string())).collect();
            schema
        });

        impl ParseFromJSON for $ty {
            fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
                value
                    .as_ref()
                    .and_then(Value::as_str)
                    .and_then(<$ty>::parse)
                    .ok_or_else(|| ParseError::custom(format!("must be one of {}", <$ty>::choices())))
            }
        }

        impl ParseFromParameter for $ty {
            fn parse_from_parameter(value: &str) -> ParseResult<Self> {
                <$ty>::parse(value)
                    .ok_or_else(|| ParseError::custom(format!("must be one of {}", <$ty>::choices())))
            }
        }

        impl ToJSON for $ty {
            fn to_json(&self) -> Option<Value> {
                Some(Value::String(self.as_str().to_string()))
            }
        }

        impl FromJson for $ty {
            fn from_json(value: &Value, path: &str, errs: &mut Vec<FieldError>) -> Option<Self> {
                let parsed = value.as_str().and_then(<$ty>::parse);
                if parsed.is_none() {
                    errs.push(FieldError::new(
                        path,
                        "invalid_choice",
                        format!("must be one of {}", <$ty>::choices()),
                    ).said("rule-invalid_choice", vec![("list", crate::domain::said::Value::Text(<$ty>::choices()))]));
                }
                parsed
            }
        }

        impl FromSql for $ty {
            fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
                let s = v.as_str()?;
                <$ty>::parse(s).ok_or_else(|| {
                    FromSqlError::Other(format!("unknown {} {s:?}", stringify!($ty)).into())
                })
            }
        }

        impl ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
    )+};
}

enum_glue!(
    BuyerKind,
    ChannelPayment,
    Language,
    Gender,
    DocumentType,
    HousekeepingStatus,
    Source,
    Status,
    PaymentMethod,
    PaymentKind,
    InvoiceKind,
    InvoiceStatus,
    SubmissionKind,
    SubmissionStatus,
    FiscalStatus,
    LineKind,
    EInvoiceStatus,
    RowStatus,
    DeliveryOutcome,
    JobStatus,
    DeviceCodeStatus,
    ActorKind,
    JobKind,
    DerivationKind,
    FeeKind,
    DepositKind,
    Weekday,
    ExtraUnit,
    ReportBy,
    CheckName,
    Duty,
    DutyState
);

impl FromSql for Date {
    fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = v.as_str()?;
        Date::parse(s).map_err(|r| FromSqlError::Other(r.message.into()))
    }
}

impl ToSql for Date {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

impl FromSql for Instant {
    fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
        Ok(Instant(v.as_str()?.to_string()))
    }
}
