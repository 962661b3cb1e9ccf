//! The device flow (RFC 8628) for kiosks, approved through the CLI and on the page.

use std::process::Command;
use std::time::Duration;

use oauth2::{Scope, StandardDeviceAuthorizationResponse, TokenResponse};
use reqwest::Method;

use crate::support::oauth::form;
use crate::support::oauth::{base, blocking, new_client, new_user};
use crate::support::oauth_client::{agent, client, hidden, http};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn device_flow_approved_through_the_cli() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "reservations:read guests:read", "device", false).await;
    let b = base(&app);
    let start = {
        let (b, id) = (b.clone(), id.clone());
        blocking(move || {
            client(&b, &id, None, None)
                .exchange_device_code()
                .add_scope(Scope::new("reservations:read".into()))
                .request(&http(agent()))
                .unwrap()
        })
        .await
    };
    let details: StandardDeviceAuthorizationResponse = start;
    let user_code = details.user_code().secret().clone();
    assert!(details.verification_uri().as_str().ends_with("/device"));
    assert_eq!(details.interval(), Duration::from_secs(5));

    // The kiosk polls (as the oauth2 crate does, honouring the interval) while an
    // administrator approves the code with the CLI.
    let poller = {
        let (b, id) = (b.clone(), id.clone());
        std::thread::spawn(move || {
            client(&b, &id, None, None)
                .exchange_device_access_token(&details)
                .request(
                    &http(agent()),
                    std::thread::sleep,
                    Some(Duration::from_secs(60)),
                )
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let dir = app.dir.as_ref().unwrap().path().to_path_buf();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_innkeep"))
            .args([
                "devices",
                "approve",
                &user_code.to_lowercase().replace('-', " "),
            ])
            .env("INNKEEP_DATA_DIR", dir)
            .env_remove("INNKEEP_CONFIG")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = tokio::task::spawn_blocking(move || poller.join().unwrap())
        .await
        .unwrap()
        .expect("the device gets a token");
    assert_eq!(token.scopes().unwrap()[0].as_str(), "reservations:read");
    let access = token.access_token().secret();
    app.send_as(Some(access), Method::GET, "/v1/reservations", None, &[])
        .await
        .expect(200);
    app.send_as(Some(access), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(403, "insufficient_scope");
    assert!(token.refresh_token().is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn device_flow_pending_slow_down_and_approval_on_the_page() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read admin", "device", false).await;
    let password = new_user(&app, "dora", "housekeeping").await;
    let password_admin = new_user(&app, "ed", "manager").await;
    let (status, start, _) = form(
        &app,
        "/oauth/device_authorization",
        &id,
        None,
        &[("scope", "guests:read")],
    )
    .await;
    assert_eq!(status, 200, "{start}");
    let device_code = start["device_code"].as_str().unwrap().to_string();
    let user_code = start["user_code"].as_str().unwrap().to_string();
    let poll = [
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ("device_code", device_code.as_str()),
    ];
    let (status, body, _) = form(&app, "/oauth/token", &id, None, &poll).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("authorization_pending"))
    );
    let (_, body, _) = form(&app, "/oauth/token", &id, None, &poll).await;
    assert_eq!(
        body["error"], "slow_down",
        "polling faster than the interval"
    );

    // On /device: a housekeeper cannot grant guests:read; a manager can.
    let b = base(&app);
    let approve = |who: &'static str, pw: String, code: String| {
        let b = b.clone();
        blocking(move || {
            let agent = agent();
            let page = agent
                .get(format!("{b}/device?user_code={code}"))
                .call()
                .unwrap();
            let cookie = page
                .headers()
                .get("set-cookie")
                .unwrap()
                .to_str()
                .unwrap()
                .split(';')
                .next()
                .unwrap()
                .to_string();
            let html = page.into_body().read_to_string().unwrap();
            assert_eq!(
                hidden(&html, "user_code").as_deref(),
                Some(code.as_str()),
                "the link pre-fills the code"
            );
            let csrf = hidden(&html, "csrf").unwrap();
            let r = agent
                .post(format!("{b}/device"))
                .header("cookie", &cookie)
                .send_form([
                    ("csrf", csrf.as_str()),
                    ("user_code", code.as_str()),
                    ("username", who),
                    ("password", pw.as_str()),
                    ("decision", "approve"),
                ])
                .unwrap();
            (r.status().as_u16(), r.into_body().read_to_string().unwrap())
        })
    };
    let (status, page) = approve("dora", password, user_code.clone()).await;
    assert_eq!(status, 400, "{page}");
    assert!(page.contains("cannot grant"), "{page}");
    let (status, page) = approve("ed", password_admin, user_code.clone()).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Device approved"));
    tokio::time::sleep(Duration::from_millis(10_100)).await;
    let (status, body, _) = form(&app, "/oauth/token", &id, None, &poll).await;
    assert_eq!(status, 200, "{body}");
    let claims = app
        .auth
        .verify(body["access_token"].as_str().unwrap())
        .unwrap();
    assert!(
        claims.sub.starts_with("usr_"),
        "the approving manager is the subject"
    );
    let (_, body, _) = form(&app, "/oauth/token", &id, None, &poll).await;
    assert_eq!(
        body["error"], "invalid_grant",
        "a device code is exchanged once"
    );
}
