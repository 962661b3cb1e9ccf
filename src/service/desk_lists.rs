//! The desk's lists and searches: a page of reservations through the API's own list use case,
//! with the names a person reads them by (the primary guest, the room, the room type), read
//! in one go; the invoices screen's page; and the search box's guests and booking.

use std::collections::HashMap;

use chrono::NaiveDate;

use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::{Principal, Reservation};
use crate::service::{Page, PageRequest, Services, reservations};
use crate::store;
use crate::store::reservations::ReservationFilter;

/// Ids (of guests, rooms and room types) and the words that name them.
pub type Names = HashMap<String, String>;

/// What the list is asked for.
#[derive(Debug, Clone)]
pub struct BookingAsk {
    /// Stays with a night from this day...
    pub from: chrono::NaiveDate,
    /// ...to this day.
    pub to: chrono::NaiveDate,
    /// Of this status.
    pub status: Option<crate::domain::reservation::Status>,
    /// Booked through this.
    pub source: Option<crate::domain::enums::Source>,
    /// Of this room type.
    pub room_type_id: Option<String>,
}

/// A page of the reservations `ask` names, and the names of their primary guests, rooms
/// and room types.
pub async fn reservations(
    svc: &Services,
    p: &Principal,
    ask: BookingAsk,
    req: PageRequest,
) -> AppResult<(Page<Reservation>, Names)> {
    let filter = ReservationFilter {
        from: Some(crate::model::Date(ask.from)),
        to: Some(crate::model::Date(ask.to)),
        status: ask.status.into_iter().collect(),
        source: ask.source.into_iter().collect(),
        room_type_id: ask.room_type_id,
        ..Default::default()
    };
    let found = reservations::list(svc, p, filter, req).await?;
    let mut ids: Vec<String> = Vec::new();
    for (r, _) in &found.items {
        ids.push(r.primary_guest_id.clone());
        ids.push(r.room_type_id.clone());
        ids.extend(r.room_id.clone());
    }
    ids.sort();
    ids.dedup();
    let names = svc
        .db()
        .read(move |c| {
            let mut names = Names::new();
            for id in ids {
                let name = if id.starts_with("gst_") {
                    store::guests::get(c, &id)?.map(|g| format!("{} {}", g.first_name, g.last_name))
                } else if id.starts_with("rm_") {
                    store::rooms::get(c, &id)?.map(|m| m.number)
                } else {
                    store::room_types::get(c, &id)?.map(|t| t.name)
                };
                if let Some(name) = name {
                    names.insert(id, name);
                }
            }
            Ok(names)
        })
        .await?;
    Ok((found, names))
}

/// Guests whose name matches `query` (all guests, by name, for an empty one): the first 50.
pub async fn find_guests(
    svc: &Services,
    p: &Principal,
    query: &str,
) -> AppResult<Vec<crate::model::Guest>> {
    let q = query.trim();
    // An e-mail address is looked up as one (exactly, any case), a phone number as one
    // (however written); anything else by name.
    let phone_like = q.chars().filter(char::is_ascii_digit).count() >= 6
        && q.chars()
            .all(|c| c.is_ascii_digit() || " +-/().".contains(c));
    let filter = if q.contains('@') {
        store::guests::GuestFilter {
            email: Some(q.to_string()),
            ..Default::default()
        }
    } else if phone_like {
        store::guests::GuestFilter {
            phone: Some(q.to_string()),
            ..Default::default()
        }
    } else {
        store::guests::GuestFilter {
            name: (!q.is_empty()).then(|| q.to_string()),
            ..Default::default()
        }
    };
    let page = crate::service::guests::list(svc, p, filter, crate::service::PageRequest::first(50))
        .await?;
    Ok(page.items.into_iter().map(|(g, _)| g).collect())
}

/// The booking whose confirmation code is `query` (as typed: case and spaces aside), for a
/// search box that finds bookings too; `None` without one, or for a role that may not read
/// bookings.
pub async fn find_booking(
    svc: &Services,
    p: &Principal,
    query: &str,
) -> AppResult<Option<(crate::model::Reservation, crate::model::Guest)>> {
    let code: String = query
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if code.len() < 4 || code.len() > 16 || !p.scopes.contains(Scope::ReservationsRead) {
        return Ok(None);
    }
    svc.db()
        .read(move |c| {
            let Some(r) = store::reservations::by_code(c, &code)? else {
                return Ok(None);
            };
            Ok(store::guests::get(c, &r.primary_guest_id)?.map(|g| (r, g)))
        })
        .await
}

/// Which invoices the invoices screen lists.
#[derive(Debug, Clone)]
pub struct InvoiceAsk {
    /// Issued on or after.
    pub from: NaiveDate,
    /// Issued on or before.
    pub to: NaiveDate,
    /// Of this status only.
    pub status: Option<crate::domain::enums::InvoiceStatus>,
    /// For this guest only.
    pub guest_id: Option<String>,
}

/// One page of the invoices issued from `from` to `to` (inclusive), of `status` when given,
/// in number order, as the list shows them.
pub async fn invoices(
    svc: &Services,
    p: &Principal,
    ask: InvoiceAsk,
    req: crate::service::PageRequest,
) -> AppResult<crate::service::Page<store::invoices::Listed>> {
    p.require(crate::domain::scopes::Scope::InvoicesRead)?;
    let filter = store::invoices::InvoiceFilter {
        issued_from: Some(crate::model::Date(ask.from)),
        issued_to: Some(crate::model::Date(ask.to)),
        status: ask.status.into_iter().collect(),
        guest_id: ask.guest_id,
        ..Default::default()
    };
    crate::service::page(svc.db(), req, move |c, after, as_of, limit| {
        store::invoices::listed(c, &filter, after, as_of, limit)
    })
    .await
}
