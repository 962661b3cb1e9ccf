//! `/v1/room-types`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::model::{RoomType, RoomTypeCreate, RoomTypePage, RoomTypeUpdate};
use crate::service::Services;
use crate::service::{self, IfMatch};

/// Room types.
pub struct RoomTypesApi;

#[OpenApi(tag = "Tag::RoomTypes")]
impl RoomTypesApi {
    /// List room types
    ///
    /// Ordered by `code`, then id.
    #[oai(path = "/room-types", method = "get", operation_id = "listRoomTypes")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<RoomTypePage>, ApiError<ListErrors>> {
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, Filters::of("room-types", &()))?;
        let page = service::room_types::list(svc.0, &token.0.principal, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(RoomTypePage {
            data: page.items.into_iter().map(|(t, _)| t).collect(),
            next_cursor,
        }))
    }

    /// Create a room type
    ///
    /// `code` must be unique (409 `already_exists` otherwise); `currency` defaults to the
    /// property's.
    #[oai(path = "/room-types", method = "post", operation_id = "createRoomType")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Admin")] token: Token,
        body: Body<RoomTypeCreate>,
    ) -> Result<Created<RoomType>, ApiError<CreateErrors>> {
        Ok(
            service::room_types::create(svc.0, &token.0.principal, body.0)
                .await?
                .into(),
        )
    }

    /// Get a room type
    ///
    /// Served with its `version` as `ETag` for a later `PUT` with `If-Match`.
    #[oai(path = "/room-types/:id", method = "get", operation_id = "getRoomType")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// `rt_…`
        id: Path<String>,
    ) -> Result<Tagged<RoomType>, ApiError<GetErrors>> {
        Ok(service::room_types::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change a room type
    ///
    /// Absent fields keep their value; `null` clears an optional one.
    #[oai(
        path = "/room-types/:id",
        method = "put",
        operation_id = "updateRoomType"
    )]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Admin")] token: Token,
        /// `rt_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<RoomTypeUpdate>,
    ) -> Result<Tagged<RoomType>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::room_types::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }
}
