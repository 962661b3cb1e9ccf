//! Guests.

use crate::db::Tx;
use crate::domain::events::EventType;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{Actor, Principal};
use crate::model::{Guest, GuestCreate, GuestUpdate, Instant, snapshot};
use crate::service::Services;
use crate::service::{IfMatch, Page, PageRequest, fail_on, page, set_optional, unchanged};
use crate::store::{self, guests::GuestFilter};

/// Rules that need the property's "today": birth and document dates.
fn check_dates(tx: &Tx, g: &Guest, errs: &mut Vec<FieldError>) -> AppResult<()> {
    if let Some(birth) = g.birth_date {
        let today = tx.clock().today_in(&store::settings::get(tx)?.time_zone);
        if birth.0 > today {
            errs.push(
                FieldError::new("birth_date", "in_future", "must not be in the future")
                    .said("problem-in-future", vec![]),
            );
        }
    }
    Ok(())
}

/// Creates a guest and records `guest.created`.
pub async fn create(svc: &Services, p: &Principal, input: GuestCreate) -> AppResult<Guest> {
    p.require(Scope::GuestsWrite)?;
    let actor = p.actor.clone();
    svc.db().write(move |tx| create_in(tx, &actor, input)).await
}

/// [`create`] inside the caller's transaction (also for an import's many guests).
pub(crate) fn create_in(tx: &Tx, actor: &Actor, input: GuestCreate) -> AppResult<Guest> {
    let now = Instant(tx.now_text());
    let g = Guest {
        id: crate::ids::new("gst"),
        first_name: input.first_name.into(),
        last_name: input.last_name.into(),
        email: input.email.map(Into::into),
        phone: input.phone.map(Into::into),
        birth_date: input.birth_date,
        gender: input.gender,
        nationality: input.nationality.map(Into::into),
        birth_place: input.birth_place,
        document: input.document,
        address: input.address,
        tourist: input.tourist,
        tax_code: input.tax_code.map(|c| c.0),
        language: input.language,
        notes: input.notes.map(Into::into),
        version: 1,
        created_at: now.clone(),
        updated_at: now,
    };
    let mut errs = Vec::new();
    check_dates(tx, &g, &mut errs)?;
    fail_on(errs)?;
    store::guests::insert(tx, &g)?;
    store::events::record(tx, actor, EventType::GuestCreated, &g.id, &snapshot(&g))?;
    Ok(g)
}

/// One guest.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Guest> {
    p.require(Scope::GuestsRead)?;
    let db = svc.db();
    db.read(move |c| store::guests::get(c, &id)?.ok_or_else(|| AppError::not_found("guest", &id)))
        .await
}

/// Changes a guest and records `guest.updated`.
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: GuestUpdate,
) -> AppResult<Guest> {
    p.require(Scope::GuestsWrite)?;
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let g = update_in(tx, &actor, &id, if_match.as_ref(), input)?;
            crate::service::registration_changes::guest_changed(tx, &c, &g.id)?;
            Ok(g)
        })
        .await
}

/// [`update`] inside the caller's transaction (also for a party saved at check-in).
pub(crate) fn update_in(
    tx: &Tx,
    actor: &Actor,
    id: &str,
    if_match: Option<&IfMatch>,
    input: GuestUpdate,
) -> AppResult<Guest> {
    let old = store::guests::get(tx, id)?.ok_or_else(|| AppError::not_found("guest", id))?;
    IfMatch::check(if_match, old.version)?;
    let mut g = old.clone();
    let mut errs = Vec::new();
    input.first_name.apply(&mut g.first_name);
    input.last_name.apply(&mut g.last_name);
    set_optional(&mut g.email, input.email);
    set_optional(&mut g.phone, input.phone);
    set_optional(&mut g.birth_date, input.birth_date);
    set_optional(&mut g.gender, input.gender);
    set_optional(&mut g.nationality, input.nationality);
    set_optional(&mut g.birth_place, input.birth_place);
    set_optional(&mut g.document, input.document);
    set_optional(&mut g.address, input.address);
    set_optional(&mut g.tourist, input.tourist);
    set_optional(&mut g.tax_code, input.tax_code);
    set_optional(&mut g.language, input.language);
    set_optional(&mut g.notes, input.notes);
    check_dates(tx, &g, &mut errs)?;
    fail_on(errs)?;
    if unchanged(&old, &g) {
        return Ok(old);
    }
    g.version += 1;
    g.updated_at = Instant(tx.now_text());
    store::guests::update(tx, &old, &g)?;
    store::events::record(tx, actor, EventType::GuestUpdated, &g.id, &snapshot(&g))?;
    Ok(g)
}

/// A page of guests.
pub async fn list(
    svc: &Services,
    p: &Principal,
    filter: GuestFilter,
    req: PageRequest,
) -> AppResult<Page<Guest>> {
    p.require(Scope::GuestsRead)?;
    let db = svc.db();
    page(db, req, move |c, after, as_of, limit| {
        store::guests::list(c, &filter, after, as_of, limit)
    })
    .await
}
