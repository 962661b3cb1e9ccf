//! `[compliance.fiscal]`: the national fiscal scheme, its certificate and its marks.
//!
//! ```toml
//! [compliance.fiscal]
//! scheme = "hr-cis"                 # default "none"
//! endpoint = "https://cis.porezna-uprava.hr:8449/FiskalizacijaService"
//! certificate = "path/to/company.p12"
//! certificate_password = "..."
//! ca_certificate = "path/to/ca.pem" # optional extra trust anchor
//! oib = "12345678901"
//! operator_oib = "12345678901"
//! premises = "POSL1"
//! device = "1"
//! in_vat_system = true
//! ```
//!
//! In Italy, receipts (*documenti commerciali*) come from the telematic cash register:
//!
//! ```toml
//! [compliance.fiscal]
//! scheme = "it-rt"
//! rt_url = "http://192.168.1.50"    # the cash register on the LAN (Epson fiscal-printer XML)
//! rt_serial = "99SEA004010"         # its serial number (matricola), printed on it
//! [compliance.fiscal.departments]   # VAT rate (percent) → the department programmed for it
//! "22" = 1
//! "10" = 2
//! "4" = 3
//! "5" = 4
//! "0" = 11                          # outside VAT: the city tax
//! ```
//!
//! Relative paths are read from the data directory. The password is a [`Secret`].

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::compliance::{Secret, check_url};

/// The CIS production endpoint.
pub const CIS_ENDPOINT: &str = "https://cis.porezna-uprava.hr:8449/FiskalizacijaService";

/// The fiscal schemes innkeep knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FiscalSchemeName {
    /// No fiscalization.
    #[default]
    #[serde(rename = "none")]
    None,
    /// Croatia: CIS fiscal receipts.
    #[serde(rename = "hr-cis")]
    HrCis,
    /// Italy: receipts printed and transmitted by the telematic cash register (RT).
    #[serde(rename = "it-rt")]
    ItRt,
}

/// `[compliance.fiscal]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FiscalConfig {
    /// `none` or `hr-cis`.
    pub scheme: FiscalSchemeName,
    /// The service URL.
    pub endpoint: String,
    /// The application certificate with its private key (PKCS#12).
    pub certificate: Option<PathBuf>,
    /// The PKCS#12 password.
    pub certificate_password: Secret,
    /// A PEM file of extra trust anchors for the service's TLS certificate.
    pub ca_certificate: Option<PathBuf>,
    /// The seller's OIB (11 digits).
    pub oib: String,
    /// The OIB of the operator who issues receipts.
    pub operator_oib: String,
    /// The business premises mark (`OznPosPr`).
    pub premises: String,
    /// The device mark (`OznNapUr`).
    pub device: String,
    /// Whether the seller is in the VAT system (`USustPdv`).
    pub in_vat_system: bool,
    /// Italy: the telematic cash register's address on the LAN.
    pub rt_url: String,
    /// Italy: the cash register's serial number (matricola).
    pub rt_serial: String,
    /// Italy: the cash register's department for each VAT rate, keyed by the rate in percent.
    pub departments: std::collections::BTreeMap<String, u32>,
}

impl Default for FiscalConfig {
    fn default() -> Self {
        Self {
            scheme: FiscalSchemeName::None,
            endpoint: CIS_ENDPOINT.into(),
            certificate: None,
            certificate_password: Secret::default(),
            ca_certificate: None,
            oib: String::new(),
            operator_oib: String::new(),
            premises: String::new(),
            device: String::new(),
            in_vat_system: true,
            rt_url: String::new(),
            rt_serial: String::new(),
            // Common Epson programming as certified middleware assumes it; **unverified** for
            // any given register: its technician says which department is which.
            departments: [("22", 1), ("10", 2), ("4", 3), ("5", 4), ("0", 11)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        }
    }
}

/// Whether `s` is exactly `len` ASCII digits.
fn digits(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

pub use crate::domain::seller::oib_valid;

impl FiscalConfig {
    /// The certificate files this configuration names (for backups).
    pub fn files(&self) -> Vec<PathBuf> {
        [&self.certificate, &self.ca_certificate]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// Checks the section; the error names the key and the rule.
    pub fn check(&self) -> Result<(), String> {
        match self.scheme {
            FiscalSchemeName::None => return Ok(()),
            FiscalSchemeName::ItRt => return super::fiscal_it::check(self),
            FiscalSchemeName::HrCis => {}
        }
        check_url("compliance.fiscal.endpoint", &self.endpoint)?;
        let need = |key: &str| {
            format!(
                "compliance.fiscal.{key} is required when scheme = \"hr-cis\" \
                 (set it in the config file or INNKEEP_COMPLIANCE__FISCAL__{})",
                key.to_ascii_uppercase()
            )
        };
        if self.certificate.is_none() {
            return Err(need("certificate"));
        }
        if self.certificate_password.is_empty() {
            return Err(need("certificate_password"));
        }
        for (key, value) in [("oib", &self.oib), ("operator_oib", &self.operator_oib)] {
            if value.is_empty() {
                return Err(need(key));
            }
            if !digits(value, 11, 11) {
                return Err(format!(
                    "compliance.fiscal.{key} {value:?} is not an OIB: it must be 11 digits"
                ));
            }
        }
        let mark =
            |s: &str| (1..=20).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric());
        if !mark(&self.premises) {
            return Err(format!(
                "compliance.fiscal.premises {:?} must be the registered premises mark: 1 to 20 letters or digits",
                self.premises
            ));
        }
        if !digits(&self.device, 1, 20) {
            return Err(format!(
                "compliance.fiscal.device {:?} must be the device mark: 1 to 20 digits",
                self.device
            ));
        }
        Ok(())
    }

    /// Doubts that do not stop innkeep (CIS has the last word), such as a wrong check digit.
    pub fn warnings(&self) -> Vec<String> {
        if self.scheme != FiscalSchemeName::HrCis {
            return Vec::new();
        }
        [("oib", &self.oib), ("operator_oib", &self.operator_oib)]
            .into_iter()
            .filter(|(_, v)| !oib_valid(v))
            .map(|(k, v)| {
                format!("compliance.fiscal.{k} {v:?} fails the OIB check digit (ISO 7064 MOD 11,10); CIS will refuse receipts unless it is right")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oib_check_digit() {
        assert!(oib_valid("69435151530"));
        assert!(oib_valid("12345678903"));
        assert!(!oib_valid("12345678901"));
        assert!(!oib_valid("1234567890"));
        assert!(!oib_valid("1234567890a"));
    }
}
