//! Room types.

use crate::db::Tx;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::{Instant, RoomType, RoomTypeCreate, RoomTypeUpdate};
use crate::refusal::AdminRefusal;
use crate::service::Services;
use crate::service::{IfMatch, Page, PageRequest, page, set_optional, unchanged};
use crate::store;

fn code_taken(code: &str) -> AppError {
    AppError::from(AdminRefusal::RoomTypeExists {
        code: code.to_string(),
    })
    .with_errors(vec![
        FieldError::new("code", "taken", "is already used by another room type")
            .said("problem-code-taken", vec![]),
    ])
}

fn ensure_code_free(tx: &Tx, code: &str, own_id: &str) -> AppResult<()> {
    match store::room_types::id_by_code(tx, code)? {
        Some(id) if id != own_id => Err(code_taken(code)),
        _ => Ok(()),
    }
}

/// Creates a room type.
pub async fn create(svc: &Services, p: &Principal, input: RoomTypeCreate) -> AppResult<RoomType> {
    p.require(Scope::Admin)?;
    let db = svc.db();
    db.write(move |tx| {
        let currency = match input.currency {
            Some(c) => c.into(),
            None => store::settings::get(tx)?.currency,
        };
        let now = Instant(tx.now_text());
        let t = RoomType {
            id: crate::ids::new("rt"),
            code: input.code.into(),
            name: input.name.into(),
            description: input.description.map(Into::into),
            max_occupancy: input.max_occupancy.into(),
            base_rate: input.base_rate.into(),
            currency,
            kpd_code: input.kpd_code.map(|k| k.0),
            version: 1,
            created_at: now.clone(),
            updated_at: now,
        };
        ensure_code_free(tx, &t.code, &t.id)?;
        store::room_types::insert(tx, &t)?;
        Ok(t)
    })
    .await
}

/// One room type.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<RoomType> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    db.read(move |c| {
        store::room_types::get(c, &id)?.ok_or_else(|| AppError::not_found("room type", &id))
    })
    .await
}

/// Changes a room type.
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: RoomTypeUpdate,
) -> AppResult<RoomType> {
    p.require(Scope::Admin)?;
    let db = svc.db();
    db.write(move |tx| {
        let old = store::room_types::get(tx, &id)?
            .ok_or_else(|| AppError::not_found("room type", &id))?;
        IfMatch::check(if_match.as_ref(), old.version)?;
        let mut t = old.clone();
        input.code.apply(&mut t.code);
        input.name.apply(&mut t.name);
        set_optional(&mut t.description, input.description);
        input.max_occupancy.apply(&mut t.max_occupancy);
        input.base_rate.apply(&mut t.base_rate);
        input.currency.apply(&mut t.currency);
        set_optional(&mut t.kpd_code, input.kpd_code);
        if unchanged(&old, &t) {
            return Ok(old);
        }
        ensure_code_free(tx, &t.code, &t.id)?;
        t.version += 1;
        t.updated_at = Instant(tx.now_text());
        store::room_types::update(tx, &old, &t)?;
        Ok(t)
    })
    .await
}

/// A page of room types.
pub async fn list(svc: &Services, p: &Principal, req: PageRequest) -> AppResult<Page<RoomType>> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    page(db, req, |c, after, as_of, limit| {
        store::room_types::list(c, after, as_of, limit)
    })
    .await
}
