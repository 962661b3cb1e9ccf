//! An invoice's fiscal block, in words: for an e-invoice where it stands at the
//! intermediary (and why it was refused); for a fiscal receipt its status, number, ZKI and
//! JIR.

use crate::i18n::T;
use crate::model::Fiscal;

/// (label, value) of the fiscal record.
pub fn rows(t: &T, f: &Fiscal) -> Vec<(String, String)> {
    let mut fiscal = Vec::new();
    if let Some(e) = &f.einvoice {
        let status = match (f.scheme.as_str(), e.intermediary.as_str()) {
            (_, "manual") => t.t("einvoice-manual"),
            ("it-sdi", _) => t.t(&format!("einvoice-it-status-{}", e.status.as_str())),
            _ => t.t(&format!("einvoice-status-{}", e.status.as_str())),
        };
        fiscal.push((t.t("einvoice-status"), status));
        let by = match e.intermediary.as_str() {
            "moj-eracun" => "moj-eRačun".to_string(),
            "invoicetronic" => "Invoicetronic".to_string(),
            "manual" => t.t("einvoice-by-hand"),
            other => other.to_string(),
        };
        fiscal.push((t.t("einvoice-intermediary"), by));
        if let Some(r) = &e.reference {
            fiscal.push((t.t("einvoice-reference"), r.clone()));
        }
        if let Some(why) = &e.last_error {
            fiscal.push((t.t("einvoice-problem"), why.clone()));
        }
    } else if f.scheme == crate::compliance::rt::NAME {
        fiscal.push((
            t.t("fiscal-status"),
            t.t(&format!("fiscal-rt-status-{}", f.status.as_str())),
        ));
        fiscal.push((
            t.t("fiscal-rt-document"),
            f.authority_reference
                .clone()
                .unwrap_or_else(|| t.t("fiscal-rt-document-pending")),
        ));
        if let Some(why) = &f.last_error {
            fiscal.push((t.t("einvoice-problem"), why.clone()));
        }
    } else if f.scheme != "none" {
        fiscal.push((
            t.t("fiscal-status"),
            t.t(&format!("fiscal-status-{}", f.status.as_str())),
        ));
        let known = [
            ("fiscal-receipt", &f.receipt_number),
            ("fiscal-zki", &f.local_proof),
        ];
        for (key, value) in known {
            if let Some(v) = value {
                fiscal.push((t.t(key), v.clone()));
            }
        }
        fiscal.push((
            t.t("fiscal-jir"),
            f.authority_reference
                .clone()
                .unwrap_or_else(|| t.t("fiscal-jir-pending")),
        ));
    }
    fiscal
}
