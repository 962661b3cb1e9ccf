//! The invoice by e-mail after check-out. The message is stored, with its `Message-ID`
//! (`<inv_….invoice@…>`) and its `mail` job, in the check-out's own transaction, so a
//! check-out committed always sends its invoice once; it is written out (the text, the
//! HTML, the PDF and, for an e-invoice, its XML) when the job first runs and the invoice's
//! fiscal record has settled, so the PDF carries the authority's reference (the JIR, the
//! cash register's number) rather than "pending". A receipt the authority has not answered
//! within [`WAIT`] goes with what is known, which the law allows (the ZKI is printed).

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::db::Tx;
use crate::domain::enums::{FiscalStatus, InvoiceKind};
use crate::error::{AppError, AppResult};
use crate::i18n::{Arg, T};
use crate::model::Invoice;
use crate::service::mail_texts;
use crate::store;
use crate::store::messages::{Attachment, Stored};

/// A message written out, with what its invoice was when it was.
pub(crate) struct Written {
    text: String,
    html: String,
    files: Vec<Attachment>,
    invoice: String,
}

/// How long a message waits for the authority's answer before going without it.
const WAIT: chrono::Duration = chrono::Duration::hours(2);

/// Whether `inv` is an Italian stay's bill, certified by the cash register's receipt
/// printed on it rather than being an invoice itself.
fn bill(inv: &Invoice) -> bool {
    inv.fiscal.scheme == crate::compliance::rt::NAME && inv.kind == InvoiceKind::Invoice
}

/// The guest the invoice goes to, with an address: its guest, else its stay's guest.
fn recipient(tx: &Tx, inv: &Invoice) -> AppResult<Option<crate::model::Guest>> {
    let guest = match (&inv.guest_id, &inv.reservation_id) {
        (Some(g), _) => Some(g.clone()),
        (None, Some(r)) => store::reservations::get(tx, r)?.map(|r| r.primary_guest_id),
        _ => None,
    };
    Ok(match guest {
        Some(g) => store::guests::get(tx, &g)?.filter(|g| g.email.is_some()),
        None => None,
    })
}

/// Stores and queues the e-mail of invoice `inv` (just issued at check-out), when mail is
/// on (`domain`) and its guest has an address. Its bodies are written out later.
pub(crate) fn queue(tx: &Tx, domain: Option<&str>, inv: &Invoice) -> AppResult<()> {
    let Some(domain) = domain else {
        return Ok(());
    };
    let Some(guest) = recipient(tx, inv)? else {
        return Ok(());
    };
    let settings = store::settings::get(tx)?;
    let t = T::new(super::messages::language(
        guest.language,
        settings.country.as_deref(),
    ));
    let id = crate::ids::new("msg");
    super::outbox::post(
        tx,
        &Stored {
            id: id.clone(),
            kind: "invoice".into(),
            reservation_id: inv.reservation_id.clone(),
            invoice_id: Some(inv.id.clone()),
            guest_id: Some(guest.id.clone()),
            recipient: guest.email.clone().unwrap_or_default(),
            language: t.lang().tag().into(),
            subject: mail_texts::say(
                tx,
                &t,
                (
                    "invoice",
                    "subject",
                    if bill(inv) {
                        "mail-bill-subject"
                    } else {
                        "mail-invoice-subject"
                    },
                ),
                &[
                    ("hotel", settings.name.clone()),
                    ("name", guest.first_name.clone()),
                    ("number", inv.number.clone()),
                ],
            )?,
            message_id: format!("<{}.invoice@{domain}>", inv.id),
            ..Default::default()
        },
    )?;
    Ok(())
}

/// Whether `inv`'s fiscal record has settled enough to print (or `m` waited long enough).
fn settled(now: DateTime<Utc>, inv: &Invoice, m: &Stored) -> bool {
    let waiting = inv.fiscal.status == FiscalStatus::Pending && inv.fiscal.einvoice.is_none();
    let since = crate::clock::format_instant(now - WAIT);
    !waiting || m.created_at < since
}

/// What the message says of the invoice: its number, date, total, paid and still owed.
fn facts(t: &T, inv: &Invoice, due: i64) -> Vec<(String, String)> {
    let cur = &inv.currency;
    let mut facts = vec![
        (
            t.t(if bill(inv) {
                "mail-fact-bill"
            } else {
                "mail-fact-invoice"
            }),
            inv.number.clone(),
        ),
        (t.t("invoice-date"), t.date(inv.issue_date.0)),
        (t.t("mail-fact-total"), t.money(inv.totals.gross, cur)),
        (t.t("invoice-paid"), t.money(inv.paid_amount, cur)),
    ];
    if due > 0 {
        facts.push((t.t("invoice-owed"), t.money(due, cur)));
    }
    facts
}

/// Invoice message `m` (stored empty by [`queue`]) written out from what `c` holds at
/// `now`: `None` while the invoice waits for the authority's answer (or when `m` is no
/// invoice's). It only reads, so the queue does it on a reader, outside the writer
/// (drawing the PDF takes milliseconds).
pub(crate) fn render(c: &Connection, now: DateTime<Utc>, m: &Stored) -> AppResult<Option<Written>> {
    let Some(invoice_id) = &m.invoice_id else {
        return Ok(None);
    };
    let inv = store::invoices::get(c, invoice_id)?
        .ok_or_else(|| AppError::internal(format!("invoice {invoice_id} vanished")))?;
    if !settled(now, &inv, m) {
        return Ok(None);
    }
    let settings = store::settings::get(c)?;
    let t = T::new(crate::i18n::Lang::parse(&m.language).unwrap_or(crate::i18n::Lang::En));
    let due = match inv.kind {
        InvoiceKind::Invoice => inv.totals.gross - inv.paid_amount,
        InvoiceKind::CreditNote => 0,
    };
    let printed = crate::printed::invoice(&t, &inv, &settings.name, due, &settings.time_zone);
    let pdf = crate::printed::pdf::invoice(&t, &printed)
        .ok_or_else(|| AppError::internal("the PDF typefaces do not load"))?;
    let name = inv.number.replace(['/', '\\'], "-");
    let mut files = vec![Attachment {
        filename: format!("{name}.pdf"),
        content_type: "application/pdf".into(),
        body: pdf,
    }];
    let xml = store::einvoices::get(c, &inv.id)?;
    if let Some(e) = &xml {
        files.push(Attachment {
            filename: format!("{name}.xml"),
            content_type: "application/xml".into(),
            body: e.document.clone().into_bytes(),
        });
    }
    let guest = match &m.guest_id {
        Some(g) => store::guests::get(c, g)?,
        None => None,
    };
    let first_name = guest.map(|g| g.first_name).unwrap_or_default();
    let values = [
        ("hotel", settings.name.clone()),
        ("name", first_name.clone()),
        ("number", inv.number.clone()),
    ];
    let intro = match (bill(&inv), xml.is_some()) {
        (true, _) => "mail-bill-intro",
        (false, true) => "mail-invoice-intro-xml",
        (false, false) => "mail-invoice-intro",
    };
    let mail = super::messages::Mail {
        lang: t.lang().tag(),
        subject: m.subject.clone(),
        greeting: t.with("mail-greeting", &[("name", Arg::Text(first_name))]),
        intro: mail_texts::say(c, &t, ("invoice", "intro", intro), &values)?,
        facts: facts(&t, &inv, due),
        closing: mail_texts::say(
            c,
            &t,
            ("invoice", "closing", "mail-invoice-closing"),
            &values,
        )?,
        link: None,
        hotel: settings.name.clone(),
        address: super::messages::address(&settings),
    };
    let (text, html) = mail.write()?;
    Ok(Some(Written {
        text,
        html,
        files,
        invoice: fingerprint(&inv)?,
    }))
}

/// What an invoice's message was written from, to know whether it still holds.
fn fingerprint(inv: &Invoice) -> AppResult<String> {
    serde_json::to_string(inv).map_err(AppError::internal)
}

/// Whether invoice `id` is still what `w` was written from.
fn unchanged(c: &Connection, id: &str, w: &Written) -> AppResult<bool> {
    Ok(match store::invoices::get(c, id)? {
        Some(inv) => fingerprint(&inv)? == w.invoice,
        None => false,
    })
}

/// Writes out invoice message `m` in the caller's transaction: stores `read` (written out
/// on a reader) when its invoice is still as it was read, else writes it out here (a
/// payment or the authority's answer came in between, or nothing was read); `None` while
/// the invoice waits for the authority's answer.
pub(crate) fn write_out(tx: &Tx, m: &Stored, read: Option<Written>) -> AppResult<Option<Stored>> {
    let Some(invoice_id) = &m.invoice_id else {
        return Ok(Some(m.clone()));
    };
    let written = match read {
        Some(w) if unchanged(tx, invoice_id, &w)? => Some(w),
        _ => render(tx, tx.clock().now(), m)?,
    };
    let Some(w) = written else {
        return Ok(None);
    };
    store::messages::write_out(tx, &m.id, &w.text, &w.html, &w.files)?;
    Ok(Some(Stored {
        body_text: w.text,
        body_html: w.html,
        ..m.clone()
    }))
}
