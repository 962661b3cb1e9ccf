//! `string_enum!`: closed sets of snake_case values (statuses, sources, genders).
//!
//! The macro gives each enum its wire spelling, a parser and the list of choices. The
//! API, OpenAPI and SQLite glue for these enums lives with those layers.

/// Declares a closed string enum with `ALL`, `as_str`, `parse` and `choices`.
#[macro_export]
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $( $(#[$vmeta])* $variant ),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every wire spelling, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The wire and database spelling.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses the wire spelling.
            pub fn parse(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }

            /// "a, b or c", for error messages.
            pub fn choices() -> String {
                $crate::domain::rules::one_of(Self::NAMES)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "unknown {} {text:?}: must be one of {}",
                        stringify!($name),
                        $name::choices()
                    ))
                })
            }
        }
    };
}

string_enum! {
    /// A guest's gender as registration systems record it.
    pub enum Gender { Male = "male", Female = "female", Other = "other" }
}

string_enum! {
    /// Who an invoice is addressed to.
    pub enum BuyerKind { Person = "person", Business = "business" }
}

string_enum! {
    /// Kinds of identity document.
    pub enum DocumentType {
        Passport = "passport",
        IdCard = "id_card",
        DrivingLicense = "driving_license",
        Other = "other",
    }
}

string_enum! {
    /// A room's housekeeping state.
    pub enum HousekeepingStatus {
        Clean = "clean",
        Dirty = "dirty",
        Inspected = "inspected",
        OutOfOrder = "out_of_order",
    }
}

string_enum! {
    /// Where a reservation came from.
    pub enum Source {
        Direct = "direct",
        Phone = "phone",
        Email = "email",
        WalkIn = "walk_in",
        Ota = "ota",
        Other = "other",
    }
}

string_enum! {
    /// How a report's rows are cut: a row per night, or per calendar month.
    pub enum ReportBy { Night = "night", Month = "month" }
}

string_enum! {
    /// How a guest pays.
    pub enum PaymentMethod { Cash = "cash", Card = "card", BankTransfer = "bank_transfer", Other = "other" }
}

string_enum! {
    /// Money received (`payment`, on an invoice) or given back (`refund`, on a credit note).
    pub enum PaymentKind { Payment = "payment", Refund = "refund" }
}

string_enum! {
    /// What an invoice line bills: the stay's nights, a folio charge, the city tax, or an
    /// `advance` (a deposit: billed positive on its advance invoice, deducted negative on the
    /// stay's bill).
    pub enum LineKind {
        Accommodation = "accommodation",
        Charge = "charge",
        CityTax = "city_tax",
        Advance = "advance",
    }
}

string_enum! {
    /// Where an e-invoice stands: `queued` (built, waiting for the intermediary), `sent` (the
    /// intermediary took it), `delivered` (the buyer has it), `fiscalized` (the tax
    /// administration has it), `rejected` (refused, with the reason).
    pub enum EInvoiceStatus {
        Queued = "queued",
        Sent = "sent",
        Delivered = "delivered",
        Fiscalized = "fiscalized",
        Rejected = "rejected",
    }
}

string_enum! {
    /// An invoice or its reversal.
    pub enum InvoiceKind { Invoice = "invoice", CreditNote = "credit_note" }
}

string_enum! {
    /// Where an invoice is: `issued` → `paid` (payments reach the gross total); `issued` or
    /// `paid` → `cancelled` (a credit note reversed it). Issued invoices never change otherwise.
    pub enum InvoiceStatus { Issued = "issued", Paid = "paid", Cancelled = "cancelled" }
}

string_enum! {
    /// What a compliance submission carries to a national authority.
    pub enum SubmissionKind {
        /// Guests registered with the police (Italy: Alloggiati Web) or the tourist board
        /// (Croatia: eVisitor; also a guest's changed data sent again).
        GuestRegistration = "guest_registration",
        /// Guests who left, reported (Croatia: eVisitor's `CheckOutTourist`).
        GuestDeparture = "guest_departure",
        /// A registration withdrawn because the check-in was undone (Croatia: eVisitor's
        /// `CancelTouristCheckIn`).
        GuestWithdrawal = "guest_withdrawal",
        /// A fiscal receipt (Croatia: CIS).
        FiscalReceipt = "fiscal_receipt",
        /// A change of an issued receipt's payment method (Croatia: CIS's PromijeniNacPlac).
        FiscalPaymentChange = "fiscal_payment_change",
        /// An e-invoice sent through the intermediary (Croatia: eRačun), followed until it is
        /// fiscalized or rejected.
        EInvoice = "einvoice",
        /// A month's payments of e-invoices, reported by the 20th of the next (Croatia:
        /// eIzvještavanje, `EvidentirajNaplatu`).
        EInvoicePayments = "einvoice_payments",
    }
}

string_enum! {
    /// What a job of the durable queue does; each kind has one handler.
    pub enum JobKind {
        /// Delivers one event to one webhook endpoint.
        Webhook = "webhook",
        /// Sends a sealed fiscal receipt.
        Fiscal = "fiscal",
        /// Sends a guest registration.
        Registration = "registration",
        /// Takes the daily backup.
        Backup = "backup",
        /// Sends an e-invoice or a payment report through the intermediary.
        EInvoice = "einvoice",
        /// Sends one guest message through the mail relay.
        Mail = "mail",
    }
}

impl SubmissionKind {
    /// The queue job that sends submissions of this kind.
    pub const fn job(self) -> JobKind {
        match self {
            SubmissionKind::GuestRegistration
            | SubmissionKind::GuestDeparture
            | SubmissionKind::GuestWithdrawal => JobKind::Registration,
            SubmissionKind::FiscalReceipt | SubmissionKind::FiscalPaymentChange => JobKind::Fiscal,
            SubmissionKind::EInvoice | SubmissionKind::EInvoicePayments => JobKind::EInvoice,
        }
    }
}

string_enum! {
    /// Where a compliance submission stands.
    pub enum SubmissionStatus {
        /// Waiting for the queue.
        Queued = "queued",
        /// Being sent now.
        Sending = "sending",
        /// The authority accepted it.
        Accepted = "accepted",
        /// The authority refused it; fix the data and retry.
        Rejected = "rejected",
        /// The authority could not be reached; the queue tries again.
        Retrying = "retrying",
        /// Sent, but no answer came back.
        Unknown = "unknown",
        /// A person must check and retry it; it is never resent on its own.
        ManualRequired = "manual_required",
    }
}

string_enum! {
    /// Where an invoice's fiscal receipt stands.
    pub enum FiscalStatus {
        /// No fiscal scheme applies (or the payment method needs none).
        NotRequired = "not_required",
        /// Sealed and queued for the authority.
        Pending = "pending",
        /// The authority could not be reached; printed with its local proof, sent later.
        Offline = "offline",
        /// The authority confirmed it.
        Fiscalized = "fiscalized",
        /// The authority refused it; a person must act.
        Failed = "failed",
    }
}

string_enum! {
    /// Where one row of a guest registration stands with the authority.
    pub enum RowStatus {
        /// Not yet answered.
        Pending = "pending",
        /// The authority accepted the row.
        Accepted = "accepted",
        /// The authority refused the row; fix the guest and retry.
        Rejected = "rejected",
    }
}

string_enum! {
    /// What became of one webhook delivery attempt.
    pub enum DeliveryOutcome {
        /// The receiver answered 2xx in time.
        Succeeded = "succeeded",
        /// It failed; another attempt is scheduled.
        Retrying = "retrying",
        /// It failed and no attempt is left (or the endpoint was disabled).
        Failed = "failed",
    }
}

string_enum! {
    /// Where a job of the durable queue stands.
    pub enum JobStatus {
        /// Waiting until it is due.
        Pending = "pending",
        /// A worker holds it.
        Running = "running",
        /// Finished.
        Done = "done",
        /// Gave up; `innkeep jobs retry` puts it back.
        Failed = "failed",
    }
}

string_enum! {
    /// Where a kiosk's device code stands (RFC 8628).
    pub enum DeviceCodeStatus {
        /// Shown on the kiosk, waiting for staff.
        Pending = "pending",
        /// Staff approved it; the kiosk may exchange it once.
        Approved = "approved",
        /// Staff denied it.
        Denied = "denied",
        /// Exchanged for tokens.
        Used = "used",
    }
}

string_enum! {
    /// Who causes a change (API.md section 8).
    pub enum ActorKind {
        /// An integration acting with its own client credentials.
        Client = "client",
        /// A staff member signed in (front desk, kiosk approval, a browser app).
        Staff = "staff",
        /// innkeep itself: the queue recording an authority's answer, maintenance.
        System = "system",
    }
}

string_enum! {
    /// Who takes a channel booking's money: the booking site, or the hotel at the desk.
    pub enum ChannelPayment { Ota = "ota", Hotel = "hotel" }
}

string_enum! {
    /// A language innkeep speaks to a guest in (its catalogues): what it sends them is in it.
    pub enum Language { En = "en", It = "it", Hr = "hr" }
}
