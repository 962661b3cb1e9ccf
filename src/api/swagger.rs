//! The spec as served (`/v1/openapi.json`) and Swagger UI over it (`/docs`).
//!
//! Both are kept in the binary gzip-compressed and sent as they are to every client that
//! accepts gzip (every browser does), decompressed once for one that does not:
//! - the spec is the committed `openapi.json` (about 70 KB instead of 1 MB; `build.rs`
//!   compresses it), which the tests hold equal to what the code describes;
//! - Swagger UI's script and stylesheet are in `assets/swagger-ui/` (400 KB instead of
//!   1.6 MB).

use poem::{Request, Response, handler};

use crate::web::PackedFile;

/// The committed `openapi.json`, packed by `build.rs`. It is not kept for long: a new
/// version of the server may change it at the same address.
static SPEC: PackedFile = PackedFile::new(
    crate::packed::packed!("openapi.json"),
    "application/json",
    "no-cache",
);

/// Swagger UI 5.17.14's script, gzip-compressed (see `assets/swagger-ui/README.md`). Its
/// version is in its address, so a browser keeps it a year and an upgrade changes it.
static SCRIPT: PackedFile = PackedFile::new(
    include_bytes!("../../assets/swagger-ui/swagger-ui-bundle.js.gz"),
    "text/javascript; charset=utf-8",
    crate::web::IMMUTABLE,
);
/// Swagger UI 5.17.14's stylesheet, gzip-compressed.
static STYLE: PackedFile = PackedFile::new(
    include_bytes!("../../assets/swagger-ui/swagger-ui.css.gz"),
    "text/css; charset=utf-8",
    crate::web::IMMUTABLE,
);

/// The page at `/docs`: Swagger UI reading the spec from `/v1/openapi.json`, with its
/// OAuth 2.0 receiver beside it so the Authorize button can finish a code flow.
const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>innkeep API</title>
<link rel="stylesheet" href="/docs/swagger-ui-5.17.14.css">
<script src="/docs/swagger-ui-5.17.14.js"></script>
</head>
<body>
<div id="ui"></div>
<script>
window.ui = SwaggerUIBundle({
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

/// `GET /v1/openapi.json`: the spec (the same for every server this binary runs).
#[handler]
pub fn openapi_json(req: &Request) -> Response {
    SPEC.respond(req)
}

/// The committed spec, as `innkeep openapi` prints it.
pub fn spec() -> &'static [u8] {
    SPEC.plain()
}

/// `GET /docs`: Swagger UI.
#[handler]
pub fn page() -> poem::web::Html<&'static str> {
    poem::web::Html(PAGE)
}

/// `GET /docs/swagger-ui-5.17.14.js`.
#[handler]
pub fn script(req: &Request) -> Response {
    SCRIPT.respond(req)
}

/// `GET /docs/swagger-ui-5.17.14.css`.
#[handler]
pub fn style(req: &Request) -> Response {
    STYLE.respond(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compressed_files_are_swagger_ui_as_released() {
        use std::io::Read;
        // The SHA-256 of each file uncompressed, as assets/swagger-ui/README.md lists them.
        let readme = include_str!("../../assets/swagger-ui/README.md");
        for gz in [SCRIPT.gz(), STYLE.gz()] {
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(gz)
                .read_to_end(&mut plain)
                .unwrap_or_else(|e| panic!("damaged: {e}"));
            let sum = crate::domain::digest::sha256_hex(&plain);
            assert!(readme.contains(&sum), "{sum} is not in the README");
        }
    }

    #[test]
    fn the_spec_kept_is_the_committed_file() {
        let committed = include_bytes!("../../openapi.json");
        assert_eq!(spec(), committed.as_slice());
    }
}
