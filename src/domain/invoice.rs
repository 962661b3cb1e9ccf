//! The invoice life cycle (API.md section 7): `issued` → `paid` when payments reach the
//! gross total; `issued` or `paid` → `cancelled` when a credit note reverses the invoice.
//! Nothing leaves `cancelled`, and an issued invoice never changes otherwise.

use super::enums::InvoiceStatus;

/// What moves an invoice from one state to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceVia {
    /// `POST /v1/invoices/{id}/payments`, once payments reach the gross total.
    Payment,
    /// `POST /v1/invoices` with `corrects_invoice_id`: a credit note.
    CreditNote,
}

impl InvoiceVia {
    /// Human description of the operation.
    pub fn describe(self) -> &'static str {
        match self {
            InvoiceVia::Payment => {
                "POST /v1/invoices/{id}/payments (payments reach the gross total)"
            }
            InvoiceVia::CreditNote => "POST /v1/invoices with corrects_invoice_id (a credit note)",
        }
    }
}

/// Every allowed invoice transition.
pub const INVOICE_TRANSITIONS: &[(InvoiceStatus, InvoiceStatus, InvoiceVia)] = &[
    (
        InvoiceStatus::Issued,
        InvoiceStatus::Paid,
        InvoiceVia::Payment,
    ),
    (
        InvoiceStatus::Issued,
        InvoiceStatus::Cancelled,
        InvoiceVia::CreditNote,
    ),
    (
        InvoiceStatus::Paid,
        InvoiceStatus::Cancelled,
        InvoiceVia::CreditNote,
    ),
];

/// The states nothing leaves.
pub fn is_final(status: InvoiceStatus) -> bool {
    !INVOICE_TRANSITIONS
        .iter()
        .any(|(from, _, _)| *from == status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cancelled_is_final() {
        assert!(is_final(InvoiceStatus::Cancelled));
        assert!(!is_final(InvoiceStatus::Issued));
        assert!(!is_final(InvoiceStatus::Paid));
    }
}
