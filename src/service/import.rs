//! Moving in from another system: guests and reservations from CSV rows, all or nothing.
//!
//! Every row goes through the same use case as `POST /v1/guests` or `POST /v1/reservations`
//! (the same rules, events and availability), inside one transaction: when any row is bad,
//! or on a dry run, the transaction is rolled back and the report lists every bad row with
//! its line number and reason. A row whose `external_id` was imported before is skipped, so
//! importing a file again adds nothing.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::db::Tx;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, Kind as ErrorKind};
use crate::model::input::FromJson;
use crate::model::{Actor, GuestCreate, Principal, ReservationCreate};
use crate::service::{Services, guests, reservations};
use crate::store;

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Guests.
    Guests,
    /// Reservations (of guests imported before).
    Reservations,
}

/// The guests file's columns and where each goes in `POST /v1/guests`.
pub const GUEST_COLUMNS: &[(&str, &str)] = &[
    ("external_id", ""),
    ("first_name", "first_name"),
    ("last_name", "last_name"),
    ("email", "email"),
    ("phone", "phone"),
    ("birth_date", "birth_date"),
    ("gender", "gender"),
    ("nationality", "nationality"),
    ("tax_code", "tax_code"),
    ("birth_country", "birth_place.country"),
    ("birth_municipality", "birth_place.municipality"),
    ("birth_region", "birth_place.region"),
    ("document_type", "document.type"),
    ("document_number", "document.number"),
    ("document_country", "document.issuing_country"),
    ("document_place", "document.issuing_place"),
    ("document_expiry", "document.expiry_date"),
    ("address_line1", "address.line1"),
    ("address_line2", "address.line2"),
    ("city", "address.city"),
    ("postal_code", "address.postal_code"),
    ("region", "address.region"),
    ("country", "address.country"),
    ("notes", "notes"),
];

/// The reservations file's columns and where each goes in `POST /v1/reservations`
/// (`guest_external_id`, `room_type` and `room` are looked up first).
pub const RESERVATION_COLUMNS: &[(&str, &str)] = &[
    ("external_id", ""),
    ("guest_external_id", "primary_guest_id"),
    ("room_type", "room_type_id"),
    ("room", "room_id"),
    ("arrival", "arrival"),
    ("departure", "departure"),
    ("adults", "adults"),
    ("children", "children"),
    ("nightly_rate", "nightly_rate"),
    ("currency", "currency"),
    ("source", "source"),
    ("notes", "notes"),
    ("status", ""),
];

impl Kind {
    /// The file's columns.
    pub fn columns(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Kind::Guests => GUEST_COLUMNS,
            Kind::Reservations => RESERVATION_COLUMNS,
        }
    }

    /// The columns every file must have.
    pub fn required(self) -> &'static [&'static str] {
        match self {
            Kind::Guests => &["external_id", "first_name", "last_name"],
            Kind::Reservations => &[
                "external_id",
                "guest_external_id",
                "room_type",
                "arrival",
                "departure",
                "adults",
            ],
        }
    }

    fn record(self) -> &'static str {
        match self {
            Kind::Guests => "guest",
            Kind::Reservations => "reservation",
        }
    }
}

/// One row: its line in the file and its values by column name.
#[derive(Debug, Clone)]
pub struct Row {
    /// The line number in the file (the header is line 1).
    pub line: u64,
    /// Values by (documented) column name; blank cells are absent.
    pub values: BTreeMap<String, String>,
}

/// A row that cannot be imported.
#[derive(Debug, Clone, Serialize)]
pub struct Bad {
    /// Its line in the file.
    pub line: u64,
    /// Why, naming the columns.
    pub reason: String,
}

/// What an import did (or, on a dry run or with bad rows, would have done).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Guests or reservations.
    pub kind: Kind,
    /// Rows read.
    pub rows: usize,
    /// Rows that became new records.
    pub created: usize,
    /// Rows imported before (same `external_id`), left alone.
    pub already_imported: usize,
    /// Reservation rows whose `status` is not `confirmed` (over or cancelled), left out:
    /// only bookings still to come move in.
    pub not_confirmed: usize,
    /// Bad rows, every one.
    pub bad: Vec<Bad>,
    /// Whether anything was written (false on a dry run or when any row was bad).
    pub written: bool,
}

/// Imports `rows` (all or nothing); `done` counts the rows handled, for a progress bar.
pub async fn run(
    svc: &Services,
    p: &Principal,
    kind: Kind,
    rows: Vec<Row>,
    dry_run: bool,
    done: Arc<AtomicUsize>,
) -> AppResult<Report> {
    p.require(Scope::GuestsWrite)?;
    if kind == Kind::Reservations {
        p.require(Scope::ReservationsWrite)?;
    }
    let actor = p.actor.clone();
    let kept: Arc<Mutex<Option<Report>>> = Arc::default();
    let out = kept.clone();
    let result = svc
        .db()
        .write(move |tx| {
            let mut report = Report {
                kind,
                rows: rows.len(),
                created: 0,
                already_imported: 0,
                not_confirmed: 0,
                bad: Vec::new(),
                written: false,
            };
            // Reservations made by earlier rows, by code: a refusal that names one says
            // which line it came from (the code itself goes when the file is rolled back).
            let mut made: Vec<(String, u64)> = Vec::new();
            for row in &rows {
                match one(tx, &actor, kind, row)? {
                    Outcome::Created(code) => {
                        report.created += 1;
                        made.extend(code.map(|c| (c, row.line)));
                    }
                    Outcome::Known => report.already_imported += 1,
                    Outcome::NotConfirmed => report.not_confirmed += 1,
                    Outcome::Bad(mut reason) => {
                        for (code, line) in &made {
                            reason = reason.replace(
                                &format!("reservation {code}"),
                                &format!("the reservation of line {line}"),
                            );
                        }
                        report.bad.push(Bad {
                            line: row.line,
                            reason,
                        });
                    }
                }
                done.fetch_add(1, Ordering::Relaxed);
            }
            report.written = !dry_run && report.bad.is_empty();
            let written = report.written;
            *out.lock()
                .map_err(|_| AppError::internal("import report lost"))? = Some(report.clone());
            if written {
                Ok(report)
            } else {
                // Rolls this transaction back: nothing of the file is kept.
                Err(AppError::conflict("import_not_written", "rolled back"))
            }
        })
        .await;
    match result {
        Ok(report) => Ok(report),
        Err(e) if e.code == "import_not_written" => kept
            .lock()
            .ok()
            .and_then(|mut r| r.take())
            .ok_or_else(|| AppError::internal("import report lost")),
        Err(e) => Err(e),
    }
}

enum Outcome {
    /// Created (with the reservation's code).
    Created(Option<String>),
    Known,
    NotConfirmed,
    Bad(String),
}

/// Imports one row inside the file's transaction.
fn one(tx: &Tx, actor: &Actor, kind: Kind, row: &Row) -> AppResult<Outcome> {
    let Some(external) = row.values.get("external_id") else {
        return Ok(Outcome::Bad("external_id is required".into()));
    };
    if store::imports::find(tx, kind.record(), external)?.is_some() {
        return Ok(Outcome::Known);
    }
    if row.values.get("status").is_some_and(|s| s != "confirmed") {
        return Ok(Outcome::NotConfirmed);
    }
    let mut json = match shape(kind.columns(), &row.values) {
        Ok(j) => j,
        Err(reason) => return Ok(Outcome::Bad(reason)),
    };
    if kind == Kind::Reservations
        && let Err(reason) = look_up(tx, &mut json, &row.values)?
    {
        return Ok(Outcome::Bad(reason));
    }
    let mut errs = Vec::new();
    let created = match kind {
        Kind::Guests => match GuestCreate::from_json(&json, "", &mut errs) {
            Some(input) if errs.is_empty() => {
                guests::create_in(tx, actor, input).map(|g| (g.id, None))
            }
            _ => return Ok(Outcome::Bad(said(kind, &errs))),
        },
        Kind::Reservations => match ReservationCreate::from_json(&json, "", &mut errs) {
            Some(input) if errs.is_empty() => {
                reservations::create_in(tx, actor, input).map(|r| (r.id, Some(r.code)))
            }
            _ => return Ok(Outcome::Bad(said(kind, &errs))),
        },
    };
    match created {
        Ok((id, code)) => {
            store::imports::insert(tx, kind.record(), external, &id)?;
            Ok(Outcome::Created(code))
        }
        Err(e) if !e.errors.is_empty() => Ok(Outcome::Bad(said(kind, &e.errors))),
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::Conflict | ErrorKind::NotFound | ErrorKind::BadRequest
            ) =>
        {
            Ok(Outcome::Bad(e.detail.clone()))
        }
        Err(e) => Err(e),
    }
}

/// The API's JSON body for a row: columns to their (dotted) fields, numbers as numbers.
fn shape(columns: &[(&str, &str)], values: &BTreeMap<String, String>) -> Result<Value, String> {
    let mut root = Map::new();
    for (column, path) in columns.iter().filter(|(_, p)| !p.is_empty()) {
        let Some(raw) = values.get(*column) else {
            continue;
        };
        let value = match *column {
            "adults" | "children" => raw
                .parse::<i64>()
                .map_or_else(|_| Value::from(raw.as_str()), Value::from),
            "nightly_rate" => match crate::domain::money::parse_amount(raw) {
                Some(n) => Value::from(n),
                None => {
                    return Err(format!(
                        "nightly_rate {raw:?} is not an amount; write it as 95 or 95.50"
                    ));
                }
            },
            _ => Value::from(raw.as_str()),
        };
        let mut at = &mut root;
        let mut parts = path.split('.').peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                at.insert(part.to_string(), value.clone());
            } else {
                let entry = at
                    .entry(part.to_string())
                    .or_insert_with(|| Value::Object(Map::new()));
                let Value::Object(inner) = entry else { break };
                at = inner;
            }
        }
    }
    Ok(Value::Object(root))
}

/// Replaces the reservation row's guest, room type and room by their ids.
fn look_up(
    tx: &Tx,
    json: &mut Value,
    values: &BTreeMap<String, String>,
) -> AppResult<Result<(), String>> {
    let find = |what: &str| values.get(what).map(String::as_str).unwrap_or_default();
    let guest = store::imports::find(tx, "guest", find("guest_external_id"))?;
    let Some(guest) = guest else {
        return Ok(Err(format!(
            "guest_external_id {:?} is no guest imported before (import the guests file first)",
            find("guest_external_id")
        )));
    };
    json["primary_guest_id"] = Value::from(guest);
    let Some(room_type) = store::room_types::id_by_code(tx, find("room_type"))? else {
        return Ok(Err(format!(
            "room_type {:?} is no room type's code here",
            find("room_type")
        )));
    };
    json["room_type_id"] = Value::from(room_type);
    if let Some(number) = values.get("room") {
        let Some(room) = store::rooms::id_by_number(tx, number)? else {
            return Ok(Err(format!("room {number:?} is no room here")));
        };
        json["room_id"] = Value::from(room);
    }
    Ok(Ok(()))
}

/// Field errors in the file's words: the column each field came from.
fn said(kind: Kind, errs: &[crate::error::FieldError]) -> String {
    errs.iter()
        .map(|e| {
            let column = kind
                .columns()
                .iter()
                .find(|(_, path)| *path == e.field)
                .map_or(e.field.as_str(), |(c, _)| c);
            format!("{column} {}", e.message)
        })
        .collect::<Vec<_>>()
        .join("; ")
}
