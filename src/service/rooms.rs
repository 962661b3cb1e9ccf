//! Rooms.

use crate::db::Tx;
use crate::domain::enums::HousekeepingStatus;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::{Instant, Room, RoomCreate, RoomUpdate};
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::service::{IfMatch, Page, PageRequest, fail_on, page, set_optional, unchanged};
use crate::store::{self, rooms::RoomFilter};

fn ensure_number_free(tx: &Tx, number: &str, own_id: &str) -> AppResult<()> {
    match store::rooms::id_by_number(tx, number)? {
        Some(id) if id != own_id => Err(AppError::from(AdminRefusal::RoomExists {
            number: number.to_string(),
        })
        .with_errors(vec![
            FieldError::new("number", "taken", "is already used by another room")
                .said("problem-number-taken", vec![]),
        ])),
        _ => Ok(()),
    }
}

fn ensure_room_type(tx: &Tx, id: &str, errs: &mut Vec<FieldError>) -> AppResult<()> {
    if store::room_types::get(tx, id)?.is_none() {
        errs.push(FieldError::new(
            "room_type_id",
            "not_found",
            "no room type has this id",
        ));
    }
    Ok(())
}

/// Creates a room.
pub async fn create(svc: &Services, p: &Principal, input: RoomCreate) -> AppResult<Room> {
    p.require(Scope::Admin)?;
    let db = svc.db();
    db.write(move |tx| {
        let mut errs = Vec::new();
        ensure_room_type(tx, &input.room_type_id.0, &mut errs)?;
        fail_on(errs)?;
        let now = Instant(tx.now_text());
        let room = Room {
            id: crate::ids::new("rm"),
            number: input.number.into(),
            room_type_id: input.room_type_id.into(),
            floor: input.floor.map(Into::into),
            housekeeping_status: input
                .housekeeping_status
                .unwrap_or(HousekeepingStatus::Clean),
            occupied: false,
            version: 1,
            created_at: now.clone(),
            updated_at: now,
        };
        ensure_number_free(tx, &room.number, &room.id)?;
        store::rooms::insert(tx, &room)?;
        Ok(room)
    })
    .await
}

/// One room.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Room> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    db.read(move |c| store::rooms::get(c, &id)?.ok_or_else(|| AppError::not_found("room", &id)))
        .await
}

/// Changes a room. Its room type cannot change while stays that have not ended are
/// assigned to it (they were booked for the old type).
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: RoomUpdate,
) -> AppResult<Room> {
    p.require(Scope::Housekeeping)?;
    let db = svc.db();
    db.write(move |tx| {
        let old = store::rooms::get(tx, &id)?.ok_or_else(|| AppError::not_found("room", &id))?;
        IfMatch::check(if_match.as_ref(), old.version)?;
        let mut room = old.clone();
        let mut errs = Vec::new();
        input.number.apply(&mut room.number);
        input.room_type_id.apply(&mut room.room_type_id);
        set_optional(&mut room.floor, input.floor);
        input
            .housekeeping_status
            .apply(&mut room.housekeeping_status);
        if room.room_type_id != old.room_type_id {
            ensure_room_type(tx, &room.room_type_id, &mut errs)?;
        }
        fail_on(errs)?;
        if unchanged(&old, &room) {
            return Ok(old);
        }
        ensure_number_free(tx, &room.number, &room.id)?;
        if room.room_type_id != old.room_type_id
            && let Some(code) = store::reservations::active_in_room(tx, &room.id)?
        {
            return Err(AdminRefusal::RoomInUse { code }.into());
        }
        room.version += 1;
        room.updated_at = Instant(tx.now_text());
        store::rooms::update(tx, &old, &room)?;
        Ok(room)
    })
    .await
}

/// A page of rooms.
pub async fn list(
    svc: &Services,
    p: &Principal,
    filter: RoomFilter,
    req: PageRequest,
) -> AppResult<Page<Room>> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    page(db, req, move |c, after, as_of, limit| {
        store::rooms::list(c, &filter, after, as_of, limit)
    })
    .await
}
