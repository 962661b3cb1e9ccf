//! The front desk: innkeep's own pages for the receptionist (DESK.md), served by the binary.
//!
//! Sign-in is a backend-for-frontend (`sign_in`): the tokens never reach the browser, only
//! an `HttpOnly` session cookie does. Every state-changing request must carry the session's
//! CSRF token and come from this server's own origin. Pages call the same use cases as the API, with the staff member
//! as the acting principal; every word comes from the language catalogue (`crate::i18n`).

pub mod account;
pub mod admin;
pub mod admin_form;
pub mod bill_to_form;
pub mod board;
pub mod calendar;
pub mod channels_admin;
mod chart;
pub mod check_in;
pub mod check_out;
pub mod city_tax;
pub mod clients_admin;
pub mod compliance_admin;
pub mod day_certificate;
pub mod day_close;
pub mod deposits;
pub mod devices_admin;
pub mod files;
pub mod guest_edit;
pub mod guest_form;
mod guest_list;
pub mod guest_privacy;
pub mod guest_values;
pub mod guests;
pub mod housekeeping;
mod identity;
pub mod invoice;
pub mod invoice_actions;
mod invoice_reissue;
pub mod invoices;
pub mod istat;
pub mod kiosk;
pub mod kiosk_language;
pub mod kiosk_pairing;
pub mod messages;
pub mod new_reservation;
pub mod offer_choices;
pub mod once;
pub mod outbox_admin;
pub mod party_form;
pub mod places;
pub mod pre_check_in;
pub mod rates_admin;
pub mod rendered;
pub mod reports;
pub mod reservation;
pub mod reservation_change;
pub mod reservations;
pub mod rooms_admin;
pub mod routes;
pub mod rules;
pub mod sale;
pub mod settings;
pub mod sign_in;
pub mod staff;
pub mod stay_actions;
pub mod stay_price;
pub mod today;
pub mod webhooks_admin;
pub mod welcome;
mod welcome_compliance;
pub mod wording_admin;

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::{Request, Response};

use crate::auth::AuthServer;
use crate::config::desk::Timeouts;
use crate::i18n::{Arg, Lang, T};
use crate::service::Services;
use crate::service::desk::DeskSession;
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
    /// The first-run page's gate.
    pub welcome: Arc<crate::service::welcome::Welcome>,
    /// Parts of pages kept rendered while the database does not change (the board's table).
    pub rendered: rendered::Rendered,
}

/// What every desk page shows around its content: the words, the navigation, who is
/// signed in, and the CSRF token of the sign-out form.
pub struct Shell {
    /// The words.
    pub t: T,
    /// Which navigation entry is this page.
    pub active: &'static str,
    /// "Signed in as … (role)": the bar's link says it to screen readers and on hover.
    pub who: String,
    /// The name the bar shows (the role and the rest are in `who`).
    pub who_name: String,
    /// The date bar: the property's today, in words.
    pub today: String,
    /// The same day short ("6 Dec"), which the bar shows instead on screens narrower than
    /// a receptionist's usual 1366 px (85.3125rem at the default font size), so that the
    /// bar keeps to one line.
    pub today_short: String,
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
    /// Whether the navigation offers the reports (to a manager; an administrator, whose bar
    /// is full, finds them first in Administration).
    pub reports: bool,
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
            today_short: t.short_date(s.today),
            t,
            active,
            who,
            who_name: s.principal.actor.name.clone(),
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
            reports: s
                .principal
                .scopes
                .contains(crate::domain::scopes::Scope::ReportsRead)
                && !s
                    .principal
                    .scopes
                    .contains(crate::domain::scopes::Scope::Admin),
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
    "day-closed",
    "check-in-undone",
    "checked-out",
    "charge-added",
    "deposit-recorded",
    "companion-added",
    "cancelled",
    "no-show",
    "paid",
    "refunded",
    "booked",
    "guest-saved",
    "changed",
    "room-changed",
    "credited",
    "payment-method-changed",
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
    "tables-fetched",
    "cash-register-closed",
    "identity-confirmed",
    "reissued",
    "language-saved",
    "staff-language",
    "staff-operator-mark",
    "rates-changed",
    "channel-resent",
    "channel-mapped",
    "message-again",
    "wording-saved",
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
/// A file to download: `body` as `content_type`, saved as `filename`.
fn download(body: impl Into<poem::Body>, content_type: &str, filename: &str) -> Response {
    Response::builder()
        .content_type(content_type)
        .header(
            "Content-Disposition",
            format!("attachment; filename=\"{filename}\""),
        )
        .body(body.into())
}

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

mod gate;
mod posted;
use gate::{
    ADMIN, ANYONE, BILLING, BOARD, BOOKING, CHANGES, CHECK_IN, COMPLIANCE, FRONT_DESK, GUEST_EDIT,
    GUESTS, HOUSEKEEPING, INVOICES, NIGHT_AUDIT, REPORTS, STAY, lacking, open, open_admin,
    open_admin_post, open_form, open_post, refused, signed_in,
};
