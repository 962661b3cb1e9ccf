//! `GET` and `POST /v1/reservations/{id}/messages`: what innkeep sent the guest, and the
//! confirmation sent again.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::problem::{ActionErrors, ApiError, GetErrors};
use super::security::{Scope, Token};
use crate::model::{GuestMessage, GuestMessageList};
use crate::service::{Services, guest_messages};

/// Guests' messages.
pub struct MessagesApi;

/// A message queued.
#[derive(ApiResponse)]
pub enum Queued {
    /// Made and queued: the mail relay gets it within seconds (see its `status`).
    #[oai(status = 202)]
    Accepted(Json<GuestMessage>),
}

#[OpenApi(tag = "Tag::Reservations")]
impl MessagesApi {
    /// List a reservation's messages to the guest
    ///
    /// An innkeep extension: the e-mails innkeep made about the stay (its confirmation, the
    /// pre-arrival message with the pre-check-in link, the invoice after check-out, a
    /// cancellation), oldest first, each with where it stands with the mail relay. All of
    /// them: a stay has a handful, so the list has no cursor.
    #[oai(
        path = "/reservations/:id/messages",
        method = "get",
        operation_id = "listReservationMessages"
    )]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// `res_…`
        id: Path<String>,
    ) -> Result<Direct<GuestMessageList>, ApiError<GetErrors>> {
        let data = guest_messages::list(svc.0, &token.0.principal, id.0).await?;
        Ok(Direct(GuestMessageList { data }))
    }

    /// Send the guest their confirmation again
    ///
    /// An innkeep extension: a new message (its own `Message-ID`) with the booking as it
    /// stands, the cancellation when the reservation is cancelled. 409 `mail_off` when no
    /// mail relay is configured, `no_address` when the guest has no e-mail address.
    #[oai(
        path = "/reservations/:id/messages",
        method = "post",
        operation_id = "resendConfirmation"
    )]
    async fn resend(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsWrite")] token: Token,
        /// `res_…`
        id: Path<String>,
    ) -> Result<Queued, ApiError<ActionErrors>> {
        let m = guest_messages::resend(svc.0, &token.0.principal, id.0).await?;
        Ok(Queued::Accepted(Json(m)))
    }
}
