//! `innkeep doctor`'s look at e-invoices: none refused, and how many are on their way.

use super::doctor::{Check, attention, ok};
use crate::domain::enums::EInvoiceStatus;

/// The e-invoice scheme in force and the e-invoices not yet fiscalized, by status.
pub fn einvoices(scheme: &str, open: &[(EInvoiceStatus, i64)]) -> Check {
    if scheme == "none" {
        return ok(
            "einvoices",
            "No e-invoices are sent (no [compliance.einvoice] scheme).",
        );
    }
    let count = |s: EInvoiceStatus| {
        open.iter()
            .filter(|(x, _)| *x == s)
            .map(|(_, n)| n)
            .sum::<i64>()
    };
    let refused = count(EInvoiceStatus::Rejected);
    let waiting = count(EInvoiceStatus::Queued)
        + count(EInvoiceStatus::Sent)
        + count(EInvoiceStatus::Delivered);
    if refused > 0 {
        return attention(
            "einvoices",
            format!(
                "{refused} e-invoice(s) were refused: open the compliance centre to see why, fix it, and send again (or cancel with a credit note and issue a new invoice)."
            ),
        );
    }
    ok(
        "einvoices",
        format!(
            "E-invoices ({scheme}): none refused, {waiting} on their way to the buyer and the tax administration."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_e_invoices_need_attention() {
        assert!(einvoices("none", &[]).ok);
        assert!(einvoices("hr-eracun", &[(EInvoiceStatus::Sent, 2)]).ok);
        let bad = einvoices("hr-eracun", &[(EInvoiceStatus::Rejected, 1)]);
        assert!(!bad.ok);
        assert!(bad.message.contains("compliance centre"), "{}", bad.message);
    }
}
