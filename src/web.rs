//! Small HTTP helpers shared by the server's own pages (the OAuth sign-in pages and the front
//! desk): reading a cookie and a form, redirecting, and the headers every page carries.

use std::collections::HashMap;
use std::sync::OnceLock;

use poem::http::{HeaderValue, StatusCode};
use poem::{Body, Request, Response};

/// The value of cookie `name`, if the browser sent it.
pub fn cookie(req: &Request, name: &str) -> Option<String> {
    let header = req.headers().get("cookie")?.to_str().ok()?;
    header
        .split(';')
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A URL-encoded form; `None` when it cannot be read or repeats a field.
pub async fn form(body: Body) -> Option<HashMap<String, String>> {
    let bytes = body.into_bytes().await.ok()?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes).ok()?;
    let mut map = HashMap::new();
    for (k, v) in pairs {
        if map.insert(k, v).is_some() {
            return None;
        }
    }
    Some(map)
}

/// A form sent either URL-encoded or as `multipart/form-data`: its text fields, and its
/// files by field name. `None` when it cannot be read or repeats a field.
pub async fn form_with_files(
    req: &Request,
    body: Body,
) -> Option<(HashMap<String, String>, HashMap<String, Vec<u8>>)> {
    use poem::FromRequest;
    let multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if !multipart {
        return form(body).await.map(|f| (f, HashMap::new()));
    }
    let mut body = poem::RequestBody::new(body);
    let mut parts = poem::web::Multipart::from_request(req, &mut body)
        .await
        .ok()?;
    let (mut fields, mut files) = (HashMap::new(), HashMap::new());
    while let Ok(Some(field)) = parts.next_field().await {
        let name = field.name().unwrap_or_default().to_string();
        if field.file_name().is_some() {
            let bytes = field.bytes().await.ok()?;
            if files.insert(name, bytes).is_some() {
                return None;
            }
        } else if fields.insert(name, field.text().await.ok()?).is_some() {
            return None;
        }
    }
    Some((fields, files))
}

/// The items of a header that lists weighted choices (`Accept-Language`, `Accept-Encoding`;
/// RFC 9110 §12.4.2), in order: each item's value, trimmed, and its weight `q` (1 when it
/// has none or an unreadable one; the parameter's name in either case).
pub fn weighted(value: &str) -> impl Iterator<Item = (&str, f32)> {
    value.split(',').map(|item| {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let q = parts
            .filter_map(|p| p.split_once('='))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("q"))
            .and_then(|(_, q)| q.trim().parse().ok())
            .unwrap_or(1.0);
        (name, q)
    })
}

/// A redirect with `status` (302 after a GET, 303 after a form post).
pub fn redirect(status: StatusCode, location: &str) -> Response {
    Response::builder()
        .status(status)
        .header("location", location)
        .header("cache-control", "no-store")
        .finish()
}

/// The headers every page carries: no caching, no framing, no referrer, and a strict CSP
/// (`csp` names what the page may load).
pub fn secure(r: &mut Response, csp: &'static str) {
    let h = r.headers_mut();
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    h.insert("content-security-policy", HeaderValue::from_static(csp));
}

/// Whether a state-changing request comes from this server's own pages: its `Origin` (or,
/// without one, its `Referer`) is the host the request was sent to.
pub fn same_origin(req: &Request) -> bool {
    let Some(host) = req.headers().get("host").and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let from = req
        .headers()
        .get("origin")
        .or_else(|| req.headers().get("referer"))
        .and_then(|h| h.to_str().ok());
    from.is_some_and(|o| {
        let rest = o
            .strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
            .unwrap_or("");
        rest.split('/').next() == Some(host)
    })
}

/// The address a request came from, for throttling and limits ("unknown" when it has none).
pub fn remote(req: &Request) -> String {
    req.remote_addr()
        .as_socket_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// How long a browser keeps a file whose address carries its version: a year.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A packed file (`crate::packed`) served over HTTP: as it is stored, gzip-compressed, to a
/// client that accepts gzip (every browser does), else unpacked (once). It carries a weak
/// ETag of its content, so a client that has it gets a 304 instead of the file again.
pub struct PackedFile {
    /// The file as stored, gzip-compressed.
    gz: &'static [u8],
    /// The file unpacked, made at the first client that does not take gzip.
    plain: OnceLock<Vec<u8>>,
    /// Its ETag, made at the first answer.
    etag: OnceLock<String>,
    /// Its `Content-Type`.
    content_type: &'static str,
    /// Its `Cache-Control`.
    cache: &'static str,
}

impl PackedFile {
    /// The file `gz`, sent as `content_type` with this `Cache-Control`.
    pub const fn new(gz: &'static [u8], content_type: &'static str, cache: &'static str) -> Self {
        PackedFile {
            gz,
            plain: OnceLock::new(),
            etag: OnceLock::new(),
            content_type,
            cache,
        }
    }

    /// The file as stored, gzip-compressed.
    #[cfg(test)]
    pub fn gz(&self) -> &'static [u8] {
        self.gz
    }

    /// The file unpacked (once).
    pub fn plain(&self) -> &[u8] {
        self.plain.get_or_init(|| crate::packed::bytes(self.gz))
    }

    /// The file's ETag: weak (`W/"…"`), since the gzip and the plain answer are the same
    /// content in two encodings; the first 16 hex digits of the SHA-256 of the stored file.
    pub fn etag(&self) -> &str {
        self.etag.get_or_init(|| {
            let hex = crate::domain::digest::sha256_hex(self.gz);
            format!("W/\"{}\"", &hex[..16])
        })
    }

    /// The answer to a `GET` of the file: 304 when `If-None-Match` names its ETag.
    pub fn respond(&'static self, req: &Request) -> Response {
        let accepts = req
            .headers()
            .get("accept-encoding")
            .and_then(|v| v.to_str().ok())
            .is_some_and(accepts_gzip);
        let r = Response::builder()
            .header("cache-control", self.cache)
            .header("vary", "accept-encoding")
            .header("etag", self.etag());
        // RFC 9110 lets a list run over several field lines.
        let tags = req.headers().get_all("if-none-match");
        if tags
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| none_match(v, self.etag()))
        {
            return r.status(StatusCode::NOT_MODIFIED).finish();
        }
        let r = r.content_type(self.content_type);
        if accepts {
            return r.header("content-encoding", "gzip").body(self.gz);
        }
        r.body(self.plain())
    }
}

/// Whether an `If-None-Match` value names `etag` (or is `*`), by the weak comparison
/// RFC 9110 §13.1.2 asks for: `W/` prefixes are ignored.
fn none_match(value: &str, etag: &str) -> bool {
    let ours = etag.trim_start_matches("W/");
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours)
}

/// Whether an `Accept-Encoding` value lets us send gzip (RFC 9110 §12.5.3): `gzip` (or its
/// alias `x-gzip`) named with a weight above 0, or, when neither is named, `*` with one.
fn accepts_gzip(value: &str) -> bool {
    let mut named = None;
    let mut any = None;
    for (coding, weight) in crate::web::weighted(value) {
        if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
            named = Some(named.map_or(weight, |w: f32| w.max(weight)));
        } else if coding == "*" {
            any = Some(weight);
        }
    }
    named.or(any).is_some_and(|w| w > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly() {
        let tag = r#"W/"0123456789abcdef""#;
        assert!(none_match(tag, tag));
        assert!(none_match(r#""0123456789abcdef""#, tag));
        assert!(none_match(r#""x", W/"0123456789abcdef""#, tag));
        assert!(none_match("*", tag));
        assert!(!none_match(r#""0123456789abcde""#, tag));
        assert!(!none_match("", tag));
    }

    #[test]
    fn gzip_is_sent_only_where_accepted() {
        assert!(accepts_gzip("gzip, deflate, br"));
        assert!(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
        assert!(accepts_gzip("*"));
        assert!(!accepts_gzip("identity"));
        assert!(!accepts_gzip("gzip;q=0, br"));
        assert!(!accepts_gzip("gzip; q=0.0"));
        assert!(!accepts_gzip("x-gzip-not"));
        assert!(accepts_gzip("x-gzip"));
        assert!(!accepts_gzip("gzip;Q=0"));
        assert!(!accepts_gzip("gzip;q=0, *"));
        assert!(accepts_gzip("identity;q=0.5, *;q=0.1"));
        assert!(!accepts_gzip("*;q=0"));
        assert!(!accepts_gzip(""));
    }
}
