//! The parts of the e-invoice document that repeat: the extensions (the signature
//! placeholder and the Croatian `HRFISK20Data`), a party, a line, the VAT scheme, and the
//! unit price and payment reference as written.

use super::ubl::{LEVY_NAME, Party, Sums, category_id, category_name};
use super::xml::{Xml, percent};
use crate::domain::enums::LineKind;
use crate::model::InvoiceLine;

/// The extensions: the signature placeholder every official example carries and, when the
/// document holds the city tax, `HRFISK20Data` (HR-BR-26, HR-BR-30), whose sums must close
/// with the document's (HR-BR-27/32/54/55).
pub(super) fn extensions(x: &mut Xml, s: &Sums, cur: &str) {
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

pub(super) fn vat_scheme(x: &mut Xml, element: &str) {
    x.open(element, &[]);
    x.leaf("cbc:ID", "VAT");
    x.close(element);
}

pub(super) fn party(x: &mut Xml, p: &Party) {
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

pub(super) fn line(x: &mut Xml, l: &InvoiceLine, kpd: &str, sign: i64, credit: bool, cur: &str) {
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
    // A price is never negative (EN 16931 BR-27): an allowance, or an allowance reversed on
    // a credit note, carries its sign on the quantity.
    let q = if net < 0 { -l.quantity } else { l.quantity };
    x.leaf_with(quantity, &[("unitCode", unit)], &q.to_string());
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
        &unit_price(net.abs(), l.quantity),
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
