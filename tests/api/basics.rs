//! Cross-cutting rules: problem+json for every error, request ids, limits, the spec.

use reqwest::Method;
use serde_json::json;

use crate::support::{TestApp, spawn_app};

#[tokio::test]
async fn health_and_ready_answer() {
    let app = spawn_app().await;
    assert_eq!(app.get("/health").await.expect(200).body["status"], "ok");
    let ready = app.get("/ready").await.expect(200);
    assert_eq!(ready.body["status"], "ready");
}

#[tokio::test]
async fn request_ids_are_echoed_or_made() {
    let app = spawn_app().await;
    let mine = app
        .send(Method::GET, "/health", None, &[("x-request-id", "abc-123")])
        .await;
    assert_eq!(mine.header("x-request-id").as_deref(), Some("abc-123"));
    let made = app.get("/health").await;
    assert!(
        made.header("x-request-id")
            .is_some_and(|id| id.starts_with("req_"))
    );
    let err = app
        .send(
            Method::GET,
            "/v1/nothing",
            None,
            &[("x-request-id", "trace-9")],
        )
        .await;
    assert_eq!(err.body["request_id"], "trace-9");
}

#[tokio::test]
async fn unknown_routes_are_404_problems() {
    let app = spawn_app().await;
    app.get("/v1/nothing-here").await.problem(404, "not_found");
    app.get("/nothing-here").await.problem(404, "not_found");
    app.get("/v1/guests/gst_doesnotexist")
        .await
        .problem(404, "not_found");
}

#[tokio::test]
async fn wrong_methods_are_405_with_allow() {
    let app = spawn_app().await;
    let r = app
        .send(Method::DELETE, "/v1/guests", None, &[])
        .await
        .problem(405, "method_not_allowed");
    assert_eq!(r.header("allow").as_deref(), Some("GET, POST"));
    let r = app
        .send(Method::POST, "/v1/guests/gst_x", None, &[])
        .await
        .problem(405, "method_not_allowed");
    assert_eq!(r.header("allow").as_deref(), Some("GET, PUT"));
}

#[tokio::test]
async fn malformed_json_is_400_and_wrong_media_type_415() {
    let app = spawn_app().await;
    let r = app
        .client
        .post(app.url("/v1/guests"))
        .bearer_auth(&app.token)
        .header("content-type", "application/json")
        .body("{\"first_name\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.headers()["content-type"], "application/problem+json");
    let r = app
        .client
        .post(app.url("/v1/guests"))
        .bearer_auth(&app.token)
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["code"], "unsupported_media_type");
    let r = app
        .client
        .post(app.url("/v1/guests"))
        .bearer_auth(&app.token)
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    let r = app
        .client
        .post(app.url("/v1/guests"))
        .bearer_auth(&app.token)
        .header("content-type", "application/json")
        .body("")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
}

#[tokio::test]
async fn bodies_over_one_mebibyte_are_413() {
    let app = spawn_app().await;
    let big = json!({"first_name": "a".repeat(1024 * 1024), "last_name": "b"});
    app.post("/v1/guests", big)
        .await
        .problem(413, "payload_too_large");
    let list = app.get("/v1/guests").await.expect(200);
    assert_eq!(
        list.body["data"].as_array().unwrap().len(),
        0,
        "nothing was written"
    );
}

#[tokio::test]
async fn bad_query_parameters_are_400_naming_the_parameter() {
    let app = spawn_app().await;
    for q in ["limit=0", "limit=201", "limit=ten"] {
        let r = app
            .get(&format!("/v1/guests?{q}"))
            .await
            .problem(400, "bad_request");
        assert_eq!(r.fields()[0].0, "limit");
    }
    let r = app
        .get("/v1/reservations?arrival_from=2026-13-01")
        .await
        .problem(400, "bad_request");
    assert_eq!(r.fields()[0].0, "arrival_from");
    for name in ["Y%00Y", "Ross%0Ai", "%1F"] {
        let r = app
            .get(&format!("/v1/guests?name={name}"))
            .await
            .problem(400, "bad_request");
        assert_eq!(r.fields()[0].0, "name");
        let detail = r.body["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("must not contain control characters"),
            "{detail}"
        );
    }
    let r = app
        .get("/v1/reservations?status=confirmed,sleeping")
        .await
        .problem(400, "bad_request");
    assert_eq!(r.fields()[0].0, "status");
    app.get("/v1/guests?cursor=not-a-cursor")
        .await
        .problem(400, "invalid_cursor");
}

#[tokio::test]
async fn the_spec_is_served_and_matches_the_committed_file() {
    let app = spawn_app().await;
    let served = app.get("/v1/openapi.json").await.expect(200).body;
    assert_eq!(served["info"]["title"], "innkeep");
    // The server serves the committed file; it must be what the code describes.
    let code: serde_json::Value = serde_json::from_str(&innkeep::api::spec_json()).unwrap();
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json"))
        .expect("openapi.json is committed at the repo root");
    let committed: serde_json::Value = serde_json::from_str(&committed).unwrap();
    assert!(
        committed == code,
        "openapi.json drifted from the code: run `cargo run --example openapi -- openapi.json` and commit it"
    );
    assert_eq!(served, committed);
    let docs = app.client.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(docs.status(), 200);
    // Swagger UI reads the spec the API serves, with its script and stylesheet from here.
    let page = docs.text().await.unwrap();
    for part in [
        "SwaggerUIBundle(",
        "url: \"/v1/openapi.json\"",
        "src=\"/docs/swagger-ui-5.17.14.js\"",
        "href=\"/docs/swagger-ui-5.17.14.css\"",
        "\"/docs/oauth-receiver.html\"",
    ] {
        assert!(page.contains(part), "/docs lacks {part}");
    }
    // Every file kept compressed in the binary: Swagger UI's, the spec, the desk's own.
    let year = "public, max-age=31536000, immutable";
    for (path, type_, holds, cache) in [
        (
            "/docs/swagger-ui-5.17.14.js",
            "text/javascript",
            "SwaggerUIBundle",
            year,
        ),
        (
            "/docs/swagger-ui-5.17.14.css",
            "text/css",
            ".swagger-ui",
            year,
        ),
        (
            "/v1/openapi.json",
            "application/json",
            "\"openapi\"",
            "no-cache",
        ),
        (
            "/assets/desk.css",
            "text/css",
            "body",
            "public, max-age=3600",
        ),
        (
            "/assets/desk.js",
            "text/javascript",
            "addEventListener",
            "public, max-age=3600",
        ),
        (
            "/assets/htmx-2.0.11.min.js",
            "text/javascript",
            "htmx",
            "public, max-age=86400, immutable",
        ),
    ] {
        // Sent compressed, as stored, to a client that accepts gzip...
        let gz = fetch(&app, path, &[("accept-encoding", "br, gzip")]).await;
        assert_eq!(gz.status(), 200);
        assert_eq!(gz.headers()["content-encoding"], "gzip");
        // Swagger UI's version is in its address: kept a year. Each encoding cached apart.
        assert_eq!(gz.headers()["cache-control"], cache, "{path}");
        assert_eq!(gz.headers()["vary"], "accept-encoding");
        assert!(
            gz.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with(type_)
        );
        let gz = gz.bytes().await.unwrap();
        let mut unpacked = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut unpacked)
            .unwrap();
        // ...and decompressed, the same file, to one that does not.
        let plain = fetch(&app, path, &[]).await;
        assert!(plain.headers().get("content-encoding").is_none());
        assert_eq!(plain.headers()["vary"], "accept-encoding");
        let etag = plain.headers()["etag"].to_str().unwrap().to_string();
        let plain = plain.text().await.unwrap();
        assert!(plain == unpacked && plain.contains(holds), "{path}");
        // A client that has the file is told so, in either encoding, without the file.
        assert!(
            etag.starts_with("W/\"") && etag.len() == 20,
            "{path}: {etag}"
        );
        for encoding in ["gzip", "identity"] {
            let asked = [("accept-encoding", encoding), ("if-none-match", &etag)];
            let again = fetch(&app, path, &asked).await;
            assert_eq!(again.status(), 304, "{path}");
            assert_eq!(again.headers()["etag"], etag.as_str());
            assert_eq!(again.headers()["cache-control"], cache);
            assert_eq!(again.headers()["vary"], "accept-encoding");
            assert!(again.bytes().await.unwrap().is_empty());
        }
        let other = fetch(&app, path, &[("if-none-match", "W/\"another\"")]).await;
        assert_eq!(other.status(), 200, "{path}");
    }
}

/// `GET path` with these request headers, the answer as it came.
async fn fetch(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn every_operation_is_documented() {
    let spec: serde_json::Value = serde_json::from_str(&innkeep::api::spec_json()).unwrap();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let name = format!("{method} {path}");
            assert!(op["operationId"].is_string(), "{name} has no operationId");
            assert!(op["summary"].is_string(), "{name} has no summary");
            assert!(
                op["tags"].as_array().is_some_and(|t| !t.is_empty()),
                "{name} has no tag"
            );
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.contains_key("400"),
                "{name} does not document 400"
            );
            for (status, r) in responses
                .iter()
                .filter(|(s, _)| s.starts_with('4') || s.starts_with('5'))
            {
                assert!(
                    r["content"]["application/problem+json"].is_object(),
                    "{name} {status} is not problem+json"
                );
            }
        }
    }
}
