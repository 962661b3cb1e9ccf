//! The e-invoice document: a UBL 2.1 `Invoice` or `CreditNote` under EN 16931 with the
//! Croatian CIUS and its extension (CIUS-HR, specification v1.8), written from an issued
//! invoice by a pure function.
//!
//! How innkeep's invoice maps (docs/research/hr-eracun.md has the sources):
//! - the nights and folio charges are lines (`InvoiceLine` / `CreditNoteLine`), each with its
//!   KPD 2025 code (`ItemClassificationCode listID="CG"`, HR-BR-25) and its VAT category
//!   named as CIUS-HR names it (`HR:PDV25`, `HR:PDV13`, `HR:PDV5`; a 0 % line is `HR:Z`);
//! - the city tax (*turistička pristojba*, outside VAT) is a document-level charge of
//!   category `E` named `HR:N`, with the extension's `HRFISK20Data` reporting it as out of
//!   scope, exactly as the tax administration's example invoice does; so it needs no KPD;
//! - amounts are net (our lines are priced gross; the net and tax stored at issue are used
//!   as they are), and a credit note states them positive, as UBL's `CreditNote` does;
//! - the stay is the invoice period; a credit note refers to its invoice's number and date
//!   (HR-BR-6); the operator who issued is the seller contact (HR-BR-9, HR-BR-37).

use std::collections::BTreeMap;

use chrono::{NaiveDate, NaiveDateTime};

use super::parts::{extensions, line, party, payment_reference, vat_scheme};
use super::xml::{Xml, percent};
use crate::domain::enums::{InvoiceKind, LineKind};
use crate::model::{Invoice, InvoiceLine};

/// The specification identifier CIUS-HR requires (HR-BR-5).
pub const CUSTOMIZATION: &str = "urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0";
/// The business process of an invoice: P1, invoicing supplies under an order or contract,
/// as the tax administration's own examples use. **Unverified** which of P1 (order under a
/// contract) or P3 (standalone order) a hotel stay is; change it here.
pub const PROCESS_INVOICE: &str = "P1";
/// The business process of a credit note: P10, a corrective document, as the tax
/// administration's credit-note example uses.
pub const PROCESS_CREDIT: &str = "P10";

const NS: [(&str, &str); 5] = [
    (
        "xmlns:cac",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    ),
    (
        "xmlns:cbc",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    ),
    (
        "xmlns:ext",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
    ),
    (
        "xmlns:hrextac",
        "urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1",
    ),
    (
        "xmlns:sac",
        "urn:oasis:names:specification:ubl:schema:xsd:SignatureAggregateComponents-2",
    ),
];
const SIG_NS: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonSignatureComponents-2";

/// A party as the document names it.
#[derive(Debug, Clone)]
pub struct Party {
    /// The registered name.
    pub name: String,
    /// The OIB (11 digits, without `HR`).
    pub oib: String,
    /// Street and number.
    pub street: Option<String>,
    /// Town.
    pub city: Option<String>,
    /// Postal code.
    pub postal_code: Option<String>,
    /// ISO 3166-1 alpha-2 country.
    pub country: String,
}

/// Everything the document holds besides the invoice itself.
#[derive(Debug, Clone)]
pub struct Document<'a> {
    /// The issued invoice or credit note.
    pub invoice: &'a Invoice,
    /// The seller.
    pub seller: Party,
    /// The buyer.
    pub buyer: Party,
    /// The operator who issued it: name and OIB.
    pub operator: (String, String),
    /// When it was issued, in the property's time.
    pub issued: NaiveDateTime,
    /// When payment is due (needed while something is payable, HR-BR-4).
    pub due: NaiveDate,
    /// The stay: arrival and departure.
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// For a credit note: the invoice's number and issue date.
    pub corrects: Option<(String, NaiveDate)>,
    /// The account to pay into.
    pub iban: String,
    /// The KPD code of each line, in line order.
    pub kpd: Vec<String>,
    /// What was paid with the issue itself (minor units), stated as prepaid.
    pub prepaid: i64,
}

/// Whether a line is the city tax outside VAT (a document-level charge), not an item.
pub fn is_levy(l: &InvoiceLine) -> bool {
    l.kind == LineKind::CityTax && l.tax_rate == 0
}

/// The CIUS-HR name of a VAT rate (`HR-TB-2`), where it has one.
pub(super) fn category_name(rate: i64) -> Option<&'static str> {
    match rate {
        2500 => Some("HR:PDV25"),
        1300 => Some("HR:PDV13"),
        500 => Some("HR:PDV5"),
        0 => Some("HR:Z"),
        _ => None,
    }
}

pub(super) fn category_id(rate: i64) -> &'static str {
    if rate == 0 { "Z" } else { "S" }
}

pub(super) const LEVY_NAME: &str = "HR:N";
pub(super) const LEVY_REASON: &str = "Turistička pristojba";

/// The sums the document states, in its own sign (a credit note's are positive).
pub(super) struct Sums {
    pub(super) lines: i64,
    pub(super) levies: i64,
    pub(super) tax: i64,
    pub(super) per_rate: BTreeMap<i64, (i64, i64)>,
}

fn sums(inv: &Invoice, sign: i64) -> Sums {
    let mut s = Sums {
        lines: 0,
        levies: 0,
        tax: 0,
        per_rate: BTreeMap::new(),
    };
    for l in &inv.lines {
        if is_levy(l) {
            s.levies += sign * l.gross_amount;
            continue;
        }
        s.lines += sign * l.net_amount;
        s.tax += sign * l.tax_amount;
        let e = s.per_rate.entry(l.tax_rate).or_default();
        e.0 += sign * l.net_amount;
        e.1 += sign * l.tax_amount;
    }
    s
}

/// Writes the document.
pub fn write(d: &Document<'_>) -> String {
    let inv = d.invoice;
    let credit = inv.kind == InvoiceKind::CreditNote;
    let sign = if credit { -1 } else { 1 };
    let root = if credit { "CreditNote" } else { "Invoice" };
    let cur = inv.currency.as_str();
    let s = sums(inv, sign);
    let mut x = Xml::new();
    let root_ns = format!("urn:oasis:names:specification:ubl:schema:xsd:{root}-2");
    let mut attrs: Vec<(&str, &str)> = vec![("xmlns", &root_ns)];
    attrs.extend(NS);
    attrs.push(("xmlns:sig", SIG_NS));
    x.open(root, &attrs);
    extensions(&mut x, &s, cur);
    x.leaf("cbc:CustomizationID", CUSTOMIZATION);
    x.leaf(
        "cbc:ProfileID",
        if credit {
            PROCESS_CREDIT
        } else {
            PROCESS_INVOICE
        },
    );
    x.leaf("cbc:ID", &inv.number);
    x.leaf("cbc:IssueDate", &d.issued.date().to_string());
    x.leaf("cbc:IssueTime", &d.issued.format("%H:%M:%S").to_string());
    let total = s.lines + s.levies + s.tax;
    let prepaid = if credit {
        0
    } else {
        d.prepaid.clamp(0, total.max(0))
    };
    let payable = total - prepaid;
    if !credit && payable > 0 {
        x.leaf("cbc:DueDate", &d.due.to_string());
    }
    if credit {
        x.leaf("cbc:CreditNoteTypeCode", "381");
    } else {
        x.leaf("cbc:InvoiceTypeCode", "380");
    }
    if let Some(reason) = &inv.reason {
        x.leaf("cbc:Note", reason);
    }
    x.leaf("cbc:DocumentCurrencyCode", cur);
    if let Some((from, to)) = d.period {
        x.open("cac:InvoicePeriod", &[]);
        x.leaf("cbc:StartDate", &from.to_string());
        x.leaf("cbc:EndDate", &to.to_string());
        x.close("cac:InvoicePeriod");
    }
    if let Some((number, date)) = &d.corrects {
        x.open("cac:BillingReference", &[]);
        x.open("cac:InvoiceDocumentReference", &[]);
        x.leaf("cbc:ID", number);
        x.leaf("cbc:IssueDate", &date.to_string());
        x.close("cac:InvoiceDocumentReference");
        x.close("cac:BillingReference");
    }
    x.open("cac:AccountingSupplierParty", &[]);
    party(&mut x, &d.seller);
    x.open("cac:SellerContact", &[]);
    x.leaf("cbc:ID", &d.operator.1);
    x.leaf("cbc:Name", &d.operator.0);
    x.close("cac:SellerContact");
    x.close("cac:AccountingSupplierParty");
    x.open("cac:AccountingCustomerParty", &[]);
    party(&mut x, &d.buyer);
    x.close("cac:AccountingCustomerParty");
    x.open("cac:PaymentMeans", &[]);
    x.leaf("cbc:PaymentMeansCode", "30");
    if credit && payable > 0 {
        x.leaf("cbc:PaymentDueDate", &d.due.to_string());
    }
    x.leaf("cbc:PaymentID", &payment_reference(&inv.number));
    x.open("cac:PayeeFinancialAccount", &[]);
    x.leaf("cbc:ID", &crate::domain::iban::compact(&d.iban));
    x.close("cac:PayeeFinancialAccount");
    x.close("cac:PaymentMeans");
    if s.levies != 0 {
        x.open("cac:AllowanceCharge", &[]);
        x.leaf("cbc:ChargeIndicator", "true");
        x.leaf(
            "cbc:AllowanceChargeReason",
            &format!("#{LEVY_NAME}#{LEVY_REASON}"),
        );
        x.amount("cbc:Amount", cur, s.levies);
        x.open("cac:TaxCategory", &[]);
        x.leaf("cbc:ID", "E");
        x.leaf("cbc:Name", LEVY_NAME);
        x.leaf("cbc:Percent", "0.00");
        x.leaf("cbc:TaxExemptionReason", LEVY_REASON);
        vat_scheme(&mut x, "cac:TaxScheme");
        x.close("cac:TaxCategory");
        x.close("cac:AllowanceCharge");
    }
    x.open("cac:TaxTotal", &[]);
    x.amount("cbc:TaxAmount", cur, s.tax);
    for (rate, (net, tax)) in &s.per_rate {
        x.open("cac:TaxSubtotal", &[]);
        x.amount("cbc:TaxableAmount", cur, *net);
        x.amount("cbc:TaxAmount", cur, *tax);
        x.open("cac:TaxCategory", &[]);
        x.leaf("cbc:ID", category_id(*rate));
        x.leaf("cbc:Percent", &percent(*rate));
        vat_scheme(&mut x, "cac:TaxScheme");
        x.close("cac:TaxCategory");
        x.close("cac:TaxSubtotal");
    }
    if s.levies != 0 {
        x.open("cac:TaxSubtotal", &[]);
        x.amount("cbc:TaxableAmount", cur, s.levies);
        x.amount("cbc:TaxAmount", cur, 0);
        x.open("cac:TaxCategory", &[]);
        x.leaf("cbc:ID", "E");
        x.leaf("cbc:Percent", "0.00");
        x.leaf(
            "cbc:TaxExemptionReason",
            &format!("#{LEVY_NAME}#{LEVY_REASON}"),
        );
        vat_scheme(&mut x, "cac:TaxScheme");
        x.close("cac:TaxCategory");
        x.close("cac:TaxSubtotal");
    }
    x.close("cac:TaxTotal");
    x.open("cac:LegalMonetaryTotal", &[]);
    x.amount("cbc:LineExtensionAmount", cur, s.lines);
    x.amount("cbc:TaxExclusiveAmount", cur, s.lines + s.levies);
    x.amount("cbc:TaxInclusiveAmount", cur, total);
    if s.levies != 0 {
        x.amount("cbc:ChargeTotalAmount", cur, s.levies);
    }
    if prepaid != 0 {
        x.amount("cbc:PrepaidAmount", cur, prepaid);
    }
    x.amount("cbc:PayableAmount", cur, payable);
    x.close("cac:LegalMonetaryTotal");
    for (l, kpd) in inv.lines.iter().zip(&d.kpd) {
        if !is_levy(l) {
            line(&mut x, l, kpd, sign, credit, cur);
        }
    }
    x.close(root);
    x.finish()
}
