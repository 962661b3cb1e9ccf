//! The OAuth 2.0 HTTP edge (API.md section 10): the `/v1` guard, the `/oauth/*` and
//! `/.well-known/*` endpoints, and the staff pages (login, consent, device approval). The
//! grant logic is in `service::oauth`; keys, tokens and secrets are in `auth`.
//!
//! - [`guard`]: the middleware that demands a token with the operation's scope.
//! - [`endpoints`]: `/oauth/*` and `/.well-known/*` (RFC 6749 JSON errors).
//! - [`pages`]: the staff login and consent page.
//! - [`device_pages`]: the device approval page.

pub mod device_pages;
pub mod endpoints;
pub mod guard;
pub mod pages;

/// `r` with the OAuth endpoints and the staff pages (sign-in and consent, device approval).
pub fn mount(r: poem::Route) -> poem::Route {
    r.at("/oauth/token", poem::post(endpoints::token_endpoint))
        .at("/oauth/revoke", poem::post(endpoints::revoke))
        .at("/oauth/introspect", poem::post(endpoints::introspect))
        .at(
            "/oauth/device_authorization",
            poem::post(endpoints::device_authorization),
        )
        .at(
            "/oauth/authorize",
            poem::get(pages::authorize_page).post(pages::authorize_submit),
        )
        .at(
            "/device",
            poem::get(device_pages::device_form).post(device_pages::device_submit),
        )
        .at(
            "/.well-known/oauth-authorization-server",
            poem::get(endpoints::metadata),
        )
        .at("/.well-known/jwks.json", poem::get(endpoints::jwks))
        .at("/assets/style.css", poem::get(pages::style))
}
