//! The reservation page's "Change the booking" form (`POST /reservations/{id}/change`):
//! dates, room type and room, the party (adults, children), the nightly rate, where it was
//! booked and the notes, through the same use case and rules as `PUT /v1/reservations/{id}`.
//! While the guests are in the house only what the API lets change is offered (departure,
//! room, notes). A refusal shows the form again, open, with what was typed and each error
//! at its field. The room board posts its drag-and-drop moves here too, with `back` naming
//! the board to return to once done.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::reservation::Refusal;
use super::stay_actions::{apply, refuse};
use super::{DeskState, open_form, or_answer};
use crate::domain::enums::Source;
use crate::domain::money::{format_amount, parse_amount};
use crate::domain::reservation::Status;
use crate::error::FieldError;
use crate::i18n::T;
use crate::model::ReservationUpdate;
use crate::model::input::FromJson;
use crate::service::desk_views::Stay;
use crate::service::setup_plan::whole;

/// One field of the form: name, label, value, error.
pub struct Field {
    /// The form name (also the API field).
    pub name: &'static str,
    /// The label.
    pub label: String,
    /// What the form holds.
    pub value: String,
    /// The rule it breaks, in words.
    pub error: Option<String>,
}

/// The form.
pub struct Change {
    /// Whether the guests are in the house (only departure, room and notes change).
    pub in_house: bool,
    /// Arrival and departure.
    pub dates: Vec<Field>,
    /// The room type and its choices (id, name).
    pub room_type: Field,
    /// Every room type.
    pub types: Vec<(String, String)>,
    /// The room and its choices (id, number), "decide at check-in" first.
    pub room: Field,
    /// The rooms of the booked type.
    pub rooms: Vec<(String, String)>,
    /// Adults and children.
    pub party: Vec<Field>,
    /// The children's ages (`4, 7`).
    pub ages: Field,
    /// Extra beds and cots (changeable while the guests are in the house too).
    pub beds: Vec<Field>,
    /// The nightly rate, as an amount (`95.00`).
    pub rate: Field,
    /// Why the rate is what it is.
    pub rate_note: Field,
    /// Where it was booked, and the choices.
    pub source: Field,
    /// The sources (value, label).
    pub sources: Vec<(String, String)>,
    /// The notes.
    pub notes: Field,
    /// Whether it comes back refused (shown open).
    pub open: bool,
    /// The rate as stored (minor units), so a changed rate is told from a kept one.
    pub stored_rate: i64,
}

/// The form of stay `v`, with what a refusal left.
pub(super) fn form(t: &T, v: &Stay, refusal: &Refusal) -> Change {
    let r = &v.reservation;
    let field = |name: &'static str, label: &str, stored: String| Field {
        name,
        label: t.t(label),
        value: refusal.typed.get(name).cloned().unwrap_or(stored),
        error: super::rules::at(t, &refusal.errors, name),
    };
    let fields = [
        "arrival",
        "departure",
        "room_type_id",
        "room_id",
        "adults",
        "children",
        "children_ages",
        "extra_beds",
        "cots",
        "nightly_rate",
        "rate_note",
        "source",
        "notes",
    ];
    Change {
        in_house: r.status == Status::CheckedIn,
        dates: vec![
            field("arrival", "field-arrival", r.arrival.to_string()),
            field("departure", "field-departure", r.departure.to_string()),
        ],
        room_type: field("room_type_id", "field-room-type", r.room_type_id.clone()),
        types: v
            .room_types
            .iter()
            .map(|x| (x.id.clone(), x.name.clone()))
            .collect(),
        room: field(
            "room_id",
            "field-room",
            r.room_id.clone().unwrap_or_default(),
        ),
        rooms: std::iter::once((String::new(), t.t("room-decide-later")))
            .chain(
                v.type_rooms
                    .iter()
                    .map(|m| (m.id.clone(), m.number.clone())),
            )
            .collect(),
        party: vec![
            field("adults", "field-adults", r.adults.to_string()),
            field("children", "field-children", r.children.to_string()),
        ],
        ages: field(
            "children_ages",
            "field-children-ages",
            r.children_ages.as_ref().map_or_else(String::new, |a| {
                a.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
            }),
        ),
        beds: vec![
            field("extra_beds", "field-extra-beds", r.extra_beds.to_string()),
            field("cots", "field-cots", r.cots.to_string()),
        ],
        rate: field("nightly_rate", "field-rate", amount(t, r.nightly_rate)),
        rate_note: field(
            "rate_note",
            "field-rate-note",
            r.rate_note.clone().unwrap_or_default(),
        ),
        source: field("source", "field-source", r.source.as_str().to_string()),
        sources: Source::ALL
            .iter()
            .map(|x| {
                (
                    x.as_str().to_string(),
                    t.t(&format!("source-{}", x.as_str())),
                )
            })
            .collect(),
        notes: field("notes", "field-notes", r.notes.clone().unwrap_or_default()),
        stored_rate: r.nightly_rate,
        open: fields
            .iter()
            .any(|f| super::rules::at(t, &refusal.errors, f).is_some()),
    }
}

/// An amount as the page's language writes it in a field: `95.00`, `95,00`.
fn amount(t: &T, minor: i64) -> String {
    let plain = format_amount(minor);
    match t.lang() {
        crate::i18n::Lang::En => plain,
        _ => plain.replace('.', ","),
    }
}

/// Children's ages as typed (`4, 7` or `4 7`): a list, each a number where it reads as one
/// (else the text, for the API's rule to name); nothing typed clears them.
pub(super) fn ages(typed: &str) -> Value {
    if typed.is_empty() {
        return Value::Null;
    }
    typed
        .split([',', ';', ' '])
        .filter(|a| !a.is_empty())
        .map(whole)
        .collect()
}

/// A field the form carries, trimmed.
fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim)
}

/// The change form. A field the form does not carry (an in-house stay's carries fewer) is
/// `None` and stays as it is.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ChangeForm {
    /// The reservation's version when the page was drawn.
    version: String,
    /// The nightly rate the page showed (in minor units), to see whether it changed.
    stored_rate: String,
    /// Where to go back to (the board's page), when the change came from there.
    back: String,
    arrival: Option<String>,
    departure: Option<String>,
    room_type_id: Option<String>,
    source: Option<String>,
    /// Empty: no room.
    room_id: Option<String>,
    /// Empty: cleared.
    notes: Option<String>,
    rate_note: Option<String>,
    adults: Option<String>,
    children: Option<String>,
    extra_beds: Option<String>,
    cots: Option<String>,
    /// The children's ages, as typed ("4, 9").
    children_ages: Option<String>,
    /// As people write amounts.
    nightly_rate: Option<String>,
}

impl ChangeForm {
    /// The PUT body the form asks for: the fields it carries, an empty room or notes
    /// cleared; an amount that cannot be read is an error at `nightly_rate` in words.
    fn request(&self, t: &T, errors: &mut Vec<FieldError>) -> Value {
        let mut body = Map::new();
        let text = [
            ("arrival", &self.arrival),
            ("departure", &self.departure),
            ("room_type_id", &self.room_type_id),
            ("source", &self.source),
        ];
        for (k, v) in text {
            if let Some(v) = given(v) {
                body.insert(k.into(), Value::String(v.into()));
            }
        }
        for (k, v) in [
            ("room_id", &self.room_id),
            ("notes", &self.notes),
            ("rate_note", &self.rate_note),
        ] {
            if let Some(v) = given(v) {
                let cleared = v.is_empty();
                body.insert(k.into(), if cleared { Value::Null } else { v.into() });
            }
        }
        for (k, v) in [
            ("adults", &self.adults),
            ("children", &self.children),
            ("extra_beds", &self.extra_beds),
            ("cots", &self.cots),
        ] {
            if let Some(v) = given(v) {
                body.insert(k.into(), whole(v));
            }
        }
        if let Some(v) = given(&self.children_ages) {
            body.insert("children_ages".into(), ages(v));
        }
        if let Some(v) = given(&self.nightly_rate) {
            match parse_amount(v) {
                Some(minor) => {
                    body.insert("nightly_rate".into(), Value::from(minor));
                }
                None => errors.push(FieldError::new(
                    "nightly_rate",
                    "invalid",
                    t.t("error-amount"),
                )),
            }
        }
        Value::Object(body)
    }
}

/// `POST /reservations/{id}/change`.
#[handler]
pub async fn change(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<ChangeForm>(req, body, &state, super::CHANGES).await);
    let (fields, form) = (posted.fields, posted.typed);
    let version = fields.version.parse().unwrap_or(0);
    let mut errors = Vec::new();
    let input = fields.request(&t, &mut errors);
    // A rate set by hand says why: the desk asks for the reason whenever the rate changes.
    let stored = fields.stored_rate.parse::<i64>().ok();
    let typed = input.get("nightly_rate").and_then(Value::as_i64);
    if typed.is_some() && typed != stored && input.get("rate_note").is_none_or(Value::is_null) {
        errors.push(FieldError::new(
            "rate_note",
            "required",
            t.t("error-rate-note"),
        ));
    }
    let parsed = ReservationUpdate::from_json(&input, "", &mut errors);
    let (Some(input), true) = (parsed, errors.is_empty()) else {
        let refusal = Refusal {
            typed: form.clone(),
            problem: Some(t.n("form-errors", errors.len() as i64)),
            errors,
        };
        return refuse(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, refusal).await;
    };
    let back = board_back(&fields.back);
    apply(
        &state,
        &s,
        t,
        (id, version),
        input,
        form.clone(),
        ("changed", back),
    )
    .await
}

/// Where a move from the room board goes back to once done: the board from the day it
/// showed (`/board?from=YYYY-MM-DD`); anything else is ignored, so the form can never send
/// the browser elsewhere.
fn board_back(back: &str) -> Option<String> {
    let day = back
        .strip_prefix("/board?from=")?
        .parse::<chrono::NaiveDate>()
        .ok()?;
    Some(format!("/board?from={day}"))
}
