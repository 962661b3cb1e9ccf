//! The desk's own static files, compiled into the binary packed (`crate::packed`) and sent
//! gzip-compressed as they are to every browser: the stylesheet, the small script and the
//! vendored htmx.

use std::sync::OnceLock;

use poem::{Request, Response, handler};

use crate::packed::packed;
use crate::web::packed_file;

/// `GET /assets/desk.css`.
#[handler]
pub fn style(req: &Request) -> Response {
    static PLAIN: OnceLock<Vec<u8>> = OnceLock::new();
    let css = "text/css; charset=utf-8";
    packed_file(
        req,
        packed!("assets/desk.css"),
        &PLAIN,
        css,
        "public, max-age=3600",
    )
}

/// `GET /assets/htmx-2.0.11.min.js`: htmx 2.0.11, vendored (DESK.md): quicker pages where it
/// helps; every flow works without it.
#[handler]
pub fn htmx(req: &Request) -> Response {
    static PLAIN: OnceLock<Vec<u8>> = OnceLock::new();
    let gz = packed!("assets/htmx-2.0.11.min.js");
    let js = "text/javascript; charset=utf-8";
    packed_file(req, gz, &PLAIN, js, "public, max-age=86400, immutable")
}

/// `GET /assets/desk.js`: the desk's own small script (print buttons), loaded from this
/// server so the pages need no inline script.
#[handler]
pub fn script(req: &Request) -> Response {
    static PLAIN: OnceLock<Vec<u8>> = OnceLock::new();
    let js = "text/javascript; charset=utf-8";
    packed_file(
        req,
        packed!("assets/desk.js"),
        &PLAIN,
        js,
        "public, max-age=3600",
    )
}
