//! `Services`: what every use case runs with: the database and the compliance schemes in
//! force. The HTTP layer (API and pages) holds one and hands it, with the acting
//! [`Principal`](crate::model::Principal), to the use cases; it never holds the database
//! itself.

use crate::compliance::Compliance;
use crate::db::Db;

/// The use cases' context.
#[derive(Clone)]
pub struct Services {
    db: Db,
    compliance: Compliance,
    channel: Option<std::sync::Arc<crate::config::channel::ChannelConfig>>,
    /// The domain of `[mail] from`, when guests' messages are on.
    mail_domain: Option<std::sync::Arc<str>>,
    /// The structure's code on the region's ISTAT platform (`[compliance.istat]`).
    istat_structure: Option<std::sync::Arc<str>>,
}

impl Services {
    /// The context over `db` with the `compliance` schemes in force.
    pub fn new(db: Db, compliance: Compliance) -> Services {
        Services {
            db,
            compliance,
            channel: None,
            mail_domain: None,
            istat_structure: None,
        }
    }

    /// The database, for the use cases (and for the CLI, the queue and tests, which sit
    /// beside the HTTP layer).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The same context, keeping the channel manager `[channel]` configures.
    pub fn with_channel(
        mut self,
        channel: Option<crate::config::channel::ChannelConfig>,
    ) -> Services {
        self.channel = channel.map(std::sync::Arc::new);
        self
    }

    /// The same context, making guests' messages through the relay of `mail`.
    pub fn with_mail(mut self, mail: Option<&crate::config::mail::MailConfig>) -> Services {
        self.mail_domain = mail.map(|m| {
            let address = m.from.rsplit('<').next().unwrap_or(&m.from);
            let domain = address.rsplit('@').next().unwrap_or("innkeep");
            std::sync::Arc::from(domain.trim_end_matches('>').trim())
        });
        self
    }

    /// The same context, with the structure's code on the region's ISTAT platform.
    pub fn with_istat(mut self, istat: &crate::config::compliance::IstatConfig) -> Services {
        let code = istat.structure.trim();
        self.istat_structure = (!code.is_empty()).then(|| std::sync::Arc::from(code));
        self
    }

    /// The structure's code on the region's ISTAT platform, when configured.
    pub fn istat_structure(&self) -> Option<&str> {
        self.istat_structure.as_deref()
    }

    /// The sender's domain when guests' messages are on (the `Message-ID`s' right side).
    pub fn mail_domain(&self) -> Option<std::sync::Arc<str>> {
        self.mail_domain.clone()
    }

    /// The channel manager configured, if any.
    pub fn channel(&self) -> Option<&crate::config::channel::ChannelConfig> {
        self.channel.as_deref()
    }

    /// The national schemes in force.
    pub fn compliance(&self) -> &Compliance {
        &self.compliance
    }
}
