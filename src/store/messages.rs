//! The outbox (`messages`): guests' messages as rendered, with their sending state.

use rusqlite::{Connection, OptionalExtension, Row};

use crate::db::Tx;
use crate::error::AppResult;

/// A stored message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stored {
    /// `msg_…`
    pub id: String,
    /// `confirmation`, `cancellation`.
    pub kind: String,
    /// The reservation it is about.
    pub reservation_id: Option<String>,
    /// The invoice it carries.
    pub invoice_id: Option<String>,
    /// The guest it is to.
    pub guest_id: Option<String>,
    /// The address.
    pub recipient: String,
    /// The language it is written in.
    pub language: String,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub body_text: String,
    /// HTML body.
    pub body_html: String,
    /// Its `Message-ID`, with angle brackets.
    pub message_id: String,
    /// `queued`, `sending`, `sent`, `deferred`, `bounced`, `failed`.
    pub status: String,
    /// Tries so far.
    pub attempts: i64,
    /// What the relay last said when it did not take it.
    pub last_error: Option<String>,
    /// When it was made.
    pub created_at: String,
    /// When the relay took it.
    pub sent_at: Option<String>,
}

fn map(r: &Row) -> rusqlite::Result<Stored> {
    Ok(Stored {
        id: r.get("id")?,
        kind: r.get("kind")?,
        reservation_id: r.get("reservation_id")?,
        invoice_id: r.get("invoice_id")?,
        guest_id: r.get("guest_id")?,
        recipient: r.get("recipient")?,
        language: r.get("language")?,
        subject: r.get("subject")?,
        body_text: r.get("body_text")?,
        body_html: r.get("body_html")?,
        message_id: r.get("message_id")?,
        status: r.get("status")?,
        attempts: r.get("attempts")?,
        last_error: r.get("last_error")?,
        created_at: r.get("created_at")?,
        sent_at: r.get("sent_at")?,
    })
}

/// Stores a new message, `queued`.
pub fn insert(tx: &Tx, m: &Stored) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO messages (id, kind, reservation_id, guest_id, recipient, language, subject,
             body_text, body_html, message_id, status, attempts, created_at, updated_at, invoice_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'queued', 0, ?11, ?11, ?12)",
    )?
    .execute(rusqlite::params![
        m.id,
        m.kind,
        m.reservation_id,
        m.guest_id,
        m.recipient,
        m.language,
        m.subject,
        m.body_text,
        m.body_html,
        m.message_id,
        now,
        m.invoice_id
    ])?;
    Ok(())
}

/// A file sent with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// Its name, as the guest sees it.
    pub filename: String,
    /// Its media type.
    pub content_type: String,
    /// Its bytes.
    pub body: Vec<u8>,
}

/// Writes out message `id`, stored empty until now: its bodies and files.
pub fn write_out(
    tx: &Tx,
    id: &str,
    body_text: &str,
    body_html: &str,
    files: &[Attachment],
) -> AppResult<()> {
    tx.prepare_cached("UPDATE messages SET body_text = ?2, body_html = ?3 WHERE id = ?1")?
        .execute((id, body_text, body_html))?;
    for (i, f) in files.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO message_attachments (message_id, position, filename, content_type, body)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute((id, i as i64, &f.filename, &f.content_type, &f.body))?;
    }
    Ok(())
}

/// Message `id`'s files, in order.
pub fn attachments(c: &Connection, id: &str) -> AppResult<Vec<Attachment>> {
    let mut stmt = c.prepare_cached(
        "SELECT filename, content_type, body FROM message_attachments
          WHERE message_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(Attachment {
            filename: r.get(0)?,
            content_type: r.get(1)?,
            body: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The messages carrying invoice `invoice_id` that are still to go.
pub fn waiting_on_invoice(c: &Connection, invoice_id: &str) -> AppResult<Vec<String>> {
    let mut stmt = c.prepare_cached(
        "SELECT id FROM messages WHERE invoice_id = ?1 AND status IN ('queued', 'deferred')",
    )?;
    let rows = stmt.query_map([invoice_id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One message.
pub fn get(c: &Connection, id: &str) -> AppResult<Option<Stored>> {
    Ok(c.prepare_cached("SELECT * FROM messages WHERE id = ?1")?
        .query_row([id], map)
        .optional()?)
}

/// A reservation's messages, oldest first.
pub fn of_reservation(c: &Connection, reservation: &str) -> AppResult<Vec<Stored>> {
    let mut stmt = c.prepare_cached(
        "SELECT * FROM messages WHERE reservation_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([reservation], map)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Moves message `id` to `status`, counting an attempt when it is `sending`, keeping the
/// relay's words.
pub fn set_status(
    tx: &Tx,
    id: &str,
    status: &str,
    error: Option<&str>,
    answer: Option<&str>,
) -> AppResult<()> {
    let now = tx.now_text();
    tx.prepare_cached(
        "UPDATE messages SET status = ?2, updated_at = ?3,
             attempts = attempts + (?2 = 'sending'),
             last_error = CASE WHEN ?2 = 'sent' THEN NULL ELSE COALESCE(?4, last_error) END,
             relay_answer = COALESCE(?5, relay_answer),
             sent_at = CASE WHEN ?2 = 'sent' THEN ?3 ELSE sent_at END
         WHERE id = ?1",
    )?
    .execute(rusqlite::params![id, status, now, error, answer])?;
    Ok(())
}

/// The newest `limit` messages, with their reservation's code.
pub fn recent(c: &Connection, limit: usize) -> AppResult<Vec<(Stored, Option<String>)>> {
    let mut stmt = c.prepare_cached(
        "SELECT m.*, r.code AS code FROM messages m
           LEFT JOIN reservations r ON r.id = m.reservation_id
          ORDER BY m.created_at DESC, m.id DESC LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| Ok((map(r)?, r.get("code")?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Confirmed bookings arriving on `day` that have no pre-arrival message yet (a booking
/// site's included: the pre-check-in is the hotel's own).
pub fn without_pre_arrival(c: &Connection, day: chrono::NaiveDate) -> AppResult<Vec<String>> {
    let mut stmt = c.prepare_cached(
        "SELECT r.id FROM reservations r WHERE r.arrival = ?1 AND r.status = 'confirmed'
            AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.reservation_id = r.id
                            AND m.kind = 'pre_arrival')",
    )?;
    let rows = stmt.query_map([day.to_string()], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The hotel's own wording of `kind`'s `part` in `language`, if it has one.
pub fn wording(
    c: &Connection,
    kind: &str,
    language: &str,
    part: &str,
) -> AppResult<Option<String>> {
    Ok(c.prepare_cached(
        "SELECT text FROM mail_wording WHERE kind = ?1 AND language = ?2 AND part = ?3",
    )?
    .query_row((kind, language, part), |r| r.get(0))
    .optional()?)
}

/// Sets (or, with `None`, removes) the hotel's wording of `kind`'s `part` in `language`.
pub fn set_wording(
    tx: &Tx,
    kind: &str,
    language: &str,
    part: &str,
    text: Option<&str>,
) -> AppResult<()> {
    match text {
        Some(text) => tx
            .prepare_cached(
                "INSERT INTO mail_wording (kind, language, part, text, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (kind, language, part) DO UPDATE SET text = excluded.text,
                     updated_at = excluded.updated_at",
            )?
            .execute((kind, language, part, text, tx.now_text()))?,
        None => tx
            .prepare_cached(
                "DELETE FROM mail_wording WHERE kind = ?1 AND language = ?2 AND part = ?3",
            )?
            .execute((kind, language, part))?,
    };
    Ok(())
}
