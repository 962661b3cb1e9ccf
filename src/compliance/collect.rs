//! Collecting every problem of every guest of a party, so that the front desk fixes them in
//! one go: the part all registration adapters share (each adds its own checks).

use crate::compliance::Problem;
use crate::domain::said::{Said, Value};
use crate::model::Guest;
use crate::model::codes::CodeLookup;

/// One guest's checks in progress.
pub struct Collect<'a> {
    /// The code tables.
    pub codes: &'a dyn CodeLookup,
    /// The guest's place in the party.
    pub index: usize,
    /// The guest.
    pub guest: &'a Guest,
    /// What was found so far.
    pub problems: Vec<Problem>,
}

impl<'a> Collect<'a> {
    /// Checks for guest `index` of a party.
    pub fn new(codes: &'a dyn CodeLookup, index: usize, guest: &'a Guest) -> Collect<'a> {
        Collect {
            codes,
            index,
            guest,
            problems: Vec::new(),
        }
    }

    /// Records a problem with `field`; the catalogues say it with `key` and `values` (the
    /// guest's name is added where it is shown).
    pub fn add(
        &mut self,
        field: &str,
        rule: &'static str,
        message: impl Into<String>,
        (key, values): (&'static str, Vec<(&'static str, Value)>),
    ) {
        let mut named = vec![("guest", Value::Text(String::new()))];
        named.extend(values);
        self.problems.push(Problem {
            guest_index: self.index,
            guest_id: self.guest.id.clone(),
            field: field.to_string(),
            rule,
            message: message.into(),
            said: Said::new(key, named),
        });
    }

    /// `value`, or a `required` problem with `field` for `authority` (said with `key`).
    pub fn require<T>(
        &mut self,
        value: Option<T>,
        field: &str,
        authority: &str,
        key: &'static str,
    ) -> Option<T> {
        if value.is_none() {
            self.add(
                field,
                "required",
                format!("{field} is required for {authority}"),
                (key, vec![]),
            );
        }
        value
    }
}
