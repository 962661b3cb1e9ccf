//! Deposits: what a reservation's rate plan asks before arrival, and the advances paid
//! against it, each with the advance document its country asks.

use poem_openapi::Object;

use crate::domain::enums::PaymentMethod;
use crate::input_object;
use crate::model::Date;
use crate::model::fields::{Int, Line};
use crate::model::money::BillTo;

/// One advance paid against a reservation: its advance invoice (or receipt) and what became
/// of it since.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize, serde::Deserialize)]
pub struct Advance {
    /// The advance invoice (`inv_…`).
    pub invoice_id: String,
    /// Its number, as printed.
    pub number: String,
    /// Received, minor units.
    pub amount: i64,
    /// VAT rate it was invoiced at, in basis points (the accommodation's).
    pub tax_rate: i64,
    /// How much of it a later bill of the stay has deducted so far.
    pub deducted: i64,
    /// How much of it was given back (a cancellation's credit note).
    pub refunded: i64,
}

impl Advance {
    /// What is neither deducted nor given back yet.
    pub fn open(&self) -> i64 {
        (self.amount - self.deducted - self.refunded).max(0)
    }
}

/// A reservation's deposit: what its plan asks (fixed at booking) and what was paid.
#[derive(Debug, Clone, Default, PartialEq, Eq, Object, serde::Serialize, serde::Deserialize)]
pub struct Deposit {
    /// What the rate plan asks, minor units, fixed at booking (0: it asks none).
    pub due: i64,
    /// The day it is due by (null: none asked).
    pub due_by: Option<Date>,
    /// Paid so far: the advances less what was given back (read-only).
    #[serde(default)]
    pub paid: i64,
    /// Still to pay: `due` less `paid`, never below zero (read-only).
    #[serde(default)]
    pub outstanding: i64,
    /// The advances received, in order.
    #[serde(default)]
    pub advances: Vec<Advance>,
}

impl Deposit {
    /// Works out `paid` and `outstanding` from the advances.
    pub fn tally(mut self) -> Self {
        self.paid = self.advances.iter().map(|a| a.amount - a.refunded).sum();
        self.outstanding = (self.due - self.paid).max(0);
        self
    }
}

input_object! {
    /// A deposit received for a reservation (`POST /v1/reservations/{id}/deposit`).
    pub struct DepositCreate {
        /// Amount received, minor units: at most the stay's price less the advances already
        /// paid.
        pub amount: Int<1, 1_000_000_000>,
        /// How it was paid.
        pub payment_method: PaymentMethod,
        /// Card slip or transfer reference.
        pub reference: Option<Line<100>>,
        /// Who the advance invoice is addressed to (defaults to the guest).
        pub bill_to: Option<BillTo>,
        /// In Italy with a telematic cash register: a receipt rather than an invoice
        /// (defaults as at check-out: a receipt for a private guest).
        pub receipt: Option<bool>,
    }
}
