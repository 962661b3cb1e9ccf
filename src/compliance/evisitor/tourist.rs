//! From a party to eVisitor's `CheckInTourist` bodies, and from registered rows to
//! `CheckOutTourist` and `CancelTouristCheckIn` (pure: the code tables come in as a lookup).
//!
//! A row's line is the operation, a space, and the JSON body: `CheckInTourist {"ID":…}`.
//! Each guest's check-in has its own client GUID (`ID`), derived from the reservation, the
//! guest, the day they arrived and how many check-ins of the stay were undone, so that sending a changed guest again (an edit of the
//! active check-in, which eVisitor keys on that ID) reuses it; it is stored in the rows of
//! the check-in submission, from which the check-out and the cancellation take it.
//! Values follow eVisitor's Web API page (`Javno.Web-API`, 2023): dates `YYYYMMDD` and times
//! `hh:mm` in Croatian local time, countries as ISO alpha-3, the document type as the
//! `Code`, the arrival organisation as the `CodeMI` and the service type as the `Name` of
//! their look-ups; for a Croatian place of birth or residence, the settlement's name from
//! `SettlementLookup`. Unverified and chosen: the border crossing goes under both
//! `BorderCrossing` and `BorderCrossingHr` (clients differ; the service ignores unknown
//! members), and the gender as `muški` / `ženski` (the page's spelling).

use chrono::NaiveDate;
use serde_json::{Value as Json, json};

use super::tables::{
    ARRIVALS, BORDER_CROSSINGS, COUNTRIES, DOCUMENT_TYPES, EU, SCHEME, SERVICES, SETTLEMENTS,
    TAX_CATEGORIES,
};
use crate::compliance::collect::Collect;
use crate::compliance::{Party, PreparedRow, Problem};
use crate::domain::enums::{DocumentType, Gender};
use crate::domain::said::Value;
use crate::error::AppResult;
use crate::model::codes::{CodeLookup, name_key};

/// `CheckInTourist`.
pub const CHECK_IN: &str = "CheckInTourist";
/// `CheckOutTourist`.
pub const CHECK_OUT: &str = "CheckOutTourist";
/// `CancelTouristCheckIn`.
pub const CANCEL: &str = "CancelTouristCheckIn";
/// When a guest is expected to leave on the departure day (eVisitor wants a time).
pub const LEAVING_AT: &str = "10:00";
const CROATIA: &str = "HR";
const AUTHORITY: &str = "eVisitor";
const REQUIRED: &str = "problem-evisitor-required";

/// What the property sends where a guest says nothing (`[compliance.registration]`).
#[derive(Debug, Clone, Default)]
pub struct Defaults {
    /// The facility code.
    pub facility: String,
    /// `ArrivalOrganisation` (`CodeMI`).
    pub arrival_organisation: String,
    /// `OfferedServiceType` (`Name`).
    pub service_type: String,
    /// `TTPaymentCategory` (`Code`); empty: every guest must have one.
    pub tax_category: String,
}

/// A row's line: the operation and its JSON body.
pub fn line(operation: &str, body: &Json) -> String {
    format!("{operation} {body}")
}

/// A line's operation and body.
pub fn parse(line: &str) -> Option<(&str, Json)> {
    let (op, body) = line.split_once(' ')?;
    Some((op, serde_json::from_str(body).ok()?))
}

/// The client GUID of a guest's check-in (a UUID shape over SHA-256).
pub fn guid(reservation_id: &str, guest_id: &str, arrival: NaiveDate, undone: usize) -> String {
    let hex = crate::domain::digest::sha256_hex(
        format!("innkeep-evisitor:{reservation_id}:{guest_id}:{arrival}:{undone}").as_bytes(),
    );
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

fn date(d: NaiveDate) -> String {
    d.format("%Y%m%d").to_string()
}

/// Every guest's `CheckInTourist`, or every problem found.
pub fn check_ins(
    codes: &dyn CodeLookup,
    party: &Party,
    defaults: &Defaults,
) -> AppResult<Result<Vec<PreparedRow>, Vec<Problem>>> {
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (index, guest) in party.guests.iter().enumerate() {
        let mut c = Collect::new(codes, index, guest);
        let body = body(&mut c, party, defaults)?;
        problems.append(&mut c.problems);
        if let Some(body) = body {
            rows.push(PreparedRow {
                guest_id: guest.id.clone(),
                line: line(CHECK_IN, &body),
            });
        }
    }
    Ok(if problems.is_empty() {
        Ok(rows)
    } else {
        Err(problems)
    })
}

impl Collect<'_> {
    fn needed<T>(&mut self, value: Option<T>, field: &str) -> Option<T> {
        self.require(value, field, AUTHORITY, REQUIRED)
    }

    /// A country's alpha-3 code and whether it is in the EU.
    fn country(&mut self, iso: &str, field: &str) -> AppResult<Option<(String, bool)>> {
        let found = self.codes.by_name(SCHEME, COUNTRIES, &name_key(iso))?;
        if let Some(f) = found.into_iter().next() {
            return Ok(Some((f.code, f.province == EU)));
        }
        self.add(
            field,
            "not_found",
            format!("{iso} is not in eVisitor's country list as innkeep last fetched it"),
            (
                "problem-evisitor-country",
                vec![("country", Value::Text(iso.to_string()))],
            ),
        );
        Ok(None)
    }

    /// The place to send: a Croatian settlement's name from the list, else what was typed.
    fn place(&mut self, typed: &str, croatian: bool, field: &str) -> AppResult<Option<String>> {
        if !croatian {
            return Ok(Some(typed.trim().to_string()));
        }
        let found = self.codes.by_name(SCHEME, SETTLEMENTS, &name_key(typed))?;
        if let Some(f) = found.into_iter().next() {
            return Ok(Some(f.code));
        }
        self.add(
            field,
            "not_found",
            format!(
                "{typed:?} is not a Croatian settlement in eVisitor's list (check the spelling)"
            ),
            (
                "problem-evisitor-settlement",
                vec![("place", Value::Text(typed.to_string()))],
            ),
        );
        Ok(None)
    }

    /// A value that must be a code of `table` (or, with `by_name`, a name there).
    fn listed(
        &mut self,
        value: Option<&str>,
        (table, by_name): (&str, bool),
        field: &str,
    ) -> AppResult<Option<String>> {
        let Some(value) = self.needed(value.filter(|v| !v.trim().is_empty()), field) else {
            return Ok(None);
        };
        let value = value.trim();
        if self.codes.exists(SCHEME, table, value)? {
            return Ok(Some(value.to_string()));
        }
        if by_name && let Some(f) = self.codes.by_name(SCHEME, table, &name_key(value))?.first() {
            return Ok(Some(f.code.clone()));
        }
        self.add(
            field,
            "not_found",
            match table {
                TAX_CATEGORIES => {
                    format!("{value:?} is not a tourist-tax category eVisitor allows this facility")
                }
                _ => format!("{value:?} is not in eVisitor's list {table}"),
            },
            (
                "problem-evisitor-code",
                vec![("value", Value::Text(value.to_string()))],
            ),
        );
        Ok(None)
    }
}

/// The name of the document type in eVisitor's list: a Croatian document (issued in
/// Croatia, or held by a Croatian citizen when the issuer is not given) is `domaća`.
fn document_name(kind: DocumentType, domestic: bool) -> Option<&'static str> {
    Some(match (kind, domestic) {
        (DocumentType::Passport, false) => "Osobna putovnica (strana)",
        (DocumentType::IdCard, false) => "Osobna iskaznica (strana)",
        (DocumentType::DrivingLicense, false) => "Vozačka dozvola (strana)",
        (DocumentType::Passport, true) => "Putovnica (domaća)",
        (DocumentType::IdCard, true) => "Osobna iskaznica (domaća)",
        (DocumentType::DrivingLicense, true) => "Vozačka dozvola (domaća)",
        (DocumentType::Other, _) => return None,
    })
}

fn body(c: &mut Collect, party: &Party, d: &Defaults) -> AppResult<Option<Json>> {
    let g = c.guest;
    let gender = match c.needed(g.gender, "gender") {
        Some(Gender::Male) => Some("muški"),
        Some(Gender::Female) => Some("ženski"),
        Some(Gender::Other) => {
            c.add(
                "gender",
                "not_supported",
                "eVisitor records only male or female; record the gender on the guest's document",
                ("problem-evisitor-gender", vec![]),
            );
            None
        }
        None => None,
    };
    let birth_date = c.needed(g.birth_date, "birth_date");
    let citizenship = match c.needed(g.nationality.as_deref(), "nationality") {
        Some(n) => c.country(n, "nationality")?,
        None => None,
    };
    let born = g.birth_place.as_ref();
    let birth_country = match c.needed(born.and_then(|b| b.country.as_ref()), "birth_place.country")
    {
        Some(b) => c
            .country(&b.0, "birth_place.country")?
            .map(|x| (b.0.clone(), x.0)),
        None => None,
    };
    let birth_city = match c.needed(
        born.and_then(|b| b.municipality.as_ref()),
        "birth_place.municipality",
    ) {
        Some(m) => {
            let croatian = birth_country
                .as_ref()
                .is_some_and(|(iso, _)| iso == CROATIA);
            c.place(&m.0, croatian, "birth_place.municipality")?
        }
        None => None,
    };
    let home = g.address.as_ref();
    let residence = match c.needed(home.and_then(|a| a.country.as_ref()), "address.country") {
        Some(r) => c
            .country(&r.0, "address.country")?
            .map(|(a3, eu)| (r.0.clone(), a3, eu)),
        None => None,
    };
    let residence_city = match c.needed(home.and_then(|a| a.city.as_ref()), "address.city") {
        Some(city) => {
            let croatian = residence.as_ref().is_some_and(|(iso, _, _)| iso == CROATIA);
            c.place(&city.0, croatian, "address.city")?
        }
        None => None,
    };
    let document = match c.needed(g.document.as_ref(), "document") {
        Some(doc) => {
            let issuer = doc.issuing_country.as_ref().map(|i| i.0.as_str());
            let domestic = issuer.or(g.nationality.as_deref()) == Some(CROATIA);
            match document_name(doc.kind, domestic) {
                None => {
                    c.add(
                        "document.type",
                        "not_supported",
                        "eVisitor takes a passport, an identity card or a driving licence",
                        ("problem-evisitor-document-type", vec![]),
                    );
                    None
                }
                Some(name) => c
                    .listed(Some(name), (DOCUMENT_TYPES, true), "document.type")?
                    .map(|code| (code, doc.number.0.clone())),
            }
        }
        None => None,
    };
    let t = g.tourist.as_ref();
    let pick = |own: Option<&crate::model::fields::Line<20>>, default: &str| {
        own.map(|v| v.0.clone())
            .or_else(|| (!default.is_empty()).then(|| default.to_string()))
    };
    // The hotel's default is an adult's: a guest under 18 on arrival is given theirs.
    let minor = g.birth_date.is_some_and(|b| {
        b.0.checked_add_months(chrono::Months::new(18 * 12))
            .is_some_and(|adult| adult > party.arrival)
    });
    let default = if minor { "" } else { d.tax_category.as_str() };
    let category = pick(t.and_then(|t| t.tax_category.as_ref()), default);
    let category = c.listed(
        category.as_deref(),
        (TAX_CATEGORIES, false),
        "tourist.tax_category",
    )?;
    let arrival = pick(
        t.and_then(|t| t.arrival_organisation.as_ref()),
        &d.arrival_organisation,
    );
    let arrival = c.listed(
        arrival.as_deref(),
        (ARRIVALS, true),
        "tourist.arrival_organisation",
    )?;
    let service = t
        .and_then(|t| t.service_type.as_ref())
        .map(|s| s.0.clone())
        .unwrap_or_else(|| d.service_type.clone());
    let service = c.listed(Some(&service), (SERVICES, true), "tourist.service_type")?;
    let mut border = None;
    if let Some((_, _, false)) = residence {
        let crossing = t
            .and_then(|t| t.border_crossing.as_ref())
            .map(|b| b.0.as_str());
        let crossing = c.listed(
            crossing,
            (BORDER_CROSSINGS, true),
            "tourist.border_crossing",
        )?;
        let entered = c.needed(t.and_then(|t| t.entry_date), "tourist.entry_date");
        border = Some(crossing.zip(entered));
    }
    let (
        Some(gender),
        Some(birth_date),
        Some((citizenship, _)),
        Some((_, birth_country)),
        Some(birth_city),
        Some((_, residence, _)),
        Some(residence_city),
        Some((document_type, document_number)),
        Some(category),
        Some(arrival),
        Some(service),
    ) = (
        gender,
        birth_date,
        citizenship,
        birth_country,
        birth_city,
        residence,
        residence_city,
        document,
        category,
        arrival,
        service,
    )
    else {
        return Ok(None);
    };
    let mut body = json!({
        "ID": guid(&party.reservation.id, &g.id, party.arrival, party.undone),
        "Facility": d.facility,
        "StayFrom": date(party.arrival),
        "TimeStayFrom": party.arrived_at.format("%H:%M").to_string(),
        "ForeseenStayUntil": date(party.departure),
        "TimeEstimatedStayUntil": LEAVING_AT,
        "DocumentType": document_type,
        "DocumentNumber": document_number,
        "TouristName": g.first_name,
        "TouristSurname": g.last_name,
        "Gender": gender,
        "DateOfBirth": date(birth_date.0),
        "Citizenship": citizenship,
        "CountryOfBirth": birth_country,
        "CityOfBirth": birth_city,
        "CountryOfResidence": residence,
        "CityOfResidence": residence_city,
        "TTPaymentCategory": category,
        "ArrivalOrganisation": arrival,
        "OfferedServiceType": service,
    });
    if let Some(street) = home.and_then(|a| a.line1.as_ref()) {
        body["ResidenceAddress"] = json!(street.0);
    }
    match border {
        Some(Some((crossing, entered))) => {
            body["BorderCrossing"] = json!(crossing);
            body["BorderCrossingHr"] = json!(crossing);
            body["PassageDate"] = json!(date(entered.0));
        }
        Some(None) => return Ok(None),
        None => {}
    }
    Ok(Some(body))
}
