//! An invoice's e-invoice, as its fiscal record shows it.

use poem_openapi::Object;

use crate::domain::enums::EInvoiceStatus;

/// An invoice's e-invoice and where it stands.
///
/// `status`: `queued` (built, waiting for the intermediary), `sent` (the intermediary took
/// it), `delivered` (the buyer has it), `fiscalized` (the tax administration has it; the
/// fiscal record is `fiscalized` too) or `rejected` (refused; `last_error` says why, and the
/// fiscal record is `failed`).
///
/// In Italy (`it-sdi`) `fiscalized` means SdI accepted it: delivered to the buyer, or left in
/// the buyer's reserved area when it could not be delivered (both make the invoice issued);
/// `rejected` means SdI discarded it (in law it was not issued: reverse it with a credit
/// note, which SdI never sees, and issue the corrected invoice with `reissues_invoice_id`).
/// With the manual mode (`intermediary` `manual`) it stays `queued` and the fiscal record is
/// `not_required`: the owner sends the file through their own channel.
#[derive(Debug, Clone, Object, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EInvoice {
    /// Where it stands.
    pub status: EInvoiceStatus,
    /// The intermediary that carries it: `moj-eracun`, `invoicetronic` or `manual`.
    pub intermediary: String,
    /// The intermediary's id of the document, once it has one.
    pub reference: Option<String>,
    /// SHA-256 of the document, hex.
    pub sha256: String,
    /// The last problem, in plain words.
    pub last_error: Option<String>,
}
