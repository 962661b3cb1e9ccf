//! `[backup]`: the daily backup the server takes by itself through its job queue (the same
//! verified file as `innkeep backup`), and how many to keep.

use std::path::PathBuf;

use chrono::NaiveTime;
use serde::{Deserialize, Serialize};

/// `[backup]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BackupConfig {
    /// Where the daily backups go (a USB disk, a NAS share); unset: no scheduled backups.
    pub dir: Option<PathBuf>,
    /// When, in the property's time zone, as HH:MM.
    pub time: String,
    /// How many daily backups to keep in `dir` (older ones are deleted).
    pub keep: u32,
    /// Encrypt them with the passphrase on the first line of this file.
    pub passphrase_file: Option<PathBuf>,
}

impl Default for BackupConfig {
    fn default() -> Self {
        Self {
            dir: None,
            time: "03:00".into(),
            keep: 7,
            passphrase_file: None,
        }
    }
}

impl BackupConfig {
    /// The time of day, or what is wrong with it.
    pub fn at(&self) -> Result<NaiveTime, String> {
        NaiveTime::parse_from_str(self.time.trim(), "%H:%M").map_err(|_| {
            format!(
                "[backup] time {:?} must be a time of day as HH:MM, such as \"03:00\"",
                self.time
            )
        })
    }

    /// Checks the section: a readable time, at least one backup kept.
    pub fn check(&self) -> Result<(), String> {
        self.at()?;
        if self.keep == 0 {
            return Err("[backup] keep must be at least 1".into());
        }
        Ok(())
    }
}
