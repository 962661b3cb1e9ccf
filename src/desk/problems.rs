//! The use cases' own sentences in the page's language. A use case explains a refusal in
//! English for the API (`Room 101 is occupied.`); the desk finds that sentence among the
//! templates below by its code and shape, takes the values it carries (`101`) and says it
//! with the catalogue's words (`problem-room-occupied`). A sentence that matches no template
//! stays in English: a new message in a use case is never lost, only untranslated, and the
//! test below names every template so a changed sentence is noticed.
//!
//! This is the old way, on its way out: the stay's refusals (check-in, state changes, the
//! party, availability) are [`crate::refusal::Refusal`]s, said from their key and typed
//! values with no matching at all; the sentences below move there one by one.

use crate::domain::reservation::Status;
use crate::i18n::{Arg, Lang, T};

/// One sentence: the error code it comes with, its English shape with `{name}` where a value
/// stands, and the catalogue key that says it.
pub type Template = (&'static str, &'static str, &'static str);

/// Every sentence a desk page can show, by code.
#[rustfmt::skip]
pub const TEMPLATES: &[Template] = &[
    // Stays and reservations.
    ("room_unavailable", "The room is already given to reservation {code} on some of these nights.", "problem-room-taken"),
    ("room_unavailable", "The room is out of order.", "problem-the-room-out-of-order"),
    ("required", "a checked-in reservation must keep a room", "problem-keep-room"),
    ("in_past", "must not be before today for guests in the house", "problem-departure-past"),
    ("required", "no room is assigned; send room_id", "problem-no-room-assigned"),
    ("room_type_mismatch", "must be a room of the reservation's room type", "problem-room-type-mismatch"),
    ("must_be_after", "must be after arrival", "problem-after-arrival"),
    ("exceeds_max_occupancy", "adults + children must be at most {max} for room type {type}", "problem-max-occupancy"),
    ("too_many_guests", "lists {listed} guests but adults + children is {party}", "problem-too-many-guests"),
    ("too_many_guests", "the booking is for {party} guests and lists them all; change the adults or children first", "problem-party-full"),
    ("currency_mismatch", "must be {currency} (the room type's) unless nightly_rate is given", "problem-rate-currency"),
    ("currency_mismatch", "the city tax is in {tax} but the stay is in {stay}; one invoice cannot mix them", "problem-city-tax-currency"),
    ("in_future", "must not be in the future", "problem-in-future"),
    // Charges and invoices.
    ("required", "needs at least one line", "problem-one-line"),
    ("required", "an invoice needs at least one line", "problem-one-line"),
    ("exceeds_outstanding", "must be at most {amount}, what is still owed", "problem-exceeds-outstanding"),
    ("amount_too_large", "the amounts are too large to invoice", "problem-amounts-too-large"),
    // The first run.
    ("wrong_code", "is not the code innkeep printed when it started", "problem-wrong-first-run-code"),
    ("invalid", "is not a percentage; write it as 13 or 9.5", "problem-not-a-percentage"),
    ("invalid", "is not an amount; write it as 95 or 95.50", "problem-not-an-amount"),
    ("duplicate", "is the code of an earlier room type", "problem-code-earlier"),
    ("duplicate", "room {room} is already in an earlier room type", "problem-room-earlier"),
    ("required", "name at least one room type", "problem-one-room-type"),
    ("invalid", "name at least one room number, such as 101-112", "problem-one-room-number"),
    // Guests.
    // Rooms and room types.
    ("taken", "is already used by another room type", "problem-code-taken"),
    ("taken", "is already used by another room", "problem-number-taken"),
    // Staff and passwords.
    ("invalid_username", "must be 1 to 64 characters without spaces", "problem-username"),
    ("too_short", "must be at least 10 characters", "problem-password-short"),
    ("wrong_password", "is not your password", "problem-wrong-password"),
    ("unchanged", "must differ from the one you have", "problem-password-unchanged"),
    ("mismatch", "must be the same as the new password", "problem-password-mismatch"),
    // API clients, devices and kiosks.
    ("invalid", "must be a whole number from 1 up", "problem-whole-number"),
    ("out_of_range", "requests per second must be between 1 and {max}", "problem-rate-range"),
    ("out_of_range", "burst must be between 1 and {max}", "problem-burst-range"),
    ("out_of_range", "burst must be at least the requests per second", "problem-burst-below-rate"),
    ("kiosk_revoked", "The kiosk client is revoked.", "problem-kiosk-revoked"),
    // A sign-in link that cannot work (the authorization server's page, not a problem code).
    ("authorize_page", "The application did not say who it is (client_id is missing).", "problem-no-client-id"),
    ("authorize_page", "The server could not look up the application.", "problem-client-lookup"),
    ("authorize_page", "This application is not registered for staff sign-in.", "problem-not-for-staff"),
    ("authorize_page", "The application asked to return to an address it did not register (redirect_uri).", "problem-redirect-unknown"),
    // Webhooks.
    ("invalid_url", "must be an absolute http or https URL", "problem-url-absolute"),
    ("invalid_url", "must start with http:// or https://", "problem-url-scheme"),
    ("invalid_url", "must name a host", "problem-url-host"),
    ("invalid_url", "must not contain credentials; authenticate with the signature instead", "problem-url-credentials"),
    ("destination_refused", "link-local and cloud-metadata addresses never receive webhooks", "problem-url-link-local"),
    ("destination_refused", "this server is configured to refuse loopback destinations", "problem-url-loopback"),
    ("destination_refused", "this server is configured to refuse private-network destinations", "problem-url-private"),
    ("destination_refused", "the address is not a single host", "problem-url-not-unicast"),
    ("required", "name at least one event type, a family such as reservation.*, or *", "problem-events-required"),
    ("unknown_event", "is not an event type, a family such as reservation.*, or *", "problem-unknown-event"),
    // The compliance centre.
    ("invalid_table", "line {line}: the header must be {expected} (it is {given})", "problem-table-header"),
    ("invalid_table", "line {line}: Descrizione is empty", "problem-table-description"),
    ("invalid_table", "line {line}: Codice \"{code}\" must be 9 digits", "problem-table-place-code"),
    ("invalid_table", "line {line}: Provincia \"{province}\" must be two capital letters (ES for a foreign state)", "problem-table-province"),
    ("invalid_table", "line {line}: DataFineVal \"{date}\" must be dd/mm/yyyy or empty", "problem-table-valid-to"),
    ("invalid_table", "line {line}: Codice \"{code}\" must be 1 to 5 letters or digits", "problem-table-code"),
    ("invalid_table", "the file has no rows", "problem-table-empty"),
    ("invalid_table", "line {line}: {why}", "problem-table-line"),
];

/// `message`, sent with `code`, in the words of `t`'s language; `None` when no template has
/// its shape (or the page is in English, whose words the message already is).
pub fn say(t: &T, code: &str, message: &str) -> Option<String> {
    if t.lang() == Lang::En {
        return None;
    }
    TEMPLATES
        .iter()
        .filter(|(c, _, _)| *c == code)
        .find_map(|(_, template, key)| {
            let values = matches(template, message)?;
            let args: Vec<(&str, Arg)> = values
                .iter()
                .map(|(name, value)| (*name, Arg::Text(localised(t, value))))
                .collect();
            Some(t.with(key, &args))
        })
}

/// The values of `template`'s `{name}`s in `text`, when `text` has its shape.
pub fn matches<'a>(template: &'a str, text: &str) -> Option<Vec<(&'a str, String)>> {
    let mut values = Vec::new();
    fill(template, text, &mut values).then_some(values)
}

fn fill<'a>(template: &'a str, text: &str, values: &mut Vec<(&'a str, String)>) -> bool {
    let Some(open) = template.find('{') else {
        return template == text;
    };
    let Some(rest) = text.strip_prefix(&template[..open]) else {
        return false;
    };
    let Some(close) = template[open..].find('}').map(|c| open + c) else {
        return false;
    };
    let (name, after) = (&template[open + 1..close], &template[close + 1..]);
    let literal = &after[..after.find('{').unwrap_or(after.len())];
    // The value runs to one of the places where the next fixed words start (the last value
    // runs to the end); the first that lets the rest match wins.
    let ends: Vec<usize> = if literal.is_empty() {
        vec![rest.len()]
    } else {
        rest.match_indices(literal).map(|(i, _)| i).collect()
    };
    for end in ends.into_iter().filter(|&e| e > 0) {
        let mark = values.len();
        values.push((name, rest[..end].to_string()));
        if fill(after, &rest[end..], values) {
            return true;
        }
        values.truncate(mark);
    }
    false
}

/// A value as the page's language writes it: days as dates, reservation states in words,
/// decimal amounts with the decimal comma; anything else as it came.
fn localised(t: &T, value: &str) -> String {
    if let Ok(d) = chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        return t.short_date(d);
    }
    if let Ok(at) = chrono::DateTime::parse_from_rfc3339(value) {
        let utc = at.naive_utc();
        return format!("{} UTC", t.moment(utc.date(), utc.time()));
    }
    if value.contains(", ")
        && value
            .split(", ")
            .all(|v| chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok())
    {
        return value
            .split(", ")
            .map(|v| localised(t, v))
            .collect::<Vec<_>>()
            .join(", ");
    }
    if Status::NAMES.contains(&value) {
        return t.t(&format!("status-{value}"));
    }
    let decimal = value.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && (a.trim_start_matches('-').bytes().chain(b.bytes())).all(|c| c.is_ascii_digit())
    });
    if decimal {
        return value.replace('.', ",");
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_find_their_values() {
        let room = matches(
            "Room {room} is given to reservation {code} for some of these nights.",
            "Room 101 is given to reservation ABC123 for some of these nights.",
        );
        assert_eq!(
            room,
            Some(vec![("room", "101".into()), ("code", "ABC123".into())])
        );
        assert_eq!(
            matches("Room {room} is occupied.", "Room 101 is out of order."),
            None
        );
        assert_eq!(
            matches("line {line}: {why}", "line 3: bad: quote"),
            Some(vec![("line", "3".into()), ("why", "bad: quote".into())])
        );
        assert_eq!(
            matches("must name a host", "must name a host"),
            Some(vec![])
        );
    }

    #[test]
    fn italian_and_croatian_pages_say_the_use_cases_sentences_in_their_words() {
        let it = T::new(Lang::It);
        assert_eq!(
            say(&it, "room_unavailable", "The room is out of order.").as_deref(),
            Some("La camera è fuori servizio.")
        );
        let charge: crate::error::AppError = crate::refusal::Refusal::NoMoreCharges {
            status: Status::CheckedOut,
        }
        .into();
        let state = super::super::rules::detail(&T::new(Lang::Hr), &charge);
        assert!(!state.contains("checked_out"), "{state}");
        let owed = say(
            &it,
            "exceeds_outstanding",
            "must be at most 12.50, what is still owed",
        )
        .unwrap();
        assert!(owed.contains("12,50"), "{owed}");
        let held = crate::service::numbering::unconfirmed("2026-11-25T20:41:39.123Z");
        assert!(
            held.detail.contains("since 2026-11-25T20:41:39.123Z:"),
            "{}",
            held.detail
        );
        let held = super::super::rules::detail(&it, &held);
        assert!(
            held.starts_with("Le fatture sono sospese dal 25 nov 20:41 UTC"),
            "{held}"
        );
        assert_eq!(
            say(
                &T::new(Lang::En),
                "room_unavailable",
                "The room is out of order."
            ),
            None
        );
        assert_eq!(say(&it, "room_unavailable", "Something new."), None);
    }

    #[test]
    fn every_template_has_one_shape_per_code() {
        for (i, (code, template, _)) in TEMPLATES.iter().enumerate() {
            let sample = template.replace(['{', '}'], "");
            let first = TEMPLATES
                .iter()
                .position(|(c, t, _)| c == code && matches(t, &sample).is_some());
            assert_eq!(
                first,
                Some(i),
                "{template} is shadowed by an earlier template of {code}"
            );
        }
    }
}
