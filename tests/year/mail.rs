//! Guests' messages over the year: every booking made at the desk or through the API whose
//! guest gave an address is confirmed once, every cancellation of one once, every stay
//! checked out gets its invoice once with the PDF (and the e-invoice's XML), each through
//! the SMTP relay double with its own Message-ID and none twice; the outbox holds nothing
//! unsent at the end.

use std::collections::HashMap;
use std::time::Duration;

use innkeep::config::mail::MailConfig;

use crate::books::Books;
use crate::support::TestApp;
use crate::support::smtp::Relay;

/// The hotel's `[mail]`, sending through `relay`.
pub fn config(relay: &Relay) -> MailConfig {
    relay.config("Hotel <desk@hotel.test>", None)
}

/// Checks the outbox against the reservations and the relay; a line for the report.
pub async fn check(app: &TestApp, relay: &Relay, books: &mut Books) -> String {
    let q = |sql: &'static str| {
        let db = app.db().clone();
        async move {
            db.read(move |c| {
                let mut stmt = c.prepare(sql)?;
                let rows =
                    stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
            .unwrap()
        }
    };
    // What the outbox should hold: one confirmation per booking not from a booking site
    // whose guest has an address, and one cancellation per such booking cancelled.
    let wanted: HashMap<String, i64> = q("SELECT 'confirmation', COUNT(*) FROM reservations r
          JOIN guests g ON g.id = r.primary_guest_id
         WHERE g.email IS NOT NULL AND r.channel IS NULL
        UNION ALL
        SELECT 'cancellation', COUNT(*) FROM reservations r
          JOIN guests g ON g.id = r.primary_guest_id
         WHERE g.email IS NOT NULL AND r.channel IS NULL AND r.status = 'cancelled'
        UNION ALL
        SELECT 'invoice', COUNT(*) FROM reservations r
          JOIN guests g ON g.id = r.primary_guest_id
         WHERE g.email IS NOT NULL AND r.status = 'checked_out' AND r.invoice_id IS NOT NULL")
    .await
    .into_iter()
    .collect();
    let held: HashMap<String, i64> = q("SELECT kind, COUNT(*) FROM messages GROUP BY kind")
        .await
        .into_iter()
        .collect();
    for kind in ["confirmation", "cancellation", "invoice"] {
        let (w, h) = (
            wanted.get(kind).copied().unwrap_or(0),
            held.get(kind).copied().unwrap_or(0),
        );
        if w != h {
            books
                .failures
                .push(format!("{w} {kind}s were due, the outbox holds {h}"));
        }
    }
    let twice = q(
        "SELECT reservation_id || ' ' || kind, COUNT(*) FROM messages
        GROUP BY reservation_id, kind HAVING COUNT(*) > 1",
    )
    .await;
    for (what, n) in twice {
        books
            .failures
            .push(format!("{what}: {n} messages for one change"));
    }
    // Every invoice's message carries its PDF, and an e-invoice's its XML too.
    let bare = q("SELECT m.id, COUNT(a.position) FROM messages m
          LEFT JOIN message_attachments a ON a.message_id = m.id
          LEFT JOIN einvoices e ON e.invoice_id = m.invoice_id
         WHERE m.kind = 'invoice'
         GROUP BY m.id HAVING COUNT(a.position) != 1 + (MAX(e.invoice_id) IS NOT NULL)")
    .await;
    for (id, n) in bare {
        books
            .failures
            .push(format!("invoice message {id} carries {n} files"));
    }
    let total: i64 = held.values().sum();
    let taken = relay
        .wait_for(total as usize, Duration::from_secs(30))
        .await;
    let unsent =
        q("SELECT status, COUNT(*) FROM messages WHERE status != 'sent' GROUP BY status").await;
    for (status, n) in unsent {
        books
            .failures
            .push(format!("{n} messages are {status} at the end"));
    }
    let mut ids: Vec<String> = taken
        .iter()
        .filter_map(|m| m.header("Message-ID"))
        .collect();
    ids.sort();
    ids.dedup();
    if ids.len() != taken.len() || taken.len() as i64 != total {
        books.failures.push(format!(
            "the relay took {} messages ({} Message-IDs), the outbox holds {total}",
            taken.len(),
            ids.len()
        ));
    }
    for m in taken.iter().filter(|m| {
        m.header("Message-ID")
            .is_some_and(|id| id.contains(".invoice@"))
    }) {
        let files = m.attachments();
        if !files.first().is_some_and(|f| f.1.starts_with(b"%PDF-")) {
            books.failures.push(format!(
                "{:?} reached the guest without its PDF",
                m.header("Message-ID")
            ));
        }
    }
    format!(
        "messages: {} confirmations, {} cancellations and {} invoices (PDF attached) sent, each once",
        held.get("confirmation").copied().unwrap_or(0),
        held.get("cancellation").copied().unwrap_or(0),
        held.get("invoice").copied().unwrap_or(0)
    )
}
