//! The API's rule messages in the page's language. A use case says what is wrong in
//! English (`must be at most 200 characters`) with a stable code (`too_long`); on an Italian
//! or Croatian page the code's words come from the catalogue (`rule-too_long`), with the
//! numbers the English message carries (a length, a range) or the choices it lists. Messages
//! the desk wrote itself are already in the page's language and stay as they are.

use crate::domain::scopes::Scope;
use crate::error::{AppError, FieldError};
use crate::i18n::{Arg, Lang, T};

/// The codes said in words by the catalogues, each only when its message is the API's own
/// (the desk's own messages may share a code).
pub const CODES: &[(&str, &str)] = &[
    ("blank", "must not be blank"),
    ("too_long", "must be at most "),
    ("invalid_characters", "must not contain control"),
    ("out_of_range", "must be between "),
    ("invalid_email", "must be an e-mail"),
    ("invalid_phone", "must be a phone"),
    ("invalid_country", "must be an ISO 3166"),
    ("invalid_currency", "must be an ISO 4217"),
    ("invalid_code", "must be 1 to 16"),
    ("invalid_pattern", "may contain letters"),
    ("invalid_date", "must be a"),
    ("invalid_time_zone", "must be an IANA"),
    ("required", "is required"),
    ("invalid_type", "must be "),
    ("invalid_choice", "must be one of "),
];

/// What `e` says, in the words of `t`'s language.
pub fn say(t: &T, e: &FieldError) -> String {
    if let Some(said) = super::problems::say(t, e.code, &e.message) {
        return said;
    }
    let known = CODES
        .iter()
        .any(|(code, api)| *code == e.code && e.message.starts_with(api));
    if t.lang() == Lang::En || !known {
        return e.message.clone();
    }
    let numbers: Vec<i64> = e
        .message
        .split_whitespace()
        .filter_map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_digit() && c != '-')
                .parse()
                .ok()
        })
        .collect();
    let list = e
        .message
        .split_once("one of ")
        .map_or_else(String::new, |(_, l)| l.to_string());
    t.with(
        &format!("rule-{}", e.code),
        &[
            ("n1", Arg::Num(numbers.first().copied().unwrap_or_default())),
            ("n2", Arg::Num(numbers.get(1).copied().unwrap_or_default())),
            ("list", Arg::Text(list)),
        ],
    )
}

/// What a refusal's detail says, in the words of `t`'s language (the English detail when
/// no template knows its shape).
pub fn detail(t: &T, e: &AppError) -> String {
    if let Some(said) = &e.said {
        return said.say(t);
    }
    super::problems::say(t, e.code, &e.detail).unwrap_or_else(|| e.detail.clone())
}

/// The catalogue key saying what `scope` allows (`scope-guests-read`).
pub fn scope_key(scope: Scope) -> String {
    format!("scope-{}", scope.as_str().replace(':', "-"))
}

/// What `scope` allows, in the words of `t`'s language.
pub fn scope_words(t: &T, scope: Scope) -> String {
    t.t(&scope_key(scope))
}

/// The error a form shows at its field `field`, in words: one the API names at that field or
/// at an item of it (`children_ages[1]` shows at `children_ages`).
pub fn at(t: &T, errors: &[FieldError], field: &str) -> Option<String> {
    errors
        .iter()
        .find(|e| {
            e.field == field
                || e.field
                    .strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with('['))
        })
        .map(|e| say(t, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apis_rules_are_said_in_the_pages_language() {
        let too_long = FieldError::new("name", "too_long", "must be at most 200 characters");
        assert_eq!(
            say(&T::new(Lang::En), &too_long),
            "must be at most 200 characters"
        );
        assert_eq!(
            say(&T::new(Lang::It), &too_long),
            "al massimo 200 caratteri"
        );
        let range = FieldError::new("floor", "out_of_range", "must be between -10 and 200");
        assert_eq!(say(&T::new(Lang::Hr), &range), "mora biti između -10 i 200");
        // The desk's own message keeps its words even when it shares a code.
        let own = FieldError::new(
            "reason",
            "required",
            "Scrivi perché la fattura viene stornata.",
        );
        assert_eq!(say(&T::new(Lang::It), &own), own.message);
    }
}
