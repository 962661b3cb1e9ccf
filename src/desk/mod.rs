//! The front desk: innkeep's own pages for the receptionist (DESK.md), served by the binary.
//!
//! Sign-in is a backend-for-frontend (`sign_in`): the tokens never reach the browser, only
//! an `HttpOnly` session cookie does. Every state-changing request must carry the session's
//! CSRF token and come from this server's own origin. Pages call the same use cases as the API, with the staff member
//! as the acting principal; every word comes from the language catalogue (`crate::i18n`).

pub mod account;
pub mod admin;
pub mod admin_form;
pub mod board;
pub mod check_in;
pub mod check_out;
pub mod clients_admin;
pub mod compliance_admin;
pub mod devices_admin;
pub mod files;
pub mod guest_edit;
pub mod guest_form;
pub mod guest_privacy;
pub mod guests;
pub mod housekeeping;
pub mod invoice;
pub mod invoice_actions;
pub mod invoices;
pub mod kiosk;
pub mod kiosk_language;
pub mod new_reservation;
pub mod once;
pub mod problems;
pub mod reservation;
pub mod rooms_admin;
pub mod rules;
pub mod sale;
pub mod settings;
pub mod sign_in;
pub mod staff;
pub mod stay_actions;
pub mod today;
pub mod webhooks_admin;

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::{Body, Request, Response};

use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::config::desk::Timeouts;
use crate::domain::scopes::Scope;
use crate::i18n::{Arg, Lang, T};
use crate::service::Services;
use crate::service::desk::{self, DeskSession};
use crate::{templates, web};

/// The session cookie.
const SESSION_COOKIE: &str = "innkeep_desk";
/// The cookie that carries a sign-in's state to its callback.
const LOGIN_COOKIE: &str = "innkeep_login";
/// What desk pages may load: only this server's stylesheet (and, later, its own scripts).
const CSP: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// What the desk's handlers share.
pub struct DeskState {
    /// The use cases' context.
    pub svc: Services,
    /// The authorization server the desk signs in against.
    pub auth: Arc<AuthServer>,
    /// How long sessions last.
    pub timeouts: Timeouts,
    /// This server process, for the booking form's idempotency keys.
    pub instance: Arc<str>,
}

/// What every desk page shows around its content: the words, the navigation, who is
/// signed in, and the CSRF token of the sign-out form.
pub struct Shell {
    /// The words.
    pub t: T,
    /// Which navigation entry is this page.
    pub active: &'static str,
    /// "Signed in as …".
    pub who: String,
    /// The date bar: the property's today, in words.
    pub today: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// Whether the navigation offers Guests (controls a role may not use are not shown).
    pub guests: bool,
    /// Whether the navigation offers a new booking.
    pub book: bool,
    /// Whether the navigation offers the front desk's own screens (Today, the board).
    pub desk: bool,
    /// Whether the navigation offers housekeeping.
    pub housekeeping: bool,
    /// Whether the navigation offers the invoices.
    pub invoices: bool,
    /// Whether the navigation offers administration.
    pub admin: bool,
    /// What the last action did, said once on the page it led to.
    pub flash: Option<String>,
}

impl Shell {
    fn new(s: &DeskSession, t: T, active: &'static str) -> Shell {
        let role = t.t(&format!("role-{}", s.role.as_str()));
        let who = t.with(
            "signed-in-as",
            &[
                ("name", Arg::Text(s.principal.actor.name.clone())),
                ("role", Arg::Text(role)),
            ],
        );
        Shell {
            today: t.date(s.today),
            t,
            active,
            who,
            csrf: s.csrf.clone(),
            guests: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::GuestsRead),
            book: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::ReservationsWrite),
            desk: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::FrontDesk),
            housekeeping: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::Housekeeping),
            invoices: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::InvoicesRead),
            admin: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::Admin),
            flash: None,
        }
    }

    /// The shell of a page reached after an action: `?done=KEY` names what was done (one of
    /// [`FLASHES`], said as `flash-KEY`), so the page says it once; anything else is ignored.
    fn after(mut self, req: &Request) -> Shell {
        let done = req.uri().query().and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("done="))
                .filter(|k| FLASHES.contains(k))
        });
        self.flash = done.map(|k| self.t.t(&format!("flash-{k}")));
        self
    }
}

/// The actions a page can report having done (`?done=…`), each `flash-…` in the catalogue.
pub const FLASHES: &[&str] = &[
    "checked-in",
    "checked-out",
    "charge-added",
    "cancelled",
    "no-show",
    "paid",
    "booked",
    "guest-saved",
    "changed",
    "room-changed",
    "credited",
    "sold",
    "staff-role",
    "staff-disabled",
    "staff-enabled",
    "password-changed",
    "settings-saved",
    "room-type-added",
    "room-room-added",
    "room-type-saved",
    "room-room-saved",
    "client-added",
    "client-rate",
    "client-revoked",
    "device-approved",
    "device-denied",
    "kiosk-unpaired",
    "webhook-test",
    "webhook-saved",
    "webhook-redelivered",
    "submission-retried",
    "table-imported",
    "language-saved",
    "staff-language",
];

/// How a page comes back: its status and, for a refused form, the rules it broke (by API
/// field path) and what went wrong in words.
pub struct Outcome {
    /// The answer's status.
    pub status: StatusCode,
    /// The rules broken, by field.
    pub errors: Vec<crate::error::FieldError>,
    /// What went wrong, in words.
    pub problem: Option<String>,
}

impl Outcome {
    /// A page shown as asked, nothing refused.
    pub fn fresh() -> Outcome {
        Outcome {
            status: StatusCode::OK,
            errors: Vec::new(),
            problem: None,
        }
    }

    /// A refusal.
    pub fn refused(
        status: StatusCode,
        errors: Vec<crate::error::FieldError>,
        problem: Option<String>,
    ) -> Outcome {
        Outcome {
            status,
            errors,
            problem,
        }
    }
}

/// A page that only says something, with a way on.
#[derive(Template)]
#[template(path = "desk/message.html")]
struct Message<'a> {
    lang: &'static str,
    title: &'a str,
    text: &'a str,
    link: Option<(&'a str, &'a str)>,
}

fn words(req: &Request) -> T {
    T::new(Lang::negotiate(
        req.headers()
            .get("accept-language")
            .and_then(|h| h.to_str().ok()),
    ))
}

/// Renders a desk page with its headers.
fn page(status: StatusCode, template: &impl Template) -> Response {
    let mut r = templates::render(status, template);
    web::secure(&mut r, CSP);
    r
}

fn message(
    t: &T,
    status: StatusCode,
    title: &str,
    text: &str,
    link: Option<(&str, &str)>,
) -> Response {
    page(
        status,
        &Message {
            lang: t.lang().tag(),
            title,
            text,
            link,
        },
    )
}

fn server_error(t: &T, e: &crate::error::AppError) -> Response {
    if e.kind == crate::error::Kind::Forbidden {
        // The use case refused the staff member's role: say so, it is not a breakdown.
        let back = t.t("back-to-today");
        return message(
            t,
            StatusCode::FORBIDDEN,
            &t.t("forbidden-title"),
            &t.t("forbidden"),
            Some(("/", &back)),
        );
    }
    tracing::error!(error = %e, "desk page failed");
    message(
        t,
        StatusCode::INTERNAL_SERVER_ERROR,
        &t.t("server-error-title"),
        &t.t("server-error"),
        None,
    )
}

/// The answer to a failed read: a 404 page saying `missing` (a catalogue key) with a way
/// back to `back` (a path and the key of its label), or the server-error page.
fn failed_read(t: &T, e: &crate::error::AppError, missing: &str, back: (&str, &str)) -> Response {
    if e.kind != crate::error::Kind::NotFound {
        return server_error(t, e);
    }
    let label = t.t(back.1);
    message(
        t,
        StatusCode::NOT_FOUND,
        &t.t("not-found-title"),
        &t.t(missing),
        Some((back.0, &label)),
    )
}

/// The value of a page's step, or returns the answer to send instead (a redirect to sign
/// in, a refusal, an error page): the prologue every desk handler shares.
macro_rules! or_answer {
    ($step:expr) => {
        match $step {
            Ok(v) => v,
            Err(answer) => return answer,
        }
    };
}
pub(crate) use or_answer;

/// The refusal to send when the staff member's role lacks a scope of `needs`: the "not for
/// your role" page. Every page names what it needs, as every API operation names its scope,
/// so a page reached by typing its address is refused before anything is read.
fn lacking(s: &DeskSession, t: &T, needs: &[Scope]) -> Option<Response> {
    needs
        .iter()
        .find_map(|n| s.principal.require(*n).err())
        .map(|e| server_error(t, &e))
}

/// A signed-in page request of a staff member whose role has every scope of `needs`
/// (anyone else gets the "not for your role" page): the session and the words.
async fn open(
    req: &Request,
    state: &DeskState,
    needs: &[Scope],
) -> Result<(DeskSession, T), Response> {
    let s = signed_in(req, state).await?;
    let t = words_for(req, &s);
    match lacking(&s, &t, needs) {
        Some(refusal) => Err(refusal),
        None => Ok((s, t)),
    }
}

/// A signed-in page request of the admin role: the administration's pages are the admin
/// role's, even where a use case alone would let others in (housekeeping may change rooms).
async fn open_admin(req: &Request, state: &DeskState) -> Result<(DeskSession, T), Response> {
    open(req, state, ADMIN).await
}

/// A form post of the admin role that passed the origin and CSRF checks.
async fn open_admin_post(
    req: &Request,
    body: Body,
    state: &DeskState,
) -> Result<(DeskSession, T, std::collections::HashMap<String, String>), Response> {
    open_post(req, body, state, ADMIN).await
}

/// What the administration's pages need.
const ADMIN: &[Scope] = &[Scope::Admin];
/// What any signed-in staff member's own pages need (their account, Today, which sends
/// each role where it works).
const ANYONE: &[Scope] = &[];
/// The room board.
const BOARD: &[Scope] = &[Scope::ReservationsRead];
/// A stay's page: the booking and its guests.
const STAY: &[Scope] = &[Scope::ReservationsRead, Scope::GuestsRead];
/// Booking, and finding or adding its guest.
const BOOKING: &[Scope] = &[Scope::ReservationsWrite, Scope::GuestsRead];
/// Changing, cancelling or marking a booking as a no-show.
const CHANGES: &[Scope] = &[Scope::ReservationsWrite];
/// Check-in, with every guest's registration data.
const CHECK_IN: &[Scope] = &[Scope::FrontDesk, Scope::GuestsRead];
/// Check-out and the folio.
const FRONT_DESK: &[Scope] = &[Scope::FrontDesk];
/// Rooms by housekeeping state.
const HOUSEKEEPING: &[Scope] = &[Scope::Housekeeping];
/// The invoices and an invoice.
const INVOICES: &[Scope] = &[Scope::InvoicesRead];
/// A sale, a payment, a credit note.
const BILLING: &[Scope] = &[Scope::InvoicesWrite];
/// The guests and a guest.
const GUESTS: &[Scope] = &[Scope::GuestsRead];
/// A guest's edit form.
const GUEST_EDIT: &[Scope] = &[Scope::GuestsWrite];

/// The words of a signed-in staff member: their own language, or else the browser's.
fn words_for(req: &Request, s: &DeskSession) -> T {
    match s.language.as_deref().and_then(Lang::parse) {
        Some(lang) => T::new(lang),
        None => words(req),
    }
}

/// A signed-in form post of a staff member whose role has every scope of `needs`, that
/// passed the origin and CSRF checks: the session, the words and the form's fields.
async fn open_post(
    req: &Request,
    body: Body,
    state: &DeskState,
    needs: &[Scope],
) -> Result<(DeskSession, T, std::collections::HashMap<String, String>), Response> {
    let s = signed_in(req, state).await?;
    let form = web::form(body).await.unwrap_or_default();
    if let Some(r) = refused(req, &s, &form) {
        return Err(r);
    }
    let t = words_for(req, &s);
    if let Some(refusal) = lacking(&s, &t, needs) {
        return Err(refusal);
    }
    Ok((s, t, form))
}

/// The signed-in staff member, or the answer to send instead: a redirect to sign in.
async fn signed_in(req: &Request, state: &DeskState) -> Result<DeskSession, Response> {
    let t = words(req);
    // htmx follows redirects inside the page; a sign-in must take the whole window.
    let to_login = || {
        if req.headers().contains_key("hx-request") {
            Response::builder()
                .status(StatusCode::OK)
                .header("hx-redirect", "/login")
                .finish()
        } else {
            web::redirect(StatusCode::SEE_OTHER, "/login")
        }
    };
    let Some(cookie) = web::cookie(req, SESSION_COOKIE) else {
        return Err(to_login());
    };
    match desk::session(&state.svc, &cookie, state.timeouts).await {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(to_login()),
        Err(e) => Err(server_error(&t, &e)),
    }
}

/// Checks a state-changing request: same origin, and the session's CSRF token in the form
/// (or the `X-CSRF-Token` header htmx sends). The refusal to send, if any.
fn refused(
    req: &Request,
    s: &DeskSession,
    form: &std::collections::HashMap<String, String>,
) -> Option<Response> {
    let t = words(req);
    let refuse = |text: String| {
        Some(message(
            &t,
            StatusCode::FORBIDDEN,
            &t.t("request-refused-title"),
            &text,
            None,
        ))
    };
    if !web::same_origin(req) {
        return refuse(t.t("request-refused-origin"));
    }
    let sent = form.get("csrf").cloned().or_else(|| {
        req.headers()
            .get("x-csrf-token")
            .and_then(|h| h.to_str().ok())
            .map(str::to_string)
    });
    match sent {
        Some(token) if secrets::constant_time_eq(&token, &s.csrf) => None,
        _ => refuse(t.t("request-refused-csrf")),
    }
}
