//! The desk's reservations list: a page of reservations through the API's own list use case,
//! with the names a person reads them by (the primary guest, the room, the room type), read
//! in one go.

use std::collections::HashMap;

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
