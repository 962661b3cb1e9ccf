//! Setup's answers as a person types them into the first-run page, checked all at once by
//! the API's rules into a [`Plan`], each broken rule named by its field (`name`,
//! `room_types[0].base_rate`, `password_again`). The defaults a country suggests (its time
//! zone, its VAT rate on rooms) are the ones `innkeep setup` offers.

use serde_json::{Value, json};

use super::setup::{Plan, RoomsPlan};
use crate::domain::money::parse_amount;
use crate::domain::room_numbers;
use crate::error::FieldError;
use crate::model::input::FromJson;
use crate::model::{RoomTypeCreate, SettingsUpdate};

/// One room type as typed.
#[derive(Debug, Clone, Default)]
pub struct RoomAnswers {
    /// Short code, such as DBL.
    pub code: String,
    /// Name, such as Double room.
    pub name: String,
    /// Most guests in one room.
    pub guests: String,
    /// Nightly rate, such as 95.00.
    pub rate: String,
    /// Room numbers, such as 101-112, 201.
    pub rooms: String,
}

impl RoomAnswers {
    fn is_blank(&self) -> bool {
        [&self.code, &self.name, &self.rate, &self.rooms]
            .iter()
            .all(|s| s.trim().is_empty())
    }
}

/// Everything setup asks, as typed.
#[derive(Debug, Clone, Default)]
pub struct Answers {
    /// The property's name.
    pub name: String,
    /// Its country (two letters).
    pub country: String,
    /// Its time zone; blank for the country's.
    pub time_zone: String,
    /// The currency; blank for EUR.
    pub currency: String,
    /// The VAT rate on rooms in percent; blank for the country's.
    pub tax_rate: String,
    /// Room types (blank rows are skipped; at least one is needed).
    pub room_types: Vec<RoomAnswers>,
    /// The first admin's user name.
    pub admin: String,
    /// Their password, twice.
    pub password: String,
    /// The password again.
    pub password_again: String,
    /// The seller on invoices (all empty: set later under Administration).
    pub seller: SellerAnswers,
}

/// The seller's particulars as typed.
#[derive(Debug, Clone, Default)]
pub struct SellerAnswers {
    /// Registered name.
    pub legal_name: String,
    /// Street and number.
    pub street: String,
    /// Postal code.
    pub postal_code: String,
    /// Town or city.
    pub city: String,
    /// VAT number (OIB, partita IVA).
    pub vat_id: String,
}

impl SellerAnswers {
    /// The seller as the API takes it for a property in `country`, or `None` when nothing
    /// was typed; every rule the particulars break (the shape's and the country's VAT
    /// number and address rules) is pushed to `errs`.
    pub fn input(&self, country: &str, errs: &mut Vec<FieldError>) -> Option<Value> {
        let typed = [
            &self.legal_name,
            &self.street,
            &self.postal_code,
            &self.city,
            &self.vat_id,
        ];
        if typed.iter().all(|t| t.trim().is_empty()) {
            return None;
        }
        let text = |v: &str| (!v.trim().is_empty()).then(|| json!(v.trim()));
        let mut seller = json!({"address": {"line1": text(&self.street),
            "postal_code": text(&self.postal_code), "city": text(&self.city),
            "country": text(country)}});
        for (key, v) in [("legal_name", &self.legal_name), ("vat_id", &self.vat_id)] {
            if let Some(v) = text(v) {
                seller[key] = v;
            }
        }
        let rules = crate::domain::seller::check(
            Some(country),
            self.vat_id.trim(),
            !self.street.trim().is_empty(),
            !self.city.trim().is_empty(),
        );
        for (field, rule) in rules {
            let vat_missing = field == "seller.vat_id" && self.vat_id.trim().is_empty();
            if !vat_missing {
                errs.push(FieldError::of(field, rule));
            }
        }
        Some(seller)
    }
}

/// The VAT rate on accommodation a country charges, offered as the default: Italy's 10 %
/// (the aliquota ridotta for lodging, DPR 633/1972, Tabella A, parte III), Croatia's 13 %
/// (the reduced rate for accommodation, Zakon o PDV-u, čl. 38.), as they stood in 2026;
/// change them here if the law moves. Elsewhere 0 is offered and the desk warns about it.
pub fn default_vat(country: &str) -> &'static str {
    match country {
        "IT" => "10",
        "HR" => "13",
        _ => "0",
    }
}

/// A likely time zone for a country, offered as the default.
pub fn default_zone(country: &str) -> &'static str {
    match country {
        "IT" => "Europe/Rome",
        "HR" => "Europe/Zagreb",
        "SI" => "Europe/Ljubljana",
        "AT" => "Europe/Vienna",
        "DE" => "Europe/Berlin",
        "FR" => "Europe/Paris",
        "ES" => "Europe/Madrid",
        "GB" => "Europe/London",
        _ => "UTC",
    }
}

/// A number as typed, as JSON: a whole number when it is one, else the text (so that the
/// rule's message says what was wrong).
pub fn whole(s: &str) -> Value {
    s.trim()
        .parse::<i64>()
        .map_or_else(|_| json!(s), |n| json!(n))
}

fn or(typed: &str, default: &str) -> String {
    let t = typed.trim();
    if t.is_empty() { default } else { t }.to_string()
}

/// The answers as a plan, or every rule they break.
pub fn plan_of(a: &Answers) -> Result<Plan, Vec<FieldError>> {
    let mut errs = Vec::new();
    let country = a.country.trim().to_ascii_uppercase();
    let tax = or(&a.tax_rate, default_vat(&country));
    let tax = match parse_amount(&tax) {
        Some(bp) => json!(bp),
        None => {
            let why = "is not a percentage; write it as 13 or 9.5";
            errs.push(
                FieldError::new("default_tax_rate", "invalid", why)
                    .said("problem-not-a-percentage", vec![]),
            );
            Value::Null
        }
    };
    let mut input = json!({"name": a.name.trim(), "country": country,
        "time_zone": or(&a.time_zone, default_zone(&country)),
        "currency": or(&a.currency, "EUR").to_ascii_uppercase()});
    if !tax.is_null() {
        input["default_tax_rate"] = tax;
    }
    if let Some(seller) = a.seller.input(&country, &mut errs) {
        input["seller"] = seller;
    }
    let settings = SettingsUpdate::from_json(&input, "", &mut errs);
    for required in ["name", "country"] {
        if input[required].as_str().is_some_and(str::is_empty) {
            errs.retain(|e| e.field != required);
            errs.push(
                FieldError::new(required, "required", "is required").said("rule-required", vec![]),
            );
        }
    }
    let rooms = room_plans(&a.room_types, &mut errs);
    let admin = a.admin.trim().to_string();
    errs.extend(
        crate::service::oauth::username_rule(&admin).map(|e| FieldError {
            field: "admin".into(),
            ..e
        }),
    );
    errs.extend(crate::service::oauth::password_rule(
        "password",
        &a.password,
    ));
    if a.password != a.password_again {
        errs.push(
            FieldError::new(
                "password_again",
                "mismatch",
                "must be the same as the new password",
            )
            .said("problem-password-mismatch", vec![]),
        );
    }
    match settings {
        Some(settings) if errs.is_empty() => Ok(Plan {
            settings,
            rooms,
            admin,
            password: a.password.clone(),
        }),
        _ => Err(errs),
    }
}

/// The room types that were typed (blank rows skipped), each checked by the API's rules;
/// two may not share a code or a room.
fn room_plans(rows: &[RoomAnswers], errs: &mut Vec<FieldError>) -> Vec<RoomsPlan> {
    let mut plans: Vec<RoomsPlan> = Vec::new();
    for (i, r) in rows.iter().enumerate().filter(|(_, r)| !r.is_blank()) {
        let at = |f: &str| format!("room_types[{i}].{f}");
        let rate = match parse_amount(&r.rate) {
            Some(n) if n >= 0 => json!(n),
            _ => {
                let why = "is not an amount; write it as 95 or 95.50";
                errs.push(
                    FieldError::new(at("base_rate"), "invalid", why)
                        .said("problem-not-an-amount", vec![]),
                );
                json!(0)
            }
        };
        let input = json!({"code": r.code.trim().to_ascii_uppercase(), "name": r.name.trim(),
            "max_occupancy": whole(&r.guests), "base_rate": rate});
        let room_type = RoomTypeCreate::from_json(&input, &format!("room_types[{i}]"), errs);
        let numbers = match room_numbers::expand(&r.rooms) {
            Ok(n) => n,
            Err(why) => {
                let none = why == room_numbers::NONE;
                let e = FieldError::new(at("rooms"), "invalid", why);
                errs.push(match none {
                    true => e.said("problem-one-room-number", vec![]),
                    false => e,
                });
                Vec::new()
            }
        };
        let Some(room_type) = room_type else { continue };
        if plans.iter().any(|p| p.room_type.code.0 == room_type.code.0) {
            errs.push(
                FieldError::new(
                    at("code"),
                    "duplicate",
                    "is the code of an earlier room type",
                )
                .said("problem-code-earlier", vec![]),
            );
        }
        if let Some(n) = numbers
            .iter()
            .find(|n| plans.iter().any(|p| p.numbers.contains(n)))
        {
            errs.push(
                FieldError::new(
                    at("rooms"),
                    "duplicate",
                    format!("room {n} is already in an earlier room type"),
                )
                .said(
                    "problem-room-earlier",
                    vec![("room", crate::domain::said::Value::Text(n.clone()))],
                ),
            );
        }
        plans.push(RoomsPlan { room_type, numbers });
    }
    if rows.iter().all(RoomAnswers::is_blank) {
        errs.push(
            FieldError::new(
                "room_types[0].code",
                "required",
                "name at least one room type",
            )
            .said("problem-one-room-type", vec![]),
        );
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers() -> Answers {
        Answers {
            name: "Villa Mare".into(),
            country: "hr".into(),
            room_types: vec![RoomAnswers {
                code: "dbl".into(),
                name: "Double room".into(),
                guests: "2".into(),
                rate: "95,50".into(),
                rooms: "101-103".into(),
            }],
            admin: "ana".into(),
            password: "a long secret".into(),
            password_again: "a long secret".into(),
            ..Answers::default()
        }
    }

    #[test]
    fn blank_answers_take_the_countrys_defaults() {
        let plan = plan_of(&answers()).unwrap();
        use crate::model::Patch;
        let s = &plan.settings;
        assert!(matches!(&s.time_zone, Patch::Set(z) if z.0 == "Europe/Zagreb"));
        assert!(matches!(&s.default_tax_rate, Patch::Set(r) if r.0 == 1300));
        assert_eq!(plan.rooms[0].numbers, ["101", "102", "103"]);
        assert_eq!(plan.rooms[0].room_type.base_rate.0, 9550);
    }

    #[test]
    fn every_broken_rule_is_named_by_its_field() {
        let mut a = answers();
        a.name = " ".into();
        a.tax_rate = "ten".into();
        a.room_types.push(a.room_types[0].clone());
        a.room_types.push(RoomAnswers::default());
        a.password_again = "another".into();
        let fields: Vec<String> = plan_of(&a)
            .unwrap_err()
            .into_iter()
            .map(|e| e.field)
            .collect();
        for f in [
            "name",
            "default_tax_rate",
            "room_types[1].code",
            "room_types[1].rooms",
            "password_again",
        ] {
            assert!(fields.contains(&f.to_string()), "{f} in {fields:?}");
        }
        assert!(
            !fields.iter().any(|f| f.starts_with("room_types[2]")),
            "a blank row is skipped"
        );
    }
}
