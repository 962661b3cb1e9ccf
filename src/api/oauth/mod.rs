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
