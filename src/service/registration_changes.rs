//! A registered stay after its check-in: a guest's data or the stay's dates changed while in
//! the house (sent again where the scheme takes changes), the guests' departure at check-out,
//! and a check-in undone (the registration withdrawn), each a submission of its own queued in
//! the caller's transaction, after the check-in's on the queue.

use chrono::{DateTime, NaiveDate, Utc};

use super::registration::{checked_in_local, party, payload_of, prepare};
use crate::compliance::{Compliance, PreparedRow, RegistrationScheme};
use crate::db::Tx;
use crate::domain::enums::{RowStatus, SubmissionKind};
use crate::error::{AppError, AppResult, FieldError, Kind};
use crate::model::outcome::NewSubmission;
use crate::model::{Date, Reservation, SubmissionRow};
use crate::store;

/// The rows of each guest of `r`'s current check-in (since the last one undone), the newest
/// per guest, in the order they were sent: those that registered them, or with `refused`
/// also a guest's newest refused row (what was last sent for them).
fn registered_rows(tx: &Tx, r: &Reservation, refused: bool) -> AppResult<Vec<PreparedRow>> {
    let mut rows: Vec<PreparedRow> = Vec::new();
    let withdrawn = store::submissions::of_subject(tx, &r.id, SubmissionKind::GuestWithdrawal)?;
    let since = withdrawn
        .last()
        .map(|w| (w.created_at.0.clone(), w.id.clone()));
    let subs = store::submissions::of_subject(tx, &r.id, SubmissionKind::GuestRegistration)?;
    let current = subs.iter().filter(|s| {
        since
            .as_ref()
            .is_none_or(|w| (s.created_at.0.clone(), s.id.clone()) > *w)
    });
    for row in current.flat_map(|s| &s.rows) {
        if row.status == RowStatus::Rejected && !refused {
            continue;
        }
        let fresh = PreparedRow {
            guest_id: row.guest_id.clone(),
            line: row.line.clone(),
        };
        match rows.iter_mut().find(|x| x.guest_id == row.guest_id) {
            Some(x) => *x = fresh,
            None => rows.push(fresh),
        }
    }
    Ok(rows)
}

/// Queues a submission (`kind`) of `rows` about `r`, recorded for `day` and due by `due`;
/// nothing when there are no rows.
pub(super) fn queue(
    tx: &Tx,
    scheme: &dyn RegistrationScheme,
    r: &Reservation,
    (kind, rows, day): (SubmissionKind, Vec<PreparedRow>, NaiveDate),
    due: DateTime<Utc>,
) -> AppResult<Option<String>> {
    if rows.is_empty() {
        return Ok(None);
    }
    let rows: Vec<SubmissionRow> = rows
        .into_iter()
        .map(|p| SubmissionRow {
            guest_id: p.guest_id,
            line: p.line,
            status: RowStatus::Pending,
            error: None,
        })
        .collect();
    let payload = payload_of(scheme, &rows);
    super::submissions::open(
        tx,
        &NewSubmission {
            kind,
            scheme: scheme.name(),
            subject_id: r.id.clone(),
            due_at: crate::clock::format_instant(due),
            rows,
            payload,
            record_date: Some(Date(day)),
        },
    )
    .map(Some)
}

/// At check-out (an early departure too): the guests reported as gone, due 24 hours later,
/// where the scheme reports departures. Inside the check-out transaction.
pub fn at_check_out(tx: &Tx, c: &Compliance, r: &Reservation) -> AppResult<Option<String>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() {
        return Ok(None);
    }
    let tz = store::settings::get(tx)?.time_zone;
    let local = tx.clock().local_now_in(&tz);
    let rows = scheme.departure(&registered_rows(tx, r, false)?, local);
    let due = tx.clock().now() + chrono::Duration::hours(24);
    let kind = SubmissionKind::GuestDeparture;
    queue(tx, scheme, r, (kind, rows, local.date()), due)
}

/// Who a change that leaves a guest unregistrable is refused for.
#[derive(Debug, Clone, Copy)]
pub enum Strict<'a> {
    /// Nobody: a change to the stay (a room move, a later departure) is never refused; the
    /// guests who can be registered go, the others stay as registered.
    Never,
    /// This guest, whose own data changed (`PUT /v1/guests/{id}`).
    Guest(&'a str),
    /// Any guest of the party (the desk saved their data together).
    Party,
}

/// While a party is in the house: each guest whose registration would now read differently
/// (their data, or the stay's dates, changed) is sent again, where the scheme takes changes;
/// a change that leaves a guest unregistrable is refused as `strict` says (422
/// `registration_incomplete`).
pub fn resend_changed(
    tx: &Tx,
    c: &Compliance,
    r: &Reservation,
    strict: Strict,
) -> AppResult<Option<String>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() || !scheme.resends_changes() {
        return Ok(None);
    }
    let (day, at) = checked_in_local(tx, r)?;
    let registered = registered_rows(tx, r, true)?;
    let mut party = party(tx, r, day, at)?;
    let built = match scheme.prepare(&**tx, &party) {
        Ok(built) => built,
        Err(e) if matches!(strict, Strict::Never) => {
            tracing::warn!(reservation = %r.id, error = %e, "the stay changed; its guests are left as registered");
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    if let Err(problems) = built {
        let refused = match strict {
            Strict::Never => false,
            Strict::Guest(id) => problems.iter().any(|p| p.guest_id == id),
            Strict::Party => true,
        };
        if refused {
            // The service's own wording, with every problem of the party.
            return prepare(tx, scheme, &party).map(|_| None);
        }
        tracing::warn!(reservation = %r.id, guests = problems.len(), "guests in the house who can no longer be registered as they stand are left as registered");
        party
            .guests
            .retain(|g| !problems.iter().any(|p| p.guest_id == g.id));
    }
    let prepared = prepare(tx, scheme, &party)?;
    let changed: Vec<_> = prepared
        .rows
        .into_iter()
        .filter(|p| {
            !registered
                .iter()
                .any(|x| x.guest_id == p.guest_id && x.line == p.line)
        })
        .collect();
    let due = tx.clock().now() + chrono::Duration::hours(24);
    let kind = SubmissionKind::GuestRegistration;
    queue(tx, scheme, r, (kind, changed, day), due)
}

/// A guest's data changed: sent again for every stay they are in the house on; a change
/// that leaves them unregistrable is refused, its errors named as the guest's own fields.
pub fn guest_changed(tx: &Tx, c: &Compliance, guest_id: &str) -> AppResult<()> {
    if !c.registration.resends_changes() {
        return Ok(());
    }
    for r in store::reservations::in_house_with(tx, guest_id)? {
        resend_changed(tx, c, &r, Strict::Guest(guest_id))
            .map_err(|e| as_guests(e, &r, guest_id))?;
    }
    Ok(())
}

/// A refusal of one guest's change: their own errors, by their own field names.
fn as_guests(e: AppError, r: &Reservation, guest_id: &str) -> AppError {
    if e.code != "registration_incomplete" {
        return e;
    }
    let Some(i) = r.guest_ids.iter().position(|g| g == guest_id) else {
        return e;
    };
    let at = format!("guest_ids[{i}].");
    let errors = e
        .errors
        .iter()
        .filter_map(|f| {
            let field = f.field.strip_prefix(&at)?.to_string();
            Some(FieldError { field, ..f.clone() })
        })
        .collect();
    AppError::new(
        Kind::Unprocessable,
        "registration_incomplete",
        format!(
            "This guest is in the house on booking {}, registered with the tourist board; this change would \
             leave them unregistrable, so nothing was changed. See errors.",
            r.code
        ),
    )
    .with_errors(errors)
}

/// A check-in undone: every registered guest withdrawn, where the scheme withdraws.
pub fn withdraw(tx: &Tx, c: &Compliance, r: &Reservation) -> AppResult<Option<String>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() {
        return Ok(None);
    }
    let reason = "Check-in undone at the front desk (entered by mistake)";
    let rows = scheme.withdrawal(&registered_rows(tx, r, false)?, reason);
    let (day, _) = checked_in_local(tx, r)?;
    let due = tx.clock().now() + chrono::Duration::hours(24);
    queue(
        tx,
        scheme,
        r,
        (SubmissionKind::GuestWithdrawal, rows, day),
        due,
    )
}
