//! The OAuth 2.0 authorization server's own parts (API.md section 10), below the services:
//!
//! - [`keys`]: Ed25519 signing keys, JWKS.
//! - [`tokens`]: access tokens as RFC 9068 JWTs: minting and verifying.
//! - [`verified`]: the tokens already verified, so a signature is checked once.
//! - [`secrets`]: random tokens, hashes, argon2id, PKCE.
//! - [`throttle`]: slowing and refusing repeated failed authentication.
//! - [`flood`]: a limit per address on unauthenticated requests that make the server keep
//!   something (device codes, kiosk pairings).
//!
//! The grant logic (codes, device codes, refresh rotation, key rotation) is a use case and
//! lives in `service::oauth`; the HTTP edge (guard, endpoints, pages) in `api::oauth`.

pub mod flood;
pub mod keys;
pub mod secrets;
pub mod throttle;
pub mod tokens;
pub mod verified;

use std::sync::Arc;
use std::time::Duration;

use crate::config::OAuthConfig;
use keys::KeyStore;
use throttle::Throttle;

/// The address people type to reach a server listening on `listen`: on every address, this
/// computer's name (which the hotel's other devices reach), else the address listened on.
pub fn lan_address(listen: std::net::SocketAddr, https: bool) -> String {
    let host = if listen.ip().is_unspecified() {
        Some(rustix::system::uname())
            .and_then(|u| u.nodename().to_str().ok().map(str::to_string))
            .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_graphic()))
            .unwrap_or_else(|| "localhost".into())
    } else {
        match listen.ip() {
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            v4 => v4.to_string(),
        }
    };
    let scheme = if https { "https" } else { "http" };
    format!("{scheme}://{host}:{}", listen.port())
}

/// Everything the authorization server needs at run time.
pub struct AuthServer {
    /// Signing and verification keys.
    pub keys: Arc<KeyStore>,
    /// `iss` of every token.
    pub issuer: String,
    /// Whether the issuer was configured (then it is also the base of endpoint URLs;
    /// otherwise they follow the `Host` the client used).
    pub issuer_configured: bool,
    /// `aud` of every access token.
    pub audience: String,
    /// Access token lifetime.
    pub access_ttl: Duration,
    /// Refresh tokens die when unused this long.
    pub refresh_idle: Duration,
    /// A refresh family dies this long after the login.
    pub refresh_max: Duration,
    /// Failed-authentication counters.
    pub throttle: Throttle,
    /// `http` or `https`: how clients reach this server.
    pub scheme: &'static str,
    /// Where people and devices reach this server, from the configuration alone (never
    /// from a request's `Host`): the issuer when set, else this computer's name and port.
    pub public: String,
    /// Tokens whose signature was verified.
    pub verified: verified::VerifiedTokens,
    /// Unauthenticated requests that store something, per address.
    pub flood: flood::Flood,
}

impl AuthServer {
    /// The base URL for endpoints in documents and redirects: the configured issuer, or
    /// the address the client reached us at.
    pub fn base_url(&self, req: &poem::Request) -> String {
        if self.issuer_configured {
            return self.issuer.clone();
        }
        match req.headers().get("host").and_then(|h| h.to_str().ok()) {
            Some(host) if host.bytes().all(|b| b.is_ascii_graphic()) => {
                format!("{}://{host}", self.scheme)
            }
            _ => self.issuer.clone(),
        }
    }

    /// The server for a configuration; `listen` gives the default issuer, `https` its
    /// scheme (innkeep serves TLS itself).
    pub fn new(
        keys: Arc<KeyStore>,
        cfg: &OAuthConfig,
        listen: std::net::SocketAddr,
        https: bool,
    ) -> AuthServer {
        let scheme = if https { "https" } else { "http" };
        let issuer = cfg.issuer.clone().unwrap_or_else(|| {
            let host = if listen.ip().is_unspecified() {
                "localhost".to_string()
            } else {
                listen.ip().to_string()
            };
            format!("{scheme}://{host}:{}", listen.port())
        });
        let public = cfg
            .issuer
            .clone()
            .unwrap_or_else(|| lan_address(listen, https));
        AuthServer {
            keys,
            scheme,
            public: public.trim_end_matches('/').to_string(),
            issuer: issuer.trim_end_matches('/').to_string(),
            issuer_configured: cfg.issuer.is_some(),
            audience: cfg.audience.clone(),
            access_ttl: Duration::from_secs(cfg.access_token_minutes * 60),
            refresh_idle: Duration::from_secs(cfg.refresh_idle_days * 86_400),
            refresh_max: Duration::from_secs(cfg.refresh_max_days * 86_400),
            throttle: Throttle::new(
                cfg.throttle_failures,
                Duration::from_secs(cfg.throttle_lockout_seconds),
            ),
            verified: verified::VerifiedTokens::default(),
            flood: flood::Flood::default(),
        }
    }
}
