//! `GET /v1/reservations/{id}/history`, `/v1/guests/{id}/history` and
//! `/v1/invoices/{id}/history`: the audit trail of one record, oldest first.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Path, Query};

use super::Tag;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{ApiError, GetErrors};
use super::security::{Scope, Token};
use crate::model::{HistoryPage, Principal};
use crate::service::Services;
use crate::service::history::{self, Subject};

/// The audit trails.
pub struct HistoryApi;

/// One page of `subject`'s history: the same paging rules as every list, the cursor bound to
/// the record.
async fn page(
    svc: &Services,
    p: &Principal,
    cursors: &CursorKey,
    subject: Subject,
    id: String,
    limit: Option<i64>,
    cursor: Option<String>,
) -> Result<Direct<HistoryPage>, ApiError<GetErrors>> {
    let filters = Filters::of(&format!("history/{id}"), &());
    let req = ListRequest::new(cursors, limit, cursor, filters)?;
    let page = history::list(svc, p, subject, id, req.page.clone()).await?;
    let next_cursor = req.next_cursor(&page);
    Ok(Direct(HistoryPage {
        data: page.items.into_iter().map(|(e, _)| e).collect(),
        next_cursor,
    }))
}

#[OpenApi]
impl HistoryApi {
    /// A reservation's history
    ///
    /// Who did what to the reservation, when, with the fields each change touched: created,
    /// changed, cancelled, checked in or out, charges added. Oldest first; kept for good
    /// (events are pruned after 30 days, history never).
    #[oai(
        path = "/reservations/:id/history",
        method = "get",
        operation_id = "getReservationHistory",
        tag = "Tag::Reservations"
    )]
    async fn reservation(
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
    ) -> Result<Direct<HistoryPage>, ApiError<GetErrors>> {
        page(
            svc.0,
            &token.0.principal,
            cursors.0,
            Subject::Reservation,
            id.0,
            limit.0,
            cursor.0,
        )
        .await
    }

    /// A guest's history
    ///
    /// Who created or changed the guest's record, when, with the fields each change touched.
    /// Oldest first; kept for good.
    #[oai(
        path = "/guests/:id/history",
        method = "get",
        operation_id = "getGuestHistory",
        tag = "Tag::Guests"
    )]
    async fn guest(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::GuestsRead")] token: Token,
        /// `gst_…`
        id: Path<String>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<HistoryPage>, ApiError<GetErrors>> {
        page(
            svc.0,
            &token.0.principal,
            cursors.0,
            Subject::Guest,
            id.0,
            limit.0,
            cursor.0,
        )
        .await
    }

    /// An invoice's history
    ///
    /// Issued, part payments, paid, fiscalized (or delayed, or failed), reversed by a credit
    /// note: who (a staff member, an integration, or innkeep's queue), when, and the fields
    /// each step changed. Oldest first; kept for good.
    #[oai(
        path = "/invoices/:id/history",
        method = "get",
        operation_id = "getInvoiceHistory",
        tag = "Tag::Invoices"
    )]
    async fn invoice(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesRead")] token: Token,
        /// `inv_…`
        id: Path<String>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<HistoryPage>, ApiError<GetErrors>> {
        page(
            svc.0,
            &token.0.principal,
            cursors.0,
            Subject::Invoice,
            id.0,
            limit.0,
            cursor.0,
        )
        .await
    }
}
