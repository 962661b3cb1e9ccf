//! Rate limits (API.md section 1): a token bucket per client; over it, 429 `rate_limited`
//! with `Retry-After`; every answer carries `RateLimit-Policy` and `RateLimit`; other
//! clients are unaffected; a client's own limit is set with the CLI.

use reqwest::Method;

use crate::support::binary::{cli_client, run_ok};
use crate::support::{Spawn, password_token};

#[tokio::test(flavor = "multi_thread")]
async fn a_burst_gets_429_while_another_client_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .config(|c| {
            c.limits.requests_per_second = 1;
            c.limits.burst = 3;
        })
        .start()
        .await;
    let mut left = Vec::new();
    for _ in 0..3 {
        let r = app.get("/v1/guests").await.expect(200);
        assert_eq!(
            r.header("ratelimit-policy").as_deref(),
            Some(r#""api";q=3;w=3"#)
        );
        left.push(r.header("ratelimit").unwrap());
    }
    assert_eq!(left[0], r#""api";r=2;t=1"#);
    assert!(left[2].starts_with(r#""api";r=0;"#), "{left:?}");
    let limited = app.get("/v1/guests").await.problem(429, "rate_limited");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    assert_eq!(limited.body["retry_after"], retry);
    assert!(limited.header("ratelimit").unwrap().contains("r=0"));
    assert!(limited.body["detail"].as_str().unwrap().contains("Wait"));
    // Writes are limited too, and a 429 changes nothing.
    app.post(
        "/v1/guests",
        serde_json::json!({"first_name": "A", "last_name": "B"}),
    )
    .await
    .problem(429, "rate_limited");

    // Another client has its own bucket; so do requests without a token.
    let (id, secret) = cli_client(dir.path(), "guests:read");
    let other = password_token(&app.client, app.addr, &id, &secret, None).await;
    app.send_as(Some(&other), Method::GET, "/v1/guests", None, &[])
        .await
        .expect(200);
    app.send_as(None, Method::GET, "/v1/meta/state-machines", None, &[])
        .await
        .expect(200);
    // Refusals count too, and carry the headers: a 401 against the address (here already
    // charged one request above), a 403 against the client.
    let bad = app
        .send_as(Some("not-a-token"), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(401, "unauthorized");
    assert!(
        bad.header("ratelimit")
            .unwrap()
            .starts_with(r#""api";r=1;"#)
    );
    app.send_as(Some("not-a-token"), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(401, "unauthorized");
    app.send_as(Some("not-a-token"), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(429, "rate_limited");
    let forbidden = app
        .send_as(
            Some(&other),
            Method::POST,
            "/v1/guests",
            Some(serde_json::json!({})),
            &[],
        )
        .await
        .problem(403, "insufficient_scope");
    assert!(forbidden.header("ratelimit-policy").is_some());
    // Errors from the operations themselves carry the headers too (a 404, a bad parameter,
    // an unknown route).
    for path in ["/v1/guests/gst_nope", "/v1/guests?limit=0", "/v1/nope"] {
        let r = app
            .send_as(Some(&other), Method::GET, path, None, &[])
            .await;
        assert!(r.status.as_u16() >= 400, "{path}");
        assert!(r.header("ratelimit").is_some(), "{path} lacks RateLimit");
        assert!(
            r.header("ratelimit-policy").is_some(),
            "{path} lacks RateLimit-Policy"
        );
    }
    // Pages outside /v1 are not limited by it.
    let health = app.client.get(app.url("/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    assert!(health.headers().get("ratelimit").is_none());

    // The CLI gives the first client its own, larger limit; the server applies it at once.
    run_ok(
        dir.path(),
        &[
            "clients",
            "update",
            &app.client_id,
            "--rate",
            "50",
            "--burst",
            "60",
        ],
    );
    let r = app.get("/v1/guests").await.expect(200);
    assert_eq!(
        r.header("ratelimit-policy").as_deref(),
        Some(r#""api";q=60;w=2"#)
    );
    let listed = run_ok(dir.path(), &["clients", "list", "--json"]);
    assert!(
        listed.contains(r#""rate_limit":{"burst":60,"per_second":50}"#),
        "{listed}"
    );
    // Back to the default.
    run_ok(
        dir.path(),
        &["clients", "update", &app.client_id, "--default-rate"],
    );
    let r = app.get("/v1/guests").await;
    assert_eq!(
        r.header("ratelimit-policy").as_deref(),
        Some(r#""api";q=3;w=3"#)
    );
}
