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
//! Secrets are [`Secret`]s: they print as `[redacted]` everywhere (Debug, `config check`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The Alloggiati Web production endpoint.
pub const ALLOGGIATI_ENDPOINT: &str =
    "https://alloggiatiweb.poliziadistato.it/service/service.asmx";

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
}

/// `[compliance.registration]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RegistrationConfig {
    /// `none` or `it-alloggiati`.
    pub scheme: RegistrationSchemeName,
    /// The service URL.
    pub endpoint: String,
    /// The account's user name.
    pub username: String,
    /// The account's password.
    pub password: Secret,
    /// The web-service key.
    pub ws_key: Secret,
    /// Validate with `Test` instead of storing with `Send`.
    pub dry_run: bool,
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
        for (key, empty) in [
            ("username", self.username.trim().is_empty()),
            ("password", self.password.is_empty()),
            ("ws_key", self.ws_key.is_empty()),
        ] {
            if empty {
                return Err(format!(
                    "compliance.registration.{key} is required when scheme = \"it-alloggiati\" \
                     (set it in the config file or INNKEEP_COMPLIANCE__REGISTRATION__{})",
                    key.to_ascii_uppercase()
                ));
            }
        }
        Ok(())
    }
}
