//! Compliance submissions as the front desk and integrators see them: the list (what is
//! pending and how long is left), one submission with its exchange log, and retry.

use chrono::{DateTime, Utc};

use crate::clock::format_instant;
use crate::compliance::RegistrationScheme;
use crate::db::{Db, Tx};
use crate::domain::enums::{RowStatus, SubmissionKind, SubmissionStatus};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::model::Submission;
use crate::model::outcome::NewSubmission;
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::service::authority::{move_to, note};
use crate::service::registration::{payload_of, rebuild};
use crate::service::{Page, PageRequest, page};
use crate::store;

/// Submission kinds.
pub const KINDS: &[&str] = SubmissionKind::NAMES;
/// Submission statuses.
pub const STATUSES: &[&str] = SubmissionStatus::NAMES;

/// How long before its deadline an undelivered submission is flagged `due_soon`.
pub const DUE_SOON: chrono::Duration = chrono::Duration::hours(24);

/// Stores a new submission and queues the job that sends it, in the caller's transaction:
/// the one way every scheme's submissions enter the queue. Returns its id.
pub fn open(tx: &Tx, s: &NewSubmission) -> AppResult<String> {
    open_at(tx, s, &tx.now_text())
}

/// [`open`], its job first run at `run_at` (such as a monthly report's first day).
pub fn open_at(tx: &Tx, s: &NewSubmission, run_at: &str) -> AppResult<String> {
    let id = store::submissions::insert(tx, s)?;
    store::jobs::enqueue(tx, s.kind.job(), &id, "{}", run_at)?;
    Ok(id)
}

fn with_overdue(mut s: Submission, now: DateTime<Utc>) -> Submission {
    let open = s.status != SubmissionStatus::Accepted;
    s.overdue = open && s.due_at.0 < format_instant(now);
    s.due_soon = open && !s.overdue && s.due_at.0 < format_instant(now + DUE_SOON);
    s
}

/// A page of submissions, oldest first.
pub async fn list(
    svc: &Services,
    p: &Principal,
    kinds: Vec<String>,
    statuses: Vec<String>,
    req: PageRequest,
) -> AppResult<Page<Submission>> {
    p.require(Scope::Compliance)?;
    let db = svc.db();
    let now = db.clock().now();
    let mut p = page(db, req, move |c, after, as_of, limit| {
        store::submissions::list(c, &kinds, &statuses, after, as_of, limit)
    })
    .await?;
    p.items = p
        .items
        .into_iter()
        .map(|(s, pos)| (with_overdue(s, now), pos))
        .collect();
    Ok(p)
}

/// Submissions by kind and status with how many are past or near their deadline.
pub async fn deadlines(db: &Db) -> AppResult<Vec<store::submissions::Counts>> {
    let now = db.clock().now();
    let (at, soon) = (format_instant(now), format_instant(now + DUE_SOON));
    db.read(move |c| store::submissions::counts(c, &at, &soon))
        .await
}

/// One submission with its exchange log.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Submission> {
    p.require(Scope::Compliance)?;
    let db = svc.db();
    let now = db.clock().now();
    db.read(move |c| {
        let mut s = store::submissions::get(c, &id)?
            .ok_or_else(|| AppError::not_found("submission", &id))?;
        s.exchanges = Some(store::submissions::exchanges(c, &id)?);
        Ok(with_overdue(s, now))
    })
    .await
}

/// Sends a submission again. `retrying`: the next attempt is brought forward to now.
/// `rejected`, `manual_required` or `unknown`: queued again, and the log says an operator
/// asked for it; for a registration the refused rows are first rebuilt from the guests'
/// current data (422 `registration_incomplete` while still incomplete), for a fiscal
/// receipt the sealed receipt goes again as it is (late, with a new message id), for a
/// change of payment method the same report goes again. Anything
/// else, or a scheme no longer configured, is 409.
pub async fn retry(svc: &Services, p: &Principal, id: String) -> AppResult<Submission> {
    p.require(Scope::Compliance)?;
    let db = svc.db();
    let c = svc.compliance();
    let scheme = c.registration.clone();
    let fiscal = c.fiscal.name();
    let einvoice = c.einvoice.name();
    let sid = id.clone();
    db.write(move |tx| {
        let mut s = store::submissions::get(tx, &id)?
            .ok_or_else(|| AppError::not_found("submission", &id))?;
        let is_receipt = s.kind == SubmissionKind::FiscalReceipt;
        let is_change = s.kind == SubmissionKind::FiscalPaymentChange;
        let is_einvoice = matches!(
            s.kind,
            SubmissionKind::EInvoice | SubmissionKind::EInvoicePayments
        );
        let configured = if is_receipt || is_change {
            fiscal
        } else if is_einvoice {
            einvoice
        } else {
            scheme.name()
        };
        if s.scheme != configured {
            return Err(AdminRefusal::SchemeGone {
                scheme: s.scheme.clone(),
            }.into());
        }
        match s.status {
            SubmissionStatus::Retrying => return store::jobs::run_now(tx, &id).map(drop),
            SubmissionStatus::Rejected
            | SubmissionStatus::ManualRequired
            | SubmissionStatus::Unknown => {}
            other => {
                return Err(AdminRefusal::NotRetryable {
                    status: other.to_string(),
                }
                .into());
            }
        }
        let (why, payload) = if is_einvoice {
            // The document (or the payment report) never changes: it goes again as it is,
            // looked up first at the intermediary in case an earlier attempt arrived.
            let payload = store::submissions::payload(tx, &s.id)?.unwrap_or_default();
            let why = "retry requested by an operator: sent again as issued, after looking it up at the intermediary";
            (why, payload)
        } else if is_change {
            let payload = store::submissions::payload(tx, &s.id)?.unwrap_or_default();
            let why = "retry requested by an operator: the change of payment method is reported again";
            (why, payload)
        } else if is_receipt {
            let payload = store::fiscal::receipt(tx, &s.subject_id)?.ok_or_else(|| {
                AppError::internal(format!("the receipt of {} vanished", s.subject_id))
            })?;
            let why = "retry requested by an operator: the sealed receipt is delivered again, late, with a new message id";
            (why, payload)
        } else {
            let why = requeue_rows(tx, scheme.as_ref(), &mut s)?;
            (why, payload_of(scheme.as_ref(), &s.rows))
        };
        move_to(&mut s, SubmissionStatus::Queued)?;
        s.next_attempt_at = None;
        s.last_error = None;
        store::submissions::save(tx, &s, &payload)?;
        store::submissions::append_exchange(tx, &s.id, s.attempts.max(1), &note(why))?;
        store::jobs::enqueue(tx, s.kind.job(), &s.id, "{}", &tx.now_text())?;
        Ok(())
    })
    .await?;
    get(svc, p, sid).await
}

/// Makes a registration's rows sendable again: refused rows rebuilt from the guests'
/// current data, or (after an unknown outcome) every row not known to be accepted marked
/// pending. What the log should say.
fn requeue_rows(
    tx: &Tx,
    scheme: &dyn RegistrationScheme,
    s: &mut Submission,
) -> AppResult<&'static str> {
    if s.status != SubmissionStatus::Rejected || s.kind != SubmissionKind::GuestRegistration {
        for r in s
            .rows
            .iter_mut()
            .filter(|r| r.status != RowStatus::Accepted)
        {
            r.status = RowStatus::Pending;
        }
        return Ok(match s.status {
            SubmissionStatus::Rejected => {
                "retry requested by an operator: the refused rows are sent again as they were"
            }
            _ => {
                "retry requested by an operator after an unknown outcome: the rows not known to be accepted are sent again"
            }
        });
    }
    let day = s
        .record_date
        .ok_or_else(|| AppError::internal(format!("registration {} has no record date", s.id)))?;
    Ok(if rebuild(tx, scheme, &mut s.rows, &s.subject_id, day.0)? {
        "retry requested: the refused rows were rebuilt from the guests' current data and are sent again; \
         the head of the party, accepted before, is sent again with them because members are only \
         taken right after their head"
    } else {
        "retry requested: the refused rows were rebuilt from the guests' current data and are sent again"
    })
}
