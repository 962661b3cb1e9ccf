//! Finishing touches on the generated OpenAPI document, and the `Allow` table built from it.
//!
//! poem-openapi documents an `Option<T>` field as `T`, but innkeep sends `null` for an
//! empty optional field and accepts `null` to clear one; every optional property is
//! therefore marked `nullable` (a `$ref` is wrapped in `allOf` to carry it).

use serde_json::{Value, json};

/// Makes optional properties nullable throughout `components.schemas`.
pub fn finish(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_string();
    };
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for schema in schemas.values_mut() {
            mark_nullable(schema);
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_string())
}

fn mark_nullable(schema: &mut Value) {
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, prop) in props.iter_mut() {
        if required.contains(name) {
            continue;
        }
        if let Some(obj) = prop.as_object_mut() {
            if let Some(reference) = obj.remove("$ref") {
                obj.insert("allOf".into(), json!([{ "$ref": reference }]));
            }
            obj.insert("nullable".into(), Value::Bool(true));
        }
    }
}

/// Path templates and their methods, for the `Allow` header of a 405.
#[derive(Debug, Default)]
pub struct AllowTable {
    routes: Vec<(Vec<String>, Vec<String>)>,
}

impl AllowTable {
    /// Reads the paths of `spec`, which are served under `prefix` (such as `/v1`).
    pub fn from_spec(spec: &str, prefix: &str) -> AllowTable {
        let doc: Value = serde_json::from_str(spec).unwrap_or(Value::Null);
        let mut routes = Vec::new();
        if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
            for (path, item) in paths {
                let segments = split(&format!("{prefix}{path}"));
                let methods = item
                    .as_object()
                    .map(|m| m.keys().map(|k| k.to_uppercase()).collect())
                    .unwrap_or_default();
                routes.push((segments, methods));
            }
        }
        AllowTable { routes }
    }

    /// The methods allowed on `path`, as an `Allow` header value.
    pub fn allowed(&self, path: &str) -> Option<String> {
        let actual = split(path);
        self.routes
            .iter()
            .find(|(template, _)| {
                template.len() == actual.len()
                    && template
                        .iter()
                        .zip(&actual)
                        .all(|(t, a)| t == a || (t.starts_with('{') && !a.is_empty()))
            })
            .map(|(_, methods)| methods.join(", "))
    }
}

fn split(path: &str) -> Vec<String> {
    path.trim_end_matches('/')
        .split('/')
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_properties_become_nullable() {
        let spec = r##"{"components":{"schemas":{"G":{"type":"object","required":["a"],
            "properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"$ref":"#/x"}}}}}}"##;
        let out: Value = serde_json::from_str(&finish(spec)).unwrap();
        let props = &out["components"]["schemas"]["G"]["properties"];
        assert!(props["a"].get("nullable").is_none());
        assert_eq!(props["b"]["nullable"], true);
        assert_eq!(props["c"]["allOf"][0]["$ref"], "#/x");
    }

    #[test]
    fn allow_lists_the_methods_of_the_matching_template() {
        let spec =
            r#"{"paths":{"/guests/{id}":{"get":{},"put":{}},"/guests":{"get":{},"post":{}}}}"#;
        let t = AllowTable::from_spec(spec, "/v1");
        assert_eq!(t.allowed("/v1/guests/gst_1").as_deref(), Some("GET, PUT"));
        assert_eq!(t.allowed("/v1/guests").as_deref(), Some("GET, POST"));
        assert_eq!(t.allowed("/v1/nope"), None);
    }
}
