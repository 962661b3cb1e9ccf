//! First-run setup: the property, its room types and rooms, and the first admin.
//!
//! The command line asks (or reads flags) and parses; this applies what it was given, on a
//! database that has no staff and no room types yet, through the same use cases as the API.

use serde_json::json;

use crate::error::{AppError, AppResult};
use crate::model::input::FromJson;
use crate::model::{Principal, RoomCreate, RoomTypeCreate, SettingsUpdate};
use crate::service::{Services, oauth, room_types, rooms, settings};
use crate::store;

/// One room type and the numbers of its rooms.
#[derive(Debug)]
pub struct RoomsPlan {
    /// The room type to create.
    pub room_type: RoomTypeCreate,
    /// Its rooms' numbers ([`crate::domain::room_numbers::expand`]).
    pub numbers: Vec<String>,
}

/// Everything setup applies.
#[derive(Debug)]
pub struct Plan {
    /// The property's settings.
    pub settings: SettingsUpdate,
    /// Room types with their rooms.
    pub rooms: Vec<RoomsPlan>,
    /// The first admin's user name.
    pub admin: String,
    /// Their password.
    pub password: String,
}

/// What setup did.
#[derive(Debug, serde::Serialize)]
pub struct Done {
    /// Room types created.
    pub room_types: usize,
    /// Rooms created.
    pub rooms: usize,
    /// The admin's user name.
    pub admin: String,
}

/// Whether the database is new: no staff and no room types.
pub async fn is_new(svc: &Services) -> AppResult<bool> {
    svc.db()
        .read(|c| {
            Ok(store::clients::list_users(c)?.is_empty() && store::room_types::all(c)?.is_empty())
        })
        .await
}

/// Applies `plan` to a new database. Every part was checked when the plan was made, so
/// the steps below only fail for reasons of the database itself.
pub async fn apply(svc: &Services, p: &Principal, plan: Plan) -> AppResult<Done> {
    if !is_new(svc).await? {
        return Err(AppError::conflict(
            "already_set_up",
            "This innkeep is already set up (it has staff or room types); change it on the \
             front desk's Administration pages instead.",
        ));
    }
    let room_count = plan.rooms.iter().map(|r| r.numbers.len()).sum();
    settings::update(svc, p, None, plan.settings).await?;
    let admin = oauth::create_user(svc.db(), &plan.admin, "admin", &plan.password).await?;
    let room_types = plan.rooms.len();
    for r in plan.rooms {
        let t = room_types::create(svc, p, r.room_type).await?;
        for number in r.numbers {
            let input = json!({"number": number, "room_type_id": t.id});
            let mut errs = Vec::new();
            let Some(room) = RoomCreate::from_json(&input, "", &mut errs) else {
                return Err(AppError::validation(errs));
            };
            rooms::create(svc, p, room).await?;
        }
    }
    Ok(Done {
        room_types,
        rooms: room_count,
        admin: admin.username,
    })
}
