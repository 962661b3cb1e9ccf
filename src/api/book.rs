//! The book (`docs/book/`, built with mdBook in CI) served by innkeep itself at
//! `/docs/book/`: the same Markdown chapters, compiled into the binary (packed) and rendered through
//! the house templates, so the guides are at hand on the front-desk PC without the
//! internet. Chapters link to each other as mdBook's output does (`install.html`); the
//! contents page is `SUMMARY.md`.

use poem::http::StatusCode;
use poem::web::Path;
use poem::{Response, handler};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

use crate::packed::{self, packed};
use crate::templates::{self, Doc};

/// The contents.
const SUMMARY: &[u8] = packed!("docs/book/src/SUMMARY.md");

/// Every chapter: its file name in `docs/book/src/` and its Markdown, packed.
const CHAPTERS: &[(&str, &[u8])] = &[
    ("introduction.md", packed!("docs/book/src/introduction.md")),
    ("install.md", packed!("docs/book/src/install.md")),
    (
        "configuration.md",
        packed!("docs/book/src/configuration.md"),
    ),
    ("compliance.md", packed!("docs/book/src/compliance.md")),
    ("data.md", packed!("docs/book/src/data.md")),
    ("moving-in.md", packed!("docs/book/src/moving-in.md")),
    ("privacy.md", packed!("docs/book/src/privacy.md")),
    ("doctor.md", packed!("docs/book/src/doctor.md")),
    ("commands.md", packed!("docs/book/src/commands.md")),
    ("group.md", packed!("docs/book/src/group.md")),
    // `security.md` includes SECURITY.md (mdBook's `{{#include}}`); served as that file.
    ("security.md", packed!("SECURITY.md")),
    ("front-desk.md", packed!("docs/book/src/front-desk.md")),
    ("prices.md", packed!("docs/book/src/prices.md")),
    ("channels.md", packed!("docs/book/src/channels.md")),
    ("messages.md", packed!("docs/book/src/messages.md")),
    ("reports.md", packed!("docs/book/src/reports.md")),
    ("day-close.md", packed!("docs/book/src/day-close.md")),
    ("first-call.md", packed!("docs/book/src/first-call.md")),
    ("promises.md", packed!("docs/book/src/promises.md")),
    ("webhooks.md", packed!("docs/book/src/webhooks.md")),
    ("development.md", packed!("docs/book/src/development.md")),
    ("performance.md", packed!("docs/book/src/performance.md")),
    ("figures.md", packed!("docs/book/src/figures.md")),
];

/// The chapter served at `page` (`install.html`), if there is one.
pub fn chapter(address: &str) -> Option<String> {
    let file = format!("{}.md", address.strip_suffix(".html")?);
    CHAPTERS
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, md)| packed::text(md))
}

/// A link as the served book has it: `install.md#backup` → `install.html#backup`; any
/// other address as written.
fn served_link(dest: &str) -> String {
    let (path, anchor) = dest.split_once('#').unwrap_or((dest, ""));
    match path.strip_suffix(".md") {
        Some(stem) if !path.contains(':') && !path.contains('/') => {
            let hash = if anchor.is_empty() { "" } else { "#" };
            format!("{stem}.html{hash}{anchor}")
        }
        _ => dest.to_string(),
    }
}

/// Markdown as the book's HTML, with the chapters' links pointing at their pages.
fn render(title: &str, markdown: &str) -> Response {
    let events = Parser::new_ext(markdown, Options::ENABLE_TABLES).map(|e| match e {
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: CowStr::from(served_link(&dest_url)),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::from("<p><a href=\"/docs/book/\">Contents</a></p>\n");
    html::push_html(&mut out, events);
    templates::render(StatusCode::OK, &Doc { title, html: &out })
}

/// The first `# ` heading of a Markdown text.
fn title(markdown: &str) -> &str {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("innkeep")
}

/// `GET /docs/book/`: the contents.
#[handler]
pub fn contents() -> Response {
    render("innkeep: the book", &packed::text(SUMMARY))
}

/// `GET /docs/book/:page`: one chapter (`install.html`).
#[handler]
pub fn chapter_page(Path(address): Path<String>) -> poem::Result<Response> {
    match chapter(&address) {
        Some(md) => Ok(render(title(&md), &md)),
        None => Err(crate::error::AppError::new(
            crate::error::Kind::NotFound,
            "not_found",
            format!("The book has no page {address:?}; its contents are at /docs/book/."),
        )
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chapter_of_the_summary_is_served_and_links_are_rewritten() {
        for line in packed::text(SUMMARY).lines() {
            if let Some((_, rest)) = line.split_once("](") {
                let file = rest.trim_end_matches(')');
                let page = file.replace(".md", ".html");
                assert!(
                    chapter(&page).is_some(),
                    "{file} is in SUMMARY.md but not served"
                );
            }
        }
        assert_eq!(served_link("data.md#backup"), "data.html#backup");
        assert_eq!(served_link("security.md"), "security.html");
        assert_eq!(
            served_link("https://example.com/a.md"),
            "https://example.com/a.md"
        );
        assert!(chapter("../SECURITY.html").is_none());
    }
}
