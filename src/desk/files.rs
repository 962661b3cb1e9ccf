//! The desk's own static files, compiled into the binary packed (`crate::packed`) and sent
//! gzip-compressed as they are to every browser: the stylesheet, the small script and the
//! vendored htmx.

use poem::{Request, Response, handler};

use crate::packed::packed;
use crate::web::PackedFile;

const JS: &str = "text/javascript; charset=utf-8";
/// The desk's own files may change with an upgrade at the same address: an hour.
const HOUR: &str = "public, max-age=3600";

static STYLE: PackedFile =
    PackedFile::new(packed!("assets/desk.css"), "text/css; charset=utf-8", HOUR);
static SCRIPT: PackedFile = PackedFile::new(packed!("assets/desk.js"), JS, HOUR);
/// htmx 2.0.11, vendored (DESK.md): quicker pages where it helps; every flow works without
/// it. Its version is in its address.
static HTMX: PackedFile = PackedFile::new(
    packed!("assets/htmx-2.0.11.min.js"),
    JS,
    "public, max-age=86400, immutable",
);

/// `GET /assets/desk.css`.
#[handler]
pub fn style(req: &Request) -> Response {
    STYLE.respond(req)
}

/// `GET /assets/htmx-2.0.11.min.js`.
#[handler]
pub fn htmx(req: &Request) -> Response {
    HTMX.respond(req)
}

/// `GET /assets/desk.js`: the desk's own small script (print buttons), loaded from this
/// server so the pages need no inline script.
#[handler]
pub fn script(req: &Request) -> Response {
    SCRIPT.respond(req)
}
