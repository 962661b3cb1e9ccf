//! `POST /v1/check-in`, `POST /v1/check-out`, `POST /v1/reservations/{id}/undo-check-in`,
//! `/v1/reservations/{id}/charges`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{ActionErrors, ApiError, GetErrors};
use super::responses::Tagged;
use super::security::{Scope, Token};
use crate::model::{
    Charge, ChargeInput, ChargePage, CheckIn, CheckOut, CheckOutResult, Reservation,
};
use crate::service;
use crate::service::Services;

/// The stay.
pub struct StaysApi;

/// The checked-out reservation and its invoice.
#[derive(ApiResponse)]
pub enum CheckedOut {
    /// Checked out; the invoice is issued.
    #[oai(status = 200)]
    Ok(Direct<CheckOutResult>),
}

/// A charge added to the folio.
#[derive(ApiResponse)]
pub(super) enum ChargeAdded {
    /// Added. Charges never change, so they carry no version.
    #[oai(status = 201)]
    Created(Json<Charge>, #[oai(header = "Location")] String),
}

#[OpenApi(tag = "Tag::Stays")]
impl StaysApi {
    /// Check a guest in
    ///
    /// The reservation must be `confirmed`, and today (property time) on or after its arrival
    /// (409 `too_early`) and before its departure. The room (in the body, or already on the
    /// reservation) must be of the booked type (422), not out of order and not occupied (409
    /// `room_unavailable`). When guest registration applies, every guest must have the data
    /// the national system needs (422 `registration_incomplete`, listing each guest's missing
    /// fields) and the registration is queued. Records `reservation.checked_in`.
    #[oai(path = "/check-in", method = "post", operation_id = "checkIn")]
    async fn check_in(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::FrontDesk")] token: Token,
        body: Body<CheckIn>,
    ) -> Result<Tagged<Reservation>, ApiError<ActionErrors>> {
        Ok(service::stays::check_in(svc.0, &token.0.principal, body.0)
            .await?
            .into())
    }

    /// Check a guest out and issue the invoice
    ///
    /// The reservation must be `checked_in`. In one transaction: the last `charges` join the
    /// folio; the invoice is issued with a nights line at the nightly rate and the
    /// property's `default_tax_rate` (a guest leaving early is billed the nights stayed, at
    /// least one, and the departure moves to today), every uninvoiced folio charge, and the
    /// city tax when the property has one (persons × nights up to `max_nights`, guests under
    /// `exempt_under_age` on arrival exempt, at the city tax's own rate; 422
    /// `currency_mismatch` when the stay is not in the property's currency); its fiscal
    /// receipt is sealed; the room becomes `dirty`. The invoice is `issued`; record payments
    /// on it. Records `reservation.checked_out` and `invoice.created`. While invoices are
    /// held after a restore, 409 `numbering_unconfirmed` and nothing changes.
    #[oai(path = "/check-out", method = "post", operation_id = "checkOut")]
    async fn check_out(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::FrontDesk")] token: Token,
        body: Body<CheckOut>,
    ) -> Result<CheckedOut, ApiError<ActionErrors>> {
        Ok(CheckedOut::Ok(Direct(
            service::stays::check_out(svc.0, &token.0.principal, body.0).await?,
        )))
    }

    /// Undo a check-in made by mistake
    ///
    /// On the day of the check-in only (property time): the reservation is `confirmed` again
    /// (`checked_in_at` and `registration` cleared, the room still assigned, folio charges
    /// kept), and every guest's registration is withdrawn where the national system allows
    /// it: for `hr-evisitor`, a `guest_withdrawal` submission sends `CancelTouristCheckIn`
    /// for each guest after their check-in has been answered. Alloggiati Web has no such
    /// operation, so with `it-alloggiati` the undo is 409 `undo_not_possible` (check the
    /// guest out, and correct the registration on the portal).
    /// Records `reservation.updated`. 409 `invalid_state_transition` unless `checked_in`;
    /// 409 `undo_too_late` on a later day (check the guest out instead). innkeep's addition
    /// to the contract: the reservation graph gains `checked_in` → `confirmed` by this
    /// operation (see `GET /v1/meta/state-machines`).
    #[oai(
        path = "/reservations/:id/undo-check-in",
        method = "post",
        operation_id = "undoCheckIn",
        tag = "Tag::Reservations"
    )]
    async fn undo_check_in(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::FrontDesk")] token: Token,
        /// `res_…`
        id: Path<String>,
    ) -> Result<Tagged<Reservation>, ApiError<ActionErrors>> {
        Ok(
            service::undo_check_in::undo(svc.0, &token.0.principal, id.0, None)
                .await?
                .into(),
        )
    }

    /// List a reservation's folio charges
    ///
    /// Oldest first. `invoice_id` shows which are billed.
    #[oai(
        path = "/reservations/:id/charges",
        method = "get",
        operation_id = "listCharges",
        tag = "Tag::Reservations"
    )]
    async fn list_charges(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReservationsRead")] token: Token,
        /// `res_…`
        id: Path<String>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<ChargePage>, ApiError<GetErrors>> {
        let req = ListRequest::new(
            cursors.0,
            limit.0,
            cursor.0,
            Filters::of(&format!("charges/{}", id.0), &()),
        )?;
        let page =
            service::charges::list(svc.0, &token.0.principal, id.0, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(ChargePage {
            data: page.items.into_iter().map(|(c, _)| c).collect(),
            next_cursor,
        }))
    }

    /// Add a folio charge
    ///
    /// While the reservation is `confirmed` or `checked_in`. A negative `unit_price` is an
    /// allowance. Charges become invoice lines at check-out (or on an interim bill).
    #[oai(
        path = "/reservations/:id/charges",
        method = "post",
        operation_id = "addCharge",
        tag = "Tag::Reservations"
    )]
    async fn add_charge(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::FrontDesk")] token: Token,
        /// `res_…`
        id: Path<String>,
        body: Body<ChargeInput>,
    ) -> Result<ChargeAdded, ApiError<ActionErrors>> {
        let c = service::charges::add(svc.0, &token.0.principal, id.0, body.0).await?;
        let location = format!("/v1/reservations/{}/charges", c.reservation_id);
        Ok(ChargeAdded::Created(Json(c), location))
    }
}
