//! `GET/PUT /v1/settings`.

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::Header;

use super::Tag;
use super::input::Body;
use super::problem::{ApiError, GetErrors, UpdateErrors};
use super::responses::Tagged;
use super::security::{Scope, Token};
use crate::model::{Settings, SettingsUpdate};
use crate::service::Services;
use crate::service::{self, IfMatch};

/// Property settings.
pub struct SettingsApi;

#[OpenApi(tag = "Tag::Settings")]
impl SettingsApi {
    /// Read the property settings
    ///
    /// Name, time zone (which defines "today"), currency, country, city tax, invoice series,
    /// default tax rate, and the compliance schemes in force (read-only; credentials are
    /// never shown). Defaults: time zone `UTC`, currency `EUR`.
    #[oai(path = "/settings", method = "get", operation_id = "getSettings")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Admin")] token: Token,
    ) -> Result<Tagged<Settings>, ApiError<GetErrors>> {
        Ok(service::settings::get(svc.0, &token.0.principal)
            .await?
            .into())
    }

    /// Change the property settings
    ///
    /// Absent fields keep their value; `null` clears an optional one.
    #[oai(path = "/settings", method = "put", operation_id = "updateSettings")]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Admin")] token: Token,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<SettingsUpdate>,
    ) -> Result<Tagged<Settings>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::settings::update(svc.0, &token.0.principal, if_match, body.0)
                .await?
                .into(),
        )
    }
}
