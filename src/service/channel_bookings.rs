//! Bookings in from the channel manager, exactly once. Each booking revision (new,
//! modified, cancelled) is applied in one write transaction that also records its id in
//! `channel_revisions`; the queue acknowledges it to the channel manager only after that
//! commit. A revision seen again (innkeep died between the commit and the
//! acknowledgement, or the acknowledgement's answer was lost) finds its id and is only
//! acknowledged again, so no booking is ever taken twice.
//!
//! A booking site's booking is never refused: the guest already holds it. One that no
//! longer fits (no room of its type free on some night) is taken and flagged
//! `overbooked`, with a `reservation.overbooked` event, for staff to make room. Each room of
//! a booking is one reservation; a modification changes that reservation in place, so its
//! folio (charges, payments, deposit) stays; a cancellation cancels it with no fee (the
//! booking site applies its own policy).

use chrono::NaiveDate;

use crate::channel::{Collect, Revision, RevisionKind, RoomStay};
use crate::compliance::Compliance;
use crate::config::channel::ChannelConfig;
use crate::db::Tx;
use crate::domain::enums::{ChannelPayment, Source};
use crate::domain::events::EventType;
use crate::domain::reservation::Status;
use crate::domain::stay::StayDates;
use crate::error::AppResult;
use crate::model::input::FromJson;
use crate::model::{Actor, Date, GuestCreate, Instant, NightPrice, Reservation};
use crate::model::{ReservationChannel, snapshot};
use crate::service::Services;
use crate::service::channel::Mapping;
use crate::store;

/// What applying a revision came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Applied now: what it did, in words.
    Done(String),
    /// Applied before (its acknowledgement was lost): what it did then.
    Already(String),
    /// Not applied, and not to be acknowledged until someone acts: why, in words (a room
    /// type the mapping does not know, dates that are not a stay).
    Held(String),
}

/// Applies revision `rev` once, in one transaction.
pub async fn apply(svc: &Services, cfg: ChannelConfig, rev: Revision) -> AppResult<Applied> {
    let comp = svc.compliance().clone();
    svc.db()
        .write(move |tx| apply_in(tx, &cfg, &comp, &rev))
        .await
}

/// A room of the revision, resolved to innkeep's room type and plan.
struct Room<'a> {
    room_type_id: String,
    rate_plan_id: Option<String>,
    stay: &'a RoomStay,
}

fn apply_in(tx: &Tx, cfg: &ChannelConfig, comp: &Compliance, rev: &Revision) -> AppResult<Applied> {
    if let Some(done) = store::channel::applied(tx, &rev.id)? {
        return Ok(Applied::Already(done));
    }
    let known = store::channel::booking_rooms(tx, &rev.booking_id)?;
    let actor = Actor::channel(&rev.ota);
    let mut said = Vec::new();
    let kind = match rev.kind {
        RevisionKind::New => "new",
        RevisionKind::Modified => "modified",
        RevisionKind::Cancelled => "cancelled",
    };
    if rev.kind == RevisionKind::Cancelled {
        for (_, id) in &known {
            cancel(tx, &actor, comp, id, rev, &mut said)?;
        }
        if known.is_empty() {
            said.push("cancels a booking innkeep never had: nothing to cancel".to_string());
        }
    } else {
        let rooms = match resolve(tx, cfg, rev)? {
            Ok(rooms) => rooms,
            Err(why) => return Ok(Applied::Held(why)),
        };
        if StayDates::new(rev.arrival, rev.departure).is_err() {
            return Ok(Applied::Held(format!(
                "booking {} {} runs from {} to {}, which is not a stay innkeep can hold (1 to 365 nights)",
                rev.ota, rev.ota_code, rev.arrival, rev.departure
            )));
        }
        let guest = match known.first() {
            Some((_, id)) => store::reservations::get(tx, id)?.map(|r| r.primary_guest_id),
            None => None,
        };
        let guest = match guest {
            Some(g) => g,
            None => guest_of(tx, &actor, rev)?,
        };
        for (i, room) in rooms.iter().enumerate() {
            match known.iter().find(|(n, _)| *n == i as i64) {
                Some((_, id)) => change(tx, &actor, id, rev, room, &mut said)?,
                None => {
                    let r = take(tx, &actor, &guest, rev, room)?;
                    store::channel::add_booking_room(tx, &rev.booking_id, i as i64, &r.id)?;
                    said.push(format!("took reservation {}", r.code));
                }
            }
        }
        for (_, id) in known.iter().filter(|(n, _)| *n >= rooms.len() as i64) {
            cancel(tx, &actor, comp, id, rev, &mut said)?;
        }
    }
    let outcome = said.join("; ");
    store::channel::record_revision(tx, &rev.id, &rev.booking_id, kind, &outcome)?;
    Ok(Applied::Done(outcome))
}

/// Each room's innkeep room type and plan, or why the revision must wait for the mapping.
fn resolve<'a>(
    tx: &Tx,
    cfg: &ChannelConfig,
    rev: &'a Revision,
) -> AppResult<Result<Vec<Room<'a>>, String>> {
    let map = Mapping::of(tx, cfg)?;
    let local = |m: &std::collections::HashMap<String, String>, remote: &str| {
        m.iter()
            .find(|(_, r)| r.as_str() == remote)
            .map(|(l, _)| l.clone())
    };
    let mut out = Vec::new();
    for stay in &rev.rooms {
        let Some(room_type_id) = stay
            .room_type
            .as_deref()
            .and_then(|r| local(&map.room_types, r))
        else {
            return Ok(Err(format!(
                "booking {} {} is for a room type ({}) not mapped to one of innkeep's: map it in Administration › Channels and the booking is taken at the next pull",
                rev.ota,
                rev.ota_code,
                stay.room_type.as_deref().unwrap_or("none given")
            )));
        };
        let rate_plan_id = stay
            .rate_plan
            .as_deref()
            .and_then(|r| local(&map.rate_plans, r));
        out.push(Room {
            room_type_id,
            rate_plan_id,
            stay,
        });
    }
    if out.is_empty() {
        return Ok(Err(format!(
            "booking {} {} names no room",
            rev.ota, rev.ota_code
        )));
    }
    Ok(Ok(out))
}

/// The guest of a new booking, as the booking site gave them (an e-mail or telephone that
/// innkeep's rules refuse is left out rather than the booking).
fn guest_of(tx: &Tx, actor: &Actor, rev: &Revision) -> AppResult<String> {
    let c = &rev.customer;
    let first = if c.first_name.is_empty() {
        "Guest"
    } else {
        &c.first_name
    };
    let last = if c.last_name.is_empty() {
        format!("{} {}", rev.ota, rev.ota_code)
    } else {
        c.last_name.clone()
    };
    let full = serde_json::json!({
        "first_name": first.chars().take(100).collect::<String>(),
        "last_name": last.chars().take(100).collect::<String>(),
        "email": c.email, "phone": c.phone,
    });
    let mut errs = Vec::new();
    let input = match GuestCreate::from_json(&full, "", &mut errs) {
        Some(g) if errs.is_empty() => g,
        _ => {
            let bare = serde_json::json!({"first_name": full["first_name"], "last_name": full["last_name"]});
            errs.clear();
            GuestCreate::from_json(&bare, "", &mut errs).ok_or_else(|| {
                crate::error::AppError::internal("a channel booking's guest has no usable name")
            })?
        }
    };
    Ok(crate::service::guests::create_in(tx, actor, input)?.id)
}

/// Each night of the stay at the booking site's price (a night it did not price at the
/// average of those it did).
fn nights_of(rev: &Revision, stay: &RoomStay) -> Vec<NightPrice> {
    let given: i64 = stay.nights.iter().map(|(_, p)| p).sum();
    let average = if stay.nights.is_empty() {
        0
    } else {
        given / stay.nights.len() as i64
    };
    let mut out = Vec::new();
    let mut d: NaiveDate = rev.arrival;
    while d < rev.departure {
        let price = stay
            .nights
            .iter()
            .find(|(n, _)| *n == d)
            .map_or(average, |(_, p)| *p);
        out.push(NightPrice {
            date: Date(d),
            price,
        });
        d = d.succ_opt().unwrap_or(rev.departure);
    }
    out
}

/// The channel particulars of `rev` on a reservation.
fn channel_of(rev: &Revision, overbooked: bool) -> ReservationChannel {
    ReservationChannel {
        name: "channex".into(),
        ota: rev.ota.clone(),
        ota_code: rev.ota_code.clone(),
        booking_id: rev.booking_id.clone(),
        revision_id: rev.id.clone(),
        payment: match rev.collect {
            Collect::Ota => ChannelPayment::Ota,
            Collect::Hotel => ChannelPayment::Hotel,
        },
        overbooked,
    }
}

/// Flags `r` overbooked when its room type is full on a night of its stay (and records
/// `reservation.overbooked` when that is news); a room given to another stay on those
/// nights is taken off it.
fn flag(tx: &Tx, r: &mut Reservation, was: bool, said: &mut Vec<String>) -> AppResult<()> {
    let stay = StayDates::new(r.arrival.0, r.departure.0)
        .map_err(|_| crate::error::AppError::internal("a channel stay without nights"))?;
    if r.status == Status::Confirmed
        && let Some(room) = &r.room_id
        && store::reservations::room_clash(tx, room, &stay, Some(&r.id))?.is_some()
    {
        r.room_id = None;
        said.push(format!(
            "{}: its room is taken on the new dates, so it has none yet",
            r.code
        ));
    }
    let full = crate::service::reservations::full_for(tx, r, &stay)?;
    if let Some(ch) = r.channel.as_mut() {
        ch.overbooked = !full.is_empty();
    }
    if !full.is_empty() && !was {
        said.push(format!(
            "{} is overbooked on {} night(s)",
            r.code,
            full.len()
        ));
    }
    Ok(())
}

fn overbooked_event(tx: &Tx, actor: &Actor, r: &Reservation) -> AppResult<()> {
    let stay = StayDates::new(r.arrival.0, r.departure.0)
        .map_err(|_| crate::error::AppError::internal("a channel stay without nights"))?;
    let full = crate::service::reservations::full_for(tx, r, &stay)?;
    let mut data = snapshot(r);
    data["full_nights"] = serde_json::json!(full.iter().map(|d| d.to_string()).collect::<Vec<_>>());
    store::events::record(tx, actor, EventType::ReservationOverbooked, &r.id, &data)?;
    Ok(())
}

/// A new reservation for one room of `rev`.
fn take(
    tx: &Tx,
    actor: &Actor,
    guest: &str,
    rev: &Revision,
    room: &Room,
) -> AppResult<Reservation> {
    let nights = nights_of(rev, room.stay);
    let currency = match rev.currency.len() {
        3 => rev.currency.clone(),
        _ => store::room_types::get(tx, &room.room_type_id)?
            .map(|t| t.currency)
            .unwrap_or_default(),
    };
    let mut r = crate::service::reservations::blank(
        tx,
        guest,
        &room.room_type_id,
        rev.arrival,
        rev.departure,
    )?;
    r.nightly_rate = nights.first().map_or(0, |n| n.price);
    r.nights = nights;
    r.rate_plan_id = room.rate_plan_id.clone();
    r.adults = room.stay.adults;
    r.children = room.stay.children;
    r.currency = currency;
    r.source = Source::Ota;
    r.notes = rev.notes.clone();
    r.channel = Some(channel_of(rev, false));
    let mut said = Vec::new();
    flag(tx, &mut r, false, &mut said)?;
    store::reservations::insert(tx, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationCreated,
        &r.id,
        &snapshot(&r),
    )?;
    if r.channel.as_ref().is_some_and(|c| c.overbooked) {
        overbooked_event(tx, actor, &r)?;
    }
    Ok(r)
}

/// Reservation `id` changed as `rev` says for its room `room`: dates, room type, party and
/// prices (in the house, only the departure); its folio is untouched.
fn change(
    tx: &Tx,
    actor: &Actor,
    id: &str,
    rev: &Revision,
    room: &Room,
    said: &mut Vec<String>,
) -> AppResult<()> {
    let Some(old) = store::reservations::get(tx, id)? else {
        return Ok(());
    };
    let was = old.channel.as_ref().is_some_and(|c| c.overbooked);
    let mut r = old.clone();
    match old.status {
        Status::Confirmed => {
            if r.room_type_id != room.room_type_id {
                r.room_type_id = room.room_type_id.clone();
                r.room_id = None;
            }
            r.arrival = Date(rev.arrival);
            r.rate_plan_id = room.rate_plan_id.clone();
            r.adults = room.stay.adults;
            r.children = room.stay.children;
        }
        Status::CheckedIn => {}
        other => {
            said.push(format!(
                "{} is {other}: the change was not applied",
                old.code
            ));
            return Ok(());
        }
    }
    r.departure = Date(rev.departure);
    r.night_count = (r.departure.0 - r.arrival.0).num_days();
    let mut nights = nights_of(rev, room.stay);
    nights.retain(|n| n.date >= r.arrival);
    r.nightly_rate = nights.first().map_or(r.nightly_rate, |n| n.price);
    r.nights = nights;
    r.notes = rev.notes.clone().or(r.notes);
    r.channel = Some(channel_of(rev, was));
    flag(tx, &mut r, was, said)?;
    r.version += 1;
    r.updated_at = Instant(tx.now_text());
    store::reservations::update(tx, &old, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationUpdated,
        &r.id,
        &snapshot(&r),
    )?;
    if !was && r.channel.as_ref().is_some_and(|c| c.overbooked) {
        overbooked_event(tx, actor, &r)?;
    }
    said.push(format!("changed reservation {}", r.code));
    Ok(())
}

/// Reservation `id` cancelled by the booking site: no fee here (the site applies its
/// policy); an advance paid at the desk is given back as on any cancellation.
fn cancel(
    tx: &Tx,
    actor: &Actor,
    comp: &Compliance,
    id: &str,
    rev: &Revision,
    said: &mut Vec<String>,
) -> AppResult<()> {
    let Some(old) = store::reservations::get(tx, id)? else {
        return Ok(());
    };
    if old.status != Status::Confirmed {
        said.push(format!("{} is {}: not cancelled", old.code, old.status));
        return Ok(());
    }
    let mut r = old.clone();
    let now = Instant(tx.now_text());
    r.status = Status::Cancelled;
    r.cancelled_at = Some(now.clone());
    let overbooked = old.channel.as_ref().is_some_and(|c| c.overbooked);
    r.channel = Some(channel_of(rev, overbooked));
    r.version += 1;
    r.updated_at = now;
    store::reservations::update(tx, &old, &r)?;
    store::events::record(
        tx,
        actor,
        EventType::ReservationCancelled,
        &r.id,
        &snapshot(&r),
    )?;
    crate::service::deposits::on_cancel(tx, actor, comp, &mut r)?;
    said.push(format!("cancelled reservation {}", r.code));
    Ok(())
}
