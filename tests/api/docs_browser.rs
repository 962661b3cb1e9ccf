//! Swagger UI at `/docs` in a real browser: its script and stylesheet come compressed from
//! this server, it reads the spec from `/v1/openapi.json` and lists the operations, and
//! its Authorize button returns to this server's OAuth receiver. A screenshot of it.

use fantoccini::Locator;

use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn swagger_ui_lists_the_operations_from_the_served_spec() {
    let Some(b) = crate::support::browser::chrome(1280, 1000).await else {
        return;
    };
    let app = spawn_app().await;
    b.client
        .goto(&format!("http://{}/docs", app.addr))
        .await
        .unwrap();
    // An operation of the spec, drawn by Swagger UI once it has read the spec.
    let op = b
        .wait_for(Locator::Css(
            ".opblock-summary-path[data-path='/reservations']",
        ))
        .await;
    assert!(op.text().await.unwrap().contains("/reservations"));
    let info = b.wait_for(Locator::Css(".info .title")).await;
    assert!(info.text().await.unwrap().contains("innkeep"));
    b.wait_for(Locator::Css("button.authorize")).await;
    let redirect = b
        .client
        .execute("return window.ui.getConfigs().oauth2RedirectUrl;", vec![])
        .await
        .unwrap();
    assert_eq!(
        redirect.as_str(),
        Some(format!("http://{}/docs/oauth-receiver.html", app.addr).as_str())
    );
    b.screenshot("docs-swagger-ui").await;
}
