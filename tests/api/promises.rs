//! Promises of the contract that integrators' tools lean on: `state` comes back byte for
//! byte through the sign-in page, and list cursors cannot be forged, extended or carried to
//! another installation.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use oauth2::{CsrfToken, PkceCodeChallenge, Scope};
use serde_json::{Value, json};

use crate::support::oauth::{REDIRECT, base, blocking, new_client, new_user};
use crate::support::oauth_client::{agent, client, query_param, sign_in};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn state_comes_back_exactly_as_sent_through_the_sign_in_page() {
    let app = spawn_app().await;
    let (id, _) = new_client(&app, "guests:read", "authorization_code", false).await;
    let password = new_user(&app, "anna", "front_desk").await;
    let states = [
        "{{csrf}}",
        "{{username}}{{error}}{{hidden}}",
        r#"a"b'c<script>alert(1)</script>&amp;"#,
        "{% if true %}x{% endif %}",
    ];
    for sent in states {
        for decision in ["allow", "deny"] {
            let (b, id, password) = (base(&app), id.clone(), password.clone());
            let (location, page) = blocking(move || {
                let c = client(&b, &id, None, Some(REDIRECT));
                let (challenge, _verifier) = PkceCodeChallenge::new_random_sha256();
                let (url, _) = c
                    .authorize_url(|| CsrfToken::new(sent.to_string()))
                    .add_scope(Scope::new("guests:read".into()))
                    .set_pkce_challenge(challenge)
                    .url();
                let agent = agent();
                let page = agent
                    .get(url.as_str())
                    .call()
                    .unwrap()
                    .into_body()
                    .read_to_string()
                    .unwrap();
                let (status, location) =
                    sign_in(&agent, url.as_str(), &b, "anna", &password, decision);
                assert_eq!(status, 302, "{location}");
                (location, page)
            })
            .await;
            assert!(location.starts_with(REDIRECT), "{location}");
            assert_eq!(
                query_param(&location, "state").as_deref(),
                Some(sent),
                "state {sent:?} ({decision}) came back as {location}"
            );
            assert!(
                !location.contains("csrf_"),
                "the CSRF token leaked: {location}"
            );
            assert!(!page.contains("<script>"), "the page must escape the state");
        }
    }
}

/// The JSON payload of a signed cursor, and its signature.
fn open(cursor: &str) -> (Value, String) {
    let (payload, tag) = cursor.split_once('.').expect("payload.signature");
    let json = URL_SAFE_NO_PAD.decode(payload).unwrap();
    (serde_json::from_slice(&json).unwrap(), tag.to_string())
}

fn seal(v: &Value, tag: &str) -> String {
    format!("{}.{tag}", URL_SAFE_NO_PAD.encode(v.to_string()))
}

#[tokio::test(flavor = "multi_thread")]
async fn edited_truncated_and_foreign_cursors_are_refused() {
    let app = spawn_app().await;
    for i in 0..5 {
        app.guest("Anna", &format!("Rossi{i}")).await;
    }
    let first = app.get("/v1/guests?limit=2").await.expect(200);
    let cursor = first.body["next_cursor"].as_str().unwrap().to_string();
    app.get(&format!("/v1/guests?limit=2&cursor={cursor}"))
        .await
        .expect(200);

    let (payload, tag) = open(&cursor);
    // Moving the issue time 10^8 s ahead would extend the cursor's life; rewinding the
    // position would replay records.
    let mut later = payload.clone();
    later["t"] = json!(payload["t"].as_i64().unwrap() + 100_000_000);
    let mut rewound = payload.clone();
    rewound["k"] = json!("");
    rewound["i"] = json!("");
    let mut unsigned = payload.clone();
    unsigned["a"] = json!(0);
    let forged = [
        seal(&later, &tag),
        seal(&rewound, &tag),
        URL_SAFE_NO_PAD.encode(unsigned.to_string()),
        cursor[..cursor.len() - 1].to_string(),
        cursor[..cursor.len() / 2].to_string(),
        format!("{cursor}A"),
        seal(
            &payload,
            &tag.replace(|c: char| c.is_ascii_alphabetic(), "A"),
        ),
    ];
    for bad in forged {
        let r = app
            .get(&format!("/v1/guests?limit=2&cursor={bad}"))
            .await
            .problem(400, "invalid_cursor");
        assert_eq!(r.body["errors"][0]["field"], "cursor");
    }

    // Another installation (another key) does not accept this one's cursors.
    let other = spawn_app().await;
    for i in 0..5 {
        other.guest("Anna", &format!("Rossi{i}")).await;
    }
    other
        .get(&format!("/v1/guests?limit=2&cursor={cursor}"))
        .await
        .problem(400, "invalid_cursor");

    // The key survives a restart: the cursor still works, and the key file is private.
    let dir = app.dir.as_ref().unwrap().path().to_path_buf();
    let mut app = app;
    app.stop().await;
    let key = dir.join("cursor.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let again = crate::support::Spawn::new().data_dir(dir).start().await;
    again
        .get(&format!("/v1/guests?limit=2&cursor={cursor}"))
        .await
        .expect(200);
}
