//! The scope matrix, generated from the OpenAPI document: every operation fails closed.

use std::collections::HashMap;

use base64::Engine;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey;
use innkeep::auth::tokens::AccessClaims;
use innkeep::domain::scopes::Scope;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, password_token, spawn_app};

/// Operations that are public on purpose; any other operation must declare a scope.
const PUBLIC: &[&str] = &["getStateMachines"];

fn claims(app: &TestApp, scope: &str, exp_offset: i64, aud: &str) -> AccessClaims {
    let now = chrono::Utc::now().timestamp();
    AccessClaims {
        iss: app.auth.issuer.clone(),
        sub: app.client_id.clone(),
        aud: aud.to_string(),
        exp: now + exp_offset,
        iat: now - 1000,
        jti: format!(
            "jti_{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(rand::random::<[u8; 12]>())
        ),
        client_id: app.client_id.clone(),
        scope: scope.to_string(),
    }
}

/// A well-formed token with every scope, signed by a key the server never had.
fn foreign_token(app: &TestApp) -> String {
    let key = SigningKey::from_bytes(&rand::random::<[u8; 32]>());
    let der = key.to_pkcs8_der().unwrap();
    let mut header = Header::new(Algorithm::EdDSA);
    header.typ = Some("at+jwt".into());
    header.kid = app.auth.keys.active_kid();
    let all = Scope::NAMES.join(" ");
    jsonwebtoken::encode(
        &header,
        &claims(app, &all, 600, "innkeep"),
        &EncodingKey::from_ed_der(der.as_bytes()),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_operation_fails_closed_without_the_right_token() {
    let app = spawn_app().await;
    let all = Scope::NAMES.join(" ");
    let expired = app
        .auth
        .keys
        .sign(&claims(&app, &all, -60, "innkeep"))
        .unwrap();
    let wrong_audience = app
        .auth
        .keys
        .sign(&claims(&app, &all, 600, "another-api"))
        .unwrap();
    let foreign = foreign_token(&app);
    let mut tokens: HashMap<String, String> = HashMap::new();
    let spec: Value = serde_json::from_str(&innkeep::api::spec_json()).unwrap();
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let name = op["operationId"].as_str().unwrap();
            let url = format!("/v1{}", path.replace("{id}", "nothing_here"));
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let body = matches!(method, Method::POST | Method::PUT).then(|| json!({}));
            let send = |token: Option<String>| {
                let (method, url, body) = (method.clone(), url.clone(), body.clone());
                let app = &app;
                async move { app.send_as(token.as_deref(), method, &url, body, &[]).await }
            };
            let Some(required) = op["security"][0]["OAuth2"].as_array() else {
                assert!(PUBLIC.contains(&name), "{name} declares no scope");
                let r = send(None).await;
                assert!(r.status.is_success(), "{name} is public: {}", r.body);
                continue;
            };
            let needed: Vec<&str> = required.iter().map(|s| s.as_str().unwrap()).collect();
            assert_eq!(needed.len(), 1, "{name} names one scope");

            for (why, token) in [
                ("no token", None),
                ("a malformed token", Some("not.a.jwt".to_string())),
                ("an expired token", Some(expired.clone())),
                ("a token for another audience", Some(wrong_audience.clone())),
                ("a token signed by another key", Some(foreign.clone())),
            ] {
                let r = send(token).await;
                assert_eq!(r.status, 401, "{name} with {why}: {}", r.body);
                assert_eq!(r.body["code"], "unauthorized");
                let challenge = r.header("www-authenticate").unwrap_or_default();
                assert!(
                    challenge.starts_with("Bearer")
                        && challenge.contains(r#"error="invalid_token""#),
                    "{challenge}"
                );
            }

            let others: Vec<&str> = Scope::NAMES
                .iter()
                .copied()
                .filter(|s| !needed.contains(s))
                .collect();
            for scope in [others.join(" "), needed.join(" ")] {
                if !tokens.contains_key(&scope) {
                    let t = password_token(
                        &app.client,
                        app.addr,
                        &app.client_id,
                        &app.client_secret,
                        Some(&scope),
                    )
                    .await;
                    tokens.insert(scope.clone(), t);
                }
            }
            let r = send(Some(tokens[&others.join(" ")].clone())).await;
            assert_eq!(r.status, 403, "{name} without {needed:?}: {}", r.body);
            assert_eq!(r.body["code"], "insufficient_scope");
            let challenge = r.header("www-authenticate").unwrap_or_default();
            assert!(
                challenge.contains(r#"error="insufficient_scope""#)
                    && challenge.contains(needed[0]),
                "{challenge}"
            );

            let r = send(Some(tokens[&needed.join(" ")].clone())).await;
            assert!(
                r.status != 401 && r.status != 403,
                "{name} with exactly {needed:?} got {}: {}",
                r.status,
                r.body
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} operations checked");
}

#[tokio::test(flavor = "multi_thread")]
async fn revoked_clients_and_disabled_staff_lose_access_at_once() {
    let app = spawn_app().await;
    let c = innkeep::service::oauth::create_client(
        app.db(),
        "door locks",
        "guests:read",
        &["client_credentials".into()],
        &[],
        true,
        None,
    )
    .await
    .unwrap();
    let token = password_token(
        &app.client,
        app.addr,
        &c.client.id,
        c.secret.as_deref().unwrap(),
        None,
    )
    .await;
    app.send_as(Some(&token), Method::GET, "/v1/guests", None, &[])
        .await
        .expect(200);
    innkeep::service::oauth::revoke_client(app.db(), &c.client.id)
        .await
        .unwrap();
    app.send_as(Some(&token), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(401, "unauthorized");
    let r = app
        .client
        .post(app.url("/oauth/token"))
        .basic_auth(&c.client.id, c.secret.as_deref())
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);

    // A staff member's token (as the code or device flow would mint it) dies with the account.
    let user =
        innkeep::service::oauth::create_user(app.db(), "fay", "front_desk", "fay-password-123")
            .await
            .unwrap();
    let scope = innkeep::domain::scopes::ScopeSet::parse("guests:read").unwrap();
    let (staff_token, _) = app.auth.mint(&app.client_id, &user.id, &scope).unwrap();
    app.send_as(Some(&staff_token), Method::GET, "/v1/guests", None, &[])
        .await
        .expect(200);
    innkeep::service::oauth::disable_user(app.db(), "fay")
        .await
        .unwrap();
    app.send_as(Some(&staff_token), Method::GET, "/v1/guests", None, &[])
        .await
        .problem(401, "unauthorized");
}

#[tokio::test]
async fn metrics_need_admin() {
    let app = spawn_app().await;
    app.send_as(None, Method::GET, "/metrics", None, &[])
        .await
        .problem(401, "unauthorized");
    let reader = password_token(
        &app.client,
        app.addr,
        &app.client_id,
        &app.client_secret,
        Some("guests:read"),
    )
    .await;
    app.send_as(Some(&reader), Method::GET, "/metrics", None, &[])
        .await
        .problem(403, "insufficient_scope");
    let text = app.metrics().await;
    assert!(
        text.contains("innkeep_http_requests_total{class=\"4xx\"} 2"),
        "{text}"
    );
    assert!(text.contains("innkeep_events_last_sequence"), "{text}");
    for public in [
        "/health",
        "/ready",
        "/v1/openapi.json",
        "/docs",
        "/.well-known/jwks.json",
        "/.well-known/oauth-authorization-server",
    ] {
        assert_eq!(
            app.client
                .get(app.url(public))
                .send()
                .await
                .unwrap()
                .status(),
            200,
            "{public} stays public"
        );
    }
}
