//! A Croatian fiscal receipt as sealed at issue: its number, its time, its amounts and its
//! protective code (ZKI), plus the pure rules that turn them into text: amounts with two
//! decimals and a dot, VAT rates, the ZKI input of chapter 12 and the QR link of section 2.8.

use chrono::NaiveDateTime;
use md5::{Digest, Md5};
use rsa::RsaPrivateKey;
use rsa::pkcs1v15::SigningKey;
use rsa::signature::{SignatureEncoding, Signer};
use serde::{Deserialize, Serialize};

use crate::domain::enums::PaymentMethod;

/// One VAT rate's block (`Pdv/Porez`), in minor units and basis points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vat {
    /// Rate in basis points (2500 is 25 %).
    pub rate: i64,
    /// Taxable base.
    pub base: i64,
    /// Tax.
    pub amount: i64,
}

/// The sealed receipt: everything `Racun` carries except `NakDost`, fixed at issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    /// The invoice it fiscalizes.
    pub invoice_id: String,
    /// The seller's OIB.
    pub oib: String,
    /// `USustPdv`.
    pub in_vat_system: bool,
    /// Local date and time of issue.
    pub issued_at: NaiveDateTime,
    /// `BrOznRac`: gapless, restarting each year.
    pub number: i64,
    /// `OznPosPr`.
    pub premises: String,
    /// `OznNapUr`.
    pub device: String,
    /// VAT blocks (empty outside the VAT system).
    pub vat: Vec<Vat>,
    /// `IznosUkupno` in cents (negative for a credit note).
    pub total: i64,
    /// `NacinPlac`.
    pub payment: String,
    /// `OibOper`.
    pub operator_oib: String,
    /// `ZastKod`.
    pub zki: String,
    /// `OibPrimateljaRacuna`: the buyer's OIB, on a receipt to a business (schema 1.9,
    /// "only for B2B"); absent from receipts sealed before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buyer_oib: Option<String>,
}

/// The buyer's OIB in a bill-to's tax number: 11 digits with a right check digit, written
/// alone or as a Croatian VAT number (`HR` and the OIB), spaces aside. Anything else (a
/// foreign VAT number, a typo) is not an OIB, and the receipt carries none.
pub fn buyer_oib(tax_id: &str) -> Option<String> {
    let plain = crate::domain::seller::digits_of("HR", tax_id);
    crate::domain::seller::oib_valid(&plain).then_some(plain)
}

/// A change of payment method as queued: the receipt as CIS has it (its first `NacinPlac`)
/// and the new `NacinPlac`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentChange {
    /// The receipt as sent.
    pub receipt: Receipt,
    /// `PromijenjeniNacinPlac`.
    pub method: String,
}

impl Receipt {
    /// The number as printed: `BrOznRac/OznPosPr/OznNapUr`.
    pub fn printed_number(&self) -> String {
        format!("{}/{}/{}", self.number, self.premises, self.device)
    }

    /// The chapter 12 input: OIB, date and time (`dd.MM.yyyy HH:mm:ss`), number, premises,
    /// device, total.
    pub fn zki_input(&self) -> String {
        format!(
            "{}{}{}{}{}{}",
            self.oib,
            self.issued_at.format("%d.%m.%Y %H:%M:%S"),
            self.number,
            self.premises,
            self.device,
            amount(self.total)
        )
    }
}

/// The ZKI: MD5 (lowercase hex) of the RSA-SHA1 (PKCS#1 v1.5) signature of `input`.
pub fn zki(key: &RsaPrivateKey, input: &str) -> String {
    let signature = SigningKey::<sha1::Sha1>::new(key.clone()).sign(input.as_bytes());
    hex(&Md5::digest(signature.to_bytes()))
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An amount in minor units as CIS writes it: `-1234.50`.
pub fn amount(minor: i64) -> String {
    crate::domain::money::format_amount(minor)
}

/// A rate in basis points as a percentage with two decimals: 2500 is `25.00`.
pub fn rate(basis_points: i64) -> String {
    amount(basis_points)
}

/// `NacinPlac` for a payment method: G cash, K card, T transfer, O other.
pub fn payment_code(method: Option<PaymentMethod>) -> &'static str {
    match method {
        Some(PaymentMethod::Cash) => "G",
        Some(PaymentMethod::Card) => "K",
        Some(PaymentMethod::BankTransfer) => "T",
        Some(PaymentMethod::Other) | None => "O",
    }
}

/// The date and time CIS messages use: `dd.MM.yyyyTHH:mm:ss`.
pub fn cis_time(t: NaiveDateTime) -> String {
    t.format("%d.%m.%YT%H:%M:%S").to_string()
}

/// The QR link of section 2.8: the JIR when known, else the ZKI; the time as
/// `yyyyMMdd_HHmm`; the amount in cents without separators or leading zeros.
pub fn qr_payload(jir: Option<&str>, zki: &str, issued_at: NaiveDateTime, total: i64) -> String {
    let id = match jir {
        Some(j) => format!("jir={j}"),
        None => format!("zki={zki}"),
    };
    format!(
        "https://porezna.gov.hr/rn?{id}&datv={}&izn={total}",
        issued_at.format("%Y%m%d_%H%M")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn amounts_and_rates() {
        assert_eq!(amount(0), "0.00");
        assert_eq!(amount(5), "0.05");
        assert_eq!(amount(152599), "1525.99");
        assert_eq!(amount(-10550), "-105.50");
        assert_eq!(amount(-7), "-0.07");
        assert_eq!(rate(2500), "25.00");
        assert_eq!(rate(1300), "13.00");
        assert_eq!(rate(0), "0.00");
    }

    #[test]
    fn qr_links_follow_the_specification_examples() {
        assert_eq!(
            qr_payload(
                Some("12345678-1234-1234-1234-123456789012"),
                "",
                at("2020-09-21 06:30:00"),
                152599
            ),
            "https://porezna.gov.hr/rn?jir=12345678-1234-1234-1234-123456789012&datv=20200921_0630&izn=152599"
        );
        assert_eq!(
            qr_payload(
                Some("12345678-1234-1234-1234-123456789012"),
                "",
                at("2021-01-10 14:00:00"),
                -10550
            ),
            "https://porezna.gov.hr/rn?jir=12345678-1234-1234-1234-123456789012&datv=20210110_1400&izn=-10550"
        );
        assert_eq!(
            qr_payload(
                None,
                "12345678123412341234123456789012",
                at("2021-02-05 08:01:00"),
                510
            ),
            "https://porezna.gov.hr/rn?zki=12345678123412341234123456789012&datv=20210205_0801&izn=510"
        );
    }

    #[test]
    fn payment_mapping() {
        assert_eq!(payment_code(Some(PaymentMethod::Cash)), "G");
        assert_eq!(payment_code(Some(PaymentMethod::Card)), "K");
        assert_eq!(payment_code(Some(PaymentMethod::BankTransfer)), "T");
        assert_eq!(payment_code(Some(PaymentMethod::Other)), "O");
    }

    #[test]
    fn a_buyer_oib_is_a_checked_oib_alone_or_as_a_croatian_vat_number() {
        assert_eq!(buyer_oib("69435151530").as_deref(), Some("69435151530"));
        assert_eq!(buyer_oib("HR 69435151530").as_deref(), Some("69435151530"));
        assert_eq!(buyer_oib("69435151531"), None, "a wrong check digit");
        assert_eq!(buyer_oib("IT01234567890"), None, "a foreign VAT number");
        assert_eq!(buyer_oib(""), None);
    }

    #[test]
    fn zki_input_is_the_chapter_12_concatenation() {
        let r = Receipt {
            invoice_id: "inv_1".into(),
            oib: "98765432106".into(),
            in_vat_system: true,
            issued_at: at("2026-11-22 09:05:07"),
            number: 42,
            premises: "POSL1".into(),
            device: "1".into(),
            vat: vec![],
            total: -123456,
            payment: "G".into(),
            operator_oib: "98765432106".into(),
            zki: String::new(),
            buyer_oib: None,
        };
        assert_eq!(
            r.zki_input(),
            "9876543210622.11.2026 09:05:0742POSL11-1234.56"
        );
        assert_eq!(r.printed_number(), "42/POSL1/1");
        assert_eq!(cis_time(r.issued_at), "22.11.2026T09:05:07");
    }

    #[test]
    fn zki_golden_vector_with_the_fixed_test_key() {
        use rsa::pkcs8::DecodePrivateKey;
        // The tests' throwaway key; the expected values were computed independently with
        // `printf '%s' "$input" | openssl dgst -sha1 -sign company-key.pem | md5sum`.
        let pem = include_str!("../../../tests/fixtures/hr-cis/company-key.pem");
        let key = RsaPrivateKey::from_pkcs8_pem(pem).unwrap();
        assert_eq!(
            zki(&key, "9876543210622.11.2026 09:05:0742POSL11-1234.56"),
            "f7e379e6f1ed41011eb2bff4cee07ff3"
        );
        assert_eq!(
            zki(&key, "9876543210622.11.2026 10:00:001POSL11250.00"),
            "430132199034a7d1d45eb382b2232ce0"
        );
    }
}
