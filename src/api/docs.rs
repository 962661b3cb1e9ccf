//! The API's human documentation beside the Swagger UI (API.md sections 5 and 11): the
//! changelog, the versioning policy and the migration guides, written as Markdown in
//! `docs/api/`, compiled into the binary and served as HTML through the house templates.
//! Also Swagger UI's OAuth receiver, so its Authorize button can finish a code flow.

use poem::http::StatusCode;
use poem::web::Path;
use poem::{Response, handler};
use pulldown_cmark::{Options, Parser, html};

use crate::packed::{self, packed};
use crate::templates::{self, Doc};

/// A migration guide.
pub struct Guide {
    /// Its address: `/docs/migrations/<slug>`.
    pub slug: &'static str,
    /// Its Markdown source, packed.
    pub markdown: &'static [u8],
}

/// Every migration guide, newest first.
pub const GUIDES: &[Guide] = &[
    Guide {
        slug: "reservation-nights",
        markdown: packed!("docs/api/migrations/reservation-nights.md"),
    },
    Guide {
        slug: "event-feed-id",
        markdown: packed!("docs/api/migrations/event-feed-id.md"),
    },
];

const CHANGELOG: &[u8] = packed!("docs/api/changelog.md");
const VERSIONING: &[u8] = packed!("docs/api/versioning.md");
/// Swagger UI's standard OAuth 2.0 redirect page (Apache-2.0, as shipped by poem-openapi).
const OAUTH_RECEIVER: &str = include_str!("../../assets/oauth-receiver.html");

/// The guide with `slug`.
pub fn guide(slug: &str) -> Option<&'static Guide> {
    GUIDES.iter().find(|g| g.slug == slug)
}

/// The first `# ` heading of a Markdown text.
fn title(markdown: &str) -> &str {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("innkeep API")
}

fn page(markdown: &str) -> Response {
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, Options::ENABLE_TABLES));
    let mut r = templates::render(
        StatusCode::OK,
        &Doc {
            title: title(markdown),
            html: &out,
        },
    );
    r.headers_mut().insert(
        "cache-control",
        poem::http::HeaderValue::from_static("max-age=300"),
    );
    r
}

/// `GET /docs/changelog`.
#[handler]
pub fn changelog() -> Response {
    page(&packed::text(CHANGELOG))
}

/// `GET /docs/versioning`.
#[handler]
pub fn versioning() -> Response {
    page(&packed::text(VERSIONING))
}

/// `GET /docs/migrations`: the index of guides.
#[handler]
pub fn migrations() -> Response {
    let mut md = String::from(
        "# Migration guides\n\nEach guide says what changed, why, and what to change in your client. \
         See also the [versioning policy](/docs/versioning) and the [changelog](/docs/changelog).\n\n",
    );
    for g in GUIDES {
        md.push_str(&format!(
            "- [{}](/docs/migrations/{})\n",
            title(&packed::text(g.markdown)),
            g.slug
        ));
    }
    page(&md)
}

/// `GET /docs/migrations/:slug`.
#[handler]
pub fn migration(Path(slug): Path<String>) -> poem::Result<Response> {
    match guide(&slug) {
        Some(g) => Ok(page(&packed::text(g.markdown))),
        None => Err(crate::error::AppError::new(
            crate::error::Kind::NotFound,
            "not_found",
            format!("There is no migration guide {slug:?}; the index is at /docs/migrations."),
        )
        .into()),
    }
}

/// `GET /docs/oauth-receiver.html`: where Swagger UI's Authorize button lands.
#[handler]
pub fn oauth_receiver() -> poem::web::Html<&'static str> {
    poem::web::Html(OAUTH_RECEIVER)
}

/// `r` with the documentation's pages: Swagger UI (with its script and stylesheet), the
/// changelog, the versioning policy, the migration guides, the book and the OAuth receiver.
pub fn mount(r: poem::Route) -> poem::Route {
    r.at("/docs", poem::get(super::swagger::page))
        .at(
            "/docs/swagger-ui-5.17.14.js",
            poem::get(super::swagger::script),
        )
        .at(
            "/docs/swagger-ui-5.17.14.css",
            poem::get(super::swagger::style),
        )
        .at("/docs/changelog", poem::get(changelog))
        .at("/docs/book", poem::get(super::book::contents))
        .at("/docs/book/", poem::get(super::book::contents))
        .at("/docs/book/:page", poem::get(super::book::chapter_page))
        .at("/docs/versioning", poem::get(versioning))
        .at("/docs/migrations", poem::get(migrations))
        .at("/docs/migrations/:slug", poem::get(migration))
        .at("/docs/oauth-receiver.html", poem::get(oauth_receiver))
}
