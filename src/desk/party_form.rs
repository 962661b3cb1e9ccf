//! The party on the check-in page and the kiosk: each guest's registration fields and the
//! role the authority will give them, a companion's part, and what a posted form asks to
//! change ([`PartyEdit`]), read without writing anything: the use case saves it in one
//! transaction, with the check-in.

use std::collections::HashMap;

use super::guest_form::{self, FormField, REGISTRATION};
use crate::error::FieldError;
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{Guest, GuestCreate, GuestUpdate, Reservation};
use crate::service::Services;
use crate::service::party::{GuestEdit, PartyEdit};

/// The form prefix of a companion being added.
pub const NEW: &str = "new_";

/// A companion's fields: their name, then what registration asks ([`REGISTRATION`]).
fn companion_fields() -> Vec<&'static str> {
    ["first_name", "last_name"]
        .into_iter()
        .chain(REGISTRATION.iter().copied())
        .collect()
}

/// One guest's part of the form.
pub struct GuestPart {
    /// The guest's name.
    pub name: String,
    /// How the authority will see them ("Head of family"), when the scheme says.
    pub role: Option<String>,
    /// The form names' prefix.
    pub prefix: String,
    /// The version shown (sent back to catch a concurrent change).
    pub version: i64,
    /// The fields.
    pub fields: Vec<FormField>,
}

/// The form prefix of the party's `i`-th guest.
pub fn prefix(i: usize) -> String {
    format!("g{i}_")
}

/// The tourist board's lists, by field name, when the scheme asks those fields.
pub type Lists = Option<Vec<(&'static str, Vec<(String, String)>)>>;

/// Every guest's registration part: their stored values, or `typed` when the form comes
/// back, and the errors placed under `guest_ids[i].`; with `lists`, the tourist board's
/// fields too, offered from its lists.
pub fn parts(
    svc: &Services,
    t: &T,
    party: &[Guest],
    (typed, lists): (Option<&HashMap<String, String>>, &Lists),
    errors: &[FieldError],
) -> Vec<GuestPart> {
    let roles = svc.compliance().registration.roles(party);
    let names = guest_form::registration_fields(lists.is_some());
    party
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let pre = prefix(i);
            let stored = guest_form::values_of(g, &pre);
            GuestPart {
                name: format!("{} {}", g.first_name, g.last_name),
                role: roles.get(i).map(|r| t.t(r.key())),
                version: g.version,
                fields: {
                    let mut fields = guest_form::fields(
                        t,
                        &pre,
                        Some(&names),
                        typed.unwrap_or(&stored),
                        errors,
                        &format!("guest_ids[{i}]."),
                    );
                    if let Some(lists) = lists {
                        guest_form::offer(&mut fields, lists, t);
                    }
                    fields
                },
                prefix: pre,
            }
        })
        .collect()
}

/// What the reservation page asks of a companion: the name, and the birth date the city
/// tax's age exemption needs; the rest is asked at check-in.
pub const COMPANION_SHORT: &[&str] = &["first_name", "last_name", "birth_date"];

/// The companion's part (`names` of it, all by default), when the booking has room for one
/// more guest.
pub fn companion(
    t: &T,
    r: &Reservation,
    names: Option<&[&'static str]>,
    typed: Option<&HashMap<String, String>>,
    errors: &[FieldError],
) -> Option<Vec<FormField>> {
    let room_for = (r.adults + r.children) as usize;
    let open = r.status == crate::domain::reservation::Status::Confirmed;
    (open && r.guest_ids.len() < room_for).then(|| {
        let empty = HashMap::new();
        let all = companion_fields();
        guest_form::fields(
            t,
            NEW,
            Some(names.unwrap_or(&all)),
            typed.unwrap_or(&empty),
            errors,
            "companion.",
        )
    })
}

/// What the posted form changes: the guests whose registration fields differ from what is
/// stored, and a companion when a name was typed. Errors of form values that cannot be read
/// at all are placed as the use case would place them.
pub fn edit_of(
    party: &[Guest],
    form: &HashMap<String, String>,
) -> Result<PartyEdit, Vec<FieldError>> {
    let mut edit = PartyEdit::default();
    let mut errors = Vec::new();
    for (i, g) in party.iter().enumerate() {
        let pre = prefix(i);
        // Only guests whose part the page showed (none without a registration scheme).
        if !form.contains_key(&format!("{pre}version")) {
            continue;
        }
        // The tourist board's fields count when the page showed them.
        let names =
            guest_form::registration_fields(form.contains_key(&format!("{pre}tax_category")));
        let body = guest_form::body_of(form, &pre, Some(&names));
        let stored = guest_form::body_of(&guest_form::values_of(g, &pre), &pre, Some(&names));
        if body == stored {
            continue;
        }
        let mut found = Vec::new();
        let Some(input) = GuestUpdate::from_json(&body, &format!("guest_ids[{i}]"), &mut found)
        else {
            errors.extend(found);
            continue;
        };
        let version = form
            .get(&format!("{pre}version"))
            .and_then(|v| v.parse().ok())
            .unwrap_or(g.version);
        edit.edits.push(GuestEdit {
            index: i,
            id: g.id.clone(),
            version,
            input,
        });
    }
    let typed = |k: &str| {
        form.get(&format!("{NEW}{k}"))
            .is_some_and(|v| !v.trim().is_empty())
    };
    if typed("first_name") || typed("last_name") {
        let body = guest_form::body_of(form, NEW, Some(&companion_fields()));
        let mut found = Vec::new();
        match GuestCreate::from_json(&body, "companion", &mut found) {
            Some(input) => edit.companion = Some(input),
            None => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(edit)
    } else {
        Err(errors)
    }
}
