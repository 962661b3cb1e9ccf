//! Administration at the desk, API clients and devices (screen 10): an integration registered
//! with its secret shown once that then gets a token, its own rate limit with errors in place,
//! revoking it, and a kiosk's code approved in the admin pages; other roles refused.

use crate::support::desk::{Browser, staff};
use crate::support::oauth::form;
use crate::support::spawn_app;

/// The secret on a "shown once" page.
fn shown(page: &str) -> String {
    let start = page.find("<code>").expect("a secret") + "<code>".len();
    let end = page[start..].find("</code>").unwrap();
    page[start..start + end].to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_registers_limits_and_revokes_an_integration() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/clients").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("cli_desk"),
        "the desk's own client is listed"
    );
    let csrf = Browser::csrf(&page);

    let bad = a
        .post(
            "/admin/clients",
            &[
                ("csrf", &csrf),
                ("name", ""),
                ("grant", "client_credentials"),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(bad.text.contains("id=\"name-error\""), "{}", bad.text);
    let no_scope = a
        .post(
            "/admin/clients",
            &[
                ("csrf", &csrf),
                ("name", "Channel manager"),
                ("grant", "client_credentials"),
            ],
        )
        .await;
    assert_eq!(no_scope.status, 422);
    assert!(
        no_scope.text.contains("id=\"scopes-error\""),
        "{}",
        no_scope.text
    );
    assert!(no_scope.text.contains("value=\"Channel manager\""));

    let made = a
        .post(
            "/admin/clients",
            &[
                ("csrf", &csrf),
                ("name", "Channel manager"),
                ("grant", "client_credentials"),
                ("scopes", "reservations:read"),
                ("scopes", "guests:read"),
                ("redirect_uri", ""),
            ],
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.text);
    assert_eq!(made.header("cache-control").as_deref(), Some("no-store"));
    let secret = shown(&made.text);
    let at = made.text.find("The client id is ").unwrap() + "The client id is ".len();
    let id: String = made.text[at..].chars().take_while(|c| *c != ' ').collect();
    let (status, token, _) = form(
        &app,
        "/oauth/token",
        &id,
        Some(&secret),
        &[("grant_type", "client_credentials")],
    )
    .await;
    assert_eq!(status, 200, "{token}");
    assert!(token["scope"].as_str().unwrap().contains("guests:read"));

    let path = |what: &str| format!("/admin/clients/{id}/{what}");
    let wrong = a
        .post(
            &path("rate"),
            &[
                ("csrf", &csrf),
                ("rate_per_second", "5"),
                ("rate_burst", "2"),
            ],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("id=\"rate_burst-error\""),
        "{}",
        wrong.text
    );
    assert!(wrong.text.contains("value=\"2\""));
    let right = a
        .post(
            &path("rate"),
            &[
                ("csrf", &csrf),
                ("rate_per_second", "5"),
                ("rate_burst", "10"),
            ],
        )
        .await;
    assert_eq!(right.status, 303, "{}", right.text);
    let shown_rate = a.get(&right.header("location").unwrap()).await;
    assert!(
        shown_rate
            .text
            .contains("5 requests a second, bursts of 10"),
        "{}",
        shown_rate.text
    );

    let untick = a.post(&path("revoke"), &[("csrf", &csrf)]).await;
    assert_eq!(untick.status, 409);
    assert!(untick.text.contains("Tick the box"));
    let revoked = a
        .post(&path("revoke"), &[("csrf", &csrf), ("confirm", "yes")])
        .await;
    assert_eq!(revoked.status, 303);
    let (status, _, _) = form(
        &app,
        "/oauth/token",
        &id,
        Some(&secret),
        &[("grant_type", "client_credentials")],
    )
    .await;
    assert_eq!(status, 401, "a revoked client gets no token");
    let desk = a
        .post(
            "/admin/clients/cli_desk/revoke",
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(desk.status, 409, "the desk's own client stays");

    let fd = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &fd).await;
    assert_eq!(m.get("/admin/clients").await.status, 403);
    assert_eq!(m.get(&format!("/admin/clients/{id}")).await.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kiosk_code_is_approved_in_the_admin_pages() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/clients").await;
    let csrf = Browser::csrf(&page);
    let made = a
        .post(
            "/admin/clients",
            &[
                ("csrf", &csrf),
                ("name", "Lobby kiosk"),
                ("grant", "device"),
                ("scopes", "reservations:read"),
                ("redirect_uri", ""),
            ],
        )
        .await;
    assert_eq!(
        made.status, 303,
        "a public client has no secret to show: {}",
        made.text
    );
    let to = made.header("location").unwrap();
    let id = to
        .trim_start_matches("/admin/clients/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let (status, start, _) = form(
        &app,
        "/oauth/device_authorization",
        &id,
        None,
        &[("scope", "reservations:read")],
    )
    .await;
    assert_eq!(status, 200, "{start}");
    let code = start["user_code"].as_str().unwrap().to_string();
    let device_code = start["device_code"].as_str().unwrap().to_string();

    let unknown = a
        .post(
            "/admin/clients/device",
            &[
                ("csrf", &csrf),
                ("code", "ZZZZ-ZZZZ"),
                ("decision", "approve"),
            ],
        )
        .await;
    assert_eq!(unknown.status, 422);
    assert!(
        unknown
            .text
            .contains("No device is waiting with this code.")
    );
    assert!(unknown.text.contains("value=\"ZZZZ-ZZZZ\""));
    let typed = code.to_lowercase().replace('-', " ");
    // First the page says which client asks and for what; nothing is approved yet.
    let shown = a
        .post(
            "/admin/clients/device",
            &[("csrf", &csrf), ("code", &typed), ("decision", "approve")],
        )
        .await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert!(
        shown.text.contains("Approve this device?")
            && shown.text.contains("reservations:read")
            && shown.text.contains(&code),
        "{}",
        shown.text
    );
    let ok = a
        .post(
            "/admin/clients/device",
            &[
                ("csrf", &csrf),
                ("code", &typed),
                ("confirm", "yes"),
                ("decision", "approve"),
            ],
        )
        .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let (status, token, _) = form(
        &app,
        "/oauth/token",
        &id,
        None,
        &[
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", &device_code),
        ],
    )
    .await;
    assert_eq!(status, 200, "{token}");
    assert_eq!(token["scope"], "reservations:read");
}
