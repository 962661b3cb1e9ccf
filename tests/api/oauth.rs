//! The OAuth 2.0 flows, driven by a real client (the `oauth2` crate over ureq 3).

use std::time::Duration;

use oauth2::{
    AuthorizationCode, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, Scope, TokenResponse,
};
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::oauth::{REDIRECT, base, blocking, grant_error, new_client, new_user};
use crate::support::oauth_client::{agent, client, http, query_param, sign_in};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn client_credentials_with_the_oauth2_crate() {
    let app = spawn_app().await;
    let (id, secret) =
        new_client(&app, "guests:read guests:write", "client_credentials", true).await;
    let (b, s) = (base(&app), secret.clone().unwrap());
    let token = blocking(move || {
        client(&b, &id, Some(&s), None)
            .exchange_client_credentials()
            .add_scope(Scope::new("guests:read".into()))
            .request(&http(agent()))
            .unwrap()
    })
    .await;
    assert_eq!(token.scopes().unwrap()[0].as_str(), "guests:read");
    assert!(
        token.refresh_token().is_none(),
        "no refresh token for client credentials"
    );
    assert_eq!(token.expires_in(), Some(Duration::from_secs(900)));
    let access = token.access_token().secret().clone();
    app.send_as(Some(&access), Method::GET, "/v1/guests", None, &[])
        .await
        .expect(200);
    app.send_as(
        Some(&access),
        Method::POST,
        "/v1/guests",
        Some(json!({"first_name": "A", "last_name": "B"})),
        &[],
    )
    .await
    .problem(403, "insufficient_scope");

    // RFC 6749 errors: wrong secret, unknown scope, wider scope, no password grant.
    let r = app
        .client
        .post(app.url("/oauth/token"))
        .basic_auth(&app.client_id, Some("wrong"))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    assert!(r.headers().get("www-authenticate").is_some());
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "invalid_client");
    let token_err = |form: Vec<(&'static str, &'static str)>, id: String, secret: String| {
        let client = app.client.clone();
        let url = app.url("/oauth/token");
        async move {
            let r = client
                .post(url)
                .basic_auth(id, Some(secret))
                .form(&form)
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let s = secret.unwrap();
    let (status, body) = token_err(
        vec![("grant_type", "client_credentials"), ("scope", "nonsense")],
        app.client_id.clone(),
        app.client_secret.clone(),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_scope"))
    );
    let (_, body) = token_err(
        vec![("grant_type", "client_credentials"), ("scope", "admin")],
        app.client_id.clone(),
        "x".into(),
    )
    .await;
    assert_eq!(body["error"], "invalid_client");
    let (status, body) = token_err(
        vec![
            ("grant_type", "password"),
            ("username", "a"),
            ("password", "b"),
        ],
        app.client_id.clone(),
        app.client_secret.clone(),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("unsupported_grant_type"))
    );
    let (status, body) = token_err(
        vec![("grant_type", "client_credentials"), ("scope", "admin")],
        "cli_unknown".into(),
        s,
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("invalid_client"))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn authorization_code_with_pkce_through_the_login_form() {
    let app = spawn_app().await;
    let (id, _) = new_client(
        &app,
        "guests:read guests:write reservations:read admin",
        "authorization_code",
        false,
    )
    .await;
    let password = new_user(&app, "anna", "front_desk").await;
    let b = base(&app);
    let (token, csrf_state) = blocking(move || {
        let c = client(&b, &id, None, Some(REDIRECT));
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state) = c
            .authorize_url(CsrfToken::new_random)
            .add_scope(Scope::new("guests:read".into()))
            .add_scope(Scope::new("admin".into()))
            .set_pkce_challenge(challenge)
            .url();
        let agent = agent();
        let (status, location) = sign_in(&agent, url.as_str(), &b, "anna", &password, "allow");
        assert_eq!(status, 302, "{location}");
        assert!(location.starts_with(REDIRECT), "{location}");
        assert_eq!(
            query_param(&location, "state").as_deref(),
            Some(state.secret().as_str())
        );
        let code = query_param(&location, "code").unwrap();
        let token = c
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .request(&http(agent))
            .unwrap();
        (token, state)
    })
    .await;
    let _ = csrf_state;
    // A front-desk member cannot grant admin: only guests:read was granted.
    assert_eq!(
        token
            .scopes()
            .unwrap()
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>(),
        vec!["guests:read"]
    );
    let access = token.access_token().secret().clone();
    app.send_as(Some(&access), Method::GET, "/v1/guests", None, &[])
        .await
        .expect(200);
    app.send_as(Some(&access), Method::GET, "/v1/settings", None, &[])
        .await
        .problem(403, "insufficient_scope");
    let claims = app.auth.verify(&access).unwrap();
    assert!(
        claims.sub.starts_with("usr_"),
        "the token acts for the staff member"
    );
    assert!(token.refresh_token().is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn pkce_and_code_misuse_are_refused() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read", "authorization_code", false).await;
    let password = new_user(&app, "bo", "manager").await;
    let (b, id2) = (base(&app), id.clone());
    let outcome = blocking(move || {
        let c = client(&b, &id2, None, Some(REDIRECT));
        let agent = agent();
        let code_for = |challenge: PkceCodeChallenge| {
            let (url, _) = c
                .authorize_url(CsrfToken::new_random)
                .set_pkce_challenge(challenge)
                .url();
            let (status, location) = sign_in(&agent, url.as_str(), &b, "bo", &password, "allow");
            assert_eq!(status, 302, "{location}");
            query_param(&location, "code").unwrap()
        };
        let err = grant_error;
        // A wrong verifier.
        let (challenge, _verifier) = PkceCodeChallenge::new_random_sha256();
        let code = code_for(challenge);
        let wrong = PkceCodeVerifier::new("x".repeat(43));
        let wrong_verifier = err(c
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(wrong)
            .request(&http(agent.clone())));
        // A reused code, whose first tokens are then revoked.
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let code = code_for(challenge);
        let secret = verifier.secret().clone();
        let first = c
            .exchange_code(AuthorizationCode::new(code.clone()))
            .set_pkce_verifier(verifier)
            .request(&http(agent.clone()))
            .unwrap();
        let reused = err(c
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(PkceCodeVerifier::new(secret))
            .request(&http(agent.clone())));
        let after_reuse = err(c
            .exchange_refresh_token(first.refresh_token().unwrap())
            .request(&http(agent.clone())));
        let first_access = first.access_token().secret().clone();
        // A mismatched redirect_uri at the token endpoint.
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let code = code_for(challenge);
        let other = client(&b, &id2, None, Some("http://127.0.0.1:9/elsewhere"));
        let mismatched = err(other
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .request(&http(agent.clone())));
        // No verifier at all.
        let (challenge, _) = PkceCodeChallenge::new_random_sha256();
        let code = code_for(challenge);
        let missing = err(c
            .exchange_code(AuthorizationCode::new(code))
            .request(&http(agent.clone())));
        (
            wrong_verifier,
            reused,
            after_reuse,
            mismatched,
            missing,
            first_access,
        )
    })
    .await;
    let revoked = app
        .send_as(
            Some(&outcome.5),
            reqwest::Method::GET,
            "/v1/guests",
            None,
            &[],
        )
        .await;
    assert_eq!(
        revoked.status, 401,
        "the access token the replayed code first gave is revoked too"
    );
    assert_eq!(outcome.0, "invalid_grant", "wrong verifier");
    assert_eq!(outcome.1, "invalid_grant", "reused code");
    assert_eq!(
        outcome.2, "invalid_grant",
        "tokens of a replayed code are revoked"
    );
    assert_eq!(outcome.3, "invalid_grant", "mismatched redirect_uri");
    assert_eq!(outcome.4, "invalid_request", "missing verifier");

    // `plain`, and no challenge, are sent back as errors to the (trusted) redirect URI.
    let plain = format!(
        "/oauth/authorize?response_type=code&client_id={id}&redirect_uri={REDIRECT}&code_challenge={}&code_challenge_method=plain&state=s1",
        "a".repeat(43)
    );
    for url in [
        plain,
        format!("/oauth/authorize?response_type=code&client_id={id}&redirect_uri={REDIRECT}"),
    ] {
        let r = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
            .get(app.url(&url))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 302);
        let location = r.headers()["location"].to_str().unwrap().to_string();
        assert!(location.starts_with(REDIRECT));
        assert_eq!(
            query_param(&location, "error").as_deref(),
            Some("invalid_request")
        );
    }
    // An unregistered redirect URI is never redirected to: the person sees a page.
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(app.url(&format!("/oauth/authorize?response_type=code&client_id={id}&redirect_uri=http://evil.example/cb&code_challenge={}&code_challenge_method=S256", "a".repeat(43))))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.headers().get("location").is_none());
    assert!(r.text().await.unwrap().contains("did not register"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_login_form_needs_its_csrf_token_and_the_right_password() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read", "authorization_code", false).await;
    new_user(&app, "cy", "admin").await;
    let url = format!(
        "{}/oauth/authorize?response_type=code&client_id={id}&redirect_uri={REDIRECT}&code_challenge={}&code_challenge_method=S256",
        base(&app),
        "b".repeat(43)
    );
    let b = base(&app);
    let (bad_pw, denied) = blocking(move || {
        let agent = agent();
        let bad = sign_in(&agent, &url, &b, "cy", "not the password", "allow");
        let denied = sign_in(&agent, &url, &b, "cy", "", "deny");
        (bad, denied)
    })
    .await;
    assert_eq!(bad_pw.0, 401);
    assert!(bad_pw.1.contains("Wrong user name or password"));
    assert_eq!(denied.0, 302);
    assert_eq!(
        query_param(&denied.1, "error").as_deref(),
        Some("access_denied")
    );
    // A forged form without the cookie's token is refused.
    let r = app
        .client
        .post(app.url("/oauth/authorize"))
        .form(&[
            ("client_id", id.as_str()),
            ("csrf", "forged"),
            ("username", "cy"),
            ("password", "cy-password-123"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
}
