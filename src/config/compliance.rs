//! `[compliance.registration]`: the national guest-registration scheme and its credentials.
//!
//! ```toml
//! [compliance.registration]
//! scheme = "it-alloggiati"      # default "none"
//! endpoint = "https://alloggiatiweb.poliziadistato.it/service/service.asmx"
//! username = "..."
//! password = "..."
//! ws_key = "..."
//! dry_run = false               # true: call Test instead of Send
//! ```
//!
//! ```toml
//! [compliance.registration]
//! scheme = "hr-evisitor"
//! endpoint = "https://www.evisitor.hr/eVisitorRhetos_API"   # test: .../testApi
//! facility = "0000022"          # the facility code eVisitor gave the property
//! username = "..."
//! password = "..."
//! api_key = "..."               # only the test platform asks for one
//! arrival_organisation = "I"    # CodeMI of ArrivalOrganisationLookup: I = on their own
//! service_type = "Noćenje"      # Name of OfferedServiceTypeLookup
//! tax_category = "14"           # a guest's tourist-tax category when none is given
//! ```
//!
//! Secrets are [`Secret`]s: they print as `[redacted]` everywhere (Debug, `config check`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The Alloggiati Web production endpoint.
pub const ALLOGGIATI_ENDPOINT: &str =
    "https://alloggiatiweb.poliziadistato.it/service/service.asmx";
/// The eVisitor production API root.
pub const EVISITOR_ENDPOINT: &str = "https://www.evisitor.hr/eVisitorRhetos_API";
/// The eVisitor test platform's API root.
pub const EVISITOR_TEST_ENDPOINT: &str = "https://www.evisitor.hr/testApi";

/// A value that must never be shown.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }
    /// The secret itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// Whether it is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() {
            "\"\""
        } else {
            "[redacted]"
        })
    }
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if self.0.is_empty() { "" } else { "[redacted]" })
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Secret, D::Error> {
        String::deserialize(d).map(Secret)
    }
}

/// `[compliance]`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ComplianceConfig {
    /// Guest registration with the police.
    pub registration: RegistrationConfig,
    /// Fiscal receipts.
    pub fiscal: super::fiscal::FiscalConfig,
    /// E-invoices to businesses.
    pub einvoice: super::einvoice::EInvoiceConfig,
    /// Italy's movement of guests for ISTAT.
    pub istat: IstatConfig,
}

/// `[compliance.istat]`: the file of the guests' movement for the region's platform.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IstatConfig {
    /// The code the region's platform (Ross1000) gave the structure ("codice struttura";
    /// in Lombardy the CIR). Empty: the Ross1000 file is not offered.
    pub structure: String,
}

/// Checks that `value` (the key `key`) is an http or https URL with a host.
pub fn check_url(key: &str, value: &str) -> Result<(), String> {
    let uri: Result<poem::http::Uri, _> = value.parse();
    let scheme_ok = uri
        .as_ref()
        .ok()
        .and_then(|u| u.scheme_str())
        .is_some_and(|s| s == "http" || s == "https");
    if !scheme_ok || uri.as_ref().ok().and_then(|u| u.host()).is_none() {
        return Err(format!("{key} {value:?} must be an http or https URL"));
    }
    Ok(())
}

/// The registration schemes innkeep knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegistrationSchemeName {
    /// No registration.
    #[default]
    #[serde(rename = "none")]
    None,
    /// Italy: Alloggiati Web.
    #[serde(rename = "it-alloggiati")]
    ItAlloggiati,
    /// Croatia: eVisitor (the tourist boards' system).
    #[serde(rename = "hr-evisitor")]
    HrEvisitor,
}

impl RegistrationSchemeName {
    /// The name as configured.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::ItAlloggiati => "it-alloggiati",
            Self::HrEvisitor => "hr-evisitor",
        }
    }
}

/// `[compliance.registration]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RegistrationConfig {
    /// `none`, `it-alloggiati` or `hr-evisitor`.
    pub scheme: RegistrationSchemeName,
    /// The service URL (eVisitor: the API root); the scheme's production service when left
    /// at the default.
    pub endpoint: String,
    /// The account's user name.
    pub username: String,
    /// The account's password.
    pub password: Secret,
    /// The web-service key.
    pub ws_key: Secret,
    /// Validate with `Test` instead of storing with `Send`.
    pub dry_run: bool,
    /// eVisitor: the facility code (`Facility`).
    pub facility: String,
    /// eVisitor: the application key (the test platform asks for one).
    pub api_key: Secret,
    /// eVisitor: how guests arrive unless a guest says otherwise (`ArrivalOrganisation`).
    pub arrival_organisation: String,
    /// eVisitor: the service the property offers (`OfferedServiceType`).
    pub service_type: String,
    /// eVisitor: the tourist-tax category of a guest who has none (empty: each guest must
    /// have one).
    pub tax_category: String,
}

impl Default for RegistrationConfig {
    fn default() -> Self {
        Self {
            scheme: RegistrationSchemeName::None,
            endpoint: ALLOGGIATI_ENDPOINT.into(),
            username: String::new(),
            password: Secret::default(),
            ws_key: Secret::default(),
            dry_run: false,
            facility: String::new(),
            api_key: Secret::default(),
            arrival_organisation: "I".into(),
            service_type: "Noćenje".into(),
            tax_category: String::new(),
        }
    }
}

impl RegistrationConfig {
    /// Checks the section; the error names the key and what to do.
    pub fn check(&self) -> Result<(), String> {
        if self.scheme == RegistrationSchemeName::None {
            return Ok(());
        }
        check_url("compliance.registration.endpoint", &self.endpoint)?;
        let evisitor = self.scheme == RegistrationSchemeName::HrEvisitor;
        for (key, empty) in [
            ("username", self.username.trim().is_empty()),
            ("password", self.password.is_empty()),
            ("ws_key", !evisitor && self.ws_key.is_empty()),
            ("facility", evisitor && self.facility.trim().is_empty()),
            (
                "arrival_organisation",
                evisitor && self.arrival_organisation.trim().is_empty(),
            ),
            (
                "service_type",
                evisitor && self.service_type.trim().is_empty(),
            ),
        ] {
            if empty {
                return Err(format!(
                    "compliance.registration.{key} is required when scheme = \"{}\" \
                     (set it in the config file or INNKEEP_COMPLIANCE__REGISTRATION__{})",
                    self.scheme.as_str(),
                    key.to_ascii_uppercase()
                ));
            }
        }
        Ok(())
    }

    /// The endpoint to call: the scheme's production service while `endpoint` is left at
    /// the default (the Alloggiati one).
    pub fn endpoint_in_use(&self) -> &str {
        match self.scheme {
            RegistrationSchemeName::HrEvisitor if self.endpoint == ALLOGGIATI_ENDPOINT => {
                EVISITOR_ENDPOINT
            }
            _ => &self.endpoint,
        }
    }
}
