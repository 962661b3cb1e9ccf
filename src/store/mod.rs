//! SQL, one module per aggregate. Functions take a `&Connection` to read or a `&Tx` to
//! write; they never open transactions and never know about HTTP.

mod aged;
pub mod board;
pub mod bookings_made;
pub mod calendar;
pub mod channel;
pub mod charges;
pub mod clients;
pub mod codes;
pub mod day_closes;
pub mod desk;
pub mod desk_views;
pub mod einvoices;
pub mod events;
pub mod extras;
pub mod fiscal;
pub mod grants;
pub mod guests;
pub mod history;
pub mod idempotency;
pub mod identity_checks;
pub mod imports;
pub mod invoices;
pub mod jobs;
pub mod kiosk;
pub mod link_keys;
pub mod messages;
pub mod nights_sold;
pub mod numbering;
pub mod page;
pub mod privacy;
pub mod rate_plans;
pub mod rates;
pub mod receipts;
pub mod reports;
mod reservation_row;
pub mod reservations;
pub mod room_types;
pub mod rooms;
pub mod settings;
pub mod staff;
pub mod submissions;
pub mod webhooks;

pub(crate) use aged::Aged;
use rusqlite::Row;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A row's columns by name, their names read once per row: `Row::get(name)` asks SQLite
/// for every column's name on each call, which was a fifth of the invoices list's time.
pub(crate) struct Named<'a> {
    row: &'a Row<'a>,
    names: Vec<&'a str>,
}

impl<'a> Named<'a> {
    /// The row's columns.
    pub(crate) fn new(row: &'a Row<'a>) -> Named<'a> {
        let stmt = row.as_ref();
        let names = (0..stmt.column_count())
            .map(|i| stmt.column_name(i).unwrap_or(""))
            .collect();
        Named { row, names }
    }

    /// The column `name`'s value.
    pub(crate) fn get<T: rusqlite::types::FromSql>(&self, name: &str) -> rusqlite::Result<T> {
        match self.names.iter().position(|n| *n == name) {
            Some(i) => self.row.get(i),
            None => Err(rusqlite::Error::InvalidColumnName(name.to_string())),
        }
    }

    /// The column `name`, JSON text, read as a nested object (its own serde names, not the
    /// API's).
    pub(crate) fn nested<T: DeserializeOwned>(&self, name: &str) -> rusqlite::Result<Option<T>> {
        from_json_text(self.get(name)?)
    }
}

/// Reads a JSON text column into a nested object (its own serde names, not the API's).
fn from_json_text<T: DeserializeOwned>(text: Option<String>) -> rusqlite::Result<Option<T>> {
    let Some(text) = text else { return Ok(None) };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// Writes a nested object as JSON text.
pub(crate) fn nested_text<T: Serialize>(value: &Option<T>) -> Option<String> {
    value.as_ref().and_then(|v| serde_json::to_string(v).ok())
}

/// The query plan's steps for `sql` with `params` on a freshly migrated database (tests
/// that hold a query to its index).
#[cfg(test)]
pub(crate) fn plan_of(sql: &str, params: impl rusqlite::Params) -> Vec<String> {
    let mut conn = rusqlite::Connection::open_in_memory().unwrap();
    crate::db::migrate(&mut conn).unwrap();
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    stmt.query_map(params, |r| r.get(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[cfg(test)]
mod tests {
    use poem_openapi::types::ToJSON;
    use serde_json::json;

    use crate::domain::enums::{DocumentType, FiscalStatus};
    use crate::model::fields::{Country, Int, Line};
    use crate::model::{Address, BillTo, BirthPlace, CityTax, Date, Document, Fiscal, Instant};

    fn pinned<T>(v: &T, stored: serde_json::Value)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + ToJSON,
    {
        let written = serde_json::to_value(v).unwrap();
        assert_eq!(written, stored, "the stored form changed");
        // What earlier versions wrote (the API form, nulls left out) still reads back.
        let api = v.to_json().unwrap();
        let back: T = serde_json::from_value(api).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), stored);
    }

    /// Renaming a field of the API must not change what is stored: these are the names on
    /// disk. Changing one needs a migration.
    #[test]
    fn nested_columns_keep_their_stored_names() {
        let d = Date::parse("2030-01-31").unwrap();
        pinned(
            &Document {
                kind: DocumentType::Passport,
                number: Line("YA1".into()),
                issuing_country: Some(Country("IT".into())),
                issuing_place: None,
                expiry_date: Some(d),
            },
            json!({"type": "passport", "number": "YA1", "issuing_country": "IT",
                   "issuing_place": null, "expiry_date": "2030-01-31"}),
        );
        pinned(
            &BirthPlace {
                country: Some(Country("HR".into())),
                municipality: Some(Line("Split".into())),
                region: None,
            },
            json!({"country": "HR", "municipality": "Split", "region": null}),
        );
        let address = Address {
            line1: Some(Line("Riva 1".into())),
            line2: None,
            city: Some(Line("Split".into())),
            postal_code: Some(Line("21000".into())),
            region: None,
            country: Some(Country("HR".into())),
        };
        let stored_address = json!({"line1": "Riva 1", "line2": null, "city": "Split",
            "postal_code": "21000", "region": null, "country": "HR"});
        pinned(&address, stored_address.clone());
        pinned(
            &BillTo {
                kind: Some(crate::domain::enums::BuyerKind::Person),
                name: Line("Anna Rossi".into()),
                address: Some(address),
                vat_id: None,
                tax_code: None,
                tax_id: None,
                sdi_code: None,
                pec: None,
            },
            json!({"kind": "person", "name": "Anna Rossi", "address": stored_address,
                "vat_id": null, "tax_code": null, "tax_id": null, "sdi_code": null,
                "pec": null}),
        );
        // Invoices issued before the buyer's kind and VAT number read as they were.
        let older: BillTo = serde_json::from_value(
            json!({"name": "Jadran d.o.o.", "address": null, "tax_id": "HR1"}),
        )
        .unwrap();
        assert_eq!(
            (older.kind, older.tax_id.map(|t| t.0)),
            (None, Some("HR1".into()))
        );
        pinned(
            &CityTax {
                amount_per_person_night: Int(150),
                tax_rate: None,
                max_nights: Some(Int(7)),
                exempt_under_age: Some(Int(12)),
            },
            json!({"amount_per_person_night": 150, "tax_rate": null, "max_nights": 7,
                   "exempt_under_age": 12}),
        );
        pinned(
            &Fiscal {
                sent_at: Some(Instant("2026-11-23T10:00:00Z".into())),
                ..Fiscal::new("hr-cis", FiscalStatus::Fiscalized)
            },
            json!({"scheme": "hr-cis", "status": "fiscalized", "local_proof": null,
                   "authority_reference": null, "qr_payload": null,
                   "sent_at": "2026-11-23T10:00:00Z", "last_error": null,
                   "receipt_number": null, "deliver_by": null}),
        );
    }
}
