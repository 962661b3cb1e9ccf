//! `[desk]`: the front desk's sessions, and how long a paired kiosk stays paired.

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
    /// A self check-in kiosk must be paired again this many days after staff approved it
    /// (it also ends when unpaired in Administration, when the kiosk client is revoked, and
    /// when the staff member who approved it is disabled).
    pub kiosk_days: u64,
}

impl Default for DeskConfig {
    fn default() -> Self {
        DeskConfig {
            idle_minutes: 12 * 60,
            max_hours: 7 * 24,
            kiosk_days: 30,
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
    /// A kiosk is paired this long after its approval, at most.
    pub kiosk: Duration,
}

impl DeskConfig {
    /// The timeouts as the sessions apply them.
    pub fn timeouts(&self) -> Timeouts {
        Timeouts {
            idle: Duration::from_secs(self.idle_minutes.max(1) * 60),
            absolute: Duration::from_secs(self.max_hours.max(1) * 3600),
            kiosk: Duration::from_secs(self.kiosk_days.max(1) * 86_400),
        }
    }
}
