//! `/v1/invoices`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest, csv, given};
use super::problem::{ActionErrors, ApiError, CreateErrors, GetErrors, ListErrors};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::domain::enums::InvoiceStatus;
use crate::model::{
    Date, Invoice, InvoiceCreate, InvoicePage, PaymentInput, PaymentMethodChange, PaymentReceipt,
};
use crate::service;
use crate::service::Services;
use crate::store::invoices::InvoiceFilter;

/// Invoices and credit notes.
pub struct InvoicesApi;

/// A recorded payment.
#[derive(ApiResponse)]
pub enum PaymentRecorded {
    /// Recorded; the invoice is `paid` once payments reach its gross total.
    #[oai(status = 201)]
    Created(Json<PaymentReceipt>),
}

/// An invoice's e-invoice document.
#[derive(ApiResponse)]
pub enum EInvoiceDocument {
    /// The UBL 2.1 document exactly as issued (its SHA-256 is `fiscal.einvoice.sha256`),
    /// as `text/xml` (RFC 7303's equivalent of `application/xml`, which generated clients
    /// read as text), UTF-8.
    #[oai(status = 200, content_type = "text/xml; charset=utf-8")]
    Xml(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
        #[oai(header = "X-Content-SHA256")] String,
    ),
}

#[OpenApi(tag = "Tag::Invoices")]
impl InvoicesApi {
    /// Get an invoice's e-invoice
    ///
    /// The structured e-invoice of an invoice that is one (Croatia: a UBL 2.1 `Invoice` or
    /// `CreditNote` under EN 16931 and CIUS-HR, for a bill-to that is a Croatian business,
    /// not paid at the desk by card or cash; Italy: every invoice, a FatturaPA FPR12 document
    /// under schema 1.2.3, a credit note as TD04), byte for byte as it was built at issue
    /// and sent to the intermediary (or, in the manual mode, for the owner to send). 404 `not_found` when the invoice has none. Where it stands
    /// is in the invoice's `fiscal.einvoice`.
    #[oai(
        path = "/invoices/:id/einvoice.xml",
        method = "get",
        operation_id = "getInvoiceEInvoice"
    )]
    async fn einvoice(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesRead")] token: Token,
        /// `inv_…`
        id: Path<String>,
    ) -> Result<EInvoiceDocument, ApiError<GetErrors>> {
        let (number, document, sha256) =
            service::einvoices::einvoice(svc.0, &token.0.principal, id.0).await?;
        let name = number.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_");
        Ok(EInvoiceDocument::Xml(
            PlainText(document),
            format!("attachment; filename=\"{name}.xml\""),
            sha256,
        ))
    }

    /// List invoices
    ///
    /// Ordered by issue date, then number. Filters combine with AND.
    #[oai(path = "/invoices", method = "get", operation_id = "listInvoices")]
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesRead")] token: Token,
        /// Issued on or after this date.
        issued_from: Query<Option<Date>>,
        /// Issued on or before this date.
        issued_to: Query<Option<Date>>,
        /// Statuses, comma-separated (`issued,paid`).
        status: Query<Option<String>>,
        /// Only this guest's.
        guest_id: Query<Option<String>>,
        /// Only this reservation's.
        reservation_id: Query<Option<String>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<InvoicePage>, ApiError<ListErrors>> {
        let statuses = csv(
            "status",
            given(&status),
            InvoiceStatus::parse,
            InvoiceStatus::choices(),
        )?;
        let filter = InvoiceFilter {
            issued_from: issued_from.0,
            issued_to: issued_to.0,
            status: statuses,
            guest_id: given(&guest_id),
            reservation_id: given(&reservation_id),
        };
        let filters = Filters::of("invoices", &filter);
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page =
            service::invoices::list(svc.0, &token.0.principal, filter, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(InvoicePage {
            data: page.items.into_iter().map(|(i, _)| i).collect(),
            next_cursor,
        }))
    }

    /// Issue an invoice or a credit note
    ///
    /// Three forms: `{reservation_id, payment_method}` bills the reservation's uninvoiced
    /// folio charges (an interim bill; 409 `already_invoiced` when there are none);
    /// `{guest_id, bill_to, payment_method, lines}` is a sale outside a stay;
    /// `{corrects_invoice_id, reason}` reverses an invoice in full with a credit note, and the
    /// original becomes `cancelled`. Numbers are gapless within the series. Lines are never
    /// invoiced twice. Records `invoice.created`. After `innkeep restore`, invoices are held:
    /// 409 `numbering_unconfirmed` until an admin confirms the next number of every series
    /// (`innkeep numbering confirm`), because a backup can be older than the last invoice.
    #[oai(path = "/invoices", method = "post", operation_id = "createInvoice")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesWrite")] token: Token,
        body: Body<InvoiceCreate>,
    ) -> Result<Created<Invoice>, ApiError<CreateErrors>> {
        Ok(service::invoices::create(svc.0, &token.0.principal, body.0)
            .await?
            .into())
    }

    /// Get an invoice with its lines
    ///
    /// The invoice as issued (lines, totals, tax breakdown), with what was paid and the
    /// state of its fiscal receipt. Issued invoices never change, except their status,
    /// payments and fiscal state.
    #[oai(path = "/invoices/:id", method = "get", operation_id = "getInvoice")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesRead")] token: Token,
        /// `inv_…`
        id: Path<String>,
    ) -> Result<Tagged<Invoice>, ApiError<GetErrors>> {
        Ok(service::invoices::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Record a payment
    ///
    /// For an `issued` invoice, at most what is still owed (422 `exceeds_outstanding`). When
    /// payments reach the gross total the invoice becomes `paid` and `invoice.paid` is recorded.
    ///
    /// On a credit note the payment is a **refund**, money given back (`kind: refund`, its
    /// `amount` above zero): at most what was paid on the invoice it reverses and not yet given
    /// back (422 `exceeds_outstanding`; 409 `invalid_state_transition` when nothing was paid).
    /// Each refund lowers the credit note's `paid_amount` towards its negative total; when they
    /// meet, the credit note is `paid` (given back in full) and `invoice.paid` is recorded.
    #[oai(
        path = "/invoices/:id/payments",
        method = "post",
        operation_id = "recordPayment"
    )]
    async fn pay(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesWrite")] token: Token,
        /// `inv_…`
        id: Path<String>,
        body: Body<PaymentInput>,
    ) -> Result<PaymentRecorded, ApiError<ActionErrors>> {
        Ok(PaymentRecorded::Created(Json(
            service::invoices::pay(svc.0, &token.0.principal, id.0, body.0).await?,
        )))
    }

    /// Change an issued invoice's payment method
    ///
    /// The invoice was paid otherwise than it says (booked as a bank transfer, paid by card
    /// at the desk). Its `payment_method` changes, its `version` goes up and
    /// `invoice.payment_method_changed` is recorded; nothing else about it changes. The same
    /// method again changes nothing (200, no event).
    ///
    /// Where the fiscal system must hear of it, the change is reported from the queue as a
    /// `fiscal_payment_change` submission (`GET /compliance/submissions?kind=fiscal_payment_change`,
    /// `subject_id` the invoice). Croatia (`hr-cis`): CIS's *promjena načina plaćanja*
    /// (`PromijeniNacPlac`), which CIS takes only on the day the receipt was issued, until
    /// midnight Zagreb time: a later change is 409 `payment_method_change_too_late` (issue a
    /// credit note and a new invoice instead); the report waits until CIS has accepted the
    /// receipt itself and is due by that midnight. 409 `invalid_state_transition` for an
    /// invoice a credit note reversed; 409 `fiscal_scheme_not_configured` when the scheme
    /// that sealed its receipt is no longer configured.
    #[oai(
        path = "/invoices/:id/payment-method",
        method = "post",
        operation_id = "changePaymentMethod"
    )]
    async fn change_payment_method(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesWrite")] token: Token,
        /// `inv_…`
        id: Path<String>,
        body: Body<PaymentMethodChange>,
    ) -> Result<Tagged<Invoice>, ApiError<ActionErrors>> {
        let method = body.0.payment_method;
        Ok(
            service::payment_method::change(svc.0, &token.0.principal, id.0, method)
                .await?
                .into(),
        )
    }
}
