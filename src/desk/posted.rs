//! Typed page forms: a page's post is read once, at the gate, into the serde struct that
//! declares its fields (text as typed, ticks as `bool`), beside the fields exactly as typed,
//! which a refused form shows again. The struct then says which API request it asks for;
//! that request is read by the API's own `FromJson` rules, so a page refuses exactly what
//! the API refuses, field by field.

use std::collections::HashMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

/// A posted form: its fields read into `F`, and what was typed, by field name.
pub(super) struct Posted<F> {
    /// The fields, typed.
    pub fields: F,
    /// What was typed, to show again when the form is refused.
    pub typed: HashMap<String, String>,
}

impl<F: DeserializeOwned + Default> Posted<F> {
    /// Reads a URL-encoded body; `None` when it cannot be read or repeats a field. A field
    /// `F` does not declare (the CSRF token) is ignored; one it cannot read leaves `F`'s
    /// default, the typed text kept for the page.
    pub fn read(bytes: &[u8]) -> Option<Posted<F>> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(bytes).ok()?;
        let mut typed = HashMap::new();
        for (k, v) in pairs {
            if typed.insert(k, v).is_some() {
                return None;
            }
        }
        let fields = serde_urlencoded::from_bytes(bytes).unwrap_or_default();
        Some(Posted { fields, typed })
    }
}

/// A tick box: ticked when sent with any value but an empty one (browsers send `on`, the
/// desk's boxes `yes`).
pub(super) fn ticked<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let v = String::deserialize(d)?;
    Ok(!v.is_empty())
}

/// The `confirm` tick a destructive action asks for.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Confirmed {
    /// "Yes, I mean it" ticked.
    #[serde(deserialize_with = "ticked")]
    pub confirm: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default)]
    struct Form {
        amount: String,
        #[serde(deserialize_with = "ticked")]
        later: bool,
    }

    #[test]
    fn fields_typed_and_as_typed() {
        let p = Posted::<Form>::read(b"csrf=t&amount=95%2C50&later=yes").unwrap();
        assert_eq!(
            p.fields,
            Form {
                amount: "95,50".into(),
                later: true
            }
        );
        assert_eq!(p.typed["amount"], "95,50");
        assert_eq!(p.typed["csrf"], "t");
        let none = Posted::<Form>::read(b"").unwrap();
        assert_eq!(none.fields, Form::default());
        assert!(
            Posted::<Form>::read(b"amount=1&amount=2").is_none(),
            "a repeated field"
        );
        assert!(
            Posted::<Confirmed>::read(b"confirm=yes")
                .unwrap()
                .fields
                .confirm
        );
        assert!(
            !Posted::<Confirmed>::read(b"confirm=")
                .unwrap()
                .fields
                .confirm
        );
    }
}
