//! `[mail]`: the SMTP relay innkeep sends guests' messages through (booking confirmations,
//! cancellations, and later pre-arrival messages and invoices):
//!
//! ```toml
//! [mail]
//! host = "smtp.example.com"
//! port = 587                      # 587 with starttls, 465 with tls, 25 or any with none
//! security = "starttls"           # starttls (default), tls, or none (a relay on this computer)
//! user = "desk@hotel.example"     # leave out when the relay takes mail without signing in
//! password = "..."                # secret
//! from = "Hotel Adriatic <desk@hotel.example>"
//! reply_to = "reception@hotel.example"
//! pre_arrival_days = 3            # the pre-arrival message, days before arrival (0: none)
//! public_url = "https://hotel.example/innkeep"  # where guests reach the pre-check-in page
//! ```

use serde::{Deserialize, Serialize};

use super::compliance::Secret;

/// How the connection to the relay is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded with STARTTLS, which must succeed (port 587).
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: only for a relay on this computer or a test double.
    None,
}

/// `[mail]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// The relay's host name.
    #[serde(default)]
    pub host: String,
    /// Its port (default 587).
    #[serde(default = "submission")]
    pub port: u16,
    /// `starttls`, `tls` or `none`.
    #[serde(default = "starttls")]
    pub security: Security,
    /// The user to sign in as, when the relay asks.
    #[serde(default)]
    pub user: Option<String>,
    /// Its password (a secret: never logged, never shown).
    #[serde(default)]
    pub password: Secret,
    /// The sender, such as `Hotel Adriatic <desk@hotel.example>`.
    #[serde(default)]
    pub from: String,
    /// Where guests' answers go, when not to `from`.
    #[serde(default)]
    pub reply_to: Option<String>,
    /// How many days before arrival the pre-arrival message goes (0: none; default 3).
    #[serde(default = "three")]
    pub pre_arrival_days: u32,
    /// The address guests reach innkeep's pre-check-in page at from outside the hotel (a
    /// reverse proxy or tunnel to this server), such as `https://hotel.example/innkeep`;
    /// without it the pre-arrival message carries no pre-check-in link.
    #[serde(default)]
    pub public_url: Option<String>,
}

fn three() -> u32 {
    3
}

fn submission() -> u16 {
    587
}

fn starttls() -> Security {
    Security::Starttls
}

/// Whether `s` reads as an address, bare or as `Name <address>`.
pub fn is_mailbox(s: &str) -> bool {
    s.parse::<lettre::message::Mailbox>().is_ok()
}

impl MailConfig {
    /// What is wrong with the section, naming the key.
    pub fn check(&self) -> Result<(), String> {
        if self.host.trim().is_empty() {
            return Err(
                "mail.host must be set: the SMTP relay's name, such as smtp.example.com".into(),
            );
        }
        if self.port == 0 {
            return Err("mail.port must be a port number, such as 587".into());
        }
        if !is_mailbox(&self.from) {
            return Err(format!(
                "mail.from {:?} is not an e-mail address: write it as desk@hotel.example or \"Hotel Adriatic <desk@hotel.example>\"",
                self.from
            ));
        }
        if let Some(r) = &self.reply_to
            && !is_mailbox(r)
        {
            return Err(format!("mail.reply_to {r:?} is not an e-mail address"));
        }
        if let Some(u) = &self.public_url {
            super::compliance::check_url("mail.public_url", u)?;
        }
        if self.pre_arrival_days > 60 {
            return Err("mail.pre_arrival_days must be between 0 and 60".into());
        }
        if self.user.is_some() == self.password.is_empty() {
            return Err("mail.user and mail.password go together: set both, or neither".into());
        }
        Ok(())
    }
}
