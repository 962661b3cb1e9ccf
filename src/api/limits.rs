//! Rate limiting of `/v1` (API.md section 1): a token bucket (governor's GCRA) per OAuth
//! client, or per address for requests without a token. Over the limit the answer is 429
//! `rate_limited` with `Retry-After`; every answer carries `RateLimit-Policy` and
//! `RateLimit` (IETF httpapi rate-limit-headers draft): the policy `q` is the burst and `w`
//! the seconds an empty bucket takes to refill, `r` what is left now and `t` the seconds
//! until the bucket is full again.
//!
//! It runs inside the guard, so it sees the verified client and that client's own limit
//! (read with the token's validity check); answers the guard refuses (401, 403) are not
//! counted.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use poem::http::HeaderValue;
use poem::{Endpoint, IntoResponse, Request, Response};

use super::edge::RequestId;
use super::problem::render;
use crate::auth::tokens::Principal;
use crate::domain::limits::Rate;
use crate::error::{AppError, Kind};

type Limiter = RateLimiter<NotKeyed, InMemoryState, DefaultClock, StateInformationMiddleware>;

/// Buckets kept before the table is cleared (addresses come and go; a cleared bucket is
/// simply full again).
const MAX_BUCKETS: usize = 10_000;

/// The policy's name in the headers.
const POLICY: &str = "api";

/// Wraps `/v1` with per-client token buckets.
pub struct RateLimits<E> {
    inner: E,
    default: Rate,
    buckets: Mutex<HashMap<String, (Rate, Arc<Limiter>)>>,
    clock: DefaultClock,
}

fn limiter(rate: Rate) -> Limiter {
    let nz = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    RateLimiter::direct(Quota::per_second(nz(rate.per_second)).allow_burst(nz(rate.burst)))
        .with_middleware::<StateInformationMiddleware>()
}

impl<E> RateLimits<E> {
    /// Limits `inner` to `default` per client, unless a client has its own limit.
    pub fn new(inner: E, default: Rate) -> Self {
        RateLimits {
            inner,
            default,
            buckets: Mutex::new(HashMap::new()),
            clock: DefaultClock::default(),
        }
    }

    /// The bucket for `key` at `rate`, made anew when the client's limit changed.
    fn bucket(&self, key: String, rate: Rate) -> Arc<Limiter> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((r, l)) = buckets.get(&key)
            && *r == rate
        {
            return l.clone();
        }
        if buckets.len() >= MAX_BUCKETS {
            buckets.clear();
        }
        let l = Arc::new(limiter(rate));
        buckets.insert(key, (rate, l.clone()));
        l
    }
}

fn headers(resp: &mut Response, rate: Rate, remaining: u32, reset: u64) {
    let policy = format!("\"{POLICY}\";q={};w={}", rate.burst, rate.window_seconds());
    let now = format!("\"{POLICY}\";r={remaining};t={reset}");
    let h = resp.headers_mut();
    for (name, value) in [("ratelimit-policy", policy), ("ratelimit", now)] {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    }
}

impl<E: Endpoint> Endpoint for RateLimits<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        if !(req.uri().path() == "/v1" || req.uri().path().starts_with("/v1/")) {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        }
        let (key, rate) = match req.extensions().get::<Principal>() {
            Some(p) => (
                format!("client {}", p.claims.client_id),
                p.rate.unwrap_or(self.default),
            ),
            None => (
                format!("address {}", crate::auth::endpoints::remote(&req)),
                self.default,
            ),
        };
        match self.bucket(key, rate).check() {
            Ok(state) => {
                let remaining = state.remaining_burst_capacity();
                let mut resp = self.inner.call(req).await?.into_response();
                headers(&mut resp, rate, remaining, rate.seconds_to_full(remaining));
                Ok(resp)
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let secs = secs.max(1);
                let id = RequestId::of(&req);
                let e = AppError::new(
                    Kind::TooManyRequests,
                    "rate_limited",
                    format!(
                        "Too many requests: this client may make {} requests per second \
                         (bursts of up to {}). Wait {secs} s (Retry-After), then go on more slowly.",
                        rate.per_second, rate.burst
                    ),
                )
                .with_extension("retry_after", secs.into());
                let mut resp = render(&e, &id);
                resp.headers_mut()
                    .insert("retry-after", HeaderValue::from(secs));
                headers(&mut resp, rate, 0, rate.seconds_to_full(0));
                Ok(resp)
            }
        }
    }
}
