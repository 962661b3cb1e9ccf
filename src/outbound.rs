//! Outbound HTTP, shared by webhook delivery and the national authorities' transports: one
//! ureq configuration (a whole-call timeout, statuses as answers rather than errors, no
//! redirects, an innkeep User-Agent) and one reading of `Retry-After`.

use std::time::Duration;

use ureq::config::ConfigBuilder;
use ureq::typestate::AgentScope;

/// The longest `Retry-After` honoured; a larger one (or a broken clock on the other side)
/// never parks work for longer.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 3600);

/// An agent configuration for calls made for `purpose` (shown in the User-Agent).
pub fn agent(timeout: Duration, purpose: &str) -> ConfigBuilder<AgentScope> {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent(format!("innkeep/{} ({purpose})", env!("CARGO_PKG_VERSION")))
}

/// The `Retry-After` of an answer, in seconds, capped at [`MAX_RETRY_AFTER`].
pub fn retry_after(resp: &ureq::http::Response<ureq::Body>) -> Option<Duration> {
    let secs: u64 = resp
        .headers()
        .get("retry-after")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(secs).min(MAX_RETRY_AFTER))
}
