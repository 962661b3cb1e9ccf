//! A reservation's messages through the API: listed (`GET /v1/reservations/{id}/messages`)
//! and the confirmation sent again (`POST`), the same use cases as the desk's.

use crate::error::{AppError, AppResult};
use crate::model::{GuestMessage, Principal};
use crate::service::Services;
use crate::store;
use crate::store::messages::Stored;

/// A stored message as the API shows it.
fn shown(m: Stored) -> GuestMessage {
    GuestMessage {
        id: m.id,
        kind: m.kind,
        status: m.status,
        recipient: m.recipient,
        language: m.language,
        subject: m.subject,
        message_id: m.message_id,
        invoice_id: m.invoice_id,
        attempts: m.attempts,
        last_error: m.last_error,
        created_at: m.created_at,
        sent_at: m.sent_at,
    }
}

/// Reservation `id`'s messages, oldest first (404 for an unknown reservation).
pub async fn list(svc: &Services, p: &Principal, id: String) -> AppResult<Vec<GuestMessage>> {
    p.require(crate::domain::scopes::Scope::ReservationsRead)?;
    svc.db()
        .read(move |c| {
            if store::reservations::get(c, &id)?.is_none() {
                return Err(AppError::not_found("reservation", &id));
            }
            store::messages::of_reservation(c, &id)
        })
        .await
        .map(|all| all.into_iter().map(shown).collect())
}

/// Sends reservation `id`'s guest their confirmation (or cancellation) again: the new
/// message, queued.
pub async fn resend(svc: &Services, p: &Principal, id: String) -> AppResult<GuestMessage> {
    super::messages::send_again(svc, p, id).await.map(shown)
}
