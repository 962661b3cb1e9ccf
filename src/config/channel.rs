//! `[channel]`: the channel manager innkeep keeps in step with the booking sites (Channex
//! first). Until Administration › Channels maps them from the lists the channel manager
//! gives, the room types and rate plans are mapped here, by innkeep's codes:
//!
//! ```toml
//! [channel]
//! provider = "channex"
//! url = "https://app.channex.io/api/v1"   # staging: https://staging.channex.io/api/v1
//! api_key = "..."
//! property_id = "..."                     # the hotel's property id at Channex
//! horizon_days = 500                      # how far ahead a full sync goes
//!
//! [channel.room_types]                    # innkeep room type code = Channex room type id
//! DBL = "..."
//!
//! [channel.rate_plans]                    # "ROOM TYPE CODE/PLAN CODE" = Channex rate plan id
//! "DBL/FLEX" = "..."
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::compliance::{Secret, check_url};

/// `[channel]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    /// `channex` (the only one so far).
    #[serde(default = "channex")]
    pub provider: String,
    /// The API's base URL.
    #[serde(default = "production")]
    pub url: String,
    /// The API key (a secret: never logged, never shown).
    #[serde(default)]
    pub api_key: Secret,
    /// The hotel's property id at the channel manager.
    #[serde(default)]
    pub property_id: String,
    /// How many nights ahead a full sync sends (default 500, Channex's).
    #[serde(default = "horizon")]
    pub horizon_days: u32,
    /// innkeep room type code → the channel manager's room type id.
    #[serde(default)]
    pub room_types: BTreeMap<String, String>,
    /// "ROOM TYPE CODE/PLAN CODE" → the channel manager's rate plan id.
    #[serde(default)]
    pub rate_plans: BTreeMap<String, String>,
}

fn channex() -> String {
    "channex".into()
}

fn production() -> String {
    crate::channel::channex::PRODUCTION.into()
}

fn horizon() -> u32 {
    500
}

impl ChannelConfig {
    /// The adapter of the configured channel manager (`check` made sure there is one).
    pub fn adapter(&self) -> &'static dyn crate::channel::Adapter {
        crate::channel::adapter(&self.provider).unwrap_or(&crate::channel::Channex)
    }

    /// What is wrong with the section, naming the key.
    pub fn check(&self) -> Result<(), String> {
        if crate::channel::adapter(&self.provider).is_none() {
            return Err(format!(
                "channel.provider {:?} is not one innkeep knows: use \"channex\"",
                self.provider
            ));
        }
        check_url("channel.url", &self.url)?;
        if self.api_key.is_empty() {
            return Err(
                "channel.api_key must be set: the API key from the channel manager's user profile"
                    .into(),
            );
        }
        if self.property_id.trim().is_empty() {
            return Err(
                "channel.property_id must be set: the hotel's property id at the channel manager"
                    .into(),
            );
        }
        if !(1..=730).contains(&self.horizon_days) {
            return Err("channel.horizon_days must be between 1 and 730".into());
        }
        if let Some(bad) = self.rate_plans.keys().find(|k| !k.contains('/')) {
            return Err(format!(
                "channel.rate_plans key {bad:?} must be \"ROOM TYPE CODE/PLAN CODE\", such as \"DBL/FLEX\""
            ));
        }
        Ok(())
    }
}
