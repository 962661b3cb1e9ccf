//! The stay: check-in and check-out (API.md section 6), each one transaction.

use crate::db::Tx;
use crate::domain::enums::HousekeepingStatus;
use crate::domain::events::EventType;
use crate::domain::money::{CityTaxRule, city_tax_person_nights};
use crate::domain::reservation::{self as rules, Status, Via};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::model::{CheckIn, CheckOut, CheckOutResult, Date, Instant, Reservation, snapshot};
use crate::refusal::Refusal;
use crate::service::Services;
use crate::service::invoices::{bill_to_or_guest, lines_from};
use crate::service::invoicing::DraftLine;
use crate::service::reservations::today;
use crate::store;

pub(crate) fn load(tx: &Tx, id: &str) -> AppResult<Reservation> {
    store::reservations::get(tx, id)?.ok_or_else(|| AppError::not_found("reservation", id))
}

/// The status `via` moves `r` to, through the domain's graph, or 409
/// `invalid_state_transition` naming the statuses it may start from.
pub(crate) fn next_status(r: &Reservation, via: Via, done: &'static str) -> AppResult<Status> {
    rules::transition(r.status, via).ok_or_else(|| {
        let from: Vec<&str> = rules::sources(via).iter().map(|s| s.as_str()).collect();
        Refusal::StayState {
            status: r.status,
            done,
            from: from.join(" or "),
        }
        .into()
    })
}

/// Checks a confirmed reservation in: room checks, registration, status, event.
pub async fn check_in(svc: &Services, p: &Principal, input: CheckIn) -> AppResult<Reservation> {
    p.require(Scope::FrontDesk)?;
    let db = svc.db();
    let actor = &p.actor;
    let c = svc.compliance().clone();
    let actor = actor.clone();
    db.write(move |tx| check_in_in(tx, &c, &actor, input)).await
}

/// [`check_in`] inside the caller's transaction (also after the party is saved, in one).
pub(crate) fn check_in_in(
    tx: &Tx,
    c: &crate::compliance::Compliance,
    actor: &crate::model::Actor,
    input: CheckIn,
) -> AppResult<Reservation> {
    let mut r = load(tx, &input.reservation_id.0)?;
    let next = next_status(&r, Via::CheckIn, "checked in")?;
    let today = today(tx)?;
    if today < r.arrival.0 {
        return Err(Refusal::CheckInTooEarly {
            arrival: r.arrival.0,
        }
        .into());
    }
    if today >= r.departure.0 {
        return Err(Refusal::StayEnded {
            departure: r.departure.0,
        }
        .into());
    }
    let room_id = input
        .room_id
        .map(|id| id.0)
        .or(r.room_id.clone())
        .ok_or_else(|| {
            AppError::invalid_field("room_id", "required", "no room is assigned; send room_id")
                .field_said("problem-no-room-assigned", vec![])
        })?;
    let room = store::rooms::get(tx, &room_id)?
        .ok_or_else(|| AppError::invalid_field("room_id", "not_found", "no room has this id"))?;
    if room.room_type_id != r.room_type_id {
        return Err(AppError::invalid_field(
            "room_id",
            "room_type_mismatch",
            "must be a room of the reservation's room type",
        )
        .field_said("problem-room-type-mismatch", vec![]));
    }
    if room.housekeeping_status == HousekeepingStatus::OutOfOrder {
        return Err(Refusal::RoomOutOfOrder { room: room.number }.into());
    }
    if room.occupied {
        return Err(Refusal::RoomOccupied { room: room.number }.into());
    }
    // A stored reservation always forms a stay; if it ever did not, refuse rather than
    // skip the clash check.
    let stay = crate::domain::stay::StayDates::new(r.arrival.0, r.departure.0).map_err(|e| {
        AppError::internal(format!(
            "reservation {} has dates that do not form a stay: {e:?}",
            r.id
        ))
    })?;
    if let Some(code) = store::reservations::room_clash(tx, &room_id, &stay, Some(&r.id))? {
        return Err(Refusal::RoomGiven {
            room: room.number,
            code,
        }
        .into());
    }
    let old = r.clone();
    let now = tx.clock().now();
    let registration = crate::service::registration::at_check_in(tx, c, &r, today, now)?;
    r.status = next;
    r.room_id = Some(room_id);
    r.checked_in_at = Some(Instant(crate::clock::format_instant(now)));
    r.version += 1;
    r.updated_at = Instant(crate::clock::format_instant(now));
    r.registration = registration;
    store::reservations::update(tx, &old, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationCheckedIn,
        &r.id,
        &snapshot(&r),
    )?;
    Ok(r)
}

/// Marks a room guests have left dirty (at check-out, or when a stay moves rooms).
pub(crate) fn mark_dirty(tx: &Tx, room_id: &str, now: &Instant) -> AppResult<()> {
    if let Some(room) = store::rooms::get(tx, room_id)?
        && room.housekeeping_status != HousekeepingStatus::Dirty
    {
        let mut dirty = room.clone();
        dirty.housekeeping_status = HousekeepingStatus::Dirty;
        dirty.version += 1;
        dirty.updated_at = now.clone();
        store::rooms::update(tx, &room, &dirty)?;
    }
    Ok(())
}

/// The invoice lines of a stay: the nights, the uninvoiced folio, the city tax.
fn stay_lines(tx: &rusqlite::Connection, r: &Reservation) -> AppResult<Vec<DraftLine>> {
    let settings = store::settings::get(tx)?;
    let room = match &r.room_id {
        Some(id) => store::rooms::get(tx, id)?.map(|room| room.number),
        None => None,
    };
    let room_type_kpd = store::room_types::get(tx, &r.room_type_id)?.and_then(|t| t.kpd_code);
    let nights: Vec<(chrono::NaiveDate, i64)> =
        r.nights.iter().map(|n| (n.date.0, n.price)).collect();
    let mut lines: Vec<DraftLine> = crate::domain::stay_lines::runs(&nights)
        .into_iter()
        .map(|(from, to, count, price)| DraftLine {
            description: crate::domain::stay_lines::accommodation(
                settings.country.as_deref(),
                room.as_deref(),
                count,
                from,
                to,
            ),
            quantity: count,
            unit_price: price,
            tax_rate: settings.default_tax_rate,
            service_date: Some(Date(from)),
            charge_id: None,
            kind: crate::domain::enums::LineKind::Accommodation,
            kpd_code: room_type_kpd.clone(),
        })
        .collect();
    split_breakfast(tx, r, settings.country.as_deref(), &mut lines)?;
    lines.extend(
        store::charges::uninvoiced(tx, &r.id)?
            .into_iter()
            .map(DraftLine::from),
    );
    if let Some(tax) = &settings.city_tax {
        let rule = CityTaxRule {
            amount_per_person_night: tax.amount_per_person_night.0,
            max_nights: tax.max_nights.map(|n| n.0),
            exempt_under_age: tax.exempt_under_age.map(|a| a.0),
        };
        let mut births = Vec::new();
        for id in &r.guest_ids {
            births.push(
                store::guests::get(tx, id)?
                    .and_then(|g| g.birth_date)
                    .map(|d| d.0),
            );
        }
        let persons = r.adults + r.children;
        let person_nights =
            city_tax_person_nights(&rule, r.night_count, persons, &births, r.arrival.0);
        if person_nights > 0 && rule.amount_per_person_night > 0 {
            if r.currency != settings.currency {
                return Err(AppError::invalid_field(
                    "currency",
                    "currency_mismatch",
                    format!(
                        "the city tax is in {} but the stay is in {}; one invoice cannot mix them",
                        settings.currency, r.currency
                    ),
                )
                .field_said(
                    "problem-city-tax-currency",
                    vec![
                        (
                            "tax",
                            crate::domain::said::Value::Text(settings.currency.clone()),
                        ),
                        ("stay", crate::domain::said::Value::Text(r.currency.clone())),
                    ],
                ));
            }
            lines.push(DraftLine {
                description: crate::domain::stay_lines::city_tax(
                    settings.country.as_deref(),
                    person_nights,
                ),
                quantity: person_nights,
                unit_price: rule.amount_per_person_night,
                tax_rate: tax.tax_rate.map_or(0, |t| t.0),
                service_date: Some(r.arrival),
                charge_id: None,
                kind: crate::domain::enums::LineKind::CityTax,
                kpd_code: None,
            });
        }
    }
    Ok(lines)
}

/// Splits the breakfast a stay's plan includes off its accommodation lines, onto a line of
/// its own at its own tax rate (the gross of each night unchanged).
fn split_breakfast(
    tx: &rusqlite::Connection,
    r: &Reservation,
    country: Option<&str>,
    lines: &mut Vec<DraftLine>,
) -> AppResult<()> {
    let Some(plan) = r.rate_plan_id.as_deref() else {
        return Ok(());
    };
    let Some(b) = store::rate_plans::get(tx, plan)?.and_then(|p| p.breakfast) else {
        return Ok(());
    };
    let persons = (r.adults + r.children).max(1);
    let mut added = Vec::new();
    for l in lines.iter_mut() {
        let (room, meal) =
            crate::domain::stay_lines::split_breakfast(l.unit_price, persons, b.price.0);
        if meal == 0 {
            continue;
        }
        l.unit_price = room;
        let (quantity, unit) = if meal == b.price.0 * persons {
            (l.quantity * persons, b.price.0)
        } else {
            (l.quantity, meal)
        };
        added.push(DraftLine {
            description: crate::domain::stay_lines::breakfast(country, l.quantity * persons),
            quantity,
            unit_price: unit,
            tax_rate: b.tax_rate.0,
            service_date: l.service_date,
            charge_id: None,
            kind: crate::domain::enums::LineKind::Charge,
            kpd_code: None,
        });
    }
    lines.extend(added);
    Ok(())
}

/// Shortens a stay that ends before its booked departure to the nights actually stayed
/// (at least one).
fn leaving_on(r: &mut Reservation, today: chrono::NaiveDate) {
    if today < r.departure.0 {
        r.departure = Date(today.max(r.arrival.0 + chrono::Days::new(1)));
        r.night_count = (r.departure.0 - r.arrival.0).num_days();
        let departure = r.departure;
        r.nights.retain(|n| n.date < departure);
    }
}

/// What checking `id` out today would bill, read without changing anything: the
/// reservation as it would leave (its nights shortened when leaving early) and the invoice
/// lines (the nights, the folio not yet invoiced, the city tax), in the same rules as
/// [`check_out`], and the nights it was booked for.
pub async fn bill_preview(
    svc: &Services,
    p: &Principal,
    id: String,
) -> AppResult<(Reservation, Vec<DraftLine>, i64)> {
    p.require(Scope::ReservationsRead)?;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let mut r = store::reservations::get(c, &id)?
                .ok_or_else(|| AppError::not_found("reservation", &id))?;
            let settings = store::settings::get(c)?;
            let booked = r.night_count;
            leaving_on(&mut r, clock.today_in(&settings.time_zone));
            let lines = stay_lines(c, &r)?;
            let lines =
                crate::service::deposits::deduct(&mut r, lines, settings.country.as_deref());
            Ok((r, lines, booked))
        })
        .await
}

/// Checks a guest out: last charges, the invoice, the room to `dirty`, status, events.
/// Leaving before the booked departure bills the nights actually stayed (at least one).
pub async fn check_out(
    svc: &Services,
    p: &Principal,
    input: CheckOut,
) -> AppResult<CheckOutResult> {
    p.require(Scope::FrontDesk)?;
    let db = svc.db();
    let actor = &p.actor;
    let c = svc.compliance().clone();
    let actor = actor.clone();
    let how = crate::service::settlement::HowPaid::of(&input)?;
    let mail = svc.mail_domain();
    db.write(move |tx| {
        let mut r = load(tx, &input.reservation_id.0)?;
        let next = next_status(&r, Via::CheckOut, "checked out")?;
        let old = r.clone();
        let settings = store::settings::get(tx)?;
        let today = tx.clock().today_in(&settings.time_zone);
        leaving_on(&mut r, today);
        let now = Instant(tx.now_text());
        for line in lines_from(
            input.charges.as_deref().unwrap_or_default(),
            settings.default_tax_rate,
            today,
        ) {
            crate::service::charges::insert(tx, &actor, &r, line, &now)?;
        }
        let bill_to = bill_to_or_guest(tx, input.bill_to, &r.primary_guest_id)?;
        let receipt = crate::service::settlement::receipt_or_invoice(&c, input.receipt, &bill_to)?;
        let lines = stay_lines(tx, &r)?;
        let country = settings.country.as_deref();
        let lines = crate::service::deposits::at_check_out(tx, &actor, &c, &mut r, lines, country)?;
        let invoice = crate::service::settlement::bill_stay(
            tx,
            &actor,
            &c,
            &r,
            (bill_to, receipt),
            lines,
            how,
        )?;
        crate::service::invoice_mail::queue(tx, mail.as_deref(), &invoice)?;
        if let Some(room_id) = &r.room_id {
            mark_dirty(tx, room_id, &now)?;
        }
        crate::service::registration_changes::at_check_out(tx, &c, &r)?;
        r.status = next;
        r.checked_out_at = Some(now.clone());
        r.invoice_id = Some(invoice.id.clone());
        r.version += 1;
        r.updated_at = now;
        store::reservations::update(tx, &old, &r)?;
        store::events::record(
            tx,
            &actor,
            EventType::ReservationCheckedOut,
            &r.id,
            &snapshot(&r),
        )?;
        Ok(CheckOutResult {
            reservation: r,
            invoice,
        })
    })
    .await
}
