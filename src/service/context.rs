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
}

impl Services {
    /// The context over `db` with the `compliance` schemes in force.
    pub fn new(db: Db, compliance: Compliance) -> Services {
        Services { db, compliance }
    }

    /// The database, for the use cases (and for the CLI, the queue and tests, which sit
    /// beside the HTTP layer).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The national schemes in force.
    pub fn compliance(&self) -> &Compliance {
        &self.compliance
    }
}
