//! OAuth helpers: the server's base URL, clients and staff members, token requests, and
//! blocking calls (the oauth2 crate's client) off the async workers.

use serde_json::Value;

use super::TestApp;

pub const REDIRECT: &str = "http://127.0.0.1:9/callback";

pub fn base(app: &TestApp) -> String {
    format!("http://{}", app.addr)
}

pub async fn new_client(
    app: &TestApp,
    scopes: &str,
    grant: &str,
    confidential: bool,
) -> (String, Option<String>) {
    let redirects = if grant == "authorization_code" {
        vec![REDIRECT.to_string()]
    } else {
        vec![]
    };
    let c = innkeep::service::oauth::create_client(
        app.db(),
        "test app",
        scopes,
        &[grant.to_string()],
        &redirects,
        confidential,
        None,
    )
    .await
    .unwrap();
    (c.client.id, c.secret)
}

pub async fn new_user(app: &TestApp, name: &str, role: &str) -> String {
    let password = format!("{name}-password-123");
    innkeep::service::oauth::create_user(app.db(), name, role, &password)
        .await
        .unwrap();
    password
}

/// The RFC 6749 `error` of a failed token request.
pub fn grant_error<E: std::error::Error + 'static>(
    r: Result<
        oauth2::basic::BasicTokenResponse,
        oauth2::RequestTokenError<E, oauth2::basic::BasicErrorResponse>,
    >,
) -> String {
    match r {
        Err(oauth2::RequestTokenError::ServerResponse(e)) => e.error().as_ref().to_string(),
        Err(other) => panic!("expected an error response, got {other}"),
        Ok(_) => panic!("expected an error response, got a token"),
    }
}

pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

pub async fn form(
    app: &TestApp,
    path: &str,
    id: &str,
    secret: Option<&str>,
    fields: &[(&str, &str)],
) -> (u16, Value, reqwest::header::HeaderMap) {
    let mut fields = fields.to_vec();
    let req = match secret {
        Some(s) => app.client.post(app.url(path)).basic_auth(id, Some(s)),
        None => {
            fields.push(("client_id", id));
            app.client.post(app.url(path))
        }
    };
    let req = req.form(&fields);
    let r = req.send().await.unwrap();
    let (status, headers) = (r.status().as_u16(), r.headers().clone());
    (status, r.json().await.unwrap_or(Value::Null), headers)
}
