//! Finishing touches on the generated OpenAPI document, and the table of its operations
//! (the `Allow` header of a 405 and each operation's scopes).
//!
//! poem-openapi documents an `Option<T>` field as `T`, but innkeep sends `null` for an
//! empty optional field and accepts `null` to clear one; every optional property is
//! therefore marked `nullable` (a `$ref` is wrapped in `allOf` to carry it).

use serde_json::{Value, json};

pub use crate::model::NOT_NULL_MARK;

/// Makes optional properties nullable throughout `components.schemas`, and closes request
/// bodies to unknown properties (the server rejects them with 422).
pub fn finish(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_string();
    };
    for name in request_schemas(&doc) {
        if let Some(schema) = doc.pointer_mut(&format!("/components/schemas/{name}"))
            && schema.get("properties").is_some()
        {
            schema["additionalProperties"] = Value::Bool(false);
        }
    }
    document_parameters(&mut doc);
    document_idempotency_keys(&mut doc);
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for schema in schemas.values_mut() {
            mark_nullable(schema);
        }
    }
    super::spec_tools::apply(&mut doc, super::lifecycle::DEPRECATIONS);
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_string())
}

/// A comma-separated list of these values, or nothing. The server trims the whole value and
/// each item, so blanks around them are allowed too.
fn csv_pattern(values: &[&str]) -> String {
    let one = format!("({})", values.join("|"));
    format!(r"^\s*({one}\s*(,\s*{one}\s*)*)?$")
}

/// Patterns of query parameters that the handlers check themselves (so that their errors
/// can name the allowed values in plain words), added to the spec here: by path (`*` for
/// every path) and parameter name.
fn parameter_pattern(path: &str, name: &str) -> Option<String> {
    use crate::domain::enums::{HousekeepingStatus, InvoiceStatus};
    use crate::domain::reservation::Status;
    Some(match (path, name) {
        (_, "cursor") => r"^\s*[A-Za-z0-9_.-]*\s*$".to_string(),
        ("/events", "type") => event_type_pattern(),
        ("/reservations", "status") => csv_pattern(Status::NAMES),
        ("/invoices", "status") => csv_pattern(InvoiceStatus::NAMES),
        ("/webhooks/{id}/deliveries", "status") => {
            csv_pattern(crate::domain::webhooks::DELIVERY_OUTCOMES)
        }
        ("/rooms", "housekeeping_status") => csv_pattern(HousekeepingStatus::NAMES),
        ("/compliance/submissions", "kind") => csv_pattern(crate::service::submissions::KINDS),
        ("/compliance/submissions", "status") => csv_pattern(crate::service::submissions::STATUSES),
        _ => return None,
    })
}

/// The `type` filter of the event feed: known types, `family.*` or `*`, comma-separated.
fn event_type_pattern() -> String {
    use crate::domain::events::EventType;
    let mut one: Vec<String> = vec![r"\*".to_string()];
    one.extend(EventType::families().iter().map(|f| format!(r"{f}\.\*")));
    one.extend(EventType::NAMES.iter().map(|t| t.replace('.', r"\.")));
    // The feed's filter also skips empty items (`a,,b`).
    let one = format!("({})", one.join("|"));
    format!(r"^\s*({one}?\s*(,\s*{one}?\s*)*)$")
}

fn document_parameters(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, ops) in paths.iter_mut() {
        let ops = ops.as_object_mut().into_iter().flat_map(|m| m.values_mut());
        for params in ops.filter_map(|op| op.get_mut("parameters")?.as_array_mut()) {
            for p in params.iter_mut().filter(|p| p["in"] == "query") {
                let name = p["name"].as_str().unwrap_or_default().to_string();
                if let Some(pattern) = parameter_pattern(path, &name)
                    && let Some(schema) = p.get_mut("schema").and_then(Value::as_object_mut)
                {
                    schema.insert("pattern".into(), Value::String(pattern));
                }
            }
        }
    }
}

/// Every POST takes `Idempotency-Key` (the idempotency layer handles it for all of them).
fn document_idempotency_keys(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for post in paths.values_mut().filter_map(|ops| ops.get_mut("post")) {
        let Some(op) = post.as_object_mut() else {
            continue;
        };
        let params = op.entry("parameters").or_insert_with(|| json!([]));
        if let Some(params) = params.as_array_mut() {
            params.push(super::idempotency::header_parameter());
        }
    }
}

/// Names of the component schemas reachable from request bodies.
fn request_schemas(doc: &Value) -> Vec<String> {
    let mut todo: Vec<String> = Vec::new();
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for op in paths
            .values()
            .filter_map(Value::as_object)
            .flat_map(|m| m.values())
        {
            if let Some(body) = op.get("requestBody") {
                collect_refs(body, &mut todo);
            }
        }
    }
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) {
            continue;
        }
        if let Some(schema) = doc.pointer(&format!("/components/schemas/{name}")) {
            collect_refs(schema, &mut todo);
        }
        seen.push(name);
    }
    seen
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                out.push(name.to_string());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
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
            if obj.get("title").and_then(Value::as_str) == Some(NOT_NULL_MARK) {
                obj.remove("title");
                continue;
            }
            if let Some(reference) = obj.remove("$ref") {
                obj.insert("allOf".into(), json!([{ "$ref": reference }]));
            }
            obj.insert("nullable".into(), Value::Bool(true));
            // OpenAPI 3.0.3: `nullable` does not widen an `enum`; null must be listed.
            if let Some(values) = obj.get_mut("enum").and_then(Value::as_array_mut)
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
        }
    }
}

/// What an operation demands of the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// Nothing: public.
    Public,
    /// A token with every one of these scopes.
    Scopes(Vec<String>),
}

#[derive(Debug)]
struct Route {
    template: Vec<String>,
    method: String,
    requirement: Requirement,
}

/// The operations of the spec: the `Allow` header of a 405, and each operation's required
/// scopes. The server reads them from the committed spec, the very document it serves
/// ([`RouteTable::committed`]); a test reads the code's description of the operations too
/// ([`RouteTable::from_meta`]) and holds the two equal, so neither what clients read nor
/// what is enforced can drift from the code.
#[derive(Debug, Default)]
pub struct RouteTable {
    routes: Vec<Route>,
}

/// The committed spec's operations, read by `build.rs`.
mod committed {
    include!(concat!(env!("OUT_DIR"), "/routes.rs"));
}

impl RouteTable {
    /// The operations of the committed spec (`openapi.json`, the one served), which are
    /// served under `prefix` (such as `/v1`).
    pub fn committed(prefix: &str) -> RouteTable {
        let routes = committed::ROUTES
            .iter()
            .map(|(method, path, scopes)| Route {
                template: split(&format!("{prefix}{path}")),
                method: (*method).to_string(),
                requirement: scopes.map_or(Requirement::Public, |s| {
                    Requirement::Scopes(s.iter().map(|s| (*s).to_string()).collect())
                }),
            })
            .collect();
        RouteTable { routes }
    }

    /// The same table read from poem-openapi's description of the operations (`meta`), the
    /// code's own: a test holds it equal to [`RouteTable::committed`].
    #[cfg(test)]
    pub fn from_meta(apis: &[poem_openapi::registry::MetaApi], prefix: &str) -> RouteTable {
        let routes = apis
            .iter()
            .flat_map(|api| &api.paths)
            .flat_map(|path| {
                path.operations.iter().map(move |op| Route {
                    template: split(&format!("{prefix}{}", path.path)),
                    method: op.method.as_str().to_uppercase(),
                    requirement: op.security.first().map_or(Requirement::Public, |req| {
                        Requirement::Scopes(
                            req.values().flatten().map(|s| (*s).to_string()).collect(),
                        )
                    }),
                })
            })
            .collect();
        RouteTable { routes }
    }

    /// Every operation as (method, path template, requirement), sorted, each requirement's
    /// scopes too (a token needs all of them, in no order): to compare tables.
    #[cfg(test)]
    pub fn operations(&self) -> Vec<(String, String, Requirement)> {
        let mut all: Vec<_> = self
            .routes
            .iter()
            .map(|r| {
                let mut requirement = r.requirement.clone();
                if let Requirement::Scopes(scopes) = &mut requirement {
                    scopes.sort();
                }
                (r.method.clone(), r.template.join("/"), requirement)
            })
            .collect();
        all.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        all
    }

    /// Adds an operation outside the spec (such as `GET /metrics`).
    pub fn with(mut self, method: &str, path: &str, requirement: Requirement) -> RouteTable {
        self.routes.push(Route {
            template: split(path),
            method: method.to_string(),
            requirement,
        });
        self
    }

    fn matching<'a>(&'a self, path: &str) -> impl Iterator<Item = &'a Route> + 'a {
        let actual = split(path);
        self.routes
            .iter()
            .filter(move |r| template_matches(&r.template, &actual))
    }

    /// The methods allowed on `path`, as an `Allow` header value.
    pub fn allowed(&self, path: &str) -> Option<String> {
        let methods: Vec<&str> = self.matching(path).map(|r| r.method.as_str()).collect();
        (!methods.is_empty()).then(|| methods.join(", "))
    }

    /// What the operation at `method path` demands; `None` when there is no such operation.
    pub fn requirement(&self, method: &str, path: &str) -> Option<&Requirement> {
        self.matching(path)
            .find(|r| r.method == method)
            .map(|r| &r.requirement)
    }
}

/// Whether a split path matches a split template (`{name}` takes any non-empty segment).
pub fn template_matches(template: &[String], actual: &[String]) -> bool {
    template.len() == actual.len()
        && template
            .iter()
            .zip(actual)
            .all(|(t, a)| t == a || (t.starts_with('{') && !a.is_empty()))
}

/// A path's segments.
pub fn split(path: &str) -> Vec<String> {
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
            "properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"$ref":"#/x"},
            "d":{"type":"string","enum":["x","y"]}}}}}}"##;
        let out: Value = serde_json::from_str(&finish(spec)).unwrap();
        let props = &out["components"]["schemas"]["G"]["properties"];
        assert!(props["a"].get("nullable").is_none());
        assert_eq!(props["b"]["nullable"], true);
        assert_eq!(props["c"]["allOf"][0]["$ref"], "#/x");
        assert_eq!(props["d"]["enum"], json!(["x", "y", null]));
    }

    #[test]
    fn routes_know_their_methods_and_scopes() {
        let read = Requirement::Scopes(vec!["guests:read".into()]);
        let t = RouteTable::default()
            .with("GET", "/v1/guests/{id}", read)
            .with("PUT", "/v1/guests/{id}", Requirement::Public)
            .with("GET", "/v1/guests", Requirement::Public)
            .with("POST", "/v1/guests", Requirement::Public);
        assert_eq!(t.allowed("/v1/guests/gst_1").as_deref(), Some("GET, PUT"));
        assert_eq!(t.allowed("/v1/guests").as_deref(), Some("GET, POST"));
        assert_eq!(t.allowed("/v1/nope"), None);
        assert_eq!(
            t.requirement("GET", "/v1/guests/gst_1"),
            Some(&Requirement::Scopes(vec!["guests:read".into()]))
        );
        assert_eq!(
            t.requirement("PUT", "/v1/guests/gst_1"),
            Some(&Requirement::Public)
        );
        assert_eq!(t.requirement("DELETE", "/v1/guests/gst_1"), None);
    }
}
