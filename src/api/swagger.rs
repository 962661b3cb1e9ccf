//! The spec as served (`/v1/openapi.json`) and Swagger UI over it (`/docs`).
//!
//! Both are made only when someone asks: the finished spec is a megabyte of JSON that an
//! idle front-desk server need not hold, and Swagger UI's script and stylesheet are kept
//! in the binary gzip-compressed (`assets/swagger-ui/`, 400 KB instead of 1.6 MB) and
//! sent as they are to every browser, which all accept gzip.

use std::io::Read;
use std::sync::OnceLock;

use poem::web::Data;
use poem::{Request, Response, handler};

/// Swagger UI 5.17.14's script, gzip-compressed (see `assets/swagger-ui/README.md`).
const SCRIPT_GZ: &[u8] = include_bytes!("../../assets/swagger-ui/swagger-ui-bundle.js.gz");
/// Swagger UI 5.17.14's stylesheet, gzip-compressed.
const STYLE_GZ: &[u8] = include_bytes!("../../assets/swagger-ui/swagger-ui.css.gz");

/// The page at `/docs`: Swagger UI reading the spec from `/v1/openapi.json`, with its
/// OAuth 2.0 receiver beside it so the Authorize button can finish a code flow.
const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>innkeep API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<script src="/docs/swagger-ui-bundle.js"></script>
</head>
<body>
<div id="ui"></div>
<script>
SwaggerUIBundle({
    dom_id: "#ui",
    url: "/v1/openapi.json",
    filter: false,
    oauth2RedirectUrl: new URL("/docs/oauth-receiver.html", window.location.href).href,
    deepLinking: true,
});
</script>
</body>
</html>
"##;

/// The finished OpenAPI document, made on the first request for it and then kept.
#[derive(Default)]
pub struct Spec {
    text: OnceLock<String>,
}

impl Spec {
    /// The document's text (made now if this is the first time).
    pub fn text(&self) -> &str {
        self.text.get_or_init(super::spec_json)
    }
}

/// `GET /v1/openapi.json`.
#[handler]
pub fn openapi_json(spec: Data<&std::sync::Arc<Spec>>) -> Response {
    Response::builder()
        .content_type("application/json")
        .body(spec.0.text().to_owned())
}

/// `GET /docs`: Swagger UI.
#[handler]
pub fn page() -> poem::web::Html<&'static str> {
    poem::web::Html(PAGE)
}

/// `GET /docs/swagger-ui-bundle.js`.
#[handler]
pub fn script(req: &Request) -> Response {
    compressed(req, SCRIPT_GZ, "text/javascript; charset=utf-8")
}

/// `GET /docs/swagger-ui.css`.
#[handler]
pub fn style(req: &Request) -> Response {
    compressed(req, STYLE_GZ, "text/css; charset=utf-8")
}

/// `gz` as it is stored when the client accepts gzip, else decompressed.
fn compressed(req: &Request, gz: &'static [u8], content_type: &str) -> Response {
    let accepts = req
        .headers()
        .get("accept-encoding")
        .and_then(|v| v.to_str().ok())
        .is_some_and(accepts_gzip);
    let r = Response::builder()
        .content_type(content_type)
        .header("cache-control", "public, max-age=86400")
        .header("vary", "accept-encoding");
    if accepts {
        return r.header("content-encoding", "gzip").body(gz);
    }
    let mut plain = Vec::with_capacity(gz.len() * 4);
    match flate2::read::GzDecoder::new(gz).read_to_end(&mut plain) {
        Ok(_) => r.body(plain),
        // The files are compiled in and checked by a test; this cannot happen unless the
        // build took a damaged file, and then the page says so instead of failing silently.
        Err(e) => Response::builder()
            .status(poem::http::StatusCode::INTERNAL_SERVER_ERROR)
            .content_type("text/plain; charset=utf-8")
            .body(format!("Swagger UI's file in this build is damaged: {e}")),
    }
}

/// Whether an `Accept-Encoding` value lets us send gzip (RFC 9110 §12.5.3): `gzip` or `*`
/// named without `q=0`.
fn accepts_gzip(value: &str) -> bool {
    value.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_sent_only_where_accepted() {
        assert!(accepts_gzip("gzip, deflate, br"));
        assert!(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
        assert!(accepts_gzip("*"));
        assert!(!accepts_gzip("identity"));
        assert!(!accepts_gzip("gzip;q=0, br"));
        assert!(!accepts_gzip("gzip; q=0.0"));
        assert!(!accepts_gzip("x-gzip-not"));
    }

    #[test]
    fn the_compressed_files_are_whole() {
        for gz in [SCRIPT_GZ, STYLE_GZ] {
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(gz)
                .read_to_end(&mut plain)
                .unwrap_or_else(|e| panic!("damaged: {e}"));
            assert!(plain.len() > 100_000);
        }
    }
}
