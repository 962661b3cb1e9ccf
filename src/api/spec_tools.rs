//! Finishing touches that integrators' tools need from the OpenAPI document, applied after
//! [`super::spec::finish`]'s own: linters (Spectral, Redocly), generators
//! (openapi-python-client, openapi-typescript) and fuzzers (schemathesis) read it unchanged.
//!
//! - a nullable `allOf` wrapper of a `$ref` gets the `type` of what it refers to, so strict
//!   tools do not read the field as never null;
//! - public operations say `security: []`;
//! - every answer documents the rate-limit headers, and 429 its `Retry-After`;
//! - each creation links to the operations that take the new id (OpenAPI `links`);
//! - deprecated operations are marked and document their 410 `sunset`.

use serde_json::{Map, Value, json};

use super::lifecycle::Deprecation;

/// Applies every touch to `doc`.
pub fn apply(doc: &mut Value, deprecations: &[Deprecation]) {
    type_nullable_refs(doc);
    declare_public(doc);
    rate_limit_headers(doc);
    link_creations(doc);
    mark_deprecated(doc, deprecations);
}

fn operations(doc: &mut Value) -> impl Iterator<Item = (String, String, &mut Map<String, Value>)> {
    doc.get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.iter_mut())
        .flat_map(|(path, item)| {
            item.as_object_mut()
                .into_iter()
                .flat_map(|m| m.iter_mut())
                .filter_map(move |(method, op)| {
                    Some((path.clone(), method.clone(), op.as_object_mut()?))
                })
        })
}

/// `{"allOf":[{"$ref":X}],"nullable":true}` gains X's `type`.
fn type_nullable_refs(doc: &mut Value) {
    let types: Map<String, Value> = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|s| {
            s.iter()
                .filter_map(|(name, schema)| Some((name.clone(), schema.get("type")?.clone())))
                .collect()
        })
        .unwrap_or_default();
    fn walk(v: &mut Value, types: &Map<String, Value>) {
        match v {
            Value::Object(map) => {
                let target = map
                    .get("allOf")
                    .and_then(|a| a.get(0))
                    .and_then(|r| r.get("$ref"))
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    .map(str::to_string);
                if let Some(name) = target
                    && map.get("nullable") == Some(&Value::Bool(true))
                    && !map.contains_key("type")
                    && let Some(t) = types.get(&name)
                {
                    map.insert("type".into(), t.clone());
                }
                map.values_mut().for_each(|v| walk(v, types));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, types)),
            _ => {}
        }
    }
    if let Some(schemas) = doc.pointer_mut("/components/schemas") {
        walk(schemas, &types);
    }
}

/// Operations without a security requirement are public: say so (`security: []`).
fn declare_public(doc: &mut Value) {
    for (_, _, op) in operations(doc) {
        op.entry("security").or_insert_with(|| json!([]));
    }
}

fn rate_limit_headers(doc: &mut Value) {
    let components = doc
        .as_object_mut()
        .map(|d| d.entry("components").or_insert_with(|| json!({})));
    if let Some(c) = components.and_then(Value::as_object_mut) {
        c.insert(
            "headers".into(),
            json!({
                "RateLimit-Policy": {
                    "description": "The client's token bucket (IETF httpapi rate-limit-headers draft): `q` requests may come at once, and an empty bucket refills in `w` seconds.",
                    "schema": {"type": "string", "example": "\"api\";q=100;w=4"}
                },
                "RateLimit": {
                    "description": "What is left of the bucket now (`r` requests) and the seconds until it is full again (`t`).",
                    "schema": {"type": "string", "example": "\"api\";r=99;t=1"}
                },
                "Retry-After": {
                    "description": "Seconds to wait before the next request.",
                    "schema": {"type": "integer", "minimum": 1}
                }
            }),
        );
    }
    for (_, _, op) in operations(doc) {
        let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
            continue;
        };
        for (status, response) in responses.iter_mut() {
            let Some(r) = response.as_object_mut() else {
                continue;
            };
            let headers = r.entry("headers").or_insert_with(|| json!({}));
            let Some(h) = headers.as_object_mut() else {
                continue;
            };
            let mut names = vec!["RateLimit-Policy", "RateLimit"];
            if status == "429" {
                names.push("Retry-After");
            }
            for name in names {
                h.insert(
                    name.into(),
                    json!({"$ref": format!("#/components/headers/{name}")}),
                );
            }
        }
    }
}

/// The success answer's `$ref` of an operation, for finding where the new id is.
fn created_schema(op: &Map<String, Value>) -> Option<(String, String)> {
    let responses = op.get("responses")?.as_object()?;
    let (status, r) = responses
        .get_key_value("201")
        .or_else(|| responses.iter().find(|(s, _)| s.starts_with('2')))?;
    let content = r.get("content")?.as_object()?;
    let (_, media) = content
        .iter()
        .find(|(name, _)| name.starts_with("application/json"))?;
    let schema = media.pointer("/schema/$ref")?.as_str()?;
    Some((status.clone(), schema.to_string()))
}

/// Each POST that creates a resource links to every operation under `{path}/{id}`, and a
/// few links cross resources (a reservation to check-in; a check-out to its invoice).
fn link_creations(doc: &mut Value) {
    let mut ids: Vec<(String, String)> = Vec::new(); // (path, operationId)
    for (path, _, op) in operations(doc) {
        if let Some(id) = op.get("operationId").and_then(Value::as_str) {
            ids.push((path, id.to_string()));
        }
    }
    let under = |prefix: &str| -> Vec<String> {
        ids.iter()
            .filter(|(p, _)| {
                p.starts_with(&format!("{prefix}/{{id}}")) && p.matches('{').count() == 1
            })
            .map(|(_, id)| id.clone())
            .collect()
    };
    let mut plan: Vec<(String, Vec<(String, Value)>)> = Vec::new();
    for (path, method, op) in operations(doc) {
        if method != "post" || path.contains('{') || created_schema(op).is_none() {
            continue;
        }
        let mut links: Vec<(String, Value)> = under(&path)
            .into_iter()
            .map(|target| {
                (
                    target.clone(),
                    json!({"operationId": target, "parameters": {"id": "$response.body#/id"}}),
                )
            })
            .collect();
        match path.as_str() {
            "/reservations" => links.push((
                "checkIn".into(),
                json!({"operationId": "checkIn", "requestBody": {"reservation_id": "$response.body#/id"}}),
            )),
            "/check-out" => links.push((
                "getInvoice".into(),
                json!({"operationId": "getInvoice", "parameters": {"id": "$response.body#/invoice/id"}}),
            )),
            "/guests" => links.push((
                "listGuestReservations".into(),
                json!({"operationId": "listReservations", "parameters": {"guest_id": "$response.body#/id"}}),
            )),
            _ => {}
        }
        plan.push((path, links));
    }
    for (path, links) in plan {
        let pointer = format!("/paths/{}/post", path.replace('~', "~0").replace('/', "~1"));
        let Some(op) = doc.pointer_mut(&pointer).and_then(Value::as_object_mut) else {
            continue;
        };
        let Some((status, _)) = created_schema(op) else {
            continue;
        };
        if let Some(r) = op
            .get_mut("responses")
            .and_then(|r| r.get_mut(&status))
            .and_then(Value::as_object_mut)
            && !links.is_empty()
        {
            r.insert("links".into(), Value::Object(links.into_iter().collect()));
        }
    }
}

fn mark_deprecated(doc: &mut Value, deprecations: &[Deprecation]) {
    for (path, method, op) in operations(doc) {
        let Some(d) = deprecations
            .iter()
            .find(|d| d.method.eq_ignore_ascii_case(&method) && d.path == path)
        else {
            continue;
        };
        op.insert("deprecated".into(), Value::Bool(true));
        let note = format!(
            "\n\n**Deprecated** since {} (sunset {}): see the migration guide at {}. Until the \
             sunset every answer carries `Deprecation`, `Sunset` and `Link` headers; after it, \
             this operation answers 410 `sunset`.",
            d.since,
            d.sunset,
            d.guide_path()
        );
        let text = op
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        op.insert("description".into(), Value::String(text + &note));
        if let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) {
            responses.entry("410").or_insert_with(|| {
                json!({
                    "description": "The operation is past its sunset (`sunset`); the `Link` header names the migration guide.",
                    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
                })
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_refs_get_their_type_and_public_operations_say_so() {
        let mut doc = json!({
            "paths": {"/a": {"get": {"responses": {"200": {}}}}},
            "components": {"schemas": {
                "Addr": {"type": "object"},
                "G": {"properties": {"a": {"allOf": [{"$ref": "#/components/schemas/Addr"}], "nullable": true}}}
            }}
        });
        apply(&mut doc, &[]);
        assert_eq!(
            doc["components"]["schemas"]["G"]["properties"]["a"]["type"],
            "object"
        );
        assert_eq!(doc["paths"]["/a"]["get"]["security"], json!([]));
        assert!(doc["paths"]["/a"]["get"]["responses"]["200"]["headers"]["RateLimit"].is_object());
    }

    #[test]
    fn deprecated_operations_are_marked_with_their_410() {
        let mut doc = json!({"paths": {"/old": {"get": {"description": "Old.", "responses": {}}}}});
        let d = Deprecation::new("GET", "/old", "2026-01-01", "2027-01-01", "old-to-new");
        apply(&mut doc, &[d]);
        let op = &doc["paths"]["/old"]["get"];
        assert_eq!(op["deprecated"], true);
        assert!(op["responses"]["410"].is_object());
        assert!(
            op["description"]
                .as_str()
                .unwrap()
                .contains("/docs/migrations/old-to-new")
        );
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn creations_link_to_the_operations_on_their_id() {
        let ok = json!({"201": {"content": {"application/json; charset=utf-8": {"schema": {"$ref": "#/components/schemas/Guest"}}}}});
        let mut doc = json!({"paths": {
            "/guests": {"post": {"operationId": "createGuest", "responses": ok}},
            "/guests/{id}": {"get": {"operationId": "getGuest", "responses": {}}}
        }});
        link_creations(&mut doc);
        assert_eq!(
            doc["paths"]["/guests"]["post"]["responses"]["201"]["links"]["getGuest"]["parameters"]
                ["id"],
            "$response.body#/id"
        );
    }
}
