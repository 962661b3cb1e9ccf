//! The desk's own static files, compiled into the binary: the stylesheet, the small script
//! and the vendored htmx.

use poem::{Response, handler};

const STYLE: &str = include_str!("../../assets/desk.css");
const SCRIPT: &str = include_str!("../../assets/desk.js");
/// htmx 2.0.11, vendored (DESK.md): quicker pages where it helps; every flow works without it.
const HTMX: &str = include_str!("../../assets/htmx-2.0.11.min.js");

/// `GET /assets/desk.css`.
#[handler]
pub fn style() -> Response {
    Response::builder()
        .content_type("text/css; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .body(STYLE)
}

/// `GET /assets/htmx-2.0.11.min.js`.
#[handler]
pub fn htmx() -> Response {
    Response::builder()
        .content_type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=86400, immutable")
        .body(HTMX)
}

/// `GET /assets/desk.js`: the desk's own small script (print buttons), loaded from this
/// server so the pages need no inline script.
#[handler]
pub fn script() -> Response {
    Response::builder()
        .content_type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .body(SCRIPT)
}
