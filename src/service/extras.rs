//! The extras catalogue (`/v1/extras`), and an extra from it put on a reservation's folio
//! (`POST /v1/reservations/{id}/extras`) as one charge of the units the stay makes.

use crate::db::Tx;
use crate::domain::extras::units;
use crate::domain::reservation::Status;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{
    Actor, Charge, Date, Extra, ExtraCreate, ExtraOrder, ExtraUpdate, Instant, Names, Principal,
    Reservation,
};
use crate::refusal::RatesRefusal;
use crate::service::invoicing::DraftLine;
use crate::service::{IfMatch, Page, PageRequest, Services, page, unchanged};
use crate::store;

fn ensure_code_free(tx: &crate::db::Tx, code: &str, own: &str) -> AppResult<()> {
    match store::extras::id_by_code(tx, code)? {
        Some(id) if id != own => Err(RatesRefusal::ExtraExists {
            code: code.to_string(),
        }
        .into()),
        _ => Ok(()),
    }
}

/// Creates an extra.
pub async fn create(svc: &Services, p: &Principal, input: ExtraCreate) -> AppResult<Extra> {
    p.require(Scope::RatesWrite)?;
    svc.db()
        .write(move |tx| {
            let now = Instant(tx.now_text());
            let tax_rate = match input.tax_rate {
                Some(t) => t.0,
                None => store::settings::get(tx)?.default_tax_rate,
            };
            let e = Extra {
                id: crate::ids::new("ext"),
                code: input.code.into(),
                name: input.name,
                price: input.price.0,
                tax_rate,
                unit: input.unit,
                active: input.active.unwrap_or(true),
                version: 1,
                created_at: now.clone(),
                updated_at: now,
            };
            ensure_code_free(tx, &e.code, &e.id)?;
            store::extras::insert(tx, &e)?;
            Ok(e)
        })
        .await
}

/// One extra.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Extra> {
    p.require(Scope::RatesRead)?;
    svc.db()
        .read(move |c| store::extras::get(c, &id)?.ok_or_else(|| AppError::not_found("extra", &id)))
        .await
}

/// Changes an extra.
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: ExtraUpdate,
) -> AppResult<Extra> {
    p.require(Scope::RatesWrite)?;
    svc.db()
        .write(move |tx| {
            let old =
                store::extras::get(tx, &id)?.ok_or_else(|| AppError::not_found("extra", &id))?;
            IfMatch::check(if_match.as_ref(), old.version)?;
            let mut e = old.clone();
            input.code.apply(&mut e.code);
            input.name.apply(&mut e.name);
            input.price.apply(&mut e.price);
            input.tax_rate.apply(&mut e.tax_rate);
            input.unit.apply(&mut e.unit);
            input.active.apply(&mut e.active);
            if unchanged(&old, &e) {
                return Ok(old);
            }
            ensure_code_free(tx, &e.code, &e.id)?;
            e.version += 1;
            e.updated_at = Instant(tx.now_text());
            store::extras::update(tx, &old, &e)?;
            Ok(e)
        })
        .await
}

/// A page of extras.
pub async fn list(svc: &Services, p: &Principal, req: PageRequest) -> AppResult<Page<Extra>> {
    p.require(Scope::RatesRead)?;
    page(svc.db(), req, |c, after, as_of, limit| {
        store::extras::list(c, after, as_of, limit)
    })
    .await
}

/// The name in the language of the property's country (the English where it has none).
pub(crate) fn name_in(names: &Names, country: Option<&str>) -> String {
    names.in_language(crate::domain::stay_lines::language(country))
}

/// Puts `order`'s extra on reservation `reservation_id`'s folio.
pub async fn order(
    svc: &Services,
    p: &Principal,
    reservation_id: String,
    order: ExtraOrder,
) -> AppResult<Charge> {
    p.require(Scope::FrontDesk)?;
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let r = store::reservations::get(tx, &reservation_id)?
                .ok_or_else(|| AppError::not_found("reservation", &reservation_id))?;
            put_on(tx, &actor, &r, &order, "")
        })
        .await
}

/// Puts `order`'s extra on `r`'s folio in the caller's transaction: one charge of the units
/// the stay makes, noted as the extra's; field errors at `{path}extra_id`.
pub(crate) fn put_on(
    tx: &Tx,
    actor: &Actor,
    r: &Reservation,
    order: &ExtraOrder,
    path: &str,
) -> AppResult<Charge> {
    let field = format!("{path}extra_id");
    let extra = match store::extras::get(tx, &order.extra_id.0)? {
        Some(e) if e.active => e,
        Some(_) => {
            return Err(AppError::validation(vec![
                FieldError::new(&field, "not_offered", "this extra is no longer offered")
                    .said("problem-extra-not-offered", vec![]),
            ]));
        }
        None => {
            return Err(AppError::validation(vec![FieldError::new(
                &field,
                "not_found",
                "no extra has this id",
            )]));
        }
    };
    if !matches!(r.status, Status::Confirmed | Status::CheckedIn) {
        return Err(crate::refusal::Refusal::NoMoreCharges { status: r.status }.into());
    }
    let settings = store::settings::get(tx)?;
    let today = tx.clock().today_in(&settings.time_zone);
    let persons = r.adults + r.children;
    let count = order.count.map_or(1, |c| c.0);
    let day = match (order.service_date, r.status) {
        (Some(d), _) => d,
        (None, Status::CheckedIn) => Date(today),
        (None, _) => r.arrival,
    };
    let line = DraftLine {
        description: name_in(&extra.name, settings.country.as_deref()),
        quantity: units(extra.unit, count, r.night_count, persons),
        unit_price: extra.price,
        tax_rate: extra.tax_rate,
        service_date: Some(day),
        charge_id: None,
        kind: crate::domain::enums::LineKind::Charge,
        kpd_code: None,
    };
    let charge = super::charges::insert(tx, actor, r, line, &Instant(tx.now_text()))?;
    store::charges::mark_extra(tx, &charge.id, &extra.id)?;
    Ok(charge)
}
