//! The outbox's sending side, for the queue's `mail` jobs: a message is marked `sending`
//! (and the attempt counted) in a commit before it leaves, then what the relay said is
//! recorded with its event: `sent` (`message.sent`), `deferred` and tried again on a
//! widening schedule (a minute, then up to a day apart; given up after about two days as
//! `failed`, `message.failed`), or `bounced` (refused for good, `message.failed`). A run
//! that finds its message still `sending` knows a previous process died with it in flight:
//! it sends it again with the same `Message-ID`, by which a mail system recognises the
//! second copy.

use crate::db::Db;
use crate::domain::events::EventType;
use crate::error::AppResult;
use crate::mail::Sent;
use crate::model::Actor;
use crate::service::invoice_mail;
use crate::store::{self, messages::Stored};

/// The waits between tries, in seconds.
const SCHEDULE: [i64; 8] = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600];

/// Stores message `m`, `queued`, and its `mail` job, in the caller's transaction.
pub(crate) fn post(tx: &crate::db::Tx, m: &Stored) -> AppResult<()> {
    store::messages::insert(tx, m)?;
    store::jobs::enqueue(
        tx,
        crate::domain::enums::JobKind::Mail,
        &m.id,
        "",
        &tx.now_text(),
    )?;
    Ok(())
}

/// What a `mail` job does next with its message.
pub enum Start {
    /// Nothing: it was sent, bounced or given up, or is gone.
    Done,
    /// Later: an invoice waits for its fiscal record (the job runs again in a minute).
    Later,
    /// Send it, with its files.
    Send(Box<Stored>, Vec<store::messages::Attachment>),
}

/// Message `id` of job `job` marked `sending` (an invoice's written out first), when it is
/// still to send.
pub async fn start(db: &Db, id: String, job: i64) -> AppResult<Start> {
    // An invoice's message is written out (its PDF drawn) on a reader, so the writer only
    // stores it; written again in the transaction when its invoice changed meanwhile.
    let now = db.clock().now();
    let read = id.clone();
    let written = db
        .read(move |c| match store::messages::get(c, &read)? {
            Some(m) if !ended(&m) && unwritten(&m) => invoice_mail::render(c, now, &m),
            _ => Ok(None),
        })
        .await?;
    db.write(move |tx| {
        let Some(mut m) = store::messages::get(tx, &id)? else {
            return Ok(Start::Done);
        };
        if ended(&m) {
            return Ok(Start::Done);
        }
        if unwritten(&m) {
            match invoice_mail::write_out(tx, &m, written)? {
                Some(out) => m = out,
                None => {
                    let at = crate::clock::format_instant(
                        tx.clock().now() + chrono::Duration::seconds(60),
                    );
                    let why = "waiting for the invoice's fiscal receipt";
                    store::jobs::retry_at(tx, job, &at, why)?;
                    return Ok(Start::Later);
                }
            }
        }
        if m.status == "sending" {
            tracing::warn!(message = %m.id, "a message was in flight when innkeep stopped: sending it again with its Message-ID");
        }
        store::messages::set_status(tx, &id, "sending", None, None)?;
        let files = store::messages::attachments(tx, &id)?;
        Ok(Start::Send(Box::new(m), files))
    })
    .await
}

/// Whether `m` was sent, bounced or given up.
fn ended(m: &Stored) -> bool {
    ["sent", "bounced", "failed"].contains(&m.status.as_str())
}

/// Whether `m` is an invoice's message not written out yet.
fn unwritten(m: &Stored) -> bool {
    m.invoice_id.is_some() && m.body_text.is_empty()
}

fn event(
    tx: &crate::db::Tx,
    kind: EventType,
    m: &Stored,
    status: &str,
    why: Option<&str>,
) -> AppResult<()> {
    let data = serde_json::json!({
        "id": m.id, "kind": m.kind, "reservation_id": m.reservation_id, "guest_id": m.guest_id,
        "recipient": m.recipient, "language": m.language, "subject": m.subject,
        "message_id": m.message_id, "status": status, "attempts": m.attempts + 1, "error": why,
    });
    store::events::record(tx, &Actor::queue(), kind, &m.id, &data)?;
    Ok(())
}

/// Records what the relay said about `m`, sent by job `job`.
pub async fn finish(db: &Db, job: i64, m: Stored, sent: Sent) -> AppResult<()> {
    db.write(move |tx| match &sent {
        Sent::Sent(answer) => {
            store::messages::set_status(tx, &m.id, "sent", None, Some(answer))?;
            event(tx, EventType::MessageSent, &m, "sent", None)?;
            store::jobs::finish(tx, job)
        }
        Sent::Bounced(why) => {
            store::messages::set_status(tx, &m.id, "bounced", Some(why), None)?;
            event(tx, EventType::MessageFailed, &m, "bounced", Some(why))?;
            store::jobs::fail(tx, job, why)
        }
        Sent::Deferred(why) => match SCHEDULE.get(m.attempts as usize) {
            Some(wait) => {
                store::messages::set_status(tx, &m.id, "deferred", Some(why), None)?;
                let at = crate::clock::format_instant(
                    tx.clock().now() + chrono::Duration::seconds(*wait),
                );
                store::jobs::retry_at(tx, job, &at, why)
            }
            None => {
                store::messages::set_status(tx, &m.id, "failed", Some(why), None)?;
                event(tx, EventType::MessageFailed, &m, "failed", Some(why))?;
                store::jobs::fail(tx, job, why)
            }
        },
    })
    .await
}

/// The newest `limit` messages with their reservation's code (Administration › Outbox).
pub async fn recent(
    svc: &crate::service::Services,
    p: &crate::model::Principal,
    limit: usize,
) -> AppResult<Vec<(Stored, Option<String>)>> {
    p.require(crate::domain::scopes::Scope::ReservationsRead)?;
    svc.db()
        .read(move |c| store::messages::recent(c, limit))
        .await
}

/// Message `id`, bounced, given up or waiting, queued to go again now (the same message and
/// Message-ID: it never arrived); 409 `not_resendable` for one sent or on its way.
pub async fn retry(
    svc: &crate::service::Services,
    p: &crate::model::Principal,
    id: String,
) -> AppResult<()> {
    p.require(crate::domain::scopes::Scope::ReservationsWrite)?;
    svc.db()
        .write(move |tx| {
            let m = store::messages::get(tx, &id)?
                .ok_or_else(|| crate::error::AppError::not_found("message", &id))?;
            if !["bounced", "failed", "deferred"].contains(&m.status.as_str()) {
                return Err(crate::error::AppError::conflict(
                    "not_resendable",
                    "The message was sent or is on its way.",
                ));
            }
            store::messages::set_status(tx, &id, "queued", None, None)?;
            store::jobs::enqueue(
                tx,
                crate::domain::enums::JobKind::Mail,
                &id,
                "",
                &tx.now_text(),
            )?;
            Ok(())
        })
        .await
}
