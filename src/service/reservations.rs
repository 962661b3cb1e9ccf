//! Reservations: create, read, list and change, with availability checked inside the
//! write transaction (the single writer makes the check and the insert atomic).

use crate::refusal::Refusal;
use chrono::NaiveDate;

use crate::db::Tx;
use crate::domain::availability::full_nights;
use crate::domain::enums::{HousekeepingStatus, Source};
use crate::domain::events::EventType;
use crate::domain::reservation::Status;
use crate::domain::said::{Said, Value};
use crate::domain::scopes::Scope;
use crate::domain::stay::{StayDates, StayError};
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{Actor, Principal};
use crate::model::{Instant, Reservation, ReservationCreate, RoomType, snapshot};
use crate::service::Services;
use crate::service::{Page, PageRequest, all_into, fail_on, page};
use crate::store::{self, reservations::ReservationFilter};

mod nights;
mod update;
pub(crate) use update::no_show_in;
pub use update::update;

/// The primary guest first, then the others in the order given.
fn guest_list(primary: &str, given: Option<Vec<String>>) -> Vec<String> {
    let mut ids = vec![primary.to_string()];
    ids.extend(
        given
            .unwrap_or_default()
            .into_iter()
            .filter(|g| g != primary),
    );
    ids
}

/// Today in the property's time zone, inside a write.
pub(crate) fn today(tx: &Tx) -> AppResult<NaiveDate> {
    Ok(tx.clock().today_in(&store::settings::get(tx)?.time_zone))
}

/// Today in the property's time zone, for reads.
pub async fn today_of(svc: &Services, p: &Principal) -> AppResult<NaiveDate> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    let clock = db.clock().clone();
    db.read(move |c| Ok(clock.today_in(&store::settings::get(c)?.time_zone)))
        .await
}

/// Field rules that need the database: references, dates, occupancy, the room's type.
/// Returns the room type and stay when they are valid.
fn check_fields(
    tx: &Tx,
    r: &Reservation,
    errs: &mut Vec<FieldError>,
) -> AppResult<Option<(RoomType, StayDates)>> {
    let room_type = store::room_types::get(tx, &r.room_type_id)?;
    if room_type.is_none() {
        errs.push(FieldError::new(
            "room_type_id",
            "not_found",
            "no room type has this id",
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, g) in r.guest_ids.iter().enumerate() {
        if !seen.insert(g) {
            errs.push(FieldError::new(
                format!("guest_ids[{i}]"),
                "duplicate",
                "lists this guest twice",
            ));
        }
    }
    for id in store::guests::missing(tx, &r.guest_ids)? {
        let field = match r.guest_ids.iter().position(|g| *g == id) {
            Some(0) | None => "primary_guest_id".to_string(),
            Some(i) => format!("guest_ids[{i}]"),
        };
        errs.push(FieldError::new(field, "not_found", "no guest has this id"));
    }
    if let Some(ages) = &r.children_ages
        && ages.len() as i64 != r.children
    {
        errs.push(
            FieldError::new(
                "children_ages",
                "count_mismatch",
                format!(
                    "lists {} ages for {} children: give one age per child",
                    ages.len(),
                    r.children
                ),
            )
            .said(
                "problem-ages-count",
                vec![
                    ("ages", crate::domain::said::Value::Num(ages.len() as i64)),
                    ("children", crate::domain::said::Value::Num(r.children)),
                ],
            ),
        );
    }
    let guests_room = (r.adults + r.children) as usize;
    if r.guest_ids.len() > guests_room {
        errs.push(
            FieldError::new(
                "guest_ids",
                "too_many_guests",
                format!(
                    "lists {} guests but adults + children is {guests_room}",
                    r.guest_ids.len()
                ),
            )
            .said(
                "problem-too-many-guests",
                vec![
                    ("listed", Value::Num(r.guest_ids.len() as i64)),
                    ("party", Value::Num(guests_room as i64)),
                ],
            ),
        );
    }
    let stay = match StayDates::new(r.arrival.0, r.departure.0) {
        Ok(s) => Some(s),
        Err(StayError::DepartureNotAfterArrival) => {
            errs.push(
                FieldError::new("departure", "must_be_after", "must be after arrival")
                    .said("problem-after-arrival", vec![]),
            );
            None
        }
        Err(StayError::TooLong) => {
            errs.push(
                FieldError::new(
                    "departure",
                    "too_long",
                    "must be at most 365 nights after arrival",
                )
                .said("problem-max-nights", vec![("n", Value::Num(365))]),
            );
            None
        }
    };
    if let Some(rt) = &room_type
        && r.adults + r.children > rt.max_occupancy
    {
        errs.push(
            FieldError::new(
                if r.children > 0 { "children" } else { "adults" },
                "exceeds_max_occupancy",
                format!(
                    "adults + children must be at most {} for room type {}",
                    rt.max_occupancy, rt.code
                ),
            )
            .said(
                "problem-max-occupancy",
                vec![
                    ("max", Value::Num(rt.max_occupancy)),
                    ("type", Value::Text(rt.code.clone())),
                ],
            ),
        );
    }
    if let Some(room_id) = &r.room_id {
        match store::rooms::get(tx, room_id)? {
            None => errs.push(FieldError::new(
                "room_id",
                "not_found",
                "no room has this id",
            )),
            Some(room) if room.room_type_id != r.room_type_id => errs.push(
                FieldError::new(
                    "room_id",
                    "room_type_mismatch",
                    "must be a room of the reservation's room type",
                )
                .said("problem-room-type-mismatch", vec![]),
            ),
            Some(_) => {}
        }
    }
    Ok(room_type.zip(stay))
}

/// 409 when the room type is full on any night of the stay, or the room is taken.
fn check_inventory(tx: &Tx, r: &Reservation, rt: &RoomType, stay: &StayDates) -> AppResult<()> {
    let full = full_for(tx, r, stay)?;
    if !full.is_empty() {
        let nights: Vec<String> = full
            .iter()
            .map(|d| d.format("%Y-%m-%d").to_string())
            .collect();
        let refusal = Refusal::NoAvailability {
            room_type: rt.code.clone(),
            nights: full.clone(),
        };
        return Err(AppError::from(refusal).with_extension("nights", nights.into()));
    }
    if let Some(room_id) = &r.room_id {
        if let Some(code) = store::reservations::room_clash(tx, room_id, stay, Some(&r.id))? {
            return Err(AppError::conflict(
                "room_unavailable",
                format!("The room is already given to reservation {code} on some of these nights."),
            )
            .with_said(Said::new(
                "problem-room-taken",
                vec![("code", Value::Text(code))],
            )));
        }
        if r.status == Status::CheckedIn
            && store::rooms::get(tx, room_id)?
                .is_some_and(|room| room.housekeeping_status == HousekeepingStatus::OutOfOrder)
        {
            return Err(
                AppError::conflict("room_unavailable", "The room is out of order.")
                    .with_said(Said::plain("problem-the-room-out-of-order")),
            );
        }
    }
    Ok(())
}

/// The nights of `stay` on which `r`'s room type has no room left for it (the other
/// stays that hold a room counted, `r` itself not).
pub(crate) fn full_for(
    tx: &rusqlite::Connection,
    r: &Reservation,
    stay: &StayDates,
) -> AppResult<Vec<NaiveDate>> {
    let (total, out_of_order) = store::rooms::count_of_type(tx, &r.room_type_id)?;
    let capacity = (total - out_of_order).max(0) as u32;
    let booked = store::reservations::stays_of_type(tx, &r.room_type_id, stay, Some(&r.id))?;
    Ok(full_nights(stay, &booked, capacity))
}

/// Validates everything about a new or changed stay that holds inventory.
fn check_stay(tx: &Tx, r: &Reservation, mut errs: Vec<FieldError>) -> AppResult<()> {
    let checked = check_fields(tx, r, &mut errs)?;
    fail_on(errs)?;
    if let Some((rt, stay)) = checked
        && r.status.holds_inventory()
    {
        check_inventory(tx, r, &rt, &stay)?;
    }
    Ok(())
}

fn unused_code(tx: &Tx) -> AppResult<String> {
    loop {
        let code = crate::ids::confirmation_code();
        if !store::reservations::code_exists(tx, &code)? {
            return Ok(code);
        }
    }
}

/// Creates a confirmed reservation and records `reservation.created`.
pub async fn create(
    svc: &Services,
    p: &Principal,
    input: ReservationCreate,
) -> AppResult<Reservation> {
    p.require(Scope::ReservationsWrite)?;
    let actor = p.actor.clone();
    let mail = svc.mail_domain();
    svc.db()
        .write(move |tx| {
            let r = create_in(tx, &actor, input)?;
            crate::service::messages::about(
                tx,
                mail.as_deref(),
                crate::service::messages::Kind::Confirmation,
                &r,
            )?;
            Ok(r)
        })
        .await
}

/// [`create`] inside the caller's transaction (also for an import's many reservations,
/// each checked against the rooms the ones before it took).
pub(crate) fn create_in(
    tx: &Tx,
    actor: &Actor,
    input: ReservationCreate,
) -> AppResult<Reservation> {
    let mut errs = Vec::new();
    let room_type = store::room_types::get(tx, &input.room_type_id.0)?;
    let rate: Option<i64> = input.nightly_rate.map(Into::into);
    let rate_given = rate.is_some();
    let currency: Option<String> = input.currency.map(Into::into);
    let (nightly_rate, currency) = match (&room_type, rate, currency) {
        (_, Some(rate), Some(cur)) => (rate, cur),
        (Some(rt), None, Some(cur)) if cur != rt.currency => {
            errs.push(
                FieldError::new(
                    "currency",
                    "currency_mismatch",
                    format!(
                        "must be {} (the room type's) unless nightly_rate is given",
                        rt.currency
                    ),
                )
                .said(
                    "problem-rate-currency",
                    vec![("currency", Value::Text(rt.currency.clone()))],
                ),
            );
            (rt.base_rate, cur)
        }
        (Some(rt), rate, cur) => (
            rate.unwrap_or(rt.base_rate),
            cur.unwrap_or_else(|| rt.currency.clone()),
        ),
        (None, rate, cur) => (rate.unwrap_or(0), cur.unwrap_or_default()),
    };
    let mut r = blank(
        tx,
        &input.primary_guest_id.0,
        &input.room_type_id.0,
        input.arrival.0,
        input.departure.0,
    )?;
    r.guest_ids = guest_list(&input.primary_guest_id.0, input.guest_ids.map(all_into));
    r.room_id = input.room_id.map(Into::into);
    r.rate_plan_id = input.rate_plan_id.map(Into::into);
    r.adults = input.adults.into();
    r.children = input.children.map_or(0, Into::into);
    r.children_ages = input
        .children_ages
        .map(|a| a.into_iter().map(|x| x.0).collect());
    r.extra_beds = input.extra_beds.map_or(0, Into::into);
    r.cots = input.cots.map_or(0, Into::into);
    r.nightly_rate = nightly_rate;
    r.rate_note = input.rate_note.map(Into::into);
    r.currency = currency;
    r.source = input.source.unwrap_or(Source::Direct);
    r.notes = input.notes.map(Into::into);
    nights::check_plan(tx, &r, &mut errs)?;
    check_stay(tx, &r, errs)?;
    crate::service::day_close::closed_nights_kept(tx, None, (r.arrival.0, r.departure.0))?;
    let today = today(tx)?;
    let why = input.override_reason.map(|w| w.0);
    let overridden = nights::price(tx, &mut r, rate_given, why.is_some(), today)?;
    store::reservations::insert(tx, &r)?;
    for (i, order) in input.extras.iter().flatten().enumerate() {
        let path = format!("extras[{i}].");
        let charge = crate::service::extras::put_on(tx, actor, &r, order, &path)?;
        r.extras.push(crate::model::BookedExtra {
            extra_id: order.extra_id.0.clone(),
            charge_id: charge.id,
            quantity: charge.quantity,
            gross_amount: charge.gross_amount,
        });
    }
    store::events::record(
        tx,
        actor,
        EventType::ReservationCreated,
        &r.id,
        &snapshot(&r),
    )?;
    if let (true, Some(why)) = (overridden, &why) {
        nights::record_override(tx, actor, &r, why)?;
    }
    Ok(r)
}

/// A new confirmed reservation of room type `room_type` for guest `guest` from `arrival` to
/// `departure`, with a fresh id and confirmation code, one adult and nothing else yet.
pub(crate) fn blank(
    tx: &Tx,
    guest: &str,
    room_type: &str,
    arrival: NaiveDate,
    departure: NaiveDate,
) -> AppResult<Reservation> {
    let now = Instant(tx.now_text());
    Ok(Reservation {
        id: crate::ids::new("res"),
        code: unused_code(tx)?,
        status: Status::Confirmed,
        guest_ids: vec![guest.to_string()],
        primary_guest_id: guest.to_string(),
        room_type_id: room_type.to_string(),
        room_id: None,
        arrival: crate::model::Date(arrival),
        departure: crate::model::Date(departure),
        night_count: (departure - arrival).num_days(),
        nights: Vec::new(),
        rate_plan_id: None,
        deposit: None,
        channel: None,
        pre_check_in: None,
        extras: Vec::new(),
        adults: 1,
        children: 0,
        children_ages: None,
        extra_beds: 0,
        cots: 0,
        nightly_rate: 0,
        rate_note: None,
        currency: String::new(),
        source: Source::Direct,
        notes: None,
        checked_in_at: None,
        checked_out_at: None,
        cancelled_at: None,
        invoice_id: None,
        registration: None,
        version: 1,
        created_at: now.clone(),
        updated_at: now,
    })
}

/// One reservation.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<Reservation> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    db.read(move |c| {
        store::reservations::get(c, &id)?.ok_or_else(|| AppError::not_found("reservation", &id))
    })
    .await
}

/// A page of reservations.
pub async fn list(
    svc: &Services,
    p: &Principal,
    filter: ReservationFilter,
    req: PageRequest,
) -> AppResult<Page<Reservation>> {
    p.require(Scope::ReservationsRead)?;
    let db = svc.db();
    page(db, req, move |c, after, as_of, limit| {
        store::reservations::list(c, &filter, after, as_of, limit)
    })
    .await
}
