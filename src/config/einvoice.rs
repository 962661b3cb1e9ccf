//! `[compliance.einvoice]`: structured e-invoices to businesses and the intermediary that
//! carries them.
//!
//! ```toml
//! [compliance.einvoice]
//! scheme = "hr-eracun"               # default "none"
//! intermediary = "moj-eracun"        # the only one so far
//! endpoint = "https://www.moj-eracun.hr"  # demo: https://demo.moj-eracun.hr
//! username = "..."                   # the intermediary account
//! password = "..."
//! company_id = "12345678903"         # the seller's OIB as the intermediary knows it
//! company_bu = ""                    # business unit, where the account has several
//! software_id = "..."                # the id the intermediary gave innkeep's installation
//! iban = "HR1210010051863000160"     # where the buyer pays
//! operator_name = "Reception"        # who issues when no staff member does (API, kiosk)
//! operator_oib = "12345678903"
//! kpd_default = "55.10.00"           # KPD 2025 code of lines without their own
//! due_days = 15                      # payment term of an unpaid e-invoice
//! ```
//!
//! The password is a [`Secret`].

use serde::{Deserialize, Serialize};

use super::compliance::{Secret, check_url};
use crate::domain::seller::oib_valid;

/// moj-eRačun's production host.
pub const MER_ENDPOINT: &str = "https://www.moj-eracun.hr";

/// The e-invoice schemes innkeep knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EInvoiceSchemeName {
    /// No e-invoices: every invoice is a receipt under the fiscal scheme.
    #[default]
    #[serde(rename = "none")]
    None,
    /// Croatia: eRačun (UBL 2.1, EN 16931 with CIUS-HR) through an information intermediary.
    #[serde(rename = "hr-eracun")]
    HrEracun,
}

/// The intermediaries innkeep can send through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntermediaryName {
    /// moj-eRačun (Croatia), API v2.
    #[default]
    #[serde(rename = "moj-eracun")]
    MojEracun,
}

/// `[compliance.einvoice]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EInvoiceConfig {
    /// `none` or `hr-eracun`.
    pub scheme: EInvoiceSchemeName,
    /// Which intermediary carries the documents.
    pub intermediary: IntermediaryName,
    /// The intermediary's base URL.
    pub endpoint: String,
    /// The intermediary account's user name.
    pub username: String,
    /// Its password.
    pub password: Secret,
    /// The seller's OIB as the intermediary account knows it.
    pub company_id: String,
    /// The business unit, where the account has several.
    pub company_bu: String,
    /// The software id the intermediary issued.
    pub software_id: String,
    /// The account the buyer pays into (IBAN).
    pub iban: String,
    /// The operator named on documents no staff member issued.
    pub operator_name: String,
    /// That operator's OIB.
    pub operator_oib: String,
    /// The KPD 2025 code of lines that name none (room types and charges may name theirs).
    pub kpd_default: String,
    /// Days from issue to the due date of an e-invoice not paid at issue.
    pub due_days: u32,
}

impl Default for EInvoiceConfig {
    fn default() -> Self {
        Self {
            scheme: EInvoiceSchemeName::None,
            intermediary: IntermediaryName::MojEracun,
            endpoint: MER_ENDPOINT.into(),
            username: String::new(),
            password: Secret::default(),
            company_id: String::new(),
            company_bu: String::new(),
            software_id: String::new(),
            iban: String::new(),
            operator_name: String::new(),
            operator_oib: String::new(),
            kpd_default: crate::domain::kpd::ACCOMMODATION.into(),
            due_days: 15,
        }
    }
}

impl EInvoiceConfig {
    /// Checks the section; the error names the key and the rule.
    pub fn check(&self) -> Result<(), String> {
        if self.scheme == EInvoiceSchemeName::None {
            return Ok(());
        }
        check_url("compliance.einvoice.endpoint", &self.endpoint)?;
        let need = |key: &str| {
            format!(
                "compliance.einvoice.{key} is required when scheme = \"hr-eracun\" \
                 (set it in the config file or INNKEEP_COMPLIANCE__EINVOICE__{})",
                key.to_ascii_uppercase()
            )
        };
        for (key, value) in [
            ("username", &self.username),
            ("company_id", &self.company_id),
            ("software_id", &self.software_id),
            ("iban", &self.iban),
            ("operator_name", &self.operator_name),
            ("operator_oib", &self.operator_oib),
        ] {
            if value.trim().is_empty() {
                return Err(need(key));
            }
        }
        if self.password.is_empty() {
            return Err(need("password"));
        }
        for (key, value) in [
            ("company_id", &self.company_id),
            ("operator_oib", &self.operator_oib),
        ] {
            if !oib_valid(value) {
                return Err(format!(
                    "compliance.einvoice.{key} {value:?} is not an OIB: 11 digits whose last is the check digit (ISO 7064 MOD 11,10)"
                ));
            }
        }
        if !crate::domain::kpd::valid(&self.kpd_default) {
            return Err(format!(
                "compliance.einvoice.kpd_default {:?} is not a KPD 2025 code of the form 55.10.00",
                self.kpd_default
            ));
        }
        if !crate::domain::iban::valid(&self.iban) {
            return Err(format!(
                "compliance.einvoice.iban {:?} is not an IBAN (its check digits do not match)",
                self.iban
            ));
        }
        if !(1..=365).contains(&self.due_days) {
            return Err(format!(
                "compliance.einvoice.due_days must be between 1 and 365, not {}",
                self.due_days
            ));
        }
        Ok(())
    }
}
