//! The audit trail's rule: what changed between two snapshots of a record, field by field.
//! Objects are compared key by key (`document.number`); arrays and plain values as a whole.
//! Bookkeeping fields (id, version, timestamps) and fields derived from other records
//! (`registration`, which reports the submission) are not changes of the record itself.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

string_enum! {
    /// Changes kept in the history that have no event of their own (API.md section 8 lists
    /// the events; these are recorded beside them, never sent).
    pub enum Note {
        /// A charge was added to a reservation's folio.
        ChargeAdded = "reservation.charge_added",
        /// A part payment was recorded (the full one is `invoice.paid`).
        PaymentRecorded = "invoice.payment_recorded",
        /// A credit note reversed the invoice.
        InvoiceCancelled = "invoice.cancelled",
        /// The fiscal authority could not be reached; the receipt goes later.
        FiscalizationDelayed = "invoice.fiscalization_delayed",
        /// A kiosk check-in waits for staff to see each guest's document in person (Italy).
        IdentityCheckRequested = "reservation.identity_check_requested",
        /// A member of staff confirmed in person that each guest holds their document.
        IdentityConfirmed = "reservation.identity_confirmed",
        /// Staff booked or changed a stay past its rate plan's restrictions, saying why.
        RestrictionOverridden = "reservation.restriction_overridden",
    }
}

/// Top-level fields that never count as a change.
pub const IGNORED: &[&str] = &["id", "version", "created_at", "updated_at", "registration"];

/// One changed field: its dotted path, the value before (`null` when it had none) and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Dotted path, such as `status` or `document.number`.
    pub field: String,
    /// The value before.
    pub from: Value,
    /// The value after.
    pub to: Value,
}

/// What changed from `before` (none for a new record) to `after`, by field name.
pub fn changes(before: Option<&Value>, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    let empty = Map::new();
    let b = before.and_then(Value::as_object).unwrap_or(&empty);
    let a = after.as_object().unwrap_or(&empty);
    for key in keys(b, a) {
        if !IGNORED.contains(&key.as_str()) {
            walk(&key, b.get(&key), a.get(&key), &mut out);
        }
    }
    out
}

/// The keys of both objects: `after`'s in order, then those only `before` has.
fn keys(b: &Map<String, Value>, a: &Map<String, Value>) -> Vec<String> {
    let mut all: Vec<String> = a.keys().cloned().collect();
    all.extend(b.keys().filter(|k| !a.contains_key(*k)).cloned());
    all
}

fn walk(path: &str, before: Option<&Value>, after: Option<&Value>, out: &mut Vec<Change>) {
    let (b, a) = (
        before.unwrap_or(&Value::Null),
        after.unwrap_or(&Value::Null),
    );
    if b == a {
        return;
    }
    let empty = Map::new();
    match (b, a) {
        (Value::Object(_) | Value::Null, Value::Object(_)) | (Value::Object(_), Value::Null) => {
            let (bo, ao) = (
                b.as_object().unwrap_or(&empty),
                a.as_object().unwrap_or(&empty),
            );
            for key in keys(bo, ao) {
                walk(&format!("{path}.{key}"), bo.get(&key), ao.get(&key), out);
            }
        }
        _ => out.push(Change {
            field: path.to_string(),
            from: b.clone(),
            to: a.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn a_new_record_lists_what_it_was_given() {
        let c = changes(
            None,
            &json!({"id": "gst_1", "last_name": "Rossi", "email": null,
            "document": {"type": "passport", "number": "X1"}, "version": 1}),
        );
        let fields: Vec<&str> = c.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, ["document.number", "document.type", "last_name"]);
        assert!(c.iter().all(|c| c.from.is_null()));
    }

    #[test]
    fn an_update_lists_only_what_changed() {
        let before = json!({"status": "confirmed", "notes": "late", "guest_ids": ["a"],
            "document": {"number": "X1", "type": "passport"}, "version": 1, "updated_at": "t1"});
        let after = json!({"status": "cancelled", "notes": null, "guest_ids": ["a", "b"],
            "document": {"number": "X2", "type": "passport"}, "version": 2, "updated_at": "t2"});
        let c = changes(Some(&before), &after);
        let got: Vec<(&str, Value, Value)> = c
            .iter()
            .map(|c| (c.field.as_str(), c.from.clone(), c.to.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("document.number", json!("X1"), json!("X2")),
                ("guest_ids", json!(["a"]), json!(["a", "b"])),
                ("notes", json!("late"), Value::Null),
                ("status", json!("confirmed"), json!("cancelled")),
            ]
        );
    }

    #[test]
    fn a_removed_object_lists_each_field_it_had() {
        let c = changes(
            Some(&json!({"address": {"city": "Split"}})),
            &json!({"address": null}),
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].field, "address.city");
        assert_eq!(c[0].to, Value::Null);
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-5i64..5).prop_map(Value::from),
            "[a-c]{0,2}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::btree_map("[a-d]", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A snapshot: an object of values (generated as one, so no case is thrown away).
    fn snapshot() -> impl Strategy<Value = Value> {
        prop::collection::btree_map("[a-d]", value(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    }

    proptest! {
        /// Applying the listed changes to `before` gives `after` (up to nulls and ignored
        /// fields), and nothing is listed when nothing changed.
        #[test]
        fn changes_replay_to_the_new_snapshot(b in snapshot(), a in snapshot()) {
            prop_assert!(changes(Some(&a), &a).is_empty());
            let mut replayed = b.clone();
            for c in changes(Some(&b), &a) {
                set(&mut replayed, &c.field, c.to.clone());
            }
            prop_assert_eq!(strip(&replayed), strip(&a));
        }
    }

    fn set(v: &mut Value, path: &str, to: Value) {
        let mut at = v;
        let parts: Vec<&str> = path.split('.').collect();
        for p in &parts[..parts.len() - 1] {
            if !at.is_object() {
                *at = Value::Object(Map::new());
            }
            at = at
                .as_object_mut()
                .unwrap()
                .entry(p.to_string())
                .or_insert(Value::Null);
        }
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        at.as_object_mut()
            .unwrap()
            .insert(parts[parts.len() - 1].to_string(), to);
    }

    /// Drops nulls, empty objects and ignored keys, so that "absent" and "null" compare equal.
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let m: Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| !IGNORED.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .filter(|(_, v)| !v.is_null() && v != &Value::Object(Map::new()))
                    .collect();
                Value::Object(m)
            }
            other => other.clone(),
        }
    }
}
