//! Who caused a change: recorded with every event (API.md section 8), so a hotel can answer
//! "who cancelled this booking?".

use poem_openapi::Object;
use serde::{Deserialize, Serialize};

use crate::domain::enums::ActorKind;

/// Who caused an event.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct Actor {
    /// `client` (an integration), `staff` (a signed-in staff member) or `system` (innkeep
    /// itself, such as the queue recording an authority's answer).
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: ActorKind,
    /// The client (`cli_…`), the staff member (`usr_…`) or, for `system`, the part of
    /// innkeep (`queue`).
    pub id: String,
    /// For people: the client's name, the staff member's user name, or what innkeep did.
    pub name: String,
}

impl Actor {
    /// innkeep's command line, run by the operator.
    pub fn cli() -> Actor {
        Actor {
            kind: ActorKind::System,
            id: "cli".into(),
            name: "innkeep command line".into(),
        }
    }

    /// The first-run page, setting a new installation up (guarded by its one-time code).
    pub fn first_run() -> Actor {
        Actor {
            kind: ActorKind::System,
            id: "first-run".into(),
            name: "innkeep first run".into(),
        }
    }

    /// innkeep's queue, recording what a national authority answered.
    pub fn queue() -> Actor {
        Actor {
            kind: ActorKind::System,
            id: "queue".into(),
            name: "innkeep queue".into(),
        }
    }

    /// A booking site, through the channel manager: `ota` is its name (`Booking.com`).
    pub fn channel(ota: &str) -> Actor {
        Actor {
            kind: ActorKind::System,
            id: "channel".into(),
            name: if ota.is_empty() {
                "the channel manager".into()
            } else {
                format!("{ota} through the channel manager")
            },
        }
    }
}
