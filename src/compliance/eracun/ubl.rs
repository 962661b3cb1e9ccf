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
}

/// Whether a line is the city tax outside VAT (a document-level charge), not an item.
pub fn is_levy(l: &InvoiceLine) -> bool {
    l.kind == LineKind::CityTax && l.tax_rate == 0
}

/// The CIUS-HR name of a VAT rate (`HR-TB-2`), where it has one.
fn category_name(rate: i64) -> Option<&'static str> {
    match rate {
        2500 => Some("HR:PDV25"),
        1300 => Some("HR:PDV13"),
        500 => Some("HR:PDV5"),
        0 => Some("HR:Z"),
        _ => None,
    }
}

fn category_id(rate: i64) -> &'static str {
    if rate == 0 { "Z" } else { "S" }
}

const LEVY_NAME: &str = "HR:N";
const LEVY_REASON: &str = "Turistička pristojba";

/// The sums the document states, in its own sign (a credit note's are positive).
struct Sums {
    lines: i64,
    levies: i64,
    tax: i64,
    per_rate: BTreeMap<i64, (i64, i64)>,
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
    let payable = s.lines + s.levies + s.tax;
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
    x.amount("cbc:TaxInclusiveAmount", cur, payable);
    if s.levies != 0 {
        x.amount("cbc:ChargeTotalAmount", cur, s.levies);
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

/// The extensions: the signature placeholder every official example carries and, when the
/// document holds the city tax, `HRFISK20Data` (HR-BR-26, HR-BR-30), whose sums must close
/// with the document's (HR-BR-27/32/54/55).
fn extensions(x: &mut Xml, s: &Sums, cur: &str) {
    x.open("ext:UBLExtensions", &[]);
    if s.levies != 0 {
        x.open("ext:UBLExtension", &[]);
        x.open("ext:ExtensionContent", &[]);
        x.open("hrextac:HRFISK20Data", &[]);
        x.open("hrextac:HRTaxTotal", &[]);
        x.amount("cbc:TaxAmount", cur, s.tax);
        for (rate, (net, tax)) in &s.per_rate {
            hr_subtotal(x, cur, (*net, *tax), category_id(*rate), *rate);
        }
        hr_subtotal(x, cur, (s.levies, 0), "O", 0);
        x.close("hrextac:HRTaxTotal");
        x.open("hrextac:HRLegalMonetaryTotal", &[]);
        x.amount("cbc:TaxExclusiveAmount", cur, s.lines);
        x.amount("hrextac:OutOfScopeOfVATAmount", cur, s.levies);
        x.close("hrextac:HRLegalMonetaryTotal");
        x.close("hrextac:HRFISK20Data");
        x.close("ext:ExtensionContent");
        x.close("ext:UBLExtension");
    }
    x.open("ext:UBLExtension", &[]);
    x.open("ext:ExtensionContent", &[]);
    x.open("sig:UBLDocumentSignatures", &[]);
    // The official examples keep this element empty; HR-BR-33 exempts the signature.
    x.open("sac:SignatureInformation", &[]);
    x.close("sac:SignatureInformation");
    x.close("sig:UBLDocumentSignatures");
    x.close("ext:ExtensionContent");
    x.close("ext:UBLExtension");
    x.close("ext:UBLExtensions");
}

fn hr_subtotal(x: &mut Xml, cur: &str, (net, tax): (i64, i64), id: &str, rate: i64) {
    x.open("hrextac:HRTaxSubtotal", &[]);
    x.amount("cbc:TaxableAmount", cur, net);
    x.amount("cbc:TaxAmount", cur, tax);
    x.open("hrextac:HRTaxCategory", &[]);
    x.leaf("cbc:ID", id);
    let name = if id == "O" {
        Some(LEVY_NAME)
    } else {
        category_name(rate)
    };
    x.leaf("cbc:Name", name.unwrap_or_default());
    x.leaf("cbc:Percent", &percent(rate));
    vat_scheme(x, "hrextac:HRTaxScheme");
    x.close("hrextac:HRTaxCategory");
    x.close("hrextac:HRTaxSubtotal");
}

fn vat_scheme(x: &mut Xml, element: &str) {
    x.open(element, &[]);
    x.leaf("cbc:ID", "VAT");
    x.close(element);
}

fn party(x: &mut Xml, p: &Party) {
    x.open("cac:Party", &[]);
    x.leaf_with("cbc:EndpointID", &[("schemeID", "9934")], &p.oib);
    x.open("cac:PostalAddress", &[]);
    x.leaf("cbc:StreetName", p.street.as_deref().unwrap_or_default());
    x.leaf("cbc:CityName", p.city.as_deref().unwrap_or_default());
    x.leaf(
        "cbc:PostalZone",
        p.postal_code.as_deref().unwrap_or_default(),
    );
    x.open("cac:Country", &[]);
    x.leaf("cbc:IdentificationCode", &p.country);
    x.close("cac:Country");
    x.close("cac:PostalAddress");
    x.open("cac:PartyTaxScheme", &[]);
    x.leaf("cbc:CompanyID", &format!("HR{}", p.oib));
    vat_scheme(x, "cac:TaxScheme");
    x.close("cac:PartyTaxScheme");
    x.open("cac:PartyLegalEntity", &[]);
    x.leaf("cbc:RegistrationName", &p.name);
    x.close("cac:PartyLegalEntity");
    x.close("cac:Party");
}

fn line(x: &mut Xml, l: &InvoiceLine, kpd: &str, sign: i64, credit: bool, cur: &str) {
    let (element, quantity) = if credit {
        ("cac:CreditNoteLine", "cbc:CreditedQuantity")
    } else {
        ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    };
    let unit = if l.kind == LineKind::Accommodation {
        "DAY"
    } else {
        "H87"
    };
    let net = sign * l.net_amount;
    x.open(element, &[]);
    x.leaf("cbc:ID", &l.position.to_string());
    x.leaf_with(quantity, &[("unitCode", unit)], &l.quantity.to_string());
    x.amount("cbc:LineExtensionAmount", cur, net);
    x.open("cac:Item", &[]);
    x.leaf("cbc:Name", &l.description);
    x.open("cac:CommodityClassification", &[]);
    x.leaf_with("cbc:ItemClassificationCode", &[("listID", "CG")], kpd);
    x.close("cac:CommodityClassification");
    x.open("cac:ClassifiedTaxCategory", &[]);
    x.leaf("cbc:ID", category_id(l.tax_rate));
    x.leaf("cbc:Name", category_name(l.tax_rate).unwrap_or_default());
    x.leaf("cbc:Percent", &percent(l.tax_rate));
    vat_scheme(x, "cac:TaxScheme");
    x.close("cac:ClassifiedTaxCategory");
    x.close("cac:Item");
    x.open("cac:Price", &[]);
    x.leaf_with(
        "cbc:PriceAmount",
        &[("currencyID", cur)],
        &unit_price(net, l.quantity),
    );
    x.leaf_with("cbc:BaseQuantity", &[("unitCode", unit)], "1");
    x.close("cac:Price");
    x.close(element);
}

/// The net price of one unit with six decimals (net ÷ quantity, rounded half away from
/// zero), as the official examples write prices.
pub fn unit_price(net_minor: i64, quantity: i64) -> String {
    let q = i128::from(quantity.max(1));
    let scaled = i128::from(net_minor) * 10_000; // minor units (2 places) to 6 places
    let half = q / 2;
    let v = if scaled >= 0 {
        (scaled + half) / q
    } else {
        (scaled - half) / q
    };
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    format!("{sign}{}.{:06}", a / 1_000_000, a % 1_000_000)
}

/// The payment reference: model `HR00` with the invoice number's digits and hyphens.
pub fn payment_reference(number: &str) -> String {
    let kept: String = number
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    format!("HR00 {}", kept.trim_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_prices_have_six_places() {
        assert_eq!(unit_price(10000, 1), "100.000000");
        assert_eq!(unit_price(10000, 3), "33.333333");
        assert_eq!(unit_price(-20000, 3), "-66.666667");
        assert_eq!(unit_price(5, 2), "0.025000");
    }

    #[test]
    fn payment_reference_keeps_digits_and_hyphens() {
        assert_eq!(payment_reference("2026-000012"), "HR00 2026-000012");
        assert_eq!(payment_reference("B-2026-000012"), "HR00 2026-000012");
    }
}
