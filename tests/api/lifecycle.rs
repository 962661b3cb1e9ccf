//! Deprecation and sunset (API.md section 5), on an operation that exists only in this test
//! build, served over real HTTP through the same `Lifecycle` layer `/v1` uses; and the
//! served docs: changelog, versioning policy, migration guides, Swagger UI's OAuth receiver.

use innkeep::api::lifecycle::{Deprecation, Lifecycle};
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::{Route, Server, get, handler};

use crate::support::spawn_app;

#[handler]
fn old_thing() -> &'static str {
    "still here"
}

async fn serve(deprecations: &'static [Deprecation]) -> String {
    let app = Route::new().at("/v1/things/:id", get(old_thing));
    let app = Lifecycle::new(app, "/v1", deprecations);
    let acceptor = TcpListener::bind("127.0.0.1:0")
        .into_acceptor()
        .await
        .unwrap();
    let addr = acceptor.local_addr()[0].as_socket_addr().cloned().unwrap();
    tokio::spawn(Server::new_with_acceptor(acceptor).run(app));
    format!("http://{addr}")
}

static LIVING: &[Deprecation] = &[Deprecation::new(
    "GET",
    "/things/{id}",
    "2026-01-15",
    "2099-01-15",
    "event-feed-id",
)];
static RETIRED: &[Deprecation] = &[Deprecation::new(
    "GET",
    "/things/{id}",
    "2024-01-15",
    "2025-01-15",
    "event-feed-id",
)];

#[tokio::test(flavor = "multi_thread")]
async fn a_deprecated_operation_warns_until_its_sunset_then_is_gone() {
    let base = serve(LIVING).await;
    let r = reqwest::get(format!("{base}/v1/things/t1")).await.unwrap();
    assert_eq!(r.status(), 200);
    let h = |n: &str| r.headers()[n].to_str().unwrap().to_string();
    // 2026-01-15T00:00:00Z
    assert_eq!(h("deprecation"), "@1768435200");
    assert_eq!(h("sunset"), "Thu, 15 Jan 2099 00:00:00 GMT");
    assert_eq!(
        h("link"),
        r#"</docs/migrations/event-feed-id>; rel="deprecation"; type="text/html""#
    );
    assert_eq!(r.text().await.unwrap(), "still here");

    let base = serve(RETIRED).await;
    let r = reqwest::get(format!("{base}/v1/things/t1")).await.unwrap();
    assert_eq!(r.status(), 410);
    assert_eq!(
        r.headers()["content-type"].to_str().unwrap(),
        "application/problem+json"
    );
    assert!(
        r.headers()["link"]
            .to_str()
            .unwrap()
            .contains("/docs/migrations/event-feed-id")
    );
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["code"], "sunset");
    assert_eq!(body["guide"], "/docs/migrations/event-feed-id");
    // Other operations are untouched.
    let other = reqwest::get(format!("{base}/v1/things")).await.unwrap();
    assert!(other.headers().get("deprecation").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_changelog_policy_and_guides_are_served_and_linked_from_the_spec() {
    let app = spawn_app().await;
    let page = |path: &'static str| {
        let (client, url) = (app.client.clone(), app.url(path));
        async move {
            let r = client.get(url).send().await.unwrap();
            let status = r.status().as_u16();
            let ct = r.headers()["content-type"].to_str().unwrap().to_string();
            (status, ct, r.text().await.unwrap())
        }
    };
    for (path, text) in [
        ("/docs/changelog", "<h1>API changelog</h1>"),
        ("/docs/versioning", "at least 12 months"),
        (
            "/docs/migrations",
            "href=\"/docs/migrations/event-feed-id\"",
        ),
        ("/docs/migrations/event-feed-id", "<table>"),
        ("/docs/oauth-receiver.html", "oauth2"),
        ("/docs/book/", "href=\"install.html\""),
        ("/docs/book/data.html", "href=\"security.html\""),
        ("/docs/book/security.html", "<h1>Security</h1>"),
        ("/docs/book/front-desk.html", "one-time code"),
    ] {
        let (status, ct, body) = page(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(ct.starts_with("text/html"), "{path}: {ct}");
        assert!(body.contains(text), "{path} lacks {text:?}");
    }
    for missing in [
        "/docs/migrations/nope",
        "/docs/book/nope.html",
        "/docs/book/SUMMARY.md",
    ] {
        let (status, _, _) = page(missing).await;
        assert_eq!(status, 404, "{missing}");
    }
    let spec = app.get("/v1/openapi.json").await.expect(200);
    let description = spec.body["info"]["description"].as_str().unwrap();
    for link in ["/docs/versioning", "/docs/changelog", "/docs/migrations"] {
        assert!(description.contains(link), "info.description lacks {link}");
    }
    assert_eq!(
        spec.body["paths"]["/meta/state-machines"]["get"]["security"],
        serde_json::json!([])
    );
    assert!(
        spec.body["paths"]["/guests"]["post"]["responses"]["201"]["links"]["getGuest"].is_object()
    );
}
