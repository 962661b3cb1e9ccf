//! Ross1000, the regional platform most Italian regions use for ISTAT's movement of guests
//! (Veneto, Emilia-Romagna, Lombardy, Piedmont and others): the file its portal imports
//! ("Importa file da gestionale"), one `<movimento>` per day with the structure's rooms and
//! beds, each guest's arrival on its day and departure on its day. The platform works out
//! the C/59 figures (nights by residence) itself.
//!
//! Built from the region's own web-service contract (the Emilia-Romagna `checkinV2` WSDL:
//! element names, order and which must be present; `docs/research/it-ross1000.md`). GIES's
//! PDF, which gives the meaning of each field, was not read: UNVERIFIED are the letter case
//! of `tipoturismo` and `mezzotrasporto` (innkeep sends "Non specificato", which the
//! platforms document as allowed) and what a foreign guest's `luogoresidenza` must hold
//! (innkeep leaves it empty, which the contract allows). Codes are the police's (the
//! Alloggiati tables innkeep imports): guest types 16–20, 9-digit states and
//! municipalities. Pure: the caller reads the code tables and the stays.

use chrono::NaiveDate;

use super::alloggiati::party::guest_types;
use super::alloggiati::record::is_member;
use super::alloggiati::soap::escape;
use super::collect::Collect;
use crate::domain::enums::Gender;
use crate::error::AppResult;
use crate::model::Guest;
use crate::model::codes::CodeLookup;
use crate::model::outcome::Problem;

const ITALY: &str = "IT";
/// What the platforms accept when the hotel does not ask (the contract's own value).
const UNSPECIFIED: &str = "Non specificato";
const KEY: &str = "problem-istat-required";
const AUTHORITY: &str = "the ISTAT movement (Ross1000)";

/// A guest's arrival.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    /// The guest's id for this stay (`CODE-n`, the booking's code and the guest's place in
    /// the party): never changes, the departure names it.
    pub id: String,
    /// The police's guest type (16 single, 17 head of family, 18 group leader, 19 family
    /// member, 20 group member).
    pub kind: u8,
    /// A member's head (their `id`).
    pub head: Option<String>,
    /// Family name.
    pub surname: String,
    /// Given name.
    pub name: String,
    /// `M` or `F`.
    pub sex: char,
    /// Citizenship, the police's state code.
    pub citizenship: String,
    /// Country of residence, the police's state code.
    pub residence_state: String,
    /// For a resident of Italy, the municipality's code; else empty.
    pub residence_place: String,
    /// Date of birth.
    pub born: NaiveDate,
}

/// A guest's departure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Departure {
    /// The arrival's `id`.
    pub id: String,
    /// The guest type.
    pub kind: u8,
    /// The arrival day.
    pub arrival: NaiveDate,
}

/// A day of the file.
#[derive(Debug, Clone, Default)]
pub struct Day {
    /// The day.
    pub date: NaiveDate,
    /// Rooms occupied that night.
    pub rooms_occupied: i64,
    /// Rooms for sale.
    pub rooms: i64,
    /// Beds for sale.
    pub beds: i64,
    /// Guests who arrived.
    pub arrivals: Vec<Arrival>,
    /// Guests who left.
    pub departures: Vec<Departure>,
}

/// The `id` of the guest at `index` of the booking `code`.
pub fn guest_id(code: &str, index: usize) -> String {
    format!("{code}-{}", index + 1)
}

/// The departures of a party that arrived on `arrival`.
pub fn departures(code: &str, guests: &[Guest], arrival: NaiveDate) -> Vec<Departure> {
    guest_types(guests)
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Departure {
            id: guest_id(code, i),
            kind,
            arrival,
        })
        .collect()
}

/// The arrivals of the party of booking `code` that the platform would take, and the
/// problems of the others, each left out alone. Members name their head, so when the head
/// is left out its members are too (the index of each guest left out for that reason is
/// in the second list with no problem of its own).
#[allow(clippy::type_complexity)]
pub fn arrivals(
    codes: &dyn CodeLookup,
    code: &str,
    guests: &[Guest],
) -> AppResult<(Vec<Arrival>, Vec<Problem>, Vec<usize>)> {
    let types = guest_types(guests);
    let (mut out, mut problems, mut orphans) = (Vec::new(), Vec::new(), Vec::new());
    for (index, (g, &kind)) in guests.iter().zip(&types).enumerate() {
        let mut c = Collect::new(codes, index, g);
        let arrival = arrival(&mut c, code, kind)?;
        problems.append(&mut c.problems);
        let head_in = out
            .first()
            .is_some_and(|h: &Arrival| h.id == guest_id(code, 0));
        match arrival {
            Some(a) if a.head.is_none() || head_in => out.push(a),
            Some(_) => orphans.push(index),
            None => {}
        }
    }
    Ok((out, problems, orphans))
}

fn arrival(c: &mut Collect, code: &str, kind: u8) -> AppResult<Option<Arrival>> {
    let g = c.guest;
    let sex = match c.require(g.gender, "gender", AUTHORITY, KEY) {
        Some(Gender::Male) => Some('M'),
        Some(Gender::Female) => Some('F'),
        Some(Gender::Other) => {
            c.add(
                "gender",
                "not_supported",
                "the ISTAT movement records only M or F; record the gender on the guest's document",
                ("problem-istat-gender", vec![]),
            );
            None
        }
        None => None,
    };
    let born = c.require(g.birth_date, "birth_date", AUTHORITY, KEY);
    let citizenship = match c.require(g.nationality.clone(), "nationality", AUTHORITY, KEY) {
        Some(iso) => c.state(&iso, "nationality")?,
        None => None,
    };
    let address = g.address.as_ref();
    let country = address
        .and_then(|a| a.country.as_ref())
        .map(|c| c.0.clone());
    let country = c.require(country, "address.country", AUTHORITY, KEY);
    let mut place = Some(String::new());
    let state = match &country {
        Some(iso) => {
            if iso == ITALY {
                let city = address.and_then(|a| a.city.as_ref()).map(|c| c.0.clone());
                let province = address.and_then(|a| a.region.as_ref()).map(|r| r.0.clone());
                place = match c.require(city, "address.city", AUTHORITY, KEY) {
                    Some(city) => c
                        .municipality(&city, province.as_deref(), "address.city")?
                        .map(|(code, _)| code),
                    None => None,
                };
            }
            c.state(iso, "address.country")?
        }
        None => None,
    };
    let (Some(sex), Some(born), Some(citizenship), Some(residence_state), Some(residence_place)) =
        (sex, born, citizenship, state, place)
    else {
        return Ok(None);
    };
    let head = is_member(kind).then(|| guest_id(code, 0));
    Ok(Some(Arrival {
        id: guest_id(code, c.index),
        kind,
        head,
        surname: g.last_name.clone(),
        name: g.first_name.clone(),
        sex,
        citizenship,
        residence_state,
        residence_place,
        born: born.0,
    }))
}

fn element(out: &mut String, name: &str, text: &str) {
    out.push_str(&format!("<{name}>{}</{name}>", escape(text)));
}

fn day_text(d: NaiveDate) -> String {
    d.format("%Y%m%d").to_string()
}

/// The file for the structure `structure` (the code the region gave it), made by
/// `product`: every day of `days`, in order, each in the contract's element order.
pub fn document(structure: &str, product: &str, days: &[Day]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<movimenti>");
    element(&mut out, "codice", structure);
    element(&mut out, "prodotto", product);
    for d in days {
        out.push_str("\n<movimento>");
        element(&mut out, "data", &day_text(d.date));
        out.push_str("<struttura>");
        element(&mut out, "apertura", "SI");
        element(&mut out, "camereoccupate", &d.rooms_occupied.to_string());
        element(&mut out, "cameredisponibili", &d.rooms.to_string());
        element(&mut out, "lettidisponibili", &d.beds.to_string());
        out.push_str("</struttura>");
        if !d.arrivals.is_empty() {
            out.push_str("<arrivi>");
            for a in &d.arrivals {
                out.push_str("<arrivo>");
                element(&mut out, "idswh", &a.id);
                element(&mut out, "tipoalloggiato", &a.kind.to_string());
                if let Some(h) = &a.head {
                    element(&mut out, "idcapo", h);
                }
                element(&mut out, "cognome", &a.surname);
                element(&mut out, "nome", &a.name);
                element(&mut out, "sesso", &a.sex.to_string());
                element(&mut out, "cittadinanza", &a.citizenship);
                element(&mut out, "statoresidenza", &a.residence_state);
                element(&mut out, "luogoresidenza", &a.residence_place);
                element(&mut out, "datanascita", &day_text(a.born));
                element(&mut out, "tipoturismo", UNSPECIFIED);
                element(&mut out, "mezzotrasporto", UNSPECIFIED);
                out.push_str("</arrivo>");
            }
            out.push_str("</arrivi>");
        }
        if !d.departures.is_empty() {
            out.push_str("<partenze>");
            for p in &d.departures {
                out.push_str("<partenza>");
                element(&mut out, "idswh", &p.id);
                element(&mut out, "tipoalloggiato", &p.kind.to_string());
                element(&mut out, "arrivo", &day_text(p.arrival));
                out.push_str("</partenza>");
            }
            out.push_str("</partenze>");
        }
        out.push_str("</movimento>");
    }
    out.push_str("\n</movimenti>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, n).unwrap()
    }

    #[test]
    fn the_file_keeps_the_contracts_order_and_escapes_text() {
        let head = Arrival {
            id: "K7M2Q9-1".into(),
            kind: 17,
            head: None,
            surname: "D'Angelo & Co".into(),
            name: "Maria".into(),
            sex: 'F',
            citizenship: "100000100".into(),
            residence_state: "100000100".into(),
            residence_place: "403015146".into(),
            born: NaiveDate::from_ymd_opt(1980, 1, 15).unwrap(),
        };
        let member = Arrival {
            id: "K7M2Q9-2".into(),
            kind: 19,
            head: Some("K7M2Q9-1".into()),
            residence_place: String::new(),
            ..head.clone()
        };
        let xml = document(
            "ABC123",
            "innkeep",
            &[Day {
                date: d(5),
                rooms_occupied: 3,
                rooms: 10,
                beds: 22,
                arrivals: vec![head, member],
                departures: vec![Departure {
                    id: "QQ1-1".into(),
                    kind: 16,
                    arrival: d(2),
                }],
            }],
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "movimenti");
        let names = |n: roxmltree::Node| -> Vec<String> {
            n.children()
                .filter(|c| c.is_element())
                .map(|c| c.tag_name().name().to_string())
                .collect()
        };
        assert_eq!(names(root), ["codice", "prodotto", "movimento"]);
        let day = root
            .children()
            .find(|c| c.has_tag_name("movimento"))
            .unwrap();
        assert_eq!(names(day), ["data", "struttura", "arrivi", "partenze"]);
        let arrivals: Vec<_> = day
            .descendants()
            .filter(|c| c.has_tag_name("arrivo"))
            .collect();
        assert_eq!(
            names(arrivals[1]),
            [
                "idswh",
                "tipoalloggiato",
                "idcapo",
                "cognome",
                "nome",
                "sesso",
                "cittadinanza",
                "statoresidenza",
                "luogoresidenza",
                "datanascita",
                "tipoturismo",
                "mezzotrasporto"
            ]
        );
        assert!(
            xml.contains("<cognome>D&apos;Angelo &amp; Co</cognome>"),
            "{xml}"
        );
        assert!(xml.contains("<luogoresidenza></luogoresidenza>"));
        assert!(xml.contains("<data>20261105</data>"));
    }
}
