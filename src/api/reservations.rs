//! `/v1/reservations`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest, csv, given};
use super::problem::{ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::domain::enums::Source;
use crate::domain::reservation::Status;
use crate::model::{Date, Reservation, ReservationCreate, ReservationPage, ReservationUpdate};
use crate::service::Services;
use crate::service::{self, IfMatch};
use crate::store::reservations::ReservationFilter;

/// Reservations.
pub struct ReservationsApi;

#[OpenApi(tag = "Tag::Reservations")]
impl ReservationsApi {
    /// List reservations
    ///
    /// Ordered by `arrival`, then id. Filters combine with AND; date ranges are inclusive.
    #[oai(
        path = "/reservations",
        method = "get",
        operation_id = "listReservations"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// Stays overlapping the days from this date (the stay has a night on or after it).
        from: Query<Option<Date>>,
        /// Stays overlapping the days up to this date (arrival on or before it).
        to: Query<Option<Date>>,
        /// Arrival on or after this date.
        arrival_from: Query<Option<Date>>,
        /// Arrival on or before this date.
        arrival_to: Query<Option<Date>>,
        /// Departure on or after this date.
        departure_from: Query<Option<Date>>,
        /// Departure on or before this date.
        departure_to: Query<Option<Date>>,
        /// Statuses, comma-separated (`confirmed,checked_in`).
        status: Query<Option<String>>,
        /// Only this room type.
        room_type_id: Query<Option<String>>,
        /// Only reservations this guest stays on.
        guest_id: Query<Option<String>>,
        /// Booked through any of these, comma-separated (`phone,email`).
        source: Query<Option<String>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<ReservationPage>, ApiError<ListErrors>> {
        let statuses = csv("status", given(&status), Status::parse, Status::choices())?;
        let sources = csv("source", given(&source), Source::parse, Source::choices())?;
        let filter = ReservationFilter {
            from: from.0,
            to: to.0,
            arrival_from: arrival_from.0,
            arrival_to: arrival_to.0,
            departure_from: departure_from.0,
            departure_to: departure_to.0,
            status: statuses,
            room_type_id: given(&room_type_id),
            guest_id: given(&guest_id),
            source: sources,
        };
        let filters = Filters::of("reservations", &filter);
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page = service::reservations::list(svc.0, &token.0.principal, filter, req.page.clone())
            .await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(ReservationPage {
            data: page.items.into_iter().map(|(r, _)| r).collect(),
            next_cursor,
        }))
    }

    /// Create a reservation
    ///
    /// Checks availability in the same transaction as the insert: 409 `no_availability`
    /// (with the full `nights`) when the room type is full on any night, 409
    /// `room_unavailable` when the given room is taken. Records `reservation.created`.
    #[oai(
        path = "/reservations",
        method = "post",
        operation_id = "createReservation"
    )]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsWrite")] token: Token,
        body: Body<ReservationCreate>,
    ) -> Result<Created<Reservation>, ApiError<CreateErrors>> {
        Ok(
            service::reservations::create(svc.0, &token.0.principal, body.0)
                .await?
                .into(),
        )
    }

    /// Get a reservation
    ///
    /// With its status, guests, dates, room and, once checked out, `invoice_id`; served
    /// with its `version` as `ETag` for a later `PUT` with `If-Match`.
    #[oai(
        path = "/reservations/:id",
        method = "get",
        operation_id = "getReservation"
    )]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// `res_…`
        id: Path<String>,
    ) -> Result<Tagged<Reservation>, ApiError<GetErrors>> {
        Ok(service::reservations::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change, cancel or no-show a reservation
    ///
    /// Absent fields keep their value; `null` clears an optional one. `status: cancelled`
    /// cancels a confirmed reservation; `status: no_show` marks one on or after its arrival
    /// date (else 409 `too_early`). While checked in only `departure`, `room_id`, the guests
    /// and `notes` may change; final states cannot change (409 `invalid_state_transition`).
    /// Changing a primary guest without `guest_ids` keeps the other guests. Records
    /// `reservation.updated`, `reservation.cancelled` or `reservation.no_show`.
    #[oai(
        path = "/reservations/:id",
        method = "put",
        operation_id = "updateReservation"
    )]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsWrite")] token: Token,
        /// `res_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<ReservationUpdate>,
    ) -> Result<Tagged<Reservation>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::reservations::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }
}
