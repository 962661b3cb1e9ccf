//! A message innkeep sent (or is sending) a guest, as the API shows it.

use poem_openapi::Object;

/// A message to a guest, from the outbox: what it is, where it stands with the mail
/// relay, and its `Message-ID` (by which a resent copy is recognised).
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct GuestMessage {
    /// `msg_…`
    pub id: String,
    /// `confirmation`, `cancellation`, `pre_arrival` or `invoice`.
    pub kind: String,
    /// `queued`, `sending`, `sent`, `deferred` (the relay said "later"; tried again),
    /// `bounced` (refused for good) or `failed` (given up after two days, or the guest was
    /// erased before it left).
    pub status: String,
    /// The address it goes to (empty once the guest is erased).
    pub recipient: String,
    /// The language it is written in: `en`, `it` or `hr`.
    pub language: String,
    /// Its subject line.
    pub subject: String,
    /// Its `Message-ID` header, with the angle brackets.
    pub message_id: String,
    /// The invoice it carries (`inv_…`), for an invoice's message.
    pub invoice_id: Option<String>,
    /// Tries so far.
    pub attempts: i64,
    /// What the relay last said when it did not take it.
    pub last_error: Option<String>,
    /// When it was made (in the transaction of the change that caused it).
    pub created_at: String,
    /// When the relay took it.
    pub sent_at: Option<String>,
}

/// A reservation's messages, oldest first: all of them (a stay has a handful), so the
/// list has no cursor.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct GuestMessageList {
    /// The messages.
    pub data: Vec<GuestMessage>,
}
