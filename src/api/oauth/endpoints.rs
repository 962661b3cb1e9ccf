//! `/oauth/token`, `/oauth/revoke`, `/oauth/introspect`, `/oauth/device_authorization`,
//! `/.well-known/oauth-authorization-server` and `/.well-known/jwks.json`.
//!
//! Requests are form-encoded; errors are the JSON of RFC 6749 section 5.2, with
//! `Cache-Control: no-store`. Clients authenticate with `client_secret_basic` or
//! `client_secret_post`; public clients send only `client_id`.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Value, json};

use crate::auth::AuthServer;
use crate::domain::scopes::Scope;
use crate::service::Services;
use crate::service::oauth::{self, ClientAuth, OAuthError};

/// The device grant's name (RFC 8628).
pub const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// What the OAuth endpoints share.
pub struct OAuthState {
    /// The authorization server.
    pub auth: Arc<AuthServer>,
    /// The use cases' context.
    pub svc: Services,
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header("cache-control", "no-store")
        .header("pragma", "no-cache")
        .body(body.to_string())
}

/// Renders an RFC 6749 error.
pub fn error_response(e: &OAuthError, basic_auth: bool) -> Response {
    let mut resp = json_response(
        StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST),
        &json!({"error": e.error, "error_description": e.description}),
    );
    if e.status == 401 {
        let challenge = if basic_auth {
            r#"Basic realm="innkeep""#
        } else {
            r#"Bearer realm="innkeep""#
        };
        resp.headers_mut().insert(
            "www-authenticate",
            poem::http::HeaderValue::from_static(challenge),
        );
    }
    if let Some(secs) = e.retry_after
        && let Ok(v) = poem::http::HeaderValue::from_str(&secs.to_string())
    {
        resp.headers_mut().insert("retry-after", v);
    }
    resp
}

/// The parameters of a form-encoded request; a parameter given twice is an error.
async fn form(req: &Request, body: Body) -> Result<HashMap<String, String>, OAuthError> {
    let is_form = req
        .content_type()
        .and_then(|ct| ct.parse::<mime::Mime>().ok())
        .is_some_and(|m| m.type_() == "application" && m.subtype() == "x-www-form-urlencoded");
    if !is_form {
        return Err(OAuthError::new(
            "invalid_request",
            "Send the parameters as application/x-www-form-urlencoded.",
        ));
    }
    let bytes = body
        .into_bytes()
        .await
        .map_err(|_| OAuthError::new("invalid_request", "The body could not be read."))?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes)
        .map_err(|_| OAuthError::new("invalid_request", "The body is not valid form encoding."))?;
    let mut map = HashMap::new();
    for (k, v) in pairs {
        if map.insert(k.clone(), v).is_some() {
            return Err(OAuthError::new(
                "invalid_request",
                format!("The parameter {k} is given more than once."),
            ));
        }
    }
    Ok(map)
}

/// The client's credentials from `Authorization: Basic` or the form; `bool` is whether
/// Basic was used.
fn client_auth(
    req: &Request,
    params: &HashMap<String, String>,
) -> Result<(ClientAuth, bool), OAuthError> {
    let basic = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Basic ")
                .or_else(|| v.strip_prefix("basic "))
        });
    match (basic, params.get("client_id")) {
        (Some(encoded), form_id) => {
            let decoded = STANDARD
                .decode(encoded.trim())
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .ok_or_else(|| {
                    OAuthError::invalid_client("The Basic credentials are not valid base64.")
                })?;
            let (id, secret) = decoded.split_once(':').ok_or_else(|| {
                OAuthError::invalid_client("The Basic credentials need client_id:client_secret.")
            })?;
            let unescape = |s: &str| {
                serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("v={s}"))
                    .ok()
                    .and_then(|v| v.into_iter().next())
                    .map(|(_, v)| v)
                    .unwrap_or_else(|| s.to_string())
            };
            let (id, secret) = (unescape(id), unescape(secret));
            if params.contains_key("client_secret") || form_id.is_some_and(|f| *f != id) {
                return Err(OAuthError::new(
                    "invalid_request",
                    "Use one client authentication method, not two.",
                ));
            }
            Ok((
                ClientAuth {
                    id,
                    secret: Some(secret),
                },
                true,
            ))
        }
        (None, Some(id)) => Ok((
            ClientAuth {
                id: id.clone(),
                secret: params.get("client_secret").cloned(),
            },
            false,
        )),
        (None, None) => Err(OAuthError::invalid_client(
            "Authenticate the client (HTTP Basic or client_id in the form).",
        )),
    }
}

pub use crate::web::remote;

/// The form and the authenticated client of a request. innkeep's own clients (the desk's and
/// the kiosk's) are refused here: only its own pages use them, in-process, so nobody on the
/// network can start a flow as the kiosk and have a busy receptionist approve it.
async fn authenticated(
    state: &OAuthState,
    req: &Request,
    body: Body,
) -> Result<(HashMap<String, String>, crate::store::clients::Client, bool), (OAuthError, bool)> {
    let params = form(req, body).await.map_err(|e| (e, false))?;
    let (creds, basic) = client_auth(req, &params).map_err(|e| (e, false))?;
    if oauth::first_party(&creds.id) {
        return Err((
            OAuthError::new(
                "unauthorized_client",
                format!(
                    "{} is innkeep's own client, used only by its own pages; register a client \
                     of your own (innkeep clients create, or Administration > API clients).",
                    creds.id
                ),
            ),
            basic,
        ));
    }
    let client = oauth::authenticate_client(&state.auth, &state.svc, &creds, &remote(req))
        .await
        .map_err(|e| (e, basic))?;
    Ok((params, client, basic))
}

/// `POST /oauth/token`.
#[handler]
pub async fn token_endpoint(req: &Request, body: Body, state: Data<&Arc<OAuthState>>) -> Response {
    let (params, client, basic) = match authenticated(&state, req, body).await {
        Ok(ok) => ok,
        Err((e, basic)) => return error_response(&e, basic),
    };
    let p = |k: &str| params.get(k).map(String::as_str);
    let (auth, db) = (&*state.auth, &state.svc);
    let result = match p("grant_type") {
        Some("client_credentials") => oauth::client_credentials(auth, &client, p("scope")).await,
        Some("authorization_code") => match p("code") {
            Some(code) => {
                oauth::exchange_code(
                    auth,
                    db,
                    &client,
                    code,
                    p("redirect_uri"),
                    p("code_verifier"),
                )
                .await
            }
            None => Err(OAuthError::new("invalid_request", "code is required.")),
        },
        Some("refresh_token") => match p("refresh_token") {
            Some(t) => oauth::refresh(auth, db, &client, t, p("scope")).await,
            None => Err(OAuthError::new(
                "invalid_request",
                "refresh_token is required.",
            )),
        },
        Some(DEVICE_GRANT) => match p("device_code") {
            Some(d) => oauth::poll_device(auth, db, &client, d)
                .await
                .map(|d| d.tokens),
            None => Err(OAuthError::new(
                "invalid_request",
                "device_code is required.",
            )),
        },
        Some("password") => Err(OAuthError::new(
            "unsupported_grant_type",
            "There is no password grant; use the authorization code flow.",
        )),
        Some(other) => Err(OAuthError::new(
            "unsupported_grant_type",
            format!("The grant type {other:?} is not supported."),
        )),
        None => Err(OAuthError::new(
            "invalid_request",
            "grant_type is required.",
        )),
    };
    match result {
        Ok(t) => json_response(StatusCode::OK, &t.to_json()),
        Err(e) => error_response(&e, basic),
    }
}

/// `POST /oauth/revoke` (RFC 7009): always 200 for a well-formed request.
#[handler]
pub async fn revoke(req: &Request, body: Body, state: Data<&Arc<OAuthState>>) -> Response {
    let (params, client, basic) = match authenticated(&state, req, body).await {
        Ok(ok) => ok,
        Err((e, basic)) => return error_response(&e, basic),
    };
    let Some(token) = params.get("token") else {
        return error_response(
            &OAuthError::new("invalid_request", "token is required."),
            basic,
        );
    };
    match oauth::revoke(&state.auth, &state.svc, &client, token).await {
        Ok(()) => json_response(StatusCode::OK, &json!({})),
        Err(e) => error_response(&e, basic),
    }
}

/// `POST /oauth/introspect` (RFC 7662): for confidential clients (resource servers and
/// integrations with a secret); a public client's id proves nothing. A client learns about
/// its own tokens only, unless it holds the `admin` scope (a resource server acting for the
/// whole property); any other token is `{"active": false}`.
#[handler]
pub async fn introspect(req: &Request, body: Body, state: Data<&Arc<OAuthState>>) -> Response {
    let (params, client, basic) = match authenticated(&state, req, body).await {
        Ok(ok) => ok,
        Err((e, basic)) => return error_response(&e, basic),
    };
    if client.secret_hash.is_none() {
        return error_response(
            &OAuthError::invalid_client(
                "Introspection needs a confidential client (one with a secret).",
            ),
            basic,
        );
    }
    let Some(token) = params.get("token") else {
        return error_response(
            &OAuthError::new("invalid_request", "token is required."),
            basic,
        );
    };
    match oauth::introspect(&state.auth, &state.svc, token, &client).await {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => error_response(&e, basic),
    }
}

/// `POST /oauth/device_authorization` (RFC 8628 section 3.1). Anyone may call it, and each
/// call stores a device code: it is limited per address, and the verification address comes
/// from the configuration, never from the request's `Host`.
#[handler]
pub async fn device_authorization(
    req: &Request,
    body: Body,
    state: Data<&Arc<OAuthState>>,
) -> Response {
    if let Err(wait) = state.auth.flood.admit(&remote(req)) {
        return error_response(&OAuthError::throttled(wait), false);
    }
    let (params, client, basic) = match authenticated(&state, req, body).await {
        Ok(ok) => ok,
        Err((e, basic)) => return error_response(&e, basic),
    };
    let base = state.auth.public.clone();
    match oauth::start_device(
        &state.svc,
        &client,
        params.get("scope").map(String::as_str),
        &base,
    )
    .await
    {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => error_response(&e, basic),
    }
}

/// `GET /.well-known/oauth-authorization-server` (RFC 8414).
#[handler]
pub fn metadata(req: &Request, state: Data<&Arc<OAuthState>>) -> Response {
    let base = state.auth.base_url(req);
    let scopes: Vec<&str> = Scope::ALL.iter().map(|s| s.as_str()).collect();
    let auth_methods = json!(["client_secret_basic", "client_secret_post", "none"]);
    json_response(
        StatusCode::OK,
        &json!({
            "issuer": state.auth.issuer,
            "authorization_endpoint": format!("{base}/oauth/authorize"),
            "token_endpoint": format!("{base}/oauth/token"),
            "device_authorization_endpoint": format!("{base}/oauth/device_authorization"),
            "revocation_endpoint": format!("{base}/oauth/revoke"),
            "introspection_endpoint": format!("{base}/oauth/introspect"),
            "jwks_uri": format!("{base}/.well-known/jwks.json"),
            "scopes_supported": scopes,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["client_credentials", "authorization_code", "refresh_token", DEVICE_GRANT],
            "token_endpoint_auth_methods_supported": auth_methods,
            "revocation_endpoint_auth_methods_supported": auth_methods,
            "introspection_endpoint_auth_methods_supported": auth_methods,
            "code_challenge_methods_supported": ["S256"],
            "service_documentation": format!("{base}/docs"),
        }),
    )
}

/// `GET /.well-known/jwks.json`.
#[handler]
pub fn jwks(state: Data<&Arc<OAuthState>>) -> Response {
    Response::builder()
        .content_type("application/json")
        .header("cache-control", "max-age=60")
        .body(state.auth.keys.jwks().to_string())
}
