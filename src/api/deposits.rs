//! `POST /v1/reservations/{id}/deposit`: a deposit received, with its advance invoice.

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::Path;

use super::Tag;
use super::input::Body;
use super::problem::{ActionErrors, ApiError};
use super::responses::Created;
use super::security::{Scope, Token};
use crate::model::{DepositCreate, Invoice};
use crate::service::{self, Services};

/// Deposits.
pub struct DepositsApi;

#[OpenApi(tag = "Tag::Reservations")]
impl DepositsApi {
    /// Record a deposit
    ///
    /// A deposit (an advance) received for a confirmed reservation, in one transaction: the
    /// advance invoice the country asks for an advance, paid by `payment_method`, and the
    /// reservation's `deposit` (`paid`, `outstanding`, `advances`). The document is an
    /// invoice at the accommodation's VAT rate, issued like any other: in Croatia
    /// fiscalised through the CIS (an e-invoice to a business); in Italy a FatturaPA of type
    /// TD02 through SdI, or, for a private guest where there is a telematic cash register
    /// (`it-rt`), the register's receipt (`receipt`, defaulting as at check-out). 201 with
    /// the advance invoice; its lines have `kind` `advance`.
    ///
    /// The bill at check-out lists every night and deducts each advance with a negative
    /// `advance` line at the rate it was invoiced at; where the advances come to more than
    /// the bill (a stay cut short) they are given back instead (a credit note of each, with
    /// its refund). Cancelling the reservation, or marking it a no-show, gives each advance
    /// back in the same transaction the same way and, when the deposit covers the plan's
    /// fee, bills the fee at once, paid from it; a larger fee stays on the folio.
    ///
    /// 422 `exceeds_stay` on `amount` past the stay's price less the advances already
    /// paid; 409 `invalid_state_transition` unless the reservation is `confirmed`.
    #[oai(
        path = "/reservations/:id/deposit",
        method = "post",
        operation_id = "recordDeposit"
    )]
    async fn record(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::InvoicesWrite")] token: Token,
        /// `res_…`
        id: Path<String>,
        body: Body<DepositCreate>,
    ) -> Result<Created<Invoice>, ApiError<ActionErrors>> {
        Ok(
            service::deposits::record(svc.0, &token.0.principal, id.0, body.0)
                .await?
                .into(),
        )
    }
}
