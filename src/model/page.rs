//! List envelopes: `{"data": [...], "next_cursor": "..." | null}`.

use poem_openapi::Object;

use super::{Charge, Guest, Invoice, Reservation, Room, RoomType};

macro_rules! page {
    ($name:ident, $item:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Object)]
        pub struct $name {
            /// The records of this page, in the list's documented order.
            pub data: Vec<$item>,
            /// Pass as `cursor` for the next page; null at the end.
            pub next_cursor: Option<String>,
        }
    };
}

page!(RoomTypePage, RoomType, "A page of room types.");
page!(RoomPage, Room, "A page of rooms.");
page!(GuestPage, Guest, "A page of guests.");
page!(ReservationPage, Reservation, "A page of reservations.");
page!(ChargePage, Charge, "A page of folio charges.");
page!(InvoicePage, Invoice, "A page of invoices.");
