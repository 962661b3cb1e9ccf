//! What the desk's screens show, read in one read transaction per screen, for a principal
//! who may read reservations.

use chrono::NaiveDate;

use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::Principal;
use crate::service::Services;
use crate::store;
pub use crate::store::desk_views::{DayCounts, StayRow};

/// The Today screen.
#[derive(Debug, Clone)]
pub struct Today {
    /// The property's today.
    pub day: NaiveDate,
    /// Due and not yet in.
    pub arrivals: Vec<StayRow>,
    /// Staying tonight.
    pub in_house: Vec<StayRow>,
    /// Due to leave.
    pub departures: Vec<StayRow>,
    /// Rooms in service and dirty rooms.
    pub counts: DayCounts,
    /// Since when invoices are on hold after a restore, if they are.
    pub numbering_held: Option<String>,
    /// The usual VAT rate is 0 % in a country that taxes rooms: invoices would go out
    /// without VAT.
    pub vat_missing: bool,
}

impl Today {
    /// Rooms still free tonight: in service, less the stays staying tonight and the
    /// arrivals still due (assigned a room or not).
    pub fn free_tonight(&self) -> i64 {
        (self.counts.in_service - self.in_house.len() as i64 - self.arrivals.len() as i64).max(0)
    }
}

/// The Today screen's data, in the property's time zone.
pub async fn today(svc: &Services, p: &Principal) -> AppResult<Today> {
    p.require(Scope::ReservationsRead)?;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let settings = store::settings::get(c)?;
            let day = clock.today_in(&settings.time_zone);
            let d = day.to_string();
            Ok(Today {
                vat_missing: settings.default_tax_rate == 0
                    && settings
                        .country
                        .as_deref()
                        .is_some_and(crate::domain::money::taxes_rooms),
                day,
                arrivals: store::desk_views::arrivals(c, &d)?,
                in_house: store::desk_views::in_house(c, &d)?,
                departures: store::desk_views::departures(c, &d)?,
                counts: store::desk_views::counts(c)?,
                numbering_held: store::numbering::hold(c)?.map(|(since, _)| since),
            })
        })
        .await
}

/// The reservation screen: the stay, its guests, room type and room, folio and history.
#[derive(Debug)]
pub struct Stay {
    /// The reservation.
    pub reservation: crate::model::Reservation,
    /// Its guests, the primary first.
    pub guests: Vec<crate::model::Guest>,
    /// Its room type.
    pub room_type: crate::model::RoomType,
    /// Its room, once assigned.
    pub room: Option<crate::model::Room>,
    /// The rooms of its type (the first 200), to move it to.
    pub type_rooms: Vec<crate::model::Room>,
    /// Every room type (the first 200), to change it to.
    pub room_types: Vec<crate::model::RoomType>,
    /// The VAT rates a charge may carry, the property's usual one first (basis points).
    pub charge_rates: Vec<i64>,
    /// Its folio charges (the first 200).
    pub charges: Vec<crate::model::Charge>,
    /// Its history, oldest first (the first 200 entries).
    pub history: Vec<crate::model::HistoryEntry>,
}

/// The reservation screen's data through the same use cases as the API (404 when unknown).
pub async fn stay(svc: &Services, p: &Principal, id: String) -> AppResult<Stay> {
    use crate::service::{PageRequest, charges, history, reservations, room_types, rooms};
    let first = || PageRequest::first(200);
    let reservation = reservations::get(svc, p, id.clone()).await?;
    let people = party(svc, p, &reservation).await?;
    let room_type = room_types::get(svc, p, reservation.room_type_id.clone()).await?;
    let room = match &reservation.room_id {
        Some(r) => Some(rooms::get(svc, p, r.clone()).await?),
        None => None,
    };
    let of_type = store::rooms::RoomFilter {
        room_type_id: Some(reservation.room_type_id.clone()),
        ..Default::default()
    };
    let type_rooms = rooms::list(svc, p, of_type, first()).await?;
    let room_types = room_types::list(svc, p, first()).await?;
    let settings = svc.db().read(store::settings::get).await?;
    let charge_rates =
        crate::domain::money::charge_rates(settings.country.as_deref(), settings.default_tax_rate);
    let charges = charges::list(svc, p, id.clone(), first()).await?;
    let history = history::list(svc, p, history::Subject::Reservation, id, first()).await?;
    Ok(Stay {
        reservation,
        guests: people,
        room_type,
        room,
        type_rooms: type_rooms.items.into_iter().map(|(r, _)| r).collect(),
        room_types: room_types.items.into_iter().map(|(t, _)| t).collect(),
        charge_rates,
        charges: charges.items.into_iter().map(|(c, _)| c).collect(),
        history: history.items.into_iter().map(|(h, _)| h).collect(),
    })
}

/// A reservation's guests, the primary first, through the guests' own use case.
pub async fn party(
    svc: &Services,
    p: &Principal,
    r: &crate::model::Reservation,
) -> AppResult<Vec<crate::model::Guest>> {
    let mut people = Vec::with_capacity(r.guest_ids.len());
    for g in &r.guest_ids {
        people.push(crate::service::guests::get(svc, p, g.clone()).await?);
    }
    Ok(people)
}

/// A guest and their stays, newest arrival last (the first 200).
pub async fn guest(
    svc: &Services,
    p: &Principal,
    id: String,
) -> AppResult<(crate::model::Guest, Vec<crate::model::Reservation>)> {
    let g = crate::service::guests::get(svc, p, id.clone()).await?;
    let filter = store::reservations::ReservationFilter {
        guest_id: Some(id),
        ..Default::default()
    };
    let stays =
        crate::service::reservations::list(svc, p, filter, crate::service::PageRequest::first(200))
            .await?;
    Ok((g, stays.items.into_iter().map(|(r, _)| r).collect()))
}

/// The rooms the stay could be checked into, best first: free for its whole stay and clean (or
/// inspected) rooms, then free rooms still to be cleaned; occupied and out-of-order rooms
/// are left out, except `keep` (the room already assigned), which always stays on the list.
pub async fn check_in_rooms(
    svc: &Services,
    p: &Principal,
    stay: &crate::model::Reservation,
) -> AppResult<Vec<crate::model::Room>> {
    use crate::domain::enums::HousekeepingStatus as H;
    let filter = store::rooms::RoomFilter {
        room_type_id: Some(stay.room_type_id.clone()),
        ..Default::default()
    };
    let page = crate::service::rooms::list(svc, p, filter, crate::service::PageRequest::first(200))
        .await?;
    let held = rooms_held(svc, stay_dates(stay), Some(stay.id.clone())).await?;
    let keep = stay.room_id.clone();
    let mut rooms: Vec<crate::model::Room> = page
        .items
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| {
            keep.as_deref() == Some(r.id.as_str())
                || (!r.occupied && r.housekeeping_status != H::OutOfOrder && !held.contains(&r.id))
        })
        .collect();
    rooms.sort_by_key(|r| {
        (
            keep.as_deref() != Some(r.id.as_str()),
            r.housekeeping_status == H::Dirty,
            r.number.clone(),
        )
    });
    Ok(rooms)
}

/// The nights of a reservation, when they make a stay.
fn stay_dates(r: &crate::model::Reservation) -> Option<crate::domain::stay::StayDates> {
    crate::domain::stay::StayDates::new(r.arrival.0, r.departure.0).ok()
}

/// The rooms another stay holds on some night of `stay` (none without one).
async fn rooms_held(
    svc: &Services,
    stay: Option<crate::domain::stay::StayDates>,
    exclude: Option<String>,
) -> AppResult<std::collections::HashSet<String>> {
    match stay {
        Some(stay) => {
            svc.db()
                .read(move |c| store::reservations::rooms_held(c, &stay, exclude.as_deref()))
                .await
        }
        None => Ok(Default::default()),
    }
}

/// The invoice screen: the invoice and what its print needs around it.
#[derive(Debug)]
pub struct InvoiceView {
    /// The invoice.
    pub invoice: crate::model::Invoice,
    /// The property's name, printed at the top.
    pub property: String,
    /// The stay it bills, by its confirmation code.
    pub stay: Option<(String, String)>,
    /// For a credit note, the invoice it reverses; for a reversed invoice, its credit note:
    /// the other document's id and number.
    pub related: Option<(String, String)>,
    /// For a reversed invoice, the corrected invoice replacing it: its id and number.
    pub replaced_by: Option<(String, String)>,
    /// What the invoice still asks for: on an invoice, what is owed; on a credit note, the
    /// money it may still give back (what was paid on the invoice it reverses and not yet
    /// returned).
    pub due: i64,
}

/// The invoice screen's data, for a principal who may read invoices (404 when unknown).
pub async fn invoice(svc: &Services, p: &Principal, id: String) -> AppResult<InvoiceView> {
    let invoice = crate::service::invoices::get(svc, p, id).await?;
    let res = invoice.reservation_id.clone();
    svc.db()
        .read(move |c| {
            let property = store::settings::get(c)?.name;
            let stay = match &res {
                Some(r) => store::reservations::get(c, r)?.map(|r| (r.id, r.code)),
                None => None,
            };
            let due = match &invoice.corrects_invoice_id {
                Some(original) => crate::domain::money::refundable(
                    invoice.totals.gross,
                    invoice.paid_amount,
                    store::invoices::get(c, original)?.map_or(0, |o| o.paid_amount),
                ),
                None => invoice.totals.gross - invoice.paid_amount,
            };
            let related = match &invoice.corrects_invoice_id {
                Some(original) => store::desk_views::invoice_number(c, original)?
                    .map(|number| (original.clone(), number)),
                None => store::desk_views::reversed_by(c, &invoice.id)?,
            };
            let replaced_by = store::desk_views::replaced_by(c, &invoice.id)?;
            Ok(InvoiceView {
                invoice,
                property,
                stay,
                related,
                replaced_by,
                due,
            })
        })
        .await
}

/// What the new-reservation screen offers: every room type with the rooms still free on
/// every night of the stay (when the dates form one), and every room.
#[derive(Debug, Default)]
pub struct BookingChoices {
    /// Room types, with the rooms free on all nights of the stay.
    pub types: Vec<(crate::model::RoomType, Option<i64>)>,
    /// Rooms, by number (up to 1,000).
    pub rooms: Vec<crate::model::Room>,
}

/// The new-reservation screen's choices for `window`, through the same use cases as the API.
pub async fn booking_choices(
    svc: &Services,
    p: &Principal,
    window: Option<crate::domain::stay::StayDates>,
) -> AppResult<BookingChoices> {
    use crate::service::PageRequest;
    let types = crate::service::room_types::list(svc, p, PageRequest::first(200)).await?;
    let rooms =
        crate::service::rooms::list(svc, p, Default::default(), PageRequest::first(1000)).await?;
    let nights = match window {
        Some(w) => crate::service::availability::nights(svc, p, w, None).await?,
        None => Vec::new(),
    };
    // A room another stay holds on some of these nights is not offered.
    let held = rooms_held(svc, window, None).await?;
    Ok(BookingChoices {
        types: types
            .items
            .into_iter()
            .map(|(t, _)| {
                let free = nights
                    .iter()
                    .filter(|n| n.room_type_id == t.id)
                    .map(|n| n.available)
                    .min();
                (t, free)
            })
            .collect(),
        rooms: rooms
            .items
            .into_iter()
            .map(|(r, _)| r)
            .filter(|r| !held.contains(&r.id))
            .collect(),
    })
}

/// Every room, by number, with its type's name (up to 1,000).
pub async fn rooms(svc: &Services, p: &Principal) -> AppResult<Vec<(crate::model::Room, String)>> {
    let all = crate::service::PageRequest::first(1000);
    let types = crate::service::room_types::list(svc, p, all.clone()).await?;
    let rooms = crate::service::rooms::list(svc, p, Default::default(), all).await?;
    Ok(rooms
        .items
        .into_iter()
        .map(|(r, _)| {
            let name = types
                .items
                .iter()
                .find(|(t, _)| t.id == r.room_type_id)
                .map(|(t, _)| t.name.clone())
                .unwrap_or_default();
            (r, name)
        })
        .collect())
}

/// A room on the housekeeping screen: the room, its type's name, and, when a booking
/// arriving today has it, what to prepare for that booking.
pub type HousekeepingRoom = (
    crate::model::Room,
    String,
    Option<store::reservations::Arrival>,
);

/// The housekeeping screen's rooms: [`rooms`], the rooms of today's arrivals not yet in
/// first (those are the ones to have ready), then by number.
pub async fn housekeeping_rooms(svc: &Services, p: &Principal) -> AppResult<Vec<HousekeepingRoom>> {
    let clock = svc.db().clock().clone();
    let arriving = svc
        .db()
        .read(move |c| {
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            store::reservations::arrival_rooms(c, today)
        })
        .await?;
    let mut out: Vec<_> = rooms(svc, p)
        .await?
        .into_iter()
        .map(|(r, name)| {
            let arrives = arriving.get(&r.id).cloned();
            (r, name, arrives)
        })
        .collect();
    out.sort_by_key(|(.., arrives)| arrives.is_none());
    Ok(out)
}

/// The administration's rooms screen: every room type, and every room with its type's name.
#[derive(Debug, Default)]
pub struct RoomSetup {
    /// Room types, by code.
    pub types: Vec<crate::model::RoomType>,
    /// Rooms, by number, with their type's name.
    pub rooms: Vec<(crate::model::Room, String)>,
}

/// The rooms screen's data (the first 1,000 of each).
pub async fn room_setup(svc: &Services, p: &Principal) -> AppResult<RoomSetup> {
    let all = crate::service::PageRequest::first(1000);
    let types = crate::service::room_types::list(svc, p, all).await?;
    Ok(RoomSetup {
        types: types.items.into_iter().map(|(t, _)| t).collect(),
        rooms: rooms(svc, p).await?,
    })
}
