//! The house template engine: askama templates under `assets/templates/`, compiled into
//! the binary. Every page extends `base.html`, and every `{{ value }}` is HTML-escaped
//! unless a template marks it `|safe` (only for HTML the server itself produced, such as
//! the rendered Markdown of the API docs). Values are inserted once, never re-scanned, so
//! a value that looks like a placeholder stays text.

use askama::Template;

use crate::i18n::T;
use poem::Response;
use poem::http::StatusCode;

/// `GET /oauth/authorize`: staff sign-in and consent.
#[derive(Template)]
#[template(path = "login.html")]
pub struct Login<'a> {
    /// The words of the page's language.
    pub t: T,
    /// The client asking for access.
    pub client_name: &'a str,
    /// The property's name, so staff know which hotel they sign in to.
    pub hotel: String,
    /// innkeep's own front desk: a plain sign-in, no consent to give.
    pub first_party: bool,
    /// `(scope, what it allows)` pairs.
    pub scopes: Vec<(&'static str, String)>,
    /// The authorization request's parameters, carried through the form unchanged.
    pub hidden: Vec<(&'static str, &'a str)>,
    /// The CSRF token the form echoes.
    pub csrf: &'a str,
    /// What the staff member typed as user name, kept on an error.
    pub username: &'a str,
    /// A message shown above the form.
    pub error: Option<&'a str>,
}

/// `GET /device`: staff approve a kiosk's code.
#[derive(Template)]
#[template(path = "device.html")]
pub struct Device<'a> {
    /// The words of the page's language.
    pub t: T,
    /// The CSRF token the form echoes.
    pub csrf: &'a str,
    /// The code typed or passed in the link, kept on an error.
    pub user_code: &'a str,
    /// The user name typed, kept on an error.
    pub username: &'a str,
    /// A message shown above the form.
    pub error: Option<&'a str>,
    /// The device waiting with the code. `None`: ask for the code first.
    pub asking: Option<Asking>,
}

/// A device waiting for approval, as the approval page shows it: the client's name, whether
/// it is innkeep's own kiosk, and what it asks for (scope, in words).
pub type Asking = (String, bool, Vec<(&'static str, String)>);

/// A page that only says something: an outcome or an error.
#[derive(Template)]
#[template(path = "message.html")]
pub struct Message<'a> {
    /// The words of the page's language.
    pub t: T,
    /// The heading.
    pub title: &'a str,
    /// The sentence under it.
    pub message: &'a str,
    /// Green (done) or red (a problem).
    pub ok: bool,
}

/// A documentation page: Markdown from `docs/api/` rendered to HTML by the server.
#[derive(Template)]
#[template(path = "doc.html")]
pub struct Doc<'a> {
    /// The page title.
    pub title: &'a str,
    /// The rendered HTML of the Markdown source (trusted: it is compiled in).
    pub html: &'a str,
}

/// Renders a template into an HTML response with `status`, or a plain 500 if rendering
/// fails (it cannot with these templates; askama checks them at compile time).
pub fn render(status: StatusCode, template: &impl Template) -> Response {
    match template.render() {
        Ok(body) => Response::builder()
            .status(status)
            .content_type("text/html; charset=utf-8")
            .body(body),
        Err(e) => {
            tracing::error!(error = %e, "template rendering failed");
            Response::builder()
                .status(StatusCode::INTERNAL_SERVER_ERROR)
                .body("internal error")
        }
    }
}
