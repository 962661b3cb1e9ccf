//! A sentence as the catalogues say it: a key and typed values, pure data. A use case (or a
//! field rule) says what it refuses with a [`Said`]; the API's text is the English one, and
//! a desk page says the same key and values in its own language (`crate::refusal`), each
//! value written the language's way. [`SENTENCES`] names every key a field rule may use
//! with the values it takes: [`Said::new`] holds to it, and a test proves every language
//! has each sentence with those values.

use chrono::NaiveDate;

use crate::domain::enums::InvoiceStatus;
use crate::domain::reservation::Status;

/// A value a sentence carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Said as it is (a room number, a booking code).
    Text(String),
    /// A whole number.
    Num(i64),
    /// A decimal amount written `95.50`: with the decimal comma where the language has one.
    Decimal(String),
    /// A day: ISO in English (as the API writes days), the language's way elsewhere.
    Day(NaiveDate),
    /// Several days, comma-separated.
    Days(Vec<NaiveDate>),
    /// A reservation's status: its API name in English, in words elsewhere.
    State(Status),
    /// An invoice's status, the same way.
    InvoiceState(InvoiceStatus),
    /// A moment (RFC 3339, UTC): as it is in English, the language's way elsewhere.
    Moment(String),
}

/// A sentence as the catalogues say it: the key and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The catalogue key.
    pub key: &'static str,
    /// The values, by the names the sentences use.
    pub values: Vec<(&'static str, Value)>,
}

impl Said {
    /// A field rule's sentence: `key` must be one of [`SENTENCES`], with its values (in
    /// debug builds, and so in every test, a key or value name out of the list panics).
    pub fn new(key: &'static str, values: Vec<(&'static str, Value)>) -> Said {
        let said = Said { key, values };
        debug_assert!(
            said.listed(),
            "{said:?} is not in SENTENCES with these values"
        );
        said
    }

    /// Whether the key is in [`SENTENCES`] with exactly these values.
    pub fn listed(&self) -> bool {
        SENTENCES.iter().any(|(k, names)| {
            *k == self.key
                && names.len() == self.values.len()
                && self.values.iter().all(|(n, _)| names.contains(n))
        })
    }

    /// A sentence without values.
    pub fn plain(key: &'static str) -> Said {
        Said::new(key, Vec::new())
    }
}

/// Every sentence a field rule may say, with the names of its values.
#[rustfmt::skip]
pub const SENTENCES: &[(&str, &[&str])] = &[
    ("rule-blank", &[]),
    ("rule-too_long", &["n1"]),
    ("rule-invalid_characters", &[]),
    ("rule-out_of_range", &["n1", "n2"]),
    ("rule-invalid_email", &[]),
    ("rule-invalid_phone", &[]),
    ("rule-invalid_country", &[]),
    ("rule-invalid_currency", &[]),
    ("rule-invalid_code", &[]),
    ("rule-invalid_kpd_code", &[]),
    ("rule-invalid_cin", &[]),
    ("problem-wording-one-line", &[]),
    ("problem-wording-placeholder", &["list"]),
    ("rule-invalid_codice_fiscale", &[]),
    ("rule-invalid_sdi_code", &[]),
    ("rule-invalid_pattern", &[]),
    ("rule-invalid_date", &[]),
    ("rule-invalid_time_zone", &[]),
    ("rule-required", &[]),
    ("rule-invalid_type", &[]),
    ("rule-invalid_choice", &["list"]),
    ("problem-room-taken", &["code"]),
    ("problem-the-room-out-of-order", &[]),
    ("problem-keep-room", &[]),
    ("problem-departure-past", &[]),
    ("problem-not-waiting", &["date"]),
    ("problem-no-room-assigned", &[]),
    ("problem-room-type-mismatch", &[]),
    ("problem-channel-no-room-type", &[]),
    ("problem-mail-off", &[]),
    ("problem-pre-check-in-closed", &[]),
    ("problem-arrival-time", &[]),
    ("problem-no-address", &[]),
    ("problem-channel-no-plan", &[]),
    ("problem-channel-mapped-twice", &["type"]),
    ("problem-channel-other-room-type", &[]),
    ("problem-after-arrival", &[]),
    ("problem-max-occupancy", &["max", "type"]),
    ("problem-max-nights", &["n"]),
    ("problem-one-balance", &[]),
    ("problem-amount-above-zero", &[]),
    ("problem-pay-later-and-now", &[]),
    ("problem-one-payment", &[]),
    ("problem-nothing-owed", &[]),
    ("problem-negative-total", &[]),
    ("problem-charge-invoiced", &["charge"]),
    ("problem-refund-exceeds", &["amount", "invoice"]),
    ("problem-password-throttled", &[]),
    ("problem-ages-count", &["ages", "children"]),
    ("problem-reg-required", &["guest"]),
    ("problem-reg-no-state", &["guest", "country"]),
    ("problem-reg-state-missing", &["guest", "state"]),
    ("problem-reg-place-unknown", &["guest", "place"]),
    ("problem-reg-place-ambiguous", &["guest", "place"]),
    ("problem-reg-no-letters", &["guest"]),
    ("problem-reg-gender", &["guest"]),
    ("problem-istat-required", &["guest"]),
    ("problem-istat-gender", &["guest"]),
    ("problem-evisitor-required", &["guest"]),
    ("problem-evisitor-country", &["guest", "country"]),
    ("problem-evisitor-settlement", &["guest", "place"]),
    ("problem-evisitor-code", &["guest", "value"]),
    ("problem-evisitor-gender", &["guest"]),
    ("problem-evisitor-document-type", &["guest"]),
    ("problem-reg-document-type", &["guest"]),
    ("problem-reg-document-type-missing", &["guest", "code"]),
    ("problem-reg-document-number", &["guest"]),
    ("problem-next-number", &["last"]),
    ("problem-too-many-guests", &["listed", "party"]),
    ("problem-party-full", &["party"]),
    ("problem-rate-currency", &["currency"]),
    ("problem-city-tax-currency", &["tax", "stay"]),
    ("problem-in-future", &[]),
    ("problem-one-line", &[]),
    ("problem-exceeds-outstanding", &["amount"]),
    ("problem-deposit-exceeds-stay", &["amount"]),
    ("problem-amounts-too-large", &[]),
    ("problem-report-range", &["n1"]),
    ("problem-month", &[]),
    ("problem-wrong-first-run-code", &[]),
    ("problem-not-a-percentage", &[]),
    ("problem-not-an-amount", &[]),
    ("problem-not-an-oib", &[]),
    ("problem-one-registration", &[]),
    ("problem-seller-oib", &[]),
    ("problem-range-order", &[]),
    ("problem-range-long", &["n"]),
    ("problem-nothing-to-change", &[]),
    ("problem-derived-price", &[]),
    ("problem-extra-not-offered", &[]),
    ("problem-buyer-oib", &[]),
    ("problem-buyer-partita-iva", &[]),
    ("problem-buyer-vat-id-required", &[]),
    ("problem-operator-mark", &[]),
    ("problem-scheme-overridden", &[]),
    ("problem-seller-partita-iva", &[]),
    ("problem-not-a-premises-mark", &[]),
    ("problem-not-a-device-mark", &[]),
    ("problem-certificate-unusable", &[]),
    ("problem-certificate-too-large", &[]),
    ("problem-code-earlier", &[]),
    ("problem-room-earlier", &["room"]),
    ("problem-one-room-type", &[]),
    ("problem-one-room-number", &[]),
    ("problem-code-taken", &[]),
    ("problem-number-taken", &[]),
    ("problem-username", &[]),
    ("problem-password-short", &[]),
    ("problem-wrong-password", &[]),
    ("problem-password-unchanged", &[]),
    ("problem-password-mismatch", &[]),
    ("problem-whole-number", &[]),
    ("problem-rate-range", &["max"]),
    ("problem-burst-range", &["max"]),
    ("problem-burst-below-rate", &[]),
    ("problem-kiosk-revoked", &[]),
    ("problem-no-client-id", &[]),
    ("problem-client-lookup", &[]),
    ("problem-not-for-staff", &[]),
    ("problem-redirect-unknown", &[]),
    ("problem-url-absolute", &[]),
    ("problem-url-scheme", &[]),
    ("problem-url-host", &[]),
    ("problem-url-credentials", &[]),
    ("problem-url-link-local", &[]),
    ("problem-url-loopback", &[]),
    ("problem-url-private", &[]),
    ("problem-url-not-unicast", &[]),
    ("problem-url-translated", &[]),
    ("problem-events-required", &[]),
    ("problem-unknown-event", &[]),
    ("problem-table-header", &["line", "expected", "given"]),
    ("problem-table-description", &["line"]),
    ("problem-table-place-code", &["line", "code"]),
    ("problem-table-province", &["line", "province"]),
    ("problem-table-valid-to", &["line", "date"]),
    ("problem-table-code", &["line", "code"]),
    ("problem-table-empty", &[]),
    ("problem-table-line", &["line", "why"]),
];
