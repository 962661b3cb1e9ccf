//! `/v1/guests`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest, given};
use super::problem::{ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::model::{Date, Guest, GuestCreate, GuestPage, GuestUpdate};
use crate::service::Services;
use crate::service::{self, IfMatch};
use crate::store::guests::GuestFilter;

/// Guests.
pub struct GuestsApi;

#[OpenApi(tag = "Tag::Guests")]
impl GuestsApi {
    /// List guests
    ///
    /// Ordered by last name, then first name (case-insensitive), then id. Filters combine
    /// with AND.
    #[oai(path = "/guests", method = "get", operation_id = "listGuests")]
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::GuestsRead")] token: Token,
        /// Case-insensitive part of the first, last or full name; no control characters.
        #[oai(validator(pattern = r"^[^\x00-\x1f\x7f]*$"))]
        name: Query<Option<String>>,
        /// Exact e-mail address, case-insensitive.
        email: Query<Option<String>>,
        /// A phone number however it is written: `+385 91 234 5678` finds a guest stored
        /// with `091 234 5678`. Numbers are compared by their last nine digits; a value with
        /// fewer than six digits finds nobody.
        phone: Query<Option<String>>,
        /// Guests on a reservation (not cancelled) arriving on or after this date.
        arrival_from: Query<Option<Date>>,
        /// Guests on a reservation (not cancelled) arriving on or before this date.
        arrival_to: Query<Option<Date>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<GuestPage>, ApiError<ListErrors>> {
        let filter = GuestFilter {
            name: given(&name),
            email: given(&email),
            phone: given(&phone),
            arrival_from: arrival_from.0,
            arrival_to: arrival_to.0,
        };
        let filters = Filters::of("guests", &filter);
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page =
            service::guests::list(svc.0, &token.0.principal, filter, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(GuestPage {
            data: page.items.into_iter().map(|(g, _)| g).collect(),
            next_cursor,
        }))
    }

    /// Create a guest
    ///
    /// Records a `guest.created` event.
    #[oai(path = "/guests", method = "post", operation_id = "createGuest")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::GuestsWrite")] token: Token,
        body: Body<GuestCreate>,
    ) -> Result<Created<Guest>, ApiError<CreateErrors>> {
        Ok(service::guests::create(svc.0, &token.0.principal, body.0)
            .await?
            .into())
    }

    /// Get a guest
    ///
    /// The guest with every field, served with its `version` as `ETag` for a later `PUT`
    /// with `If-Match`.
    #[oai(path = "/guests/:id", method = "get", operation_id = "getGuest")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::GuestsRead")] token: Token,
        /// `gst_…`
        id: Path<String>,
    ) -> Result<Tagged<Guest>, ApiError<GetErrors>> {
        Ok(service::guests::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change a guest
    ///
    /// Absent fields keep their value; `null` clears an optional one. Records a
    /// `guest.updated` event when something changed.
    #[oai(path = "/guests/:id", method = "put", operation_id = "updateGuest")]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::GuestsWrite")] token: Token,
        /// `gst_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<GuestUpdate>,
    ) -> Result<Tagged<Guest>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::guests::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }
}
