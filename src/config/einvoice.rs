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
//! In Italy (`scheme = "it-sdi"`), every invoice is a FatturaPA sent to SdI:
//!
//! ```toml
//! [compliance.einvoice]
//! scheme = "it-sdi"
//! intermediary = "invoicetronic"     # or "manual": innkeep only makes the files
//! endpoint = "https://api.invoicetronic.com/v1"   # the default
//! api_key = "ik_live_..."            # ik_test_... is the intermediary's sandbox
//! transmitter_id = ""                # IT + the transmitter's tax id; the seller's partita IVA when empty
//! regime_fiscale = "RF01"            # the seller's tax regime (RF01 ordinary)
//! city_tax_natura = "N1"             # Natura of the city tax (excluded, art. 15 DPR 633/72)
//! zero_rate_natura = "N2.2"          # Natura of any other line at 0 %
//! bollo_on_city_tax = true           # the city tax counts toward the €77.47 stamp-duty threshold
//! iban = ""                          # optional: where a buyer pays an invoice not paid at issue
//! due_days = 15
//! ```
//!
//! The password and the API key are [`Secret`]s.

use serde::{Deserialize, Serialize};

use super::compliance::{Secret, check_url};
use crate::domain::seller::oib_valid;

/// moj-eRačun's production host.
pub const MER_ENDPOINT: &str = "https://www.moj-eracun.hr";
/// Invoicetronic's API (its sandbox is the same host, chosen by an `ik_test_` key).
pub const INVOICETRONIC_ENDPOINT: &str = "https://api.invoicetronic.com/v1";

/// The `Natura` codes a line outside VAT may carry (FatturaPA 1.2.3 with the technical rules
/// of 2021: N2, N3 and N6 only with their subcodes).
pub const NATURE: [&str; 21] = [
    "N1", "N2.1", "N2.2", "N3.1", "N3.2", "N3.3", "N3.4", "N3.5", "N3.6", "N4", "N5", "N6.1",
    "N6.2", "N6.3", "N6.4", "N6.5", "N6.6", "N6.7", "N6.8", "N6.9", "N7",
];

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
    /// Italy: FatturaPA (FPR12) through SdI, by an intermediary or by hand.
    #[serde(rename = "it-sdi")]
    ItSdi,
}

/// The intermediaries innkeep can send through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntermediaryName {
    /// moj-eRačun (Croatia), API v2.
    #[default]
    #[serde(rename = "moj-eracun")]
    MojEracun,
    /// Invoicetronic (Italy, SdI), REST API v1.
    #[serde(rename = "invoicetronic")]
    Invoicetronic,
    /// No intermediary: innkeep makes the files and the owner sends them (Italy).
    #[serde(rename = "manual")]
    Manual,
}

/// `[compliance.einvoice]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EInvoiceConfig {
    /// `none` or `hr-eracun`.
    pub scheme: EInvoiceSchemeName,
    /// Which intermediary carries the documents.
    pub intermediary: IntermediaryName,
    /// The intermediary's base URL; its own production address when empty.
    pub endpoint: String,
    /// The intermediary's API key (Invoicetronic).
    pub api_key: Secret,
    /// Who transmits to SdI: `IT` and the tax id; the seller's partita IVA when empty.
    pub transmitter_id: String,
    /// The seller's tax regime (`RF01`..`RF20`).
    pub regime_fiscale: String,
    /// The `Natura` of the city tax.
    pub city_tax_natura: String,
    /// The `Natura` of other lines at 0 %.
    pub zero_rate_natura: String,
    /// Whether the city tax counts toward the stamp duty's threshold.
    pub bollo_on_city_tax: bool,
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
            endpoint: String::new(),
            api_key: Secret::default(),
            transmitter_id: String::new(),
            regime_fiscale: "RF01".into(),
            city_tax_natura: "N1".into(),
            zero_rate_natura: "N2.2".into(),
            bollo_on_city_tax: true,
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
    /// The intermediary's base URL, without a trailing slash.
    pub fn endpoint(&self) -> String {
        let own = match self.intermediary {
            IntermediaryName::MojEracun => MER_ENDPOINT,
            IntermediaryName::Invoicetronic => INVOICETRONIC_ENDPOINT,
            IntermediaryName::Manual => "",
        };
        let e = if self.endpoint.trim().is_empty() {
            own
        } else {
            self.endpoint.trim()
        };
        e.trim_end_matches('/').to_string()
    }

    /// Checks the section; the error names the key and the rule.
    pub fn check(&self) -> Result<(), String> {
        match self.scheme {
            EInvoiceSchemeName::None => Ok(()),
            EInvoiceSchemeName::ItSdi => super::einvoice_it::check(self),
            EInvoiceSchemeName::HrEracun => self.check_hr(),
        }
    }

    fn check_hr(&self) -> Result<(), String> {
        if self.intermediary != IntermediaryName::MojEracun {
            return Err("compliance.einvoice.intermediary must be \"moj-eracun\" when scheme = \"hr-eracun\"".into());
        }
        check_url("compliance.einvoice.endpoint", &self.endpoint())?;
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
