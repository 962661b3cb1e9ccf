//! Every event says who caused it (API.md section 8): the integration's client, the staff
//! member a token was issued to, or innkeep's queue; in the feed and in webhook bodies.

use innkeep::auth::tokens::AccessClaims;
use innkeep::domain::scopes::Scope;
use reqwest::Method;
use serde_json::json;

use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn events_name_the_client_or_the_staff_member_who_acted() {
    let app = spawn_app().await;
    app.guest("Anna", "Rossi").await;

    // A staff member's token: its subject is the user.
    let user =
        innkeep::service::oauth::create_user(app.db(), "marta", "front_desk", "marta-password-1")
            .await
            .unwrap();
    let now = chrono::Utc::now().timestamp();
    let claims = AccessClaims {
        iss: app.auth.issuer.clone(),
        sub: user.id.clone(),
        aud: app.auth.audience.clone(),
        exp: now + 600,
        iat: now,
        jti: "jti_staff_actor_test".into(),
        client_id: app.client_id.clone(),
        scope: Scope::GuestsWrite.as_str().into(),
    };
    let staff = app.auth.keys.sign(&claims).unwrap();
    app.send_as(
        Some(&staff),
        Method::POST,
        "/v1/guests",
        Some(json!({"first_name": "Bruno", "last_name": "Bianchi"})),
        &[],
    )
    .await
    .expect(201);

    let events = app.all_events().await;
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[0]["actor"],
        json!({"type": "client", "id": app.client_id, "name": "tests"})
    );
    assert_eq!(
        events[1]["actor"],
        json!({"type": "staff", "id": user.id, "name": "marta"})
    );
}
