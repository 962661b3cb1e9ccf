//! The authorization server's doors, tried as an attacker on the hotel's LAN would: the
//! kiosk's own client cannot be used to phish a code, a device's approval page says which
//! client asks and for what, the verification address comes from the configuration, device
//! authorizations are limited per address, user names are one name however they are typed,
//! a lockout made elsewhere does not refuse the right password, introspection tells a client
//! about its own tokens only, and desk sessions keep no token.

use reqwest::Method;
use serde_json::Value;

use innkeep::compliance::Compliance;
use innkeep::service::Services;
use innkeep::service::oauth::{self, ClientAuth, LoginError};

use crate::support::desk::Browser;
use crate::support::oauth::{form, new_client, new_user};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn the_kiosk_client_cannot_start_a_device_flow_from_the_network() {
    let app = spawn_app().await;
    for path in ["/oauth/device_authorization", "/oauth/token"] {
        let (status, body, _) = form(
            &app,
            path,
            "cli_kiosk",
            None,
            &[("grant_type", "urn:ietf:params:oauth:grant-type:device_code")],
        )
        .await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(body["error"], "unauthorized_client", "{body}");
        assert!(
            body["error_description"]
                .as_str()
                .unwrap()
                .contains("innkeep's own"),
            "{body}"
        );
    }
    // A token minted for a first-party client (as the kiosk's pages do in-process) is not
    // accepted by the API.
    let scopes = innkeep::domain::scopes::ScopeSet::parse("guests:read").unwrap();
    let (kiosk_token, _) = app.auth.mint("cli_kiosk", "cli_kiosk", &scopes).unwrap();
    let r = app
        .send_as(Some(&kiosk_token), Method::GET, "/v1/guests", None, &[])
        .await;
    assert_eq!(r.status, 401, "{}", r.text);
    assert!(r.text.contains("innkeep's own pages"), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_approval_page_says_who_asks_and_the_address_comes_from_the_configuration() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read reservations:read", "device", false).await;
    let r = app
        .client
        .post(app.url("/oauth/device_authorization"))
        .header("host", "evil.example")
        .form(&[("client_id", id.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let start: Value = r.json().await.unwrap();
    let expected = format!("http://{}/device", app.addr);
    assert_eq!(start["verification_uri"], expected.as_str(), "{start}");
    assert!(!start.to_string().contains("evil.example"));
    let code = start["user_code"].as_str().unwrap();

    let b = Browser::new(&app);
    let first = b.get("/device").await;
    assert_eq!(first.status, 200);
    assert!(
        !first.text.contains("name=\"password\""),
        "the code comes first"
    );
    let shown = b.get(&format!("/device?user_code={code}")).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    for words in [
        "test app",
        "guests:read",
        "Read guests.",
        "reservations:read",
        "Approve only a device you can see",
        "name=\"password\"",
    ] {
        assert!(shown.text.contains(words), "{words}: {}", shown.text);
    }
    let unknown = b.get("/device?user_code=BBBB-CCCC").await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.text.contains("No device is waiting with this code"));
}

#[tokio::test(flavor = "multi_thread")]
async fn device_authorizations_are_limited_per_address() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read", "device", false).await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let (status, _, headers) = form(&app, "/oauth/device_authorization", &id, None, &[]).await;
        statuses.push(status);
        if status == 429 {
            assert!(headers.contains_key("retry-after"));
        }
    }
    assert_eq!(&statuses[..10], &[200; 10], "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_user_name_is_one_name_and_a_lockout_elsewhere_does_not_refuse_the_right_password() {
    let app = spawn_app().await;
    let password = new_user(&app, "maria", "front_desk").await;
    let svc = Services::new(app.db().clone(), Compliance::default());
    let attacker = "10.9.9.9";
    for _ in 0..5 {
        let r = oauth::login(&app.auth, &svc, "maria", "guess-guess-1", attacker).await;
        assert!(matches!(r, Err(LoginError::Invalid)));
    }
    for variant in [" maria", "maria ", "MARIA", "\u{0009}maria"] {
        let r = oauth::login(&app.auth, &svc, variant, &password, attacker).await;
        assert!(
            matches!(r, Err(LoginError::Throttled(_))),
            "{variant:?} is the locked name"
        );
    }
    // Maria herself, at the desk PC, which never failed.
    let r = oauth::login(&app.auth, &svc, " Maria", &password, "10.0.0.2").await;
    assert!(r.is_ok(), "the right password from a clean address gets in");

    // The same for a client's secret.
    let (id, secret) = new_client(&app, "guests:read", "client_credentials", true).await;
    let wrong = ClientAuth {
        id: id.clone(),
        secret: Some("cs_wrong".into()),
    };
    for _ in 0..5 {
        assert!(
            oauth::authenticate_client(&app.auth, &svc, &wrong, attacker)
                .await
                .is_err()
        );
    }
    let right = ClientAuth {
        id,
        secret: secret.clone(),
    };
    let refused = oauth::authenticate_client(&app.auth, &svc, &right, attacker).await;
    assert_eq!(refused.unwrap_err().status, 429);
    assert!(
        oauth::authenticate_client(&app.auth, &svc, &right, "10.0.0.3")
            .await
            .is_ok()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn introspection_answers_a_client_about_its_own_tokens_only() {
    let app = spawn_app().await;
    let (a, a_secret) = new_client(&app, "guests:read", "client_credentials", true).await;
    let (b, b_secret) = new_client(&app, "guests:read", "client_credentials", true).await;
    let (_, a_token, _) = form(
        &app,
        "/oauth/token",
        &a,
        a_secret.as_deref(),
        &[("grant_type", "client_credentials")],
    )
    .await;
    let token = a_token["access_token"].as_str().unwrap();
    let ask = |id: String, secret: Option<String>| {
        let app = &app;
        async move {
            form(
                app,
                "/oauth/introspect",
                &id,
                secret.as_deref(),
                &[("token", token)],
            )
            .await
            .1
        }
    };
    assert_eq!(ask(a.clone(), a_secret.clone()).await["active"], true);
    assert_eq!(
        ask(b, b_secret).await,
        serde_json::json!({"active": false}),
        "another client learns nothing"
    );
    let admin = ask(app.client_id.clone(), Some(app.client_secret.clone())).await;
    assert_eq!(admin["active"], true, "a client with the admin scope may");
    assert_eq!(admin["client_id"], a.as_str());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_desk_session_keeps_no_token_and_sign_out_ends_its_login() {
    let app = spawn_app().await;
    let password = new_user(&app, "ines", "front_desk").await;
    let b = Browser::sign_in(&app, "ines", &password).await;
    let path = app.dir.as_ref().unwrap().path().join("innkeep.sqlite3");
    let read = |sql: &'static str| {
        let path = path.clone();
        move || {
            let c = rusqlite::Connection::open(&path).unwrap();
            let mut s = c.prepare(sql).unwrap();
            let n = s.column_count();
            s.query_map([], |r| {
                (0..n)
                    .map(|i| r.get::<_, rusqlite::types::Value>(i))
                    .collect::<Result<Vec<_>, _>>()
            })
            .unwrap()
            .map(|r| format!("{:?}", r.unwrap()))
            .collect::<Vec<_>>()
        }
    };
    let sessions = tokio::task::spawn_blocking(read("SELECT * FROM desk_sessions"))
        .await
        .unwrap();
    assert_eq!(sessions.len(), 1);
    assert!(
        !sessions[0].contains("rt_"),
        "no refresh token is stored in clear: {sessions:?}"
    );
    let csrf = Browser::csrf(&b.get("/").await);
    let out = b.post("/logout", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, 303);
    let live = tokio::task::spawn_blocking(read(
        "SELECT token_hash FROM refresh_tokens WHERE client_id = 'cli_desk' AND revoked_at IS NULL",
    ))
    .await
    .unwrap();
    assert!(live.is_empty(), "sign-out revoked the login: {live:?}");
}
