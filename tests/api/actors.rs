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

/// A use case checks the scope it needs itself, so a page or any other caller that hands
/// it a principal can never do more than that principal may; and it records that actor.
#[tokio::test(flavor = "multi_thread")]
async fn use_cases_check_the_principals_scope_and_record_its_actor() {
    use innkeep::compliance::Compliance;
    use innkeep::domain::enums::ActorKind;
    use innkeep::domain::scopes::ScopeSet;
    use innkeep::model::{Actor, GuestCreate, Principal};
    use innkeep::service::Services;
    use poem_openapi::types::ParseFromJSON;

    let app = spawn_app().await;
    let svc = Services::new(app.db().clone(), Compliance::default());
    let reader = Principal {
        actor: Actor {
            kind: ActorKind::Staff,
            id: "usr_reader".into(),
            name: "lucia".into(),
        },
        scopes: ScopeSet::of(&[Scope::GuestsRead]),
    };
    let input = || {
        GuestCreate::parse_from_json(Some(json!({"first_name": "Ivo", "last_name": "Horvat"})))
            .unwrap()
    };
    let refused = innkeep::service::guests::create(&svc, &reader, input())
        .await
        .unwrap_err();
    assert_eq!(refused.code, "insufficient_scope");
    assert!(
        refused.detail.contains("guests:write"),
        "{}",
        refused.detail
    );
    assert!(app.all_events().await.is_empty(), "nothing was written");

    let writer = Principal {
        scopes: ScopeSet::of(&[Scope::GuestsWrite]),
        ..reader
    };
    let g = innkeep::service::guests::create(&svc, &writer, input())
        .await
        .unwrap();
    let events = app.all_events().await;
    assert_eq!(events[0]["data"]["id"], g.id.as_str());
    assert_eq!(
        events[0]["actor"],
        json!({"type": "staff", "id": "usr_reader", "name": "lucia"})
    );
}
