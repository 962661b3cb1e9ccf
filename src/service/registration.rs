//! Guest registration as the stay sees it: the check-in gate, the submission written in the
//! check-in transaction (payload and hash before anything is sent), rebuilding rejected rows
//! after the guests' data was fixed, and the day's manual-upload file.

use chrono::{DateTime, NaiveDate, Utc};

use crate::compliance::{Compliance, Party, Prepared, Problem, RegistrationScheme};
use crate::db::{Db, Tx};
use crate::domain::enums::{RowStatus, SubmissionKind, SubmissionStatus};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError, Kind};
use crate::model::Principal;
use crate::model::{Date, Registration, Reservation, SubmissionRow};
use crate::service::Services;
use crate::store;

/// The party of a reservation arriving on `arrival` at `arrived_at` (property-local).
pub fn party(
    tx: &rusqlite::Connection,
    r: &Reservation,
    arrival: NaiveDate,
    arrived_at: chrono::NaiveTime,
) -> AppResult<Party> {
    let mut guests = Vec::with_capacity(r.guest_ids.len());
    for id in &r.guest_ids {
        guests.extend(store::guests::get(tx, id)?);
    }
    Ok(Party {
        reservation: r.clone(),
        guests,
        arrival,
        arrived_at,
        undone: store::submissions::of_subject(tx, &r.id, SubmissionKind::GuestWithdrawal)?.len(),
        departure: r.departure.0,
    })
}

/// The property-local day and time a reservation checked in (now, if it has not).
pub(super) fn checked_in_local(
    tx: &Tx,
    r: &Reservation,
) -> AppResult<(NaiveDate, chrono::NaiveTime)> {
    let tz = store::settings::get(tx)?.time_zone;
    let at = r
        .checked_in_at
        .as_ref()
        .and_then(|at| crate::clock::local_time(&at.0, &tz));
    Ok(at.unwrap_or_else(|| {
        let now = tx.clock().local_now_in(&tz);
        (now.date(), now.time())
    }))
}

/// 422 `registration_incomplete`, listing each guest's missing or unusable fields.
fn incomplete(scheme: &dyn RegistrationScheme, party: &Party, problems: Vec<Problem>) -> AppError {
    let errors = problems
        .iter()
        .map(|p| {
            let g = &party.guests[p.guest_index];
            let name = format!("{} {}", g.first_name, g.last_name);
            let mut values = p.said.values.clone();
            values.retain(|(n, _)| *n != "guest");
            values.insert(0, ("guest", crate::domain::said::Value::Text(name.clone())));
            FieldError::new(
                format!("guest_ids[{}].{}", p.guest_index, p.field),
                p.rule,
                format!("{name}: {}", p.message),
            )
            .said(p.said.key, values)
        })
        .collect();
    // Problems come guest by guest, in party order.
    let per_guest: Vec<serde_json::Value> = problems
        .chunk_by(|a, b| a.guest_index == b.guest_index)
        .map(|g| {
            let missing: Vec<&str> = g.iter().map(|p| p.field.as_str()).collect();
            serde_json::json!({"guest_id": g[0].guest_id, "missing": missing})
        })
        .collect();
    AppError::new(
        Kind::Unprocessable,
        "registration_incomplete",
        format!(
            "Guest registration ({}) needs more data before check-in; see errors.",
            scheme.name()
        ),
    )
    .with_errors(errors)
    .with_extension("guests", per_guest.into())
}

/// What the registration of each arriving reservation in `ids` still lacks, read without
/// changing anything: (reservation id, its problems), none when it is complete. Empty when
/// no registration scheme is on.
pub async fn gaps(
    svc: &Services,
    p: &Principal,
    ids: Vec<String>,
) -> AppResult<Vec<(String, Vec<Problem>)>> {
    p.require(Scope::ReservationsRead)?;
    let scheme = svc.compliance().registration.clone();
    if !scheme.enabled() {
        return Ok(Vec::new());
    }
    svc.db()
        .read(move |c| {
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                let Some(r) = store::reservations::get(c, &id)? else {
                    continue;
                };
                let noon = chrono::NaiveTime::from_hms_opt(12, 0, 0).unwrap_or_default();
                let party = party(c, &r, r.arrival.0, noon)?;
                // Tables not loaded yet are said at check-in itself, not here.
                let problems = match scheme.prepare(c, &party) {
                    Ok(built) => built.err().unwrap_or_default(),
                    Err(e) if e.kind == Kind::Conflict => Vec::new(),
                    Err(e) => return Err(e),
                };
                out.push((id, problems));
            }
            Ok(out)
        })
        .await
}

/// Validates and builds the party's rows, or answers 422 `registration_incomplete`.
pub(super) fn prepare(
    tx: &Tx,
    scheme: &dyn RegistrationScheme,
    party: &Party,
) -> AppResult<Prepared> {
    scheme
        .prepare(&**tx, party)?
        .map_err(|p| incomplete(scheme, party, p))
}

/// The check-in gate: the submission (queued with its job), or nothing when disabled.
pub fn at_check_in(
    tx: &Tx,
    c: &Compliance,
    r: &Reservation,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> AppResult<Option<Registration>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() {
        return Ok(None);
    }
    // The time the check-in records (`checked_in_at` is this same `now`), so that a guest
    // sent again later reads the same arrival.
    let tz = store::settings::get(tx)?.time_zone;
    let at = crate::clock::local_time(&crate::clock::format_instant(now), &tz)
        .map_or_else(|| tx.clock().local_now_in(&tz).time(), |(_, t)| t);
    let party = party(tx, r, today, at)?;
    let prepared = prepare(tx, scheme, &party)?;
    let due = scheme.due_at(&party, now);
    let what = (SubmissionKind::GuestRegistration, prepared.rows, today);
    let Some(id) = super::registration_changes::queue(tx, scheme, r, what, due)? else {
        return Ok(None);
    };
    Ok(Some(Registration {
        status: SubmissionStatus::Queued,
        submission_id: id,
    }))
}

/// The payload of the rows: the authority's file, as persisted and hashed.
pub fn payload_of(scheme: &dyn RegistrationScheme, rows: &[SubmissionRow]) -> String {
    let lines: Vec<String> = rows.iter().map(|r| r.line.clone()).collect();
    scheme.export(&lines)
}

/// Rebuilds the rows not yet accepted from the guests' current data (after a rejection).
/// Members of a family or group are only taken right after their head, so when a member
/// goes again after its head was accepted, the head's row goes again too; returns whether
/// that happened (the caller logs why).
pub fn rebuild(
    tx: &Tx,
    scheme: &dyn RegistrationScheme,
    rows: &mut [SubmissionRow],
    subject_id: &str,
    day: NaiveDate,
) -> AppResult<bool> {
    let r = store::reservations::get(tx, subject_id)?
        .ok_or_else(|| AppError::not_found("reservation", subject_id))?;
    if r.status == crate::domain::reservation::Status::Confirmed {
        return Err(AppError::new(
            Kind::Conflict,
            "invalid_state_transition",
            "The check-in of this stay was undone, so its guests are not registered again; \
             they are registered when the stay is checked in again.",
        ));
    }
    let (_, at) = checked_in_local(tx, &r)?;
    let party = party(tx, &r, day, at)?;
    let prepared = prepare(tx, scheme, &party)?;
    let fresh = |id: &str| {
        prepared
            .rows
            .iter()
            .find(|p| p.guest_id == id)
            .map(|p| p.line.clone())
    };
    let mut member_again = false;
    for row in rows.iter_mut().filter(|r| r.status != RowStatus::Accepted) {
        if let Some(line) = fresh(&row.guest_id) {
            row.line = line;
        }
        member_again |= matches!(row.line.get(0..2), Some("19" | "20"));
        row.status = RowStatus::Pending;
        row.error = None;
    }
    let head_again = member_again
        && rows
            .first()
            .is_some_and(|h| h.status == RowStatus::Accepted);
    if head_again && let Some(head) = rows.first_mut() {
        if let Some(line) = fresh(&head.guest_id) {
            head.line = line;
        }
        head.status = RowStatus::Pending;
    }
    Ok(head_again)
}

/// The day's rows not yet accepted (or all of them, with `all`) as the manual-upload file,
/// with how many rows it holds.
pub async fn export(
    svc: &Services,
    p: &Principal,
    day: NaiveDate,
    all: bool,
) -> AppResult<(String, usize)> {
    p.require(Scope::Compliance)?;
    let db = svc.db();
    let c = svc.compliance();
    let scheme = c.registration.clone();
    db.read(move |conn| {
        let subs = store::submissions::for_record_date(
            conn,
            SubmissionKind::GuestRegistration,
            Date(day),
        )?;
        let lines: Vec<String> = subs
            .iter()
            .filter(|s| s.scheme == scheme.name())
            .flat_map(|s| s.rows.iter())
            .filter(|r| all || r.status != RowStatus::Accepted)
            .map(|r| r.line.clone())
            .collect();
        let n = lines.len();
        Ok((scheme.export(&lines), n))
    })
    .await
}

/// Imports an official code table (replacing the loaded one); returns how many rows.
pub async fn import_table(db: &Db, table: &str, text: String, source: String) -> AppResult<usize> {
    use crate::compliance::{codes, evisitor::tables as evisitor};
    let (scheme, table, rows) = if let Some(table) = codes::table_name(table) {
        let rows = codes::parse_table(table, &text)
            .map_err(|rule| AppError::validation(vec![FieldError::of("file", rule)]))?;
        (crate::compliance::alloggiati::party::SCHEME, table, rows)
    } else if let Some(table) = evisitor::table_name(table) {
        let rows = evisitor::parse(table, &text)
            .map_err(|why| AppError::invalid_field("file", "invalid_table", why))?;
        (evisitor::SCHEME, table, rows)
    } else {
        let all: Vec<&str> = codes::TABLES
            .iter()
            .chain(&evisitor::TABLES)
            .copied()
            .collect();
        return Err(AppError::invalid_field(
            "table",
            "invalid_value",
            format!("must be one of {}", all.join(", ")),
        ));
    };
    let sha = crate::domain::digest::sha256_hex(text.as_bytes());
    let n = rows.len();
    db.write(move |tx| store::codes::replace(tx, scheme, table, &rows, &sha, &source))
        .await?;
    Ok(n)
}

/// A municipality the registration scheme knows, as a place picker offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Its name as people write it ("Reggio Emilia"): what the form is given.
    pub name: String,
    /// Its province ("RE").
    pub province: String,
}

/// Up to 20 current municipalities of the imported places table whose name starts with
/// what was typed (accents, case and punctuation aside), for a principal who may write
/// guests. None when registration is off or nothing usable was typed.
pub async fn places(svc: &Services, p: &Principal, typed: &str) -> AppResult<Vec<Place>> {
    p.require(Scope::GuestsWrite)?;
    let prefix = crate::model::codes::name_key(typed);
    if prefix.chars().count() < 2 || !svc.compliance().registration.enabled() {
        return Ok(Vec::new());
    }
    let table = (
        crate::compliance::alloggiati::party::SCHEME,
        crate::compliance::codes::PLACES,
    );
    let found = svc
        .db()
        .read(move |c| {
            let states = crate::compliance::codes::STATE_PROVINCE;
            store::codes::starting(c, table, (&prefix, states), 20)
        })
        .await?;
    Ok(found
        .into_iter()
        .map(|(name, province)| Place {
            name: crate::domain::search::title_case(&name),
            province,
        })
        .collect())
}
