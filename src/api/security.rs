//! The OAuth 2.0 security scheme as the OpenAPI document describes it.
//!
//! Each operation names its scope with `#[oai(scope = "Scope::…")]` on a [`Token`]
//! parameter; the guard (`api::oauth::guard`) enforces exactly what the document says.

use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::registry::MetaOAuthScope;
use poem_openapi::{OAuthScopes, SecurityScheme};

use crate::auth::tokens::Verified;
pub use crate::domain::scopes::Scope;

impl OAuthScopes for Scope {
    fn meta() -> Vec<MetaOAuthScope> {
        Scope::ALL
            .iter()
            .map(|s| MetaOAuthScope {
                name: s.as_str(),
                description: Some(s.description()),
            })
            .collect()
    }

    fn name(&self) -> &'static str {
        self.as_str()
    }
}

/// An access token (a JWT, RFC 9068) issued by this server at `/oauth/token`. Kiosks get
/// one through the device flow (RFC 8628) at `/oauth/device_authorization`; see
/// `/.well-known/oauth-authorization-server`.
#[derive(SecurityScheme)]
#[oai(
    rename = "OAuth2",
    ty = "oauth2",
    flows(
        client_credentials(token_url = "/oauth/token", scopes = "Scope"),
        authorization_code(
            authorization_url = "/oauth/authorize",
            token_url = "/oauth/token",
            refresh_url = "/oauth/token",
            scopes = "Scope"
        )
    ),
    checker = "principal"
)]
pub struct Token(pub Verified);

/// The guard already verified the token; hand its principal to the handler.
async fn principal(req: &Request, _bearer: Bearer) -> Option<Verified> {
    req.extensions().get::<Verified>().cloned()
}
