//! From a party (a reservation's guests) to Alloggiati records: every required field is
//! checked, and every place and document type is resolved through the imported code tables.
//! All problems of all guests are collected, so the front desk fixes them in one go.
//!
//! Guest types: a guest alone is 16. In a party, the primary guest heads it: a family
//! (17, members 19) when every guest shares the head's surname, otherwise a group (18,
//! members 20). Members carry no document fields.

use super::record::{MAX_NIGHTS, Record, guest_type, record_document_number, record_name};
use crate::compliance::codes::{DOCUMENT_TYPES, PLACES, STATE_PROVINCE, iso_state_name, name_key};
use crate::compliance::collect::Collect;
use crate::compliance::{Party, Problem};
use crate::domain::enums::{DocumentType, Gender};
use crate::domain::said::Value;
use crate::error::AppResult;
use crate::model::Guest;
use crate::model::codes::CodeLookup;

/// The scheme's name in the code tables.
pub const SCHEME: &str = "it-alloggiati";
const ITALY: &str = "IT";

impl Collect<'_> {
    fn required<T>(&mut self, value: Option<T>, field: &str) -> Option<T> {
        self.require(value, field, "Alloggiati Web", "problem-reg-required")
    }

    /// The state code of an ISO country.
    pub(crate) fn state(&mut self, iso: &str, field: &str) -> AppResult<Option<String>> {
        let Some(name) = iso_state_name(iso) else {
            self.add(
                field,
                "not_supported",
                format!("innkeep has no Alloggiati state name for country {iso}; register this guest on the portal"),
                ("problem-reg-no-state", vec![("country", Value::Text(iso.to_string()))]),
            );
            return Ok(None);
        };
        let found = self.codes.by_name(SCHEME, PLACES, &name_key(name))?;
        match found.into_iter().find(|f| f.province == STATE_PROVINCE) {
            Some(f) => Ok(Some(f.code)),
            None => {
                self.add(
                    field,
                    "not_found",
                    format!("{name} ({iso}) is not in the imported Luoghi table; import it with `innkeep compliance import-table Luoghi FILE`"),
                    ("problem-reg-state-missing", vec![("state", Value::Text(name.to_string()))]),
                );
                Ok(None)
            }
        }
    }

    /// The code and province of an Italian municipality, by name (and province, if given).
    pub(crate) fn municipality(
        &mut self,
        name: &str,
        province: Option<&str>,
        field: &str,
    ) -> AppResult<Option<(String, String)>> {
        let mut found = self.codes.by_name(SCHEME, PLACES, &name_key(name))?;
        found.retain(|f| f.province != STATE_PROVINCE);
        if let Some(p) = province.map(|p| p.trim().to_ascii_uppercase()) {
            found.retain(|f| f.province == p);
        }
        let current: Vec<_> = found.iter().filter(|f| f.valid_to.is_empty()).collect();
        let pick = match (current.len(), found.len()) {
            (1, _) => current[0].clone(),
            (0, 1) => found[0].clone(),
            (0, 0) => {
                self.add(field, "not_found", format!("{name:?} is not an Italian municipality in the imported Luoghi table (check the spelling and the province)"),
                    ("problem-reg-place-unknown", vec![("place", Value::Text(name.to_string()))]));
                return Ok(None);
            }
            _ => {
                self.add(field, "ambiguous", format!("several municipalities are called {name:?}; give the province (such as RM) to tell them apart"),
                    ("problem-reg-place-ambiguous", vec![("place", Value::Text(name.to_string()))]));
                return Ok(None);
            }
        };
        Ok(Some((pick.code, pick.province)))
    }
}

fn document_code(kind: DocumentType) -> Option<&'static str> {
    match kind {
        DocumentType::Passport => Some("PASOR"),
        DocumentType::IdCard => Some("IDENT"),
        DocumentType::DrivingLicense => Some("PATEN"),
        DocumentType::Other => None,
    }
}

/// The guest types of a party, in its order.
pub fn guest_types(guests: &[Guest]) -> Vec<u8> {
    if guests.len() <= 1 {
        return vec![guest_type::SINGLE; guests.len()];
    }
    let head = name_key(&guests[0].last_name);
    let family = guests.iter().all(|g| name_key(&g.last_name) == head);
    let (lead, member) = if family {
        (guest_type::FAMILY_HEAD, guest_type::FAMILY_MEMBER)
    } else {
        (guest_type::GROUP_LEADER, guest_type::GROUP_MEMBER)
    };
    std::iter::once(lead)
        .chain(std::iter::repeat_n(member, guests.len() - 1))
        .collect()
}

/// Builds every guest's record, or returns every problem found.
pub fn records(
    codes: &dyn CodeLookup,
    party: &Party,
) -> AppResult<Result<Vec<Record>, Vec<Problem>>> {
    let types = guest_types(&party.guests);
    let nights = party.nights().min(MAX_NIGHTS) as u8;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (index, (guest, &kind)) in party.guests.iter().zip(&types).enumerate() {
        let mut c = Collect::new(codes, index, guest);
        let record = record(&mut c, party, kind, nights)?;
        problems.append(&mut c.problems);
        out.extend(record);
    }
    Ok(if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    })
}

fn record(c: &mut Collect, party: &Party, kind: u8, nights: u8) -> AppResult<Option<Record>> {
    let g = c.guest;
    let surname = record_name(&g.last_name, 50);
    let given_name = record_name(&g.first_name, 30);
    if surname.is_empty() {
        c.add(
            "last_name",
            "required",
            "last_name has no letters the registration accepts",
            ("problem-reg-no-letters", vec![]),
        );
    }
    if given_name.is_empty() {
        c.add(
            "first_name",
            "required",
            "first_name has no letters the registration accepts",
            ("problem-reg-no-letters", vec![]),
        );
    }
    let sex = match c.required(g.gender, "gender") {
        Some(Gender::Male) => Some(1),
        Some(Gender::Female) => Some(2),
        Some(Gender::Other) => {
            c.add("gender", "not_supported", "Alloggiati Web records only male or female; record the gender on the guest's document",
                ("problem-reg-gender", vec![]));
            None
        }
        None => None,
    };
    let birth_date = c.required(g.birth_date, "birth_date");
    let place = g.birth_place.as_ref();
    let birth_country = c.required(
        place.and_then(|p| p.country.as_ref()),
        "birth_place.country",
    );
    let mut birth = None;
    if let Some(country) = birth_country {
        let state = c.state(&country.0, "birth_place.country")?;
        birth = if country.0 == ITALY {
            let name = c.required(
                place.and_then(|p| p.municipality.as_ref()),
                "birth_place.municipality",
            );
            let region = place.and_then(|p| p.region.as_ref()).map(|r| r.0.as_str());
            match name {
                Some(n) => c
                    .municipality(&n.0, region, "birth_place.municipality")?
                    .zip(state)
                    .map(|((m, p), s)| (m, p, s)),
                None => None,
            }
        } else {
            state.map(|s| (String::new(), String::new(), s))
        };
    }
    let citizenship = match c.required(g.nationality.as_ref(), "nationality") {
        Some(n) => c.state(n, "nationality")?,
        None => None,
    };
    let mut document = (String::new(), String::new(), String::new());
    let mut document_ok = true;
    if !super::record::is_member(kind) {
        document_ok = false;
        if let Some(d) = c.required(g.document.as_ref(), "document") {
            let code = document_code(d.kind);
            if code.is_none() {
                c.add(
                    "document.type",
                    "not_supported",
                    "Alloggiati Web takes a passport, an identity card or a driving licence",
                    ("problem-reg-document-type", vec![]),
                );
            }
            let code = match code {
                Some(code) if c.codes.exists(SCHEME, DOCUMENT_TYPES, code)? => Some(code),
                Some(code) => {
                    c.add(
                        "document.type",
                        "not_found",
                        format!("document type {code} is not in the imported Tipi_Documento table"),
                        (
                            "problem-reg-document-type-missing",
                            vec![("code", Value::Text(code.to_string()))],
                        ),
                    );
                    None
                }
                None => None,
            };
            let number = record_document_number(&d.number.0);
            if number.is_empty() {
                c.add(
                    "document.number",
                    "required",
                    "document.number has no letters or digits",
                    ("problem-reg-document-number", vec![]),
                );
            }
            let issued_in = d
                .issuing_country
                .as_ref()
                .map(|c| c.0.as_str())
                .unwrap_or(ITALY);
            let place = if issued_in == ITALY {
                match c.required(d.issuing_place.as_ref(), "document.issuing_place") {
                    Some(p) => c
                        .municipality(&p.0, None, "document.issuing_place")?
                        .map(|(m, _)| m),
                    None => None,
                }
            } else {
                c.state(issued_in, "document.issuing_country")?
            };
            if let (Some(code), Some(place), false) = (code, place, number.is_empty()) {
                document = (code.to_string(), number, place);
                document_ok = true;
            }
        }
    }
    let (
        Some(sex),
        Some(birth_date),
        Some((municipality, province, state)),
        Some(citizenship),
        true,
    ) = (sex, birth_date, birth, citizenship, document_ok)
    else {
        return Ok(None);
    };
    Ok(Some(Record {
        guest_type: kind,
        arrival: party.arrival,
        nights,
        surname,
        given_name,
        sex,
        birth_date: birth_date.0,
        birth_municipality: municipality,
        birth_province: province,
        birth_state: state,
        citizenship,
        document_type: document.0,
        document_number: document.1,
        document_place: document.2,
    }))
}
