//! Where the year's hotel is: Croatia (eVisitor, the CIS, moj-eRačun) or Italy (Alloggiati
//! Web, the telematic cash register, SdI). The run is the same; what differs is here: the
//! VAT rates of the extras, the companies billed, the name on the door.

use serde_json::{Value, json};

/// The hotel's country.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Country {
    Croatia,
    Italy,
}

impl Country {
    /// The country's rate for what Croatia taxes at `croatian` (13 % food and drink, 25 %
    /// the rest): Italy's 10 % and 22 %.
    pub fn rate(self, croatian: i64) -> i64 {
        match (self, croatian) {
            (Country::Italy, 1300) => 1000,
            (Country::Italy, 2500) => 2200,
            _ => croatian,
        }
    }

    pub fn hotel_name(self) -> &'static str {
        match self {
            Country::Croatia => "Hotel Godina",
            Country::Italy => "Hotel Anno",
        }
    }

    /// The company a guest paying by transfer is billed to.
    pub fn company(self) -> Value {
        match self {
            Country::Croatia => {
                json!({"kind": "business", "name": "Jadranska plovidba d.d.", "vat_id": "HR12345678903",
                       "address": {"line1": "Riva 16", "city": "Rijeka", "postal_code": "51000",
                                   "country": "HR"}})
            }
            Country::Italy => {
                json!({"kind": "business", "name": "Navigazione Adriatica S.p.A.", "vat_id": "IT01234567897",
                       "address": {"line1": "Corso Italia 8", "city": "Milano", "postal_code": "20122",
                                   "region": "MI", "country": "IT"}})
            }
        }
    }

    /// The agency a disputed bill is issued to again.
    pub fn agency(self) -> Value {
        match self {
            Country::Croatia => {
                json!({"kind": "business", "name": "Adriatic Travel d.o.o.", "vat_id": "HR69435151530",
                       "address": {"line1": "Obala 3", "city": "Split", "country": "HR"}})
            }
            Country::Italy => {
                json!({"kind": "business", "name": "Viaggi del Sole S.r.l.", "vat_id": "IT09876543217",
                       "sdi_code": "M5UXCR1",
                       "address": {"line1": "Via Emilia 40", "city": "Bologna", "postal_code": "40121",
                                   "region": "BO", "country": "IT"}})
            }
        }
    }
}
