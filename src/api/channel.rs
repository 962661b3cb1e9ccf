//! `GET /v1/channel/health` and `POST /v1/channel/sync`: how the channel manager
//! connection is doing, and sending it everything again.

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::payload::Json;

use super::Tag;
use super::problem::{ApiError, ListErrors, StateErrors};
use super::security::{Scope, Token};
use crate::model::ChannelHealth;
use crate::service::{self, Services};

/// The channel manager connection.
pub struct ChannelApi;

#[OpenApi(tag = "Tag::Channels")]
impl ChannelApi {
    /// Read the channel manager connection's health
    ///
    /// When availability, prices and restrictions were last taken by the channel manager
    /// and the booking feed last read; how many changes wait to go; the last problem of
    /// each, in plain words; what the last read-back (innkeep compares the channel
    /// manager's values with its own night by night, every 6 hours) found; and the booking
    /// sites' bookings taken with no room free (`overbooked`), still to be resolved. Without
    /// `[channel]` in the configuration, `provider` is null and `connected` false.
    #[oai(
        path = "/channel/health",
        method = "get",
        operation_id = "getChannelHealth"
    )]
    async fn health(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ChannelManage")] token: Token,
    ) -> Result<Json<ChannelHealth>, ApiError<ListErrors>> {
        Ok(Json(
            service::channel_sync::health(svc.0, &token.0.principal).await?,
        ))
    }

    /// Send everything to the channel manager again
    ///
    /// An innkeep extension (API.md names only the health): asks for a full resend of the
    /// availability, prices and restrictions of every mapped room type and rate plan over
    /// the whole horizon at the next round (within seconds), the fix for every difference
    /// the read-back found. Answers the health, with `full_sync_pending` true. 409
    /// `not_connected` when no channel manager is configured.
    #[oai(
        path = "/channel/sync",
        method = "post",
        operation_id = "resendToChannel"
    )]
    async fn sync(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ChannelManage")] token: Token,
    ) -> Result<Json<ChannelHealth>, ApiError<StateErrors>> {
        service::channel_sync::resend(svc.0, &token.0.principal).await?;
        Ok(Json(
            service::channel_sync::health(svc.0, &token.0.principal).await?,
        ))
    }
}
