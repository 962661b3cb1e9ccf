//! `/v1/rooms` and `/v1/availability`.

use super::direct::Direct;
use chrono::Days;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest, csv, given};
use super::problem::{ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::domain::enums::HousekeepingStatus;
use crate::error::{AppError, FieldError};
use crate::model::{AvailabilityList, Date, Room, RoomCreate, RoomPage, RoomUpdate};
use crate::service::Services;
use crate::service::{self, IfMatch};
use crate::store::rooms::RoomFilter;

/// Rooms and availability.
pub struct RoomsApi;

#[OpenApi(tag = "Tag::Rooms")]
impl RoomsApi {
    /// List rooms
    ///
    /// Ordered by `number` (as text), then id.
    #[oai(path = "/rooms", method = "get", operation_id = "listRooms")]
    #[allow(clippy::too_many_arguments)] // one per query parameter
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// Only rooms of this room type.
        room_type_id: Query<Option<String>>,
        /// Only rooms in these housekeeping states, comma-separated (`dirty,inspected`).
        housekeeping_status: Query<Option<String>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<RoomPage>, ApiError<ListErrors>> {
        let housekeeping = csv(
            "housekeeping_status",
            given(&housekeeping_status),
            HousekeepingStatus::parse,
            HousekeepingStatus::choices(),
        )?;
        let filter = RoomFilter {
            room_type_id: given(&room_type_id),
            housekeeping_status: housekeeping,
        };
        let filters = Filters::of("rooms", &filter);
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page =
            service::rooms::list(svc.0, &token.0.principal, filter, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(RoomPage {
            data: page.items.into_iter().map(|(r, _)| r).collect(),
            next_cursor,
        }))
    }

    /// Create a room
    ///
    /// `number` must be unique (409 `already_exists` otherwise) and `room_type_id` must
    /// exist. A new room starts `clean`.
    #[oai(path = "/rooms", method = "post", operation_id = "createRoom")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Admin")] token: Token,
        body: Body<RoomCreate>,
    ) -> Result<Created<Room>, ApiError<CreateErrors>> {
        Ok(service::rooms::create(svc.0, &token.0.principal, body.0)
            .await?
            .into())
    }

    /// Get a room
    ///
    /// With `occupied` (a checked-in reservation holds it), and its `version` as `ETag`.
    #[oai(path = "/rooms/:id", method = "get", operation_id = "getRoom")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// `rm_…`
        id: Path<String>,
    ) -> Result<Tagged<Room>, ApiError<GetErrors>> {
        Ok(service::rooms::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change a room
    ///
    /// Absent fields keep their value; `null` clears an optional one. Setting
    /// `housekeeping_status` to `out_of_order` takes the room out of availability.
    #[oai(path = "/rooms/:id", method = "put", operation_id = "updateRoom")]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Housekeeping")] token: Token,
        /// `rm_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<RoomUpdate>,
    ) -> Result<Tagged<Room>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::rooms::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }

    /// Nightly availability
    ///
    /// For each night from `from` to `to` (both inclusive, at most 365 nights) and each room
    /// type: all rooms, rooms out of order, confirmed and checked-in bookings, and rooms
    /// still free. `from` defaults to today, `to` to 29 nights after `from`.
    #[oai(
        path = "/availability",
        method = "get",
        operation_id = "getAvailability",
        tag = "Tag::Availability"
    )]
    async fn availability(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// First night (default today).
        from: Query<Option<Date>>,
        /// Last night, inclusive (default `from` + 29 days).
        to: Query<Option<Date>>,
        /// Only this room type (404 when it does not exist).
        room_type_id: Query<Option<String>>,
    ) -> Result<Direct<AvailabilityList>, ApiError<GetErrors>> {
        let from = match from.0 {
            Some(d) => d.0,
            None => service::reservations::today_of(svc.0, &token.0.principal).await?,
        };
        let to = to.0.map(|d| d.0).unwrap_or_else(|| from + Days::new(29));
        let window = service::availability::window(from, to).ok_or_else(|| {
            AppError::bad_request("to must be on or after from, and at most 365 nights later.")
                .with_errors(vec![FieldError::new(
                    "to",
                    "invalid_range",
                    "must be on or after from, at most 364 days later",
                )])
        })?;
        let data =
            service::availability::nights(svc.0, &token.0.principal, window, given(&room_type_id))
                .await?;
        Ok(Direct(AvailabilityList { data }))
    }
}
