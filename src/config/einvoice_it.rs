//! The checks of `[compliance.einvoice]` under `scheme = "it-sdi"`.

use super::compliance::check_url;
use super::einvoice::{EInvoiceConfig, IntermediaryName, NATURE};

/// Checks the Italian settings; the error names the key and the rule.
pub(super) fn check(e: &EInvoiceConfig) -> Result<(), String> {
    match e.intermediary {
        IntermediaryName::MojEracun => {
            return Err("compliance.einvoice.intermediary must be \"invoicetronic\" or \"manual\" when scheme = \"it-sdi\" (moj-eRačun serves Croatia)".into());
        }
        IntermediaryName::Invoicetronic => {
            check_url("compliance.einvoice.endpoint", &e.endpoint())?;
            if e.api_key.is_empty() {
                return Err("compliance.einvoice.api_key is required with intermediary = \"invoicetronic\" (set it in the config file or INNKEEP_COMPLIANCE__EINVOICE__API_KEY)".into());
            }
        }
        IntermediaryName::Manual => {}
    }
    let t = e.transmitter_id.trim();
    if !t.is_empty() {
        let (country, code) = t.split_at(t.len().min(2));
        let ok = country.len() == 2
            && country.bytes().all(|b| b.is_ascii_uppercase())
            && (1..=28).contains(&code.len())
            && code.bytes().all(|b| b.is_ascii_alphanumeric());
        if !ok {
            return Err(format!(
                "compliance.einvoice.transmitter_id {t:?} must be a country code and a tax id, such as IT01234567890"
            ));
        }
    }
    let rf: Option<u32> = e
        .regime_fiscale
        .strip_prefix("RF")
        .and_then(|n| n.parse().ok());
    if !matches!(rf, Some(1..=20)) || rf == Some(3) || e.regime_fiscale.len() != 4 {
        return Err(format!(
            "compliance.einvoice.regime_fiscale {:?} must be one of RF01..RF20 (not RF03), such as RF01 for the ordinary regime",
            e.regime_fiscale
        ));
    }
    for (key, value) in [
        ("city_tax_natura", &e.city_tax_natura),
        ("zero_rate_natura", &e.zero_rate_natura),
    ] {
        if !NATURE.contains(&value.as_str()) {
            return Err(format!(
                "compliance.einvoice.{key} {value:?} must be a Natura code: {}",
                NATURE.join(", ")
            ));
        }
    }
    if !e.iban.is_empty() && !crate::domain::iban::valid(&e.iban) {
        return Err(format!(
            "compliance.einvoice.iban {:?} is not an IBAN (its check digits do not match)",
            e.iban
        ));
    }
    if !(1..=365).contains(&e.due_days) {
        return Err(format!(
            "compliance.einvoice.due_days must be between 1 and 365, not {}",
            e.due_days
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EInvoiceSchemeName;

    fn it() -> EInvoiceConfig {
        EInvoiceConfig {
            scheme: EInvoiceSchemeName::ItSdi,
            intermediary: IntermediaryName::Manual,
            ..EInvoiceConfig::default()
        }
    }

    #[test]
    fn italian_settings_are_checked_by_key() {
        assert_eq!(it().check(), Ok(()));
        let mut e = it();
        e.intermediary = IntermediaryName::Invoicetronic;
        assert!(e.check().unwrap_err().contains("api_key"));
        let mut e = it();
        e.regime_fiscale = "RF03".into();
        assert!(e.check().unwrap_err().contains("regime_fiscale"));
        let mut e = it();
        e.city_tax_natura = "N2".into();
        assert!(e.check().unwrap_err().contains("city_tax_natura"));
        let mut e = it();
        e.transmitter_id = "01234567890".into();
        assert!(e.check().unwrap_err().contains("transmitter_id"));
        e.transmitter_id = "IT01234567890".into();
        assert_eq!(e.check(), Ok(()));
        let mut e = it();
        e.intermediary = IntermediaryName::MojEracun;
        assert!(e.check().unwrap_err().contains("intermediary"));
    }
}
