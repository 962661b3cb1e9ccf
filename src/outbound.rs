//! Outbound HTTP, shared by webhook delivery and the national authorities' transports: one
//! ureq configuration (a whole-call timeout, statuses as answers rather than errors, no
//! redirects, an innkeep User-Agent, no proxy from the environment) and one reading of
//! `Retry-After`; and the log levels its libraries are held to, so that no configured level
//! ever writes a credential.
//!
//! Proxies: `HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY` in the service's environment are
//! ignored. With one, a webhook's host name would go to the proxy unresolved, past the
//! address check of `jobs::destination`, and the authorities' calls would leave by a route
//! nobody chose. A proxy is used only where innkeep's own configuration names it
//! (`[webhooks] proxy`).

use std::time::Duration;

use ureq::config::ConfigBuilder;
use ureq::typestate::AgentScope;

/// The longest `Retry-After` honoured; a larger one (or a broken clock on the other side)
/// never parks work for longer.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 3600);

/// An agent configuration for calls made for `purpose` (shown in the User-Agent).
pub fn agent(timeout: Duration, purpose: &str) -> ConfigBuilder<AgentScope> {
    ureq::Agent::config_builder()
        .proxy(None)
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent(format!("innkeep/{} ({purpose})", env!("CARGO_PKG_VERSION")))
}

/// Caps that no configured log level lifts: ureq's protocol layer writes every byte sent
/// and received (Authorization headers, passwords in SOAP bodies, tokens) at TRACE; ureq
/// itself shows full paths and queries at TRACE; tokio-postgres shows statement parameters
/// (guests' personal data) at DEBUG.
pub fn never_secrets() -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    Targets::new()
        .with_default(LevelFilter::TRACE)
        .with_target("ureq_proto", LevelFilter::INFO)
        .with_target("ureq", LevelFilter::DEBUG)
        .with_target("tokio_postgres", LevelFilter::INFO)
}

/// The `Retry-After` of an answer, capped at [`MAX_RETRY_AFTER`].
pub fn retry_after(resp: &ureq::http::Response<ureq::Body>) -> Option<Duration> {
    let value = resp.headers().get("retry-after")?.to_str().ok()?;
    parse_retry_after(value, std::time::SystemTime::now())
}

/// A `Retry-After` value (RFC 9110 section 10.2.3): delay seconds, or an HTTP-date, read
/// against `now` (a date already past means "now").
pub fn parse_retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    let wait = match value.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => httpdate::parse_http_date(value)
            .ok()?
            .duration_since(now)
            .unwrap_or(Duration::ZERO),
    };
    Some(wait.min(MAX_RETRY_AFTER))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{SystemTime, UNIX_EPOCH};

    #[test]
    fn retry_after_takes_seconds_and_http_dates() {
        // Sun, 06 Nov 1994 08:49:37 GMT
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:51:37 GMT", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("999999999", now), Some(MAX_RETRY_AFTER));
        assert_eq!(parse_retry_after("soon", SystemTime::now()), None);
    }
}
