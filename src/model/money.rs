//! Folio charges, invoices, credit notes and payments.

use crate::domain::enums::FiscalStatus;
use crate::model::EInvoice;
use poem_openapi::Object;

use crate::domain::enums::{
    BuyerKind, InvoiceKind, InvoiceStatus, LineKind, PaymentKind, PaymentMethod,
};
use crate::input_object;
use crate::model::fields::{
    Currency, Email, GuestId, Int, InvoiceId, Kpd, Line, ReservationId, RoomId, SdiCode,
};
use crate::model::{Address, Date, Instant, Reservation};

input_object! {
    /// A charge: one line of goods or services at a gross unit price.
    pub struct ChargeInput {
        /// What it is, as printed on the invoice.
        pub description: Line<200>,
        /// How many, at least 1.
        pub quantity: Int<1, 10_000>,
        /// Gross price per unit in minor units; negative for an allowance.
        pub unit_price: Int<-100_000_000, 100_000_000>,
        /// Tax rate in basis points (1300 = 13 %); defaults to the property's default.
        pub tax_rate: Option<Int<0, 10_000>>,
        /// The day it was delivered; defaults to today.
        pub service_date: Option<Date>,
        /// Its KPD 2025 code on a Croatian e-invoice (`NN.NN.NN`, such as `56.30.00` for
        /// drinks served); absent takes the property's default.
        pub kpd_code: Option<Kpd>,
    }
}

/// A charge on a reservation's folio.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Charge {
    /// `chg_…`
    pub id: String,
    /// Its reservation.
    pub reservation_id: String,
    /// What it is.
    pub description: String,
    /// How many.
    pub quantity: i64,
    /// Gross price per unit (minor units).
    pub unit_price: i64,
    /// Tax rate in basis points.
    pub tax_rate: i64,
    /// quantity × unit_price.
    pub gross_amount: i64,
    /// The reservation's currency.
    pub currency: String,
    /// The day it was delivered.
    pub service_date: Date,
    /// The invoice that billed it, once billed.
    pub invoice_id: Option<String>,
    /// Its KPD 2025 code on a Croatian e-invoice, when it names one.
    pub kpd_code: Option<String>,
    /// When it was added.
    pub created_at: Instant,
}

input_object! {
    stored
    /// Who the invoice is addressed to: a person or a business, with the particulars the
    /// law asks of each (VAT Directive art. 226).
    pub struct BillTo {
        /// `person` or `business`; when absent, `business` if a VAT number is given, else
        /// `person`.
        pub kind: Option<BuyerKind>,
        /// Name of the person or company.
        pub name: Line<200>,
        /// Postal address.
        pub address: Option<Address>,
        /// VAT identification number: a business in Croatia gives its OIB, in Italy its
        /// partita IVA (each checked by its check digit; the country prefix allowed).
        pub vat_id: Option<Line<40>>,
        /// Tax code (Italy: codice fiscale), where the buyer has one.
        pub tax_code: Option<Line<40>>,
        /// The VAT number by its older name: read as `vat_id` when that is absent, and
        /// always answered equal to it.
        pub tax_id: Option<Line<40>>,
        /// Italy: the business's SdI recipient code (`CodiceDestinatario`, 7 letters and
        /// digits); absent with `pec` absent means `0000000` (the tax agency's reserved area).
        pub sdi_code: Option<SdiCode>,
        /// Italy: the certified e-mail (PEC) the business receives invoices at, when it gave
        /// no recipient code.
        pub pec: Option<Email>,
    }
}

/// One line of an invoice.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct InvoiceLine {
    /// 1, 2, 3, ...
    pub position: i64,
    /// What it is.
    pub description: String,
    /// How many (nights, persons × nights, items).
    pub quantity: i64,
    /// Gross price per unit.
    pub unit_price: i64,
    /// Tax rate in basis points.
    pub tax_rate: i64,
    /// Gross divided by (1 + rate), rounded half away from zero.
    pub net_amount: i64,
    /// Gross minus net.
    pub tax_amount: i64,
    /// quantity × unit_price.
    pub gross_amount: i64,
    /// The day it was delivered.
    pub service_date: Option<Date>,
    /// What it bills: `accommodation` (the stay's nights), `charge` (a folio charge or a
    /// sale's line) or `city_tax`.
    pub kind: LineKind,
    /// The KPD 2025 code its e-invoice classified it with (Croatia), when it has one.
    pub kpd_code: Option<String>,
}

/// Sums of the lines.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Totals {
    /// Sum of net amounts.
    pub net: i64,
    /// Sum of tax amounts.
    pub tax: i64,
    /// Sum of gross amounts.
    pub gross: i64,
}

/// Net and tax at one rate.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct TaxLine {
    /// Tax rate in basis points.
    pub tax_rate: i64,
    /// Net of the lines at this rate.
    pub net: i64,
    /// Tax of the lines at this rate.
    pub tax: i64,
}

/// Net and tax per rate of some lines, lowest rate first.
pub fn tax_breakdown(lines: &[InvoiceLine]) -> Vec<TaxLine> {
    let per_rate: Vec<(i64, crate::domain::money::Amounts)> = lines
        .iter()
        .map(|l| {
            let a = crate::domain::money::Amounts {
                net: l.net_amount,
                tax: l.tax_amount,
                gross: l.gross_amount,
            };
            (l.tax_rate, a)
        })
        .collect();
    crate::domain::money::breakdown(&per_rate)
        .into_iter()
        .map(|(tax_rate, a)| TaxLine {
            tax_rate,
            net: a.net,
            tax: a.tax,
        })
        .collect()
}

/// The invoice's standing with the national fiscal system.
///
/// `status`: `not_required` (no scheme, or a sale the scheme does not cover, such as a bank
/// transfer under `hr-cis` before 2026, or a credit note of an invoice that was not
/// required), `pending` (sealed and queued), `offline` (the authority could
/// not be reached; the queue keeps delivering it late), `fiscalized` (the authority's
/// reference is in `authority_reference`) or `failed` (refused; `last_error` says why).
/// The sealed fields (`scheme`, `local_proof`, `receipt_number`, `deliver_by`) never change
/// once set, and `authority_reference` is written once.
#[derive(Debug, Clone, Object, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fiscal {
    /// `none`, or a national scheme such as `hr-cis`.
    pub scheme: String,
    /// `not_required`, `pending`, `offline`, `fiscalized` or `failed`.
    pub status: FiscalStatus,
    /// Proof computed locally at issue: for `hr-cis` the protective code (ZKI), printed on
    /// the receipt.
    pub local_proof: Option<String>,
    /// The authority's reference once it has one: for `hr-cis` the JIR.
    pub authority_reference: Option<String>,
    /// The QR link to print: for `hr-cis` the tax administration's check link, carrying the
    /// JIR once known and the ZKI until then.
    pub qr_payload: Option<String>,
    /// When the authority answered with its reference.
    pub sent_at: Option<Instant>,
    /// The last delivery problem.
    pub last_error: Option<String>,
    /// The fiscal receipt number, as printed: for `hr-cis` `number/premises/device`.
    pub receipt_number: Option<String>,
    /// The latest time the receipt may reach the authority (for `hr-cis`, two days after
    /// issue).
    pub deliver_by: Option<Instant>,
    /// The e-invoice, when the invoice is one (Croatia, `hr-eracun`; Italy, `it-sdi`, where
    /// every invoice is one): its status at the
    /// intermediary and the SHA-256 of the document as issued (served at
    /// `GET /invoices/{id}/einvoice.xml`). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub einvoice: Option<EInvoice>,
}

impl Fiscal {
    /// serde for the API's answers: as stored, but with `"einvoice": null` where the stored
    /// form leaves an absent e-invoice out (its names are pinned; the API's `null` is too).
    pub fn serialize_shown<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            #[serde(flatten)]
            stored: &'a Fiscal,
            /// `Some(())`, written `null`, when the stored form skips the e-invoice.
            #[serde(skip_serializing_if = "Option::is_none")]
            einvoice: Option<()>,
        }
        serde::Serialize::serialize(
            &Shown {
                stored: self,
                einvoice: self.einvoice.is_none().then_some(()),
            },
            s,
        )
    }

    /// A record of `scheme` in `status`, with nothing sealed or sent yet.
    pub fn new(scheme: &str, status: FiscalStatus) -> Fiscal {
        Fiscal {
            scheme: scheme.into(),
            status,
            local_proof: None,
            authority_reference: None,
            qr_payload: None,
            sent_at: None,
            last_error: None,
            receipt_number: None,
            deliver_by: None,
            einvoice: None,
        }
    }
}

/// An invoice or credit note. Once issued it never changes, except its status, payments and
/// fiscal record.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Invoice {
    /// `inv_…`
    pub id: String,
    /// Gapless within its series, such as `2026-000042`.
    pub number: String,
    /// The series, such as `2026`.
    pub series: String,
    /// `invoice` or `credit_note`.
    pub kind: InvoiceKind,
    /// `issued`, `paid` or `cancelled`.
    pub status: InvoiceStatus,
    /// The stay it bills.
    pub reservation_id: Option<String>,
    /// The guest it is for.
    pub guest_id: Option<String>,
    /// Who it is addressed to.
    pub bill_to: BillTo,
    /// Who issues it: the seller's particulars as they stood at issue (null where none were
    /// set then); they never change afterwards.
    pub seller: Option<super::Seller>,
    /// Property-local issue date.
    pub issue_date: Date,
    /// When it was issued, to the second (the time of issue the law asks printed).
    pub issued_at: Instant,
    /// The mark of the staff member who issued it, as printed (null when an integration
    /// issued it, or the staff member has no mark).
    pub operator_mark: Option<String>,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// How it is (to be) paid.
    pub payment_method: Option<PaymentMethod>,
    /// The lines, in order.
    pub lines: Vec<InvoiceLine>,
    /// Sums of the lines.
    pub totals: Totals,
    /// Net and tax per rate.
    pub tax_breakdown: Vec<TaxLine>,
    /// For a credit note: the invoice it reverses.
    pub corrects_invoice_id: Option<String>,
    /// For a corrected invoice: the reversed invoice it replaces (see `POST /invoices`).
    pub reissues_invoice_id: Option<String>,
    /// For a credit note: why.
    pub reason: Option<String>,
    /// Payments received so far.
    pub paid_amount: i64,
    /// Fiscalization.
    #[serde(serialize_with = "Fiscal::serialize_shown")]
    pub fiscal: Fiscal,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was issued.
    pub created_at: Instant,
    /// When its status, payments or fiscal record last changed.
    pub updated_at: Instant,
}

input_object! {
    /// One of three things, told apart by their fields:
    /// `{reservation_id, payment_method}` bills the reservation's uninvoiced folio charges (an
    /// interim bill); `{guest_id, bill_to, payment_method, lines}` is a sale outside a stay;
    /// `{corrects_invoice_id, reason}` issues a credit note reversing an invoice in full;
    /// `{reissues_invoice_id, bill_to, payment_method}` (an innkeep extension) issues a
    /// corrected invoice replacing one a credit note reversed: the same lines under a new
    /// number, to the corrected buyer (when left out: the guest's particulars as they are
    /// now for an invoice to a guest, else the original buyer; and the original's means of
    /// payment). It is how an invoice the national system refused is put right, such as a
    /// FatturaPA that SdI discarded; each reversed invoice is replaced at most once,
    /// and only once reversed (409 `invalid_state_transition` otherwise).
    pub struct InvoiceCreate {
        /// Interim bill: the reservation.
        pub reservation_id: Option<ReservationId>,
        /// Interim bill or sale: how it is paid. An interim bill may leave it out when it
        /// sends `payments` (it is then the method of the largest one).
        pub payment_method: Option<PaymentMethod>,
        /// Interim bill: the payments taken at the desk with it, as at check-out (split
        /// between methods, one may leave its amount out to take the balance); the bill is
        /// `paid` when they reach its total.
        pub payments: Option<Vec<CheckOutPayment>>,
        /// Interim bill, in Italy with a telematic cash register (`it-rt`): settle it with a
        /// receipt (*documento commerciale*) printed by the register, as at check-out.
        /// Defaults to a receipt for a private guest and an invoice for a business; `422`
        /// where no cash register is configured.
        pub receipt: Option<bool>,
        /// Sale: the guest.
        pub guest_id: Option<GuestId>,
        /// Interim bill or sale: who it is addressed to (defaults to the guest).
        pub bill_to: Option<BillTo>,
        /// Sale: the lines.
        pub lines: Option<Vec<ChargeInput>>,
        /// Sale: the currency (defaults to the property's).
        pub currency: Option<Currency>,
        /// Credit note: the invoice to reverse.
        pub corrects_invoice_id: Option<InvoiceId>,
        /// Credit note: why.
        pub reason: Option<Line<500>>,
        /// Corrected invoice: the reversed invoice it replaces.
        pub reissues_invoice_id: Option<InvoiceId>,
    }
}

input_object! {
    /// A payment taken at check-out.
    pub struct CheckOutPayment {
        /// Amount in minor units. Left out, it is the balance: the invoice's total less the
        /// other payments (one payment at most may leave it out).
        pub amount: Option<Int<1, 1_000_000_000>>,
        /// How it was paid.
        pub method: PaymentMethod,
        /// Card slip or transfer reference.
        pub reference: Option<Line<100>>,
    }
}

input_object! {
    /// A payment received; on a credit note, a refund (money given back).
    pub struct PaymentInput {
        /// Amount in minor units: at most what is still owed; on a credit note, at most what
        /// was paid on the invoice it reverses and not yet given back.
        pub amount: Int<1, 1_000_000_000>,
        /// How it was paid.
        pub method: PaymentMethod,
        /// Card slip or transfer reference.
        pub reference: Option<Line<100>>,
    }
}

input_object! {
    /// The payment method an issued invoice was really paid by.
    pub struct PaymentMethodChange {
        /// `cash`, `card`, `bank_transfer` or `other`.
        pub payment_method: PaymentMethod,
    }
}

/// A payment against an invoice.
#[derive(Debug, Clone, Object)]
pub struct Payment {
    /// `pay_…`
    pub id: String,
    /// The invoice.
    pub invoice_id: String,
    /// Amount in minor units, above zero: received, or for a refund given back.
    pub amount: i64,
    /// `payment` (money received, on an invoice) or `refund` (money given back, on a credit
    /// note).
    pub kind: PaymentKind,
    /// How it was paid (or given back).
    pub method: PaymentMethod,
    /// Card slip or transfer reference.
    pub reference: Option<String>,
    /// When it was received (or given back).
    pub paid_at: Instant,
}

/// A recorded payment and the invoice after it.
#[derive(Debug, Clone, Object)]
pub struct PaymentReceipt {
    /// The payment.
    pub payment: Payment,
    /// The invoice, `paid` once payments reach its gross total.
    pub invoice: Invoice,
}

input_object! {
    /// Check a confirmed reservation in.
    pub struct CheckIn {
        /// The reservation.
        pub reservation_id: ReservationId,
        /// The room, unless one is already assigned; it must be of the booked type, free and
        /// not out of order.
        pub room_id: Option<RoomId>,
    }
}

input_object! {
    /// Check a guest out: bill the stay and free the room.
    pub struct CheckOut {
        /// The reservation.
        pub reservation_id: ReservationId,
        /// How the invoice is paid. Alone, the invoice is issued and its payments are
        /// recorded later (`POST /invoices/{id}/payments`), as before `payments` existed.
        /// With `payments` it may be left out (it is then the method of the largest one).
        pub payment_method: Option<PaymentMethod>,
        /// The payments taken at the desk in the same action, split between methods if need
        /// be; together at most the invoice's total. The invoice is `paid` when they reach it.
        pub payments: Option<Vec<CheckOutPayment>>,
        /// The guest (or their company) pays later, by bank transfer or otherwise: nothing is
        /// taken now. Not together with `payments`.
        pub pay_later: Option<bool>,
        /// Last charges to add to the folio first.
        pub charges: Option<Vec<ChargeInput>>,
        /// Who the invoice is addressed to (defaults to the primary guest).
        pub bill_to: Option<BillTo>,
        /// Italy, with a telematic cash register (`it-rt`): settle the stay with a receipt
        /// (*documento commerciale*) printed by the register instead of an invoice. Defaults
        /// to a receipt for a private guest and an invoice for a business; `422` where no
        /// cash register is configured.
        pub receipt: Option<bool>,
    }
}

/// The checked-out reservation and its invoice.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct CheckOutResult {
    /// The reservation, now `checked_out`.
    pub reservation: Reservation,
    /// The final invoice.
    pub invoice: Invoice,
}
