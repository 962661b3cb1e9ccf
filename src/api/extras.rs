//! `/v1/extras` and `POST /v1/reservations/{id}/extras`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{ActionErrors, ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use super::stays::ChargeAdded;
use crate::model::{Extra, ExtraCreate, ExtraOrder, ExtraPage, ExtraUpdate};
use crate::service::{self, IfMatch, Services};

/// The extras catalogue.
pub struct ExtrasApi;

#[OpenApi(tag = "Tag::Rates")]
impl ExtrasApi {
    /// List extras
    ///
    /// The catalogue, ordered by `code`, then id.
    #[oai(path = "/extras", method = "get", operation_id = "listExtras")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<ExtraPage>, ApiError<ListErrors>> {
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, Filters::of("extras", &()))?;
        let page = service::extras::list(svc.0, &token.0.principal, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(ExtraPage {
            data: page.items.into_iter().map(|(t, _)| t).collect(),
            next_cursor,
        }))
    }

    /// Create an extra
    ///
    /// Something sold beside the room (breakfast, parking, an extra bed, a late check-out, a
    /// pet) with its gross price per unit, tax rate and unit: `per_stay`, `per_night` or
    /// `per_person_night`. The city tax stays its own rule (settings). 409 `already_exists`
    /// for a code already used.
    #[oai(path = "/extras", method = "post", operation_id = "createExtra")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesWrite")] token: Token,
        body: Body<ExtraCreate>,
    ) -> Result<Created<Extra>, ApiError<CreateErrors>> {
        Ok(service::extras::create(svc.0, &token.0.principal, body.0)
            .await?
            .into())
    }

    /// Get an extra
    ///
    /// Served with its `version` as `ETag` for a later `PUT` with `If-Match`.
    #[oai(path = "/extras/:id", method = "get", operation_id = "getExtra")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// `ext_…`
        id: Path<String>,
    ) -> Result<Tagged<Extra>, ApiError<GetErrors>> {
        Ok(service::extras::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change an extra
    ///
    /// Absent fields keep their value. Charges already on folios keep their price.
    #[oai(path = "/extras/:id", method = "put", operation_id = "updateExtra")]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesWrite")] token: Token,
        /// `ext_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<ExtraUpdate>,
    ) -> Result<Tagged<Extra>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::extras::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }

    /// Add an extra to a folio
    ///
    /// Puts an extra from the catalogue on a confirmed or checked-in reservation's folio as
    /// one charge: its name in the property's language, its price and tax rate, and as many
    /// units as its unit makes of the stay (`per_night`: the nights; `per_person_night`:
    /// the persons times the nights), times `count`. 201 with the charge, billed with the
    /// stay like any other. 409 `invalid_state_transition` once the stay has ended.
    #[oai(
        path = "/reservations/:id/extras",
        method = "post",
        operation_id = "addExtra",
        tag = "Tag::Reservations"
    )]
    async fn order(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::FrontDesk")] token: Token,
        /// `res_…`
        id: Path<String>,
        body: Body<ExtraOrder>,
    ) -> Result<ChargeAdded, ApiError<ActionErrors>> {
        let c = service::extras::order(svc.0, &token.0.principal, id.0, body.0).await?;
        let location = format!("/v1/reservations/{}/charges", c.reservation_id);
        Ok(ChargeAdded::Created(Json(c), location))
    }
}
