//! The simulator's three actions, validated as eVisitor's Web API page lists them:
//! `CheckInTourist` (a second post under the same ID edits the active check-in; a person
//! already checked in under another ID is refused), `CheckOutTourist` and
//! `CancelTouristCheckIn`. Each answers `Ok` or eVisitor's own words.

use chrono::NaiveDate;
use serde_json::Value;

use super::{
    ARRIVALS, CATEGORIES, COUNTRIES, CROSSINGS, DOCUMENTS, FACILITY, Held, SERVICES, SETTLEMENTS,
    State, text,
};

fn day(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y%m%d")
        .ok()
        .filter(|_| s.len() == 8)
}

fn time_ok(s: &str) -> bool {
    s.len() == 5 && chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok()
}

pub(super) fn check_in(state: &State, b: &Value, today: NaiveDate) -> Result<(), String> {
    let id = text(b, "ID");
    if id.is_empty() {
        return Err("[[[Nije zadan ID.]]]".into());
    }
    for f in [
        "Facility",
        "StayFrom",
        "TimeStayFrom",
        "ForeseenStayUntil",
        "TimeEstimatedStayUntil",
        "DocumentType",
        "DocumentNumber",
        "TouristName",
        "TouristSurname",
        "Gender",
        "DateOfBirth",
        "Citizenship",
        "CountryOfBirth",
        "CountryOfResidence",
        "TTPaymentCategory",
        "ArrivalOrganisation",
        "OfferedServiceType",
    ] {
        if text(b, f).is_empty() {
            return Err(format!(
                "Svi podaci su obavezni osim onih koji su označeni kao neobavezni. ({f})"
            ));
        }
    }
    if text(b, "Facility") != FACILITY {
        return Err("Objekt nije pronađen.".into());
    }
    let (Some(from), Some(until), Some(_)) = (
        day(text(b, "StayFrom")),
        day(text(b, "ForeseenStayUntil")),
        day(text(b, "DateOfBirth")),
    ) else {
        return Err("Datum nije u ispravnom formatu (YYYYMMDD).".into());
    };
    if !time_ok(text(b, "TimeStayFrom")) || !time_ok(text(b, "TimeEstimatedStayUntil")) {
        return Err("Vrijeme nije u ispravnom formatu (hh:mm).".into());
    }
    if from > until {
        return Err("Upisan datum boravka do je manji od datuma boravka od.".into());
    }
    if from + chrono::Days::new(15) < today || from > today {
        return Err(
            "Nije dopušten unos datuma boravka od koji ne zadovoljava definirana prava.".into(),
        );
    }
    if !["muški", "ženski"].contains(&text(b, "Gender")) {
        return Err("Spol nije ispravan.".into());
    }
    let country = |k: &str| COUNTRIES.iter().find(|c| c.1 == text(b, k)).copied();
    let (Some(_), Some(birth), Some(residence)) = (
        country("Citizenship"),
        country("CountryOfBirth"),
        country("CountryOfResidence"),
    ) else {
        return Err("Država nije pronađena u šifrarniku.".into());
    };
    let settlement = |k: &str| SETTLEMENTS.iter().any(|s| s.0 == text(b, k));
    if text(b, "CityOfBirth").is_empty() || (birth.0 == "HR" && !settlement("CityOfBirth")) {
        return Err("Grad rođenja nije zadan.".into());
    }
    if text(b, "CityOfResidence").is_empty()
        || (residence.0 == "HR" && !settlement("CityOfResidence"))
    {
        return Err("Grad prebivališta nije zadan.".into());
    }
    if !DOCUMENTS.iter().any(|d| d.0 == text(b, "DocumentType")) {
        return Err("Vrsta putne isprave nije pronađena.".into());
    }
    if !CATEGORIES[..3]
        .iter()
        .any(|c| c.0 == text(b, "TTPaymentCategory"))
    {
        return Err("Kategorija plaćanja boravišne pristojbe nije dozvoljena za objekt.".into());
    }
    if !ARRIVALS
        .iter()
        .any(|a| a.0 == text(b, "ArrivalOrganisation"))
    {
        return Err("Organizacija dolaska nije pronađena.".into());
    }
    if !SERVICES.contains(&text(b, "OfferedServiceType")) {
        return Err("Vrsta pružene usluge nije pronađena.".into());
    }
    if !residence.2 {
        let crossing = [text(b, "BorderCrossing"), text(b, "BorderCrossingHr")]
            .into_iter()
            .find(|c| !c.is_empty());
        let known = crossing.is_some_and(|c| CROSSINGS.iter().any(|x| x.0 == c));
        if !known || day(text(b, "PassageDate")).is_none() {
            return Err("Potrebno je upisati granični prijelaz, te datum prijelaza.".into());
        }
    }
    let mut held = state.held.lock().unwrap();
    let same_person = |h: &Held| {
        [
            "DateOfBirth",
            "DocumentType",
            "DocumentNumber",
            "CountryOfResidence",
        ]
        .iter()
        .all(|k| text(&h.body, k) == text(b, k))
    };
    if held.iter().any(|(other, h)| {
        other != id && h.checked_out.is_none() && h.cancelled.is_none() && same_person(h)
    }) {
        return Err("Turist je već prijavljen u navedenom objektu.".into());
    }
    match held.get_mut(id) {
        Some(h) if h.checked_out.is_some() || h.cancelled.is_some() => {
            Err("Moguće je izmjeniti samo aktivne prijave.".into())
        }
        Some(h) if text(&h.body, "StayFrom") != text(b, "StayFrom") => {
            Err("Datum i vrijeme boravka od nije moguće mijenjati.".into())
        }
        Some(h) => {
            h.body = b.clone();
            h.edits += 1;
            Ok(())
        }
        None => {
            held.insert(
                id.to_string(),
                Held {
                    body: b.clone(),
                    edits: 0,
                    checked_out: None,
                    cancelled: None,
                },
            );
            Ok(())
        }
    }
}

pub(super) fn check_out(state: &State, b: &Value, today: NaiveDate) -> Result<(), String> {
    let (id, date, time) = (
        text(b, "ID"),
        text(b, "CheckOutDate"),
        text(b, "CheckOutTime"),
    );
    if id.is_empty() || date.is_empty() || time.is_empty() {
        return Err("Svi podaci su obavezni.".into());
    }
    let Some(out) = day(date).filter(|_| time_ok(time)) else {
        return Err("Datum nije u ispravnom formatu (YYYYMMDD).".into());
    };
    let mut held = state.held.lock().unwrap();
    let Some(h) = held.get_mut(id) else {
        return Err("Prijava turista nije pronađena.".into());
    };
    if h.cancelled.is_some() {
        return Err("Prijava turista je poništena.".into());
    }
    if h.checked_out.is_some() {
        return Err("Turist je već odjavljen.".into());
    }
    if day(text(&h.body, "StayFrom")).is_some_and(|from| out < from) {
        return Err("Upisan datum odjave je manji od datuma boravka od.".into());
    }
    if out > today {
        return Err("Datum odjave turista ne smije biti veći od današnjeg datuma.".into());
    }
    h.checked_out = Some((date.to_string(), time.to_string()));
    Ok(())
}

pub(super) fn cancel(state: &State, b: &Value) -> Result<(), String> {
    let mut held = state.held.lock().unwrap();
    let Some(h) = held.get_mut(text(b, "ID")) else {
        return Err("Prijava turista nije pronađena.".into());
    };
    if h.cancelled.is_some() {
        return Err("Prijava je već poništena.".into());
    }
    if h.checked_out.is_some() {
        return Err("Nije moguće poništiti prijavu odjavljenog turista.".into());
    }
    h.cancelled = Some(text(b, "Reason").to_string());
    Ok(())
}
