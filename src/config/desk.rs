//! `[desk]`: the front desk's sessions.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// `[desk]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeskConfig {
    /// A session without a request for this many minutes ends (a shift: 12 hours).
    pub idle_minutes: u64,
    /// A session ends this many hours after sign-in, however busy (a week).
    pub max_hours: u64,
}

impl Default for DeskConfig {
    fn default() -> Self {
        DeskConfig {
            idle_minutes: 12 * 60,
            max_hours: 7 * 24,
        }
    }
}

/// How long sessions last.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// Without a request for this long, a session ends.
    pub idle: Duration,
    /// A session ends this long after sign-in, however busy.
    pub absolute: Duration,
}

impl DeskConfig {
    /// The timeouts as the sessions apply them.
    pub fn timeouts(&self) -> Timeouts {
        Timeouts {
            idle: Duration::from_secs(self.idle_minutes.max(1) * 60),
            absolute: Duration::from_secs(self.max_hours.max(1) * 3600),
        }
    }
}
