//! Guests. List order: last name, first name (case-insensitive), then id.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::nested_text;
use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::error::AppResult;
use crate::model::{Date, Guest};

const ENTITY: &str = "guest";

pub use crate::domain::search::{fold, name_keys, phone_key};

/// The list order key of a guest.
pub fn sort_key(g: &Guest) -> String {
    name_keys(&g.first_name, &g.last_name).1
}

fn name_key(g: &Guest) -> String {
    name_keys(&g.first_name, &g.last_name).0
}

fn map(row: &Row) -> rusqlite::Result<Guest> {
    let r = super::Named::new(row);
    Ok(Guest {
        id: r.get("id")?,
        first_name: r.get("first_name")?,
        last_name: r.get("last_name")?,
        email: r.get("email")?,
        phone: r.get("phone")?,
        birth_date: r.get("birth_date")?,
        gender: r.get("gender")?,
        nationality: r.get("nationality")?,
        birth_place: r.nested("birth_place")?,
        document: r.nested("document")?,
        address: r.nested("address")?,
        tourist: r.nested("tourist")?,
        tax_code: r.get("tax_code")?,
        language: r.get("language")?,
        notes: r.get("notes")?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// One guest.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Guest>> {
    Ok(conn
        .prepare_cached("SELECT * FROM guests WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// Which of `ids` do not exist.
pub fn missing(conn: &Connection, ids: &[String]) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM guests WHERE id = ?1)")?;
    let mut out = Vec::new();
    for id in ids {
        if !stmt.query_row([id], |r| r.get::<_, bool>(0))? {
            out.push(id.clone());
        }
    }
    Ok(out)
}

fn write(tx: &Tx, sql: &str, g: &Guest) -> AppResult<()> {
    tx.prepare_cached(sql)?.execute(rusqlite::named_params! {
        ":id": &g.id,
        ":first_name": &g.first_name,
        ":last_name": &g.last_name,
        ":email": &g.email,
        ":email_key": g.email.as_ref().map(|e| e.to_lowercase()),
        ":phone": &g.phone,
        ":phone_key": g.phone.as_deref().and_then(phone_key),
        ":birth_date": &g.birth_date,
        ":gender": &g.gender,
        ":nationality": &g.nationality,
        ":birth_place": nested_text(&g.birth_place),
        ":document": nested_text(&g.document),
        ":address": nested_text(&g.address),
        ":tourist": nested_text(&g.tourist),
        ":tax_code": &g.tax_code,
        ":language": g.language,
        ":notes": &g.notes,
        ":name_key": name_key(g),
        ":sort_key": sort_key(g),
        ":version": g.version,
        ":created_at": &g.created_at.0,
        ":updated_at": &g.updated_at.0,
    })?;
    Ok(())
}

/// Inserts a guest.
pub fn insert(tx: &Tx, g: &Guest) -> AppResult<()> {
    write(
        tx,
        "INSERT INTO guests (id, first_name, last_name, email, email_key, phone, phone_key, birth_date,
             gender, nationality, birth_place, document, address, tourist, tax_code, language, notes, name_key, sort_key,
             version, created_at, updated_at)
         VALUES (:id, :first_name, :last_name, :email, :email_key, :phone, :phone_key, :birth_date,
             :gender, :nationality, :birth_place, :document, :address, :tourist, :tax_code, :language, :notes, :name_key,
             :sort_key, :version, :created_at, :updated_at)",
        g,
    )
}

/// Stores a changed guest, logging a name change for stable cursors.
pub fn update(tx: &Tx, old: &Guest, g: &Guest) -> AppResult<()> {
    if sort_key(old) != sort_key(g) {
        page::record_move(tx, ENTITY, &g.id, &sort_key(old))?;
    }
    write(
        tx,
        "UPDATE guests SET first_name = :first_name, last_name = :last_name, email = :email,
             email_key = :email_key, phone = :phone, phone_key = :phone_key,
             birth_date = :birth_date, gender = :gender,
             nationality = :nationality, birth_place = :birth_place, document = :document,
             address = :address, tourist = :tourist, tax_code = :tax_code, language = :language, notes = :notes, name_key = :name_key, sort_key = :sort_key,
             version = :version, updated_at = :updated_at, created_at = :created_at
         WHERE id = :id",
        g,
    )
}

/// Guest list filters.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct GuestFilter {
    /// Case-insensitive substring of first, last or full name.
    #[serde(serialize_with = "lowercased")]
    pub name: Option<String>,
    /// Exact e-mail, case-insensitive.
    #[serde(serialize_with = "lowercased")]
    pub email: Option<String>,
    /// A phone number, however written (compared by [`phone_key`]).
    pub phone: Option<String>,
    /// On a (not cancelled) reservation arriving on or after this date.
    pub arrival_from: Option<Date>,
    /// On a (not cancelled) reservation arriving on or before this date.
    pub arrival_to: Option<Date>,
}

/// A case-insensitive filter value in its canonical (lower-case) form, for cursors.
fn lowercased<S: serde::Serializer>(v: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&v.as_ref().map(|t| t.to_lowercase()), s)
}

/// A page of guests.
pub fn list(
    conn: &Connection,
    f: &GuestFilter,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Guest, Position)>> {
    let mut q = ListQuery::new(ENTITY, "guests", "sort_key");
    if let Some(typed) = &f.name {
        // Stored names are searchable without accents too, so the query is folded the same.
        let name = fold(typed);
        if typed.chars().any(char::is_control) || name.chars().any(char::is_control) {
            // No stored name holds a control character (and FTS5 cannot parse a NUL).
            q.filter("0", []);
        } else if name.chars().count() >= 3 {
            // The trigram index finds the (few) guests containing the text; a phrase of
            // trigrams matches exactly the substrings that `instr` would.
            q.filter(
                "t.id IN (SELECT m.guest_id FROM guest_search_rows m WHERE m.n IN \
                   (SELECT rowid FROM guest_names WHERE guest_names MATCH ?))",
                [Value::Text(format!("\"{}\"", name.replace('"', "\"\"")))],
            );
        } else {
            q.filter("instr(t.name_key, ?) > 0", [Value::Text(name)]);
        }
    }
    if let Some(email) = &f.email {
        q.filter("t.email_key = ?", [Value::Text(email.to_lowercase())]);
    }
    if let Some(phone) = &f.phone {
        match phone_key(phone) {
            Some(key) => q.filter("t.phone_key = ?", [Value::Text(key)]),
            None => q.filter("0", []),
        }
    }
    if f.arrival_from.is_some() || f.arrival_to.is_some() {
        let from = f.arrival_from.map(|d| d.to_string()).unwrap_or_default();
        let to = f
            .arrival_to
            .map(|d| d.to_string())
            .unwrap_or_else(|| "9999-12-31".into());
        q.filter(
            "t.id IN (SELECT rg.guest_id FROM reservations r JOIN reservation_guests rg \
               ON rg.reservation_id = r.id \
               WHERE r.arrival BETWEEN ? AND ? AND r.status <> 'cancelled')",
            [Value::Text(from), Value::Text(to)],
        );
    }
    page::fetch(conn, &q, after, as_of, limit, map)
}
