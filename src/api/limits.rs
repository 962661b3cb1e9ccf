//! Rate limiting of `/v1` (API.md section 1): a token bucket (governor's GCRA) per OAuth
//! client, or per address for requests without a token. Over the limit the answer is 429
//! `rate_limited` with `Retry-After`; every answer carries `RateLimit-Policy` and
//! `RateLimit` (IETF httpapi rate-limit-headers draft): the policy `q` is the burst and `w`
//! the seconds an empty bucket takes to refill, `r` what is left now and `t` the seconds
//! until the bucket is full again.
//!
//! The guard uses it: it knows who is calling (the verified client and its own limit, read
//! with the token's validity check), and it counts and stamps its own refusals too: a 401
//! counts against the address, a 403 against the client.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use poem::http::HeaderValue;
use poem::{Request, Response};

use super::edge::RequestId;
use super::problem::render;
use crate::domain::limits::Rate;
use crate::error::{AppError, Kind};

type Limiter = RateLimiter<NotKeyed, InMemoryState, DefaultClock, StateInformationMiddleware>;

/// Buckets kept before the table is cleared (addresses come and go; a cleared bucket is
/// simply full again).
const MAX_BUCKETS: usize = 10_000;

/// The policy's name in the headers.
const POLICY: &str = "api";

/// The token buckets of `/v1`, one per client or address.
pub struct Limits {
    default: Rate,
    buckets: Mutex<HashMap<String, (Rate, Arc<Limiter>)>>,
    clock: DefaultClock,
}

/// Who a request is counted against.
pub enum Caller<'a> {
    /// A verified client, with its own limit if it has one.
    Client(&'a str, Option<Rate>),
    /// No valid token: the address it came from.
    Address(String),
}

/// A request the bucket let through: what the headers of its answer say.
pub struct Admitted {
    rate: Rate,
    remaining: u32,
}

impl Admitted {
    /// Adds `RateLimit-Policy` and `RateLimit` to the answer.
    pub fn stamp(&self, resp: &mut Response) {
        headers(
            resp,
            self.rate,
            self.remaining,
            self.rate.seconds_to_full(self.remaining),
        );
    }
}

fn limiter(rate: Rate) -> Limiter {
    let nz = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    RateLimiter::direct(Quota::per_second(nz(rate.per_second)).allow_burst(nz(rate.burst)))
        .with_middleware::<StateInformationMiddleware>()
}

/// Whether `path` is rate limited (the `/v1` API).
pub fn applies_to(path: &str) -> bool {
    path == "/v1" || path.starts_with("/v1/")
}

impl Limits {
    /// Buckets of `default` size, unless a client has its own limit.
    pub fn new(default: Rate) -> Self {
        Limits {
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

    /// Takes one request from the caller's bucket, or answers 429.
    pub fn admit(&self, req: &Request, caller: Caller<'_>) -> Result<Admitted, Box<Response>> {
        let (key, rate) = match caller {
            Caller::Client(id, rate) => (format!("client {id}"), rate.unwrap_or(self.default)),
            Caller::Address(ip) => (format!("address {ip}"), self.default),
        };
        match self.bucket(key, rate).check() {
            Ok(state) => Ok(Admitted {
                rate,
                remaining: state.remaining_burst_capacity(),
            }),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
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
                let mut resp = render(&e, &RequestId::of(req));
                resp.headers_mut()
                    .insert("retry-after", HeaderValue::from(secs));
                headers(&mut resp, rate, 0, rate.seconds_to_full(0));
                Err(Box::new(resp))
            }
        }
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
