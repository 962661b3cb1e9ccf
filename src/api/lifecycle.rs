//! The API's life cycle (API.md section 5): which operations are deprecated, and what a
//! deprecated operation answers.
//!
//! A deprecation names the operation, the day it was deprecated, its sunset (at least 12
//! months later) and a migration guide under `docs/api/migrations/`. Until the sunset the
//! operation keeps working and every answer carries `Deprecation: @<unix seconds>` (RFC
//! 9745), `Sunset: <HTTP-date>` (RFC 8594) and `Link: </docs/migrations/<slug>>;
//! rel="deprecation"; type="text/html"`; from the sunset on it answers 410 `sunset` with
//! the same link. The spec marks it `deprecated: true` (see `spec_tools`).

use chrono::NaiveDate;
use poem::http::HeaderValue;
use poem::{Endpoint, IntoResponse, Request, Response};

use super::edge::RequestId;
use super::problem::render;
use super::spec::{split, template_matches};
use crate::error::{AppError, Kind};

/// One deprecated operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deprecation {
    /// The HTTP method, such as `GET`.
    pub method: &'static str,
    /// The spec's path template, without `/v1` (such as `/guests/{id}`).
    pub path: &'static str,
    /// The day it was deprecated, `YYYY-MM-DD`.
    pub since: &'static str,
    /// The day it stops working, `YYYY-MM-DD`: at least 12 months after `since`.
    pub sunset: &'static str,
    /// The migration guide's slug (`docs/api/migrations/<slug>.md`).
    pub guide: &'static str,
}

/// What is deprecated in this version. Nothing is yet; an entry here is all it takes (the
/// registry test checks its dates and guide).
pub const DEPRECATIONS: &[Deprecation] = &[];

impl Deprecation {
    /// A deprecation entry.
    pub const fn new(
        method: &'static str,
        path: &'static str,
        since: &'static str,
        sunset: &'static str,
        guide: &'static str,
    ) -> Deprecation {
        Deprecation {
            method,
            path,
            since,
            sunset,
            guide,
        }
    }

    /// Where the migration guide is served.
    pub fn guide_path(&self) -> String {
        format!("/docs/migrations/{}", self.guide)
    }

    fn day(text: &str) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
    }

    /// Its dates, when both parse.
    pub fn dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((Self::day(self.since)?, Self::day(self.sunset)?))
    }

    /// The `Link` header value.
    fn link(&self) -> String {
        format!(
            "<{}>; rel=\"deprecation\"; type=\"text/html\"",
            self.guide_path()
        )
    }
}

/// Wraps `/v1` with the deprecation registry.
pub struct Lifecycle<E> {
    inner: E,
    entries: Vec<(Vec<String>, Deprecation)>,
}

impl<E> Lifecycle<E> {
    /// Serves `inner`, applying `deprecations` (paths are under `prefix`, such as `/v1`).
    pub fn new(inner: E, prefix: &str, deprecations: &[Deprecation]) -> Self {
        Lifecycle {
            inner,
            entries: deprecations
                .iter()
                .map(|d| (split(&format!("{prefix}{}", d.path)), d.clone()))
                .collect(),
        }
    }
}

fn midnight(day: NaiveDate) -> chrono::DateTime<chrono::Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

impl<E: Endpoint> Endpoint for Lifecycle<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let found = if self.entries.is_empty() {
            None
        } else {
            let actual = split(req.uri().path());
            self.entries
                .iter()
                .find(|(t, d)| d.method == req.method().as_str() && template_matches(t, &actual))
                .map(|(_, d)| d.clone())
        };
        let Some(d) = found else {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        };
        let Some((since, sunset)) = d.dates() else {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        };
        let link = HeaderValue::from_str(&d.link()).ok();
        if chrono::Utc::now() >= midnight(sunset) {
            let id = RequestId::of(&req);
            let e = AppError::new(
                Kind::Gone,
                "sunset",
                format!(
                    "{} {} was retired on {} (deprecated since {}). The migration guide at {} says what to use instead.",
                    d.method,
                    d.path,
                    d.sunset,
                    d.since,
                    d.guide_path()
                ),
            )
            .with_extension("guide", d.guide_path().into())
            .with_extension("sunset", d.sunset.into());
            let mut resp = render(&e, &id);
            if let Some(link) = link {
                resp.headers_mut().insert("link", link);
            }
            return Ok(resp);
        }
        let mut resp = self.inner.call(req).await?.into_response();
        let h = resp.headers_mut();
        let deprecation = format!("@{}", midnight(since).timestamp());
        let sunset = httpdate::fmt_http_date(midnight(sunset).into());
        for (name, value) in [("deprecation", deprecation), ("sunset", sunset)] {
            if let Ok(v) = HeaderValue::from_str(&value) {
                h.insert(name, v);
            }
        }
        if let Some(link) = link {
            h.append("link", link);
        }
        Ok(resp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deprecation_has_dates_a_year_apart_and_a_guide() {
        for d in DEPRECATIONS {
            let (since, sunset) = d.dates().expect("dates are YYYY-MM-DD");
            assert!(
                sunset >= since + chrono::Months::new(12),
                "{} {}: the sunset must be at least 12 months after the deprecation",
                d.method,
                d.path
            );
            assert!(
                super::super::docs::guide(d.guide).is_some(),
                "{} {}: no migration guide {}",
                d.method,
                d.path,
                d.guide
            );
        }
    }
}
