//! What innkeep holds about one guest, found by the guest's id, and the redaction of the
//! values in their audit trail (the entries stay: who did what and when).

use rusqlite::Connection;

use crate::db::Tx;
use crate::domain::history::Change;
use crate::error::AppResult;

fn ids(conn: &Connection, sql: &str, key: &str) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([key], |r| r.get(0))?;
    Ok(rows.collect::<Result<Vec<String>, _>>()?)
}

/// The reservations the guest is on (as the booker or one of the party), oldest first.
pub fn reservation_ids(conn: &Connection, guest_id: &str) -> AppResult<Vec<String>> {
    ids(
        conn,
        "SELECT id FROM reservations WHERE primary_guest_id = ?1
         UNION SELECT reservation_id FROM reservation_guests WHERE guest_id = ?1
         ORDER BY 1",
        guest_id,
    )
}

/// The invoices and credit notes addressed to the guest.
pub fn invoice_ids(conn: &Connection, guest_id: &str) -> AppResult<Vec<String>> {
    ids(
        conn,
        "SELECT id FROM invoices WHERE guest_id = ?1 ORDER BY id",
        guest_id,
    )
}

/// The submissions to the authorities about one reservation.
pub fn submission_ids(conn: &Connection, reservation_id: &str) -> AppResult<Vec<String>> {
    ids(
        conn,
        "SELECT id FROM compliance_submissions WHERE subject_id = ?1 ORDER BY id",
        reservation_id,
    )
}

/// Forgets the old sort keys (names) the guest list's cursors kept for `guest_id`: a listing
/// already in progress may show the erased guest once more under the new name, or skip it.
pub fn forget_sort_keys(tx: &Tx, guest_id: &str) -> AppResult<usize> {
    Ok(tx
        .prepare_cached("DELETE FROM list_moves WHERE entity = 'guest' AND entity_id = ?1")?
        .execute([guest_id])?)
}

/// Replaces every value in `subject_id`'s audit trail with `"[erased]"`, keeping which
/// fields changed, when and by whom; and its base snapshot with `snapshot`.
pub fn redact_history(tx: &Tx, subject_id: &str, snapshot: &serde_json::Value) -> AppResult<usize> {
    let rows: Vec<(String, String)> = {
        let mut stmt =
            tx.prepare_cached("SELECT id, changes FROM history WHERE subject_id = ?1")?;
        let rows = stmt.query_map([subject_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    let erased = serde_json::Value::String("[erased]".into());
    for (id, changes) in &rows {
        let mut list: Vec<Change> = serde_json::from_str(changes)?;
        for c in &mut list {
            for v in [&mut c.from, &mut c.to] {
                if !v.is_null() {
                    *v = erased.clone();
                }
            }
        }
        tx.prepare_cached("UPDATE history SET changes = ?2 WHERE id = ?1")?
            .execute((id, serde_json::to_string(&list)?))?;
    }
    tx.prepare_cached("UPDATE history_heads SET snapshot = ?2 WHERE subject_id = ?1")?
        .execute((subject_id, snapshot.to_string()))?;
    Ok(rows.len())
}

/// Empties the guest's messages (address, subject, bodies, files); one not yet sent is
/// given up, never to leave. How many.
pub fn forget_messages(tx: &Tx, guest_id: &str) -> AppResult<usize> {
    tx.prepare_cached(
        "DELETE FROM message_attachments
          WHERE message_id IN (SELECT id FROM messages WHERE guest_id = ?1)",
    )?
    .execute([guest_id])?;
    Ok(tx
        .prepare_cached(
            "UPDATE messages SET recipient = '', subject = '', body_text = '', body_html = '',
                 last_error = CASE WHEN status IN ('sent', 'bounced', 'failed') THEN last_error
                                   ELSE 'not sent: the guest was erased' END,
                 status = CASE WHEN status IN ('sent', 'bounced', 'failed') THEN status
                               ELSE 'failed' END
              WHERE guest_id = ?1",
        )?
        .execute([guest_id])?)
}

/// The guest's messages, for an export: (kind, to, subject, status, made, sent).
pub fn messages(conn: &Connection, guest_id: &str) -> AppResult<Vec<serde_json::Value>> {
    let mut stmt = conn.prepare_cached(
        "SELECT kind, recipient, subject, status, created_at, sent_at FROM messages
          WHERE guest_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([guest_id], |r| {
        Ok(serde_json::json!({
            "kind": r.get::<_, String>(0)?, "recipient": r.get::<_, String>(1)?,
            "subject": r.get::<_, String>(2)?, "status": r.get::<_, String>(3)?,
            "created_at": r.get::<_, String>(4)?, "sent_at": r.get::<_, Option<String>>(5)?,
        }))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
