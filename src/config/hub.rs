//! `[hub]`: the hotel group's hub (`innkeep-hub`), for a property that pushes its events to
//! it (behind NAT, where the hub cannot reach it) and for `innkeep numbering confirm
//! --from-hub` after a restore.
//!
//! ```toml
//! [hub]
//! url = "https://hub.example:8650"
//! client_id = "seaside"          # this property's [[property]] client_id at the hub
//! secret = "..."
//! push = true                    # false: the hub pulls; only --from-hub uses this section
//! ```

use serde::{Deserialize, Serialize};

use super::compliance::{Secret, check_url};

/// `[hub]`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HubConfig {
    // Every field has a default so the section can come key by key from INNKEEP_HUB__*
    // variables; `check` then says which is missing.
    /// The hub's push endpoint (its `[push] listen`).
    #[serde(default)]
    pub url: String,
    /// This property's `client_id` in the hub's configuration.
    #[serde(default)]
    pub client_id: String,
    /// Its `client_secret` there.
    #[serde(default)]
    pub secret: Secret,
    /// Whether the server sends its events to the hub (default true).
    #[serde(default = "yes")]
    pub push: bool,
}

fn yes() -> bool {
    true
}

impl HubConfig {
    /// What is wrong with the section, naming the key.
    pub fn check(&self) -> Result<(), String> {
        if self.url.trim().is_empty() {
            return Err(
                "hub.url must be set: the hub's push endpoint, such as https://hub.example:8650"
                    .into(),
            );
        }
        check_url("hub.url", &self.url)?;
        if self.client_id.trim().is_empty() {
            return Err(
                "hub.client_id must be set: this property's client_id in the hub's configuration"
                    .into(),
            );
        }
        if self.secret.is_empty() {
            return Err(
                "hub.secret must be set: this property's client_secret in the hub's configuration"
                    .into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_missing_key_is_named() {
        let mut h = HubConfig {
            push: true,
            ..HubConfig::default()
        };
        assert!(h.check().unwrap_err().starts_with("hub.url must be set"));
        h.url = "ftp://hub".into();
        assert!(h.check().unwrap_err().contains("http or https"));
        h.url = "https://hub.example:8650".into();
        assert!(h.check().unwrap_err().starts_with("hub.client_id"));
        h.client_id = "seaside".into();
        assert!(h.check().unwrap_err().starts_with("hub.secret"));
        h.secret = Secret::new("s");
        assert_eq!(h.check(), Ok(()));
    }
}
