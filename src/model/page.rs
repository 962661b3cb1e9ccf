//! List envelopes: `{"data": [...], "next_cursor": "..." | null}`.

use poem_openapi::Object;

use super::{Charge, Delivery, Guest, Invoice, Reservation, Room, RoomType, Submission, Webhook};

macro_rules! page {
    ($name:ident, $item:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Object, serde::Serialize)]
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
page!(WebhookPage, Webhook, "A page of webhook endpoints.");
page!(DeliveryPage, Delivery, "A page of the delivery log.");
page!(
    SubmissionPage,
    Submission,
    "A page of compliance submissions."
);
