//! An invoice's e-invoice, as its fiscal record shows it.

use poem_openapi::Object;

use crate::domain::enums::EInvoiceStatus;

/// An invoice's e-invoice and where it stands.
///
/// `status`: `queued` (built, waiting for the intermediary), `sent` (the intermediary took
/// it), `delivered` (the buyer has it), `fiscalized` (the tax administration has it; the
/// fiscal record is `fiscalized` too) or `rejected` (refused; `last_error` says why, and the
/// fiscal record is `failed`).
#[derive(Debug, Clone, Object, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EInvoice {
    /// Where it stands.
    pub status: EInvoiceStatus,
    /// The intermediary that carries it, such as `moj-eracun`.
    pub intermediary: String,
    /// The intermediary's id of the document, once it has one.
    pub reference: Option<String>,
    /// SHA-256 of the document, hex.
    pub sha256: String,
    /// The last problem, in plain words.
    pub last_error: Option<String>,
}
