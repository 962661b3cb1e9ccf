//! `GET/PUT /v1/settings`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::Header;

use super::Tag;
use super::input::Body;
use super::problem::{ApiError, GetErrors, UpdateErrors};
use super::responses::Tagged;
use super::security::{Scope, Token};
use crate::compliance::Compliance;
use crate::db::Db;
use crate::model::{Settings, SettingsUpdate};
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
        db: Data<&Db>,
        compliance: Data<&Arc<Compliance>>,
        #[oai(scope = "Scope::Admin")] _token: Token,
    ) -> Result<Tagged<Settings>, ApiError<GetErrors>> {
        Ok(service::settings::get(db.0, compliance.0).await?.into())
    }

    /// Change the property settings
    ///
    /// Absent fields keep their value; `null` clears an optional one.
    #[oai(path = "/settings", method = "put", operation_id = "updateSettings")]
    async fn update(
        &self,
        db: Data<&Db>,
        compliance: Data<&Arc<Compliance>>,
        #[oai(scope = "Scope::Admin")] _token: Token,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<SettingsUpdate>,
    ) -> Result<Tagged<Settings>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::settings::update(db.0, compliance.0, if_match, body.0)
                .await?
                .into(),
        )
    }
}
