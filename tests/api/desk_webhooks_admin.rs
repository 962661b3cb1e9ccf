//! Administration at the desk, webhooks (screen 10): an endpoint registered with its secret
//! shown once, a test sent and signed with it, the delivery log with a redelivery, the secret
//! rotated, the endpoint paused; errors in place; other roles refused.

use std::time::Duration;

use crate::support::desk::{Browser, hidden, staff};
use crate::support::receiver::Receiver;
use crate::support::spawn_app;
use crate::support::webhooks::{verifies, wait_log};

/// The secret on a "shown once" page.
fn shown(page: &str) -> String {
    let start = page.find("<code>").expect("a secret") + "<code>".len();
    let end = page[start..].find("</code>").unwrap();
    page[start..start + end].to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_registers_tests_redelivers_rotates_and_pauses_an_endpoint() {
    let app = spawn_app().await;
    let rx = Receiver::start().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/webhooks").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("No webhook endpoints yet."));
    let csrf = Browser::csrf(&page);

    let bad = a
        .post(
            "/admin/webhooks",
            &[
                ("csrf", &csrf),
                ("url", "ftp://example"),
                ("events", "*"),
                ("description", ""),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(bad.text.contains("id=\"url-error\""), "{}", bad.text);
    assert!(bad.text.contains("value=\"ftp://example\""));

    let url = rx.url("/hooks");
    let made = a
        .post(
            "/admin/webhooks",
            &[
                ("csrf", &csrf),
                ("url", &url),
                ("events", "reservation.* webhook.test"),
                ("description", "Channel manager"),
            ],
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.text);
    assert_eq!(made.header("cache-control").as_deref(), Some("no-store"));
    let secret = shown(&made.text);
    assert!(secret.starts_with("whsec_"), "{secret}");
    let list = app.get("/v1/webhooks").await.expect(200).body;
    let id = list["data"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(
        list["data"][0]["events"],
        serde_json::json!(["reservation.*", "webhook.test"])
    );

    let path = |what: &str| format!("/admin/webhooks/{id}/{what}");
    let test = a.post(&path("test"), &[("csrf", &csrf)]).await;
    assert_eq!(test.status, 303, "{}", test.text);
    let hits = rx.wait_for(1, Duration::from_secs(15)).await;
    assert!(verifies(&hits[0], &secret), "signed with the secret shown");
    let log = wait_log(&app, &id, 1).await;
    let delivery = log[0]["id"].as_str().unwrap().to_string();
    let page = a.get(&format!("/admin/webhooks/{id}")).await;
    assert!(
        page.text.contains("webhook.test") && page.text.contains("delivered"),
        "{}",
        page.text
    );
    let again = a
        .post(
            &format!("/admin/webhooks/{id}/deliveries/{delivery}"),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(again.status, 303, "{}", again.text);
    let hits = rx.wait_for(2, Duration::from_secs(15)).await;
    assert_eq!(
        hits[0].header("webhook-id"),
        hits[1].header("webhook-id"),
        "the same event again"
    );

    let untick = a.post(&path("rotate"), &[("csrf", &csrf)]).await;
    assert_eq!(untick.status, 409);
    let rotated = a
        .post(&path("rotate"), &[("csrf", &csrf), ("confirm", "yes")])
        .await;
    assert_eq!(rotated.status, 200);
    assert_ne!(shown(&rotated.text), secret);

    let page = a.get(&format!("/admin/webhooks/{id}")).await;
    let version = hidden(&page.text, "version").unwrap();
    let no_events = a
        .post(
            &path("save"),
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("url", &url),
                ("events", ""),
                ("description", "x"),
            ],
        )
        .await;
    assert_eq!(no_events.status, 422, "{}", no_events.text);
    assert!(
        no_events.text.contains("id=\"events-error\""),
        "{}",
        no_events.text
    );
    let paused = a
        .post(
            &path("save"),
            &[
                ("csrf", &csrf),
                ("version", &version),
                ("url", &url),
                ("events", "*"),
                ("description", "Paused for now"),
            ],
        )
        .await;
    assert_eq!(paused.status, 303, "{}", paused.text);
    let w = app
        .get(&format!("/v1/webhooks/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(w["enabled"], false);
    assert_eq!(w["description"], "Paused for now");

    let fd = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &fd).await;
    assert_eq!(m.get("/admin/webhooks").await.status, 403);
}
