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
}

impl Services {
    /// The context over `db` with the `compliance` schemes in force.
    pub fn new(db: Db, compliance: Compliance) -> Services {
        Services {
            db,
            compliance,
            channel: None,
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

    /// The channel manager configured, if any.
    pub fn channel(&self) -> Option<&crate::config::channel::ChannelConfig> {
        self.channel.as_deref()
    }

    /// The national schemes in force.
    pub fn compliance(&self) -> &Compliance {
        &self.compliance
    }
}
