//! Folio charges: extras billed to a reservation.

use crate::db::Tx;
use crate::domain::history::{Change, Note};
use crate::domain::reservation::Status;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::model::{Actor, Charge, ChargeInput, Date, Instant, Reservation, snapshot};
use crate::service::Services;
use crate::service::invoicing::DraftLine;
use crate::service::{Page, PageRequest, page};
use crate::store;

/// Stores a charge for `r` (inside the caller's transaction), noted in the reservation's
/// history.
pub(crate) fn insert(
    tx: &Tx,
    actor: &Actor,
    r: &Reservation,
    line: DraftLine,
    now: &Instant,
) -> AppResult<Charge> {
    let charge = Charge {
        id: crate::ids::new("chg"),
        reservation_id: r.id.clone(),
        description: line.description,
        quantity: line.quantity,
        unit_price: line.unit_price,
        tax_rate: line.tax_rate,
        gross_amount: line.quantity.saturating_mul(line.unit_price),
        currency: r.currency.clone(),
        service_date: line
            .service_date
            .unwrap_or(Date(tx.clock().now().date_naive())),
        invoice_id: None,
        kpd_code: line.kpd_code,
        created_at: now.clone(),
    };
    store::charges::insert(tx, &charge)?;
    let added = Change {
        field: "charges".into(),
        from: serde_json::Value::Null,
        to: snapshot(&charge),
    };
    store::history::note(tx, actor, Note::ChargeAdded.as_str(), &r.id, &[added], None)?;
    Ok(charge)
}

/// Adds a charge to a confirmed or checked-in reservation's folio.
pub async fn add(
    svc: &Services,
    p: &Principal,
    reservation_id: String,
    input: ChargeInput,
) -> AppResult<Charge> {
    p.require(Scope::FrontDesk)?;
    let db = svc.db();
    let actor = p.actor.clone();
    db.write(move |tx| {
        let r = store::reservations::get(tx, &reservation_id)?
            .ok_or_else(|| AppError::not_found("reservation", &reservation_id))?;
        if !matches!(r.status, Status::Confirmed | Status::CheckedIn) {
            return Err(crate::refusal::Refusal::NoMoreCharges { status: r.status }.into());
        }
        let settings = store::settings::get(tx)?;
        let today = tx.clock().today_in(&settings.time_zone);
        let line = crate::service::invoices::lines_from(
            std::slice::from_ref(&input),
            settings.default_tax_rate,
            today,
        )
        .pop()
        .ok_or_else(|| AppError::internal("no line"))?;
        insert(tx, &actor, &r, line, &Instant(tx.now_text()))
    })
    .await
}

/// A page of a reservation's charges (404 for an unknown reservation).
pub async fn list(
    svc: &Services,
    p: &Principal,
    reservation_id: String,
    req: PageRequest,
) -> AppResult<Page<Charge>> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    let id = reservation_id.clone();
    if db
        .read(move |c| store::reservations::get(c, &id))
        .await?
        .is_none()
    {
        return Err(AppError::not_found("reservation", &reservation_id));
    }
    page(db, req, move |c, after, as_of, limit| {
        store::charges::list(c, &reservation_id, after, as_of, limit)
    })
    .await
}
