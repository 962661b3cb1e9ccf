//! An invoice's e-invoice document, as issued.

use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// `GET /v1/invoices/{id}/einvoice.xml`: the invoice's number, e-invoice document and its
/// SHA-256; 404 when the invoice is not an e-invoice.
pub async fn einvoice(
    svc: &Services,
    p: &Principal,
    id: String,
) -> AppResult<(String, String, String)> {
    p.require(Scope::InvoicesRead)?;
    svc.db()
        .read(move |c| {
            let inv =
                store::invoices::get(c, &id)?.ok_or_else(|| AppError::not_found("invoice", &id))?;
            let e = store::einvoices::get(c, &id)?
                .ok_or_else(|| AppError::not_found("e-invoice of invoice", &id))?;
            Ok((inv.number, e.document, e.sha256))
        })
        .await
}
