//! The API's rule messages in the page's language. A use case says what is wrong in
//! English for the API (`must be at most 200 characters`) and, for the pages, as a sentence
//! of the catalogues with typed values ([`crate::domain::said::Said`]: `rule-too_long`
//! with `n1` = 200); a page in another language says that sentence. Nothing is translated
//! back from the English words. Messages the desk wrote itself are already in the page's
//! language and stay as they are.

use crate::domain::scopes::Scope;
use crate::error::{AppError, FieldError};
use crate::i18n::{Lang, T};

/// What `e` says, in the words of `t`'s language (the API's English where it carries no
/// sentence of the catalogues).
pub fn say(t: &T, e: &FieldError) -> String {
    // The API's own words are English already (and sometimes say more than the catalogue).
    if t.lang() == Lang::En {
        return e.message.clone();
    }
    e.said
        .as_ref()
        .map_or_else(|| e.message.clone(), |said| said.say(t))
}

/// What a refusal's detail says, in the words of `t`'s language (the English detail when
/// it carries no sentence of the catalogues).
pub fn detail(t: &T, e: &AppError) -> String {
    e.said
        .as_ref()
        .map_or_else(|| e.detail.clone(), |said| said.say(t))
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
        let rule = crate::domain::rules::line(200)(&"x".repeat(201)).unwrap_err();
        let too_long = FieldError::of("name", rule);
        assert_eq!(
            say(&T::new(Lang::En), &too_long),
            "must be at most 200 characters"
        );
        assert_eq!(
            say(&T::new(Lang::It), &too_long),
            "al massimo 200 caratteri"
        );
        let rule = crate::domain::rules::range(-10, 200)(&201).unwrap_err();
        let range = FieldError::of("floor", rule);
        assert_eq!(say(&T::new(Lang::Hr), &range), "mora biti između -10 i 200");
        // The desk's own message keeps its words even when it shares a code.
        let own = FieldError::new(
            "reason",
            "required",
            "Scrivi perché la fattura viene stornata.",
        );
        assert_eq!(say(&T::new(Lang::It), &own), own.message);
        // A sentence without a catalogue's words stays in English rather than being guessed.
        let plain = FieldError::new("x", "too_long", "must be at most 365 nights after arrival");
        assert_eq!(say(&T::new(Lang::It), &plain), plain.message);
    }
}
