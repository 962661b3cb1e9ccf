//! A registered stay after its check-in: a guest's data or the stay's dates changed while in
//! the house (sent again where the scheme takes changes), the guests' departure at check-out,
//! and a check-in undone (the registration withdrawn), each a submission of its own queued in
//! the caller's transaction, after the check-in's on the queue.

use chrono::{DateTime, NaiveDate, Utc};

use super::registration::{checked_in_local, party, payload_of, prepare};
use crate::compliance::{Compliance, PreparedRow, RegistrationScheme};
use crate::db::Tx;
use crate::domain::enums::{RowStatus, SubmissionKind};
use crate::error::AppResult;
use crate::model::outcome::NewSubmission;
use crate::model::{Date, Reservation, SubmissionRow};
use crate::store;

/// The rows that registered each guest of `r` (the newest not refused per guest), in the
/// order they were sent.
fn registered_rows(tx: &Tx, r: &Reservation) -> AppResult<Vec<PreparedRow>> {
    let mut rows: Vec<PreparedRow> = Vec::new();
    let subs = store::submissions::of_subject(tx, &r.id, SubmissionKind::GuestRegistration)?;
    for row in subs.iter().flat_map(|s| &s.rows) {
        if row.status == RowStatus::Rejected {
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
    let rows = scheme.departure(&registered_rows(tx, r)?, local);
    let due = tx.clock().now() + chrono::Duration::hours(24);
    let kind = SubmissionKind::GuestDeparture;
    queue(tx, scheme, r, (kind, rows, local.date()), due)
}

/// While a party is in the house: each guest whose registration would now read differently
/// (their data, or the stay's dates, changed) is sent again, where the scheme takes changes.
/// A guest's data changed so that it can no longer be registered is refused (`strict`: 422
/// `registration_incomplete`); a change to the stay (a room move, a later departure) never
/// is: the guests then go as they can, and the rest is left as registered.
pub fn resend_changed(
    tx: &Tx,
    c: &Compliance,
    r: &Reservation,
    strict: bool,
) -> AppResult<Option<String>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() || !scheme.resends_changes() {
        return Ok(None);
    }
    let (day, at) = checked_in_local(tx, r)?;
    let registered = registered_rows(tx, r)?;
    let party = party(tx, r, day, at)?;
    let prepared = match prepare(tx, scheme, &party) {
        Ok(p) => p,
        Err(e) if strict => return Err(e),
        Err(e) => {
            tracing::warn!(reservation = %r.id, error = %e, "the stay changed but its guests cannot be registered again as they stand");
            return Ok(None);
        }
    };
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

/// A guest's data changed: sent again for every stay they are in the house on.
pub fn guest_changed(tx: &Tx, c: &Compliance, guest_id: &str) -> AppResult<()> {
    if !c.registration.resends_changes() {
        return Ok(());
    }
    for r in store::reservations::in_house_with(tx, guest_id)? {
        resend_changed(tx, c, &r, true)?;
    }
    Ok(())
}

/// A check-in undone: every registered guest withdrawn, where the scheme withdraws.
pub fn withdraw(tx: &Tx, c: &Compliance, r: &Reservation) -> AppResult<Option<String>> {
    let scheme = c.registration.as_ref();
    if !scheme.enabled() {
        return Ok(None);
    }
    let reason = "Check-in undone at the front desk (entered by mistake)";
    let rows = scheme.withdrawal(&registered_rows(tx, r)?, reason);
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
