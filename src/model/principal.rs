//! Who acts in a use case, and what they may do: a client, a staff member, or innkeep itself.
//! Every use case that the API or the front desk reaches takes one, checks the scope it needs
//! (the same one the API's guard enforces, so a page can never do more than the token behind
//! it) and records its actor with what it changes.

use crate::domain::scopes::{Scope, ScopeSet};
use crate::error::{AppError, AppResult, Kind};
use crate::model::Actor;

/// The acting principal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// Who: recorded with every event and history entry.
    pub actor: Actor,
    /// What they may do.
    pub scopes: ScopeSet,
}

impl Principal {
    /// innkeep itself (its CLI, its queue, maintenance): every scope.
    pub fn system(actor: Actor) -> Principal {
        Principal {
            actor,
            scopes: ScopeSet::of(Scope::ALL),
        }
    }

    /// 403 `insufficient_scope` unless the principal holds `scope` or `or`.
    pub fn require_either(&self, scope: Scope, or: Scope) -> AppResult<()> {
        if self.scopes.contains(or) {
            Ok(())
        } else {
            self.require(scope)
        }
    }

    /// 403 `insufficient_scope` unless the principal holds `scope`.
    pub fn require(&self, scope: Scope) -> AppResult<()> {
        if self.scopes.contains(scope) {
            Ok(())
        } else {
            Err(AppError::new(
                Kind::Forbidden,
                "insufficient_scope",
                format!(
                    "This needs the {scope} scope, which {} does not have.",
                    self.actor.name
                ),
            ))
        }
    }
}
