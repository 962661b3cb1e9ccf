//! The desk's gate: every page handler opens its request here, naming the scopes its page
//! needs (the constants below), so that a page reached by typing its address is refused by
//! role before anything is read; form posts are checked for this server's origin and the
//! session's CSRF token first.

use poem::http::StatusCode;
use poem::{Body, Request, Response};

use super::posted::Posted;
use super::{DeskState, SESSION_COOKIE, message, server_error, words};
use crate::auth::secrets;
use crate::domain::scopes::Scope;
use crate::i18n::{Lang, T};
use crate::service::desk::{self, DeskSession};
use crate::web;

/// The refusal to send when the staff member's role lacks a scope of `needs`: the "not for
/// your role" page. Every page names what it needs, as every API operation names its scope,
/// so a page reached by typing its address is refused before anything is read.
pub(super) fn lacking(s: &DeskSession, t: &T, needs: &[Scope]) -> Option<Response> {
    needs
        .iter()
        .find_map(|n| s.principal.require(*n).err())
        .map(|e| server_error(t, &e))
}

/// A signed-in page request of a staff member whose role has every scope of `needs`
/// (anyone else gets the "not for your role" page): the session and the words.
pub(super) async fn open(
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
pub(super) async fn open_admin(
    req: &Request,
    state: &DeskState,
) -> Result<(DeskSession, T), Response> {
    open(req, state, ADMIN).await
}

/// A form post of the admin role that passed the origin and CSRF checks.
pub(super) async fn open_admin_post(
    req: &Request,
    body: Body,
    state: &DeskState,
) -> Result<(DeskSession, T, std::collections::HashMap<String, String>), Response> {
    open_post(req, body, state, ADMIN).await
}

/// What the administration's pages need.
pub(super) const ADMIN: &[Scope] = &[Scope::Admin];
/// What any signed-in staff member's own pages need (their account, Today, which sends
/// each role where it works).
pub(super) const ANYONE: &[Scope] = &[];
/// The room board.
pub(super) const BOARD: &[Scope] = &[Scope::ReservationsRead];
/// A stay's page: the booking and its guests.
pub(super) const STAY: &[Scope] = &[Scope::ReservationsRead, Scope::GuestsRead];
/// Booking, and finding or adding its guest.
pub(super) const BOOKING: &[Scope] = &[Scope::ReservationsWrite, Scope::GuestsRead];
/// Changing, cancelling or marking a booking as a no-show.
pub(super) const CHANGES: &[Scope] = &[Scope::ReservationsWrite];
/// Check-in, with every guest's registration data.
pub(super) const CHECK_IN: &[Scope] = &[Scope::FrontDesk, Scope::GuestsRead];
/// Check-out and the folio.
pub(super) const FRONT_DESK: &[Scope] = &[Scope::FrontDesk];
/// Rooms by housekeeping state.
pub(super) const HOUSEKEEPING: &[Scope] = &[Scope::Housekeeping];
/// The invoices and an invoice.
pub(super) const INVOICES: &[Scope] = &[Scope::InvoicesRead];
/// A sale, a payment, a credit note.
pub(super) const BILLING: &[Scope] = &[Scope::InvoicesWrite];
/// The owner's reports.
pub(super) const REPORTS: &[Scope] = &[Scope::ReportsRead];
/// The compliance calendar and the inspection pack.
pub(super) const COMPLIANCE: &[Scope] = &[Scope::Compliance];
/// The day close and its certificates.
pub(super) const NIGHT_AUDIT: &[Scope] = &[Scope::NightAudit];
/// The guests and a guest.
pub(super) const GUESTS: &[Scope] = &[Scope::GuestsRead];
/// A guest's edit form.
pub(super) const GUEST_EDIT: &[Scope] = &[Scope::GuestsWrite];

/// The words of a signed-in staff member: their own language, or else the browser's.
fn words_for(req: &Request, s: &DeskSession) -> T {
    match s.language.as_deref().and_then(Lang::parse) {
        Some(lang) => T::new(lang),
        None => words(req),
    }
}

/// A signed-in form post of a staff member whose role has every scope of `needs`, that
/// passed the origin and CSRF checks: the session, the words and the form's fields.
pub(super) async fn open_post(
    req: &Request,
    body: Body,
    state: &DeskState,
    needs: &[Scope],
) -> Result<(DeskSession, T, std::collections::HashMap<String, String>), Response> {
    /// No field read: the form as typed is all a caller wants.
    #[derive(Default, serde::Deserialize)]
    struct Untyped {}
    let (s, t, posted) = open_form::<Untyped>(req, body, state, needs).await?;
    Ok((s, t, posted.typed))
}

/// [`open_post`], the form read into its typed fields `F`.
pub(super) async fn open_form<F: serde::de::DeserializeOwned + Default>(
    req: &Request,
    body: Body,
    state: &DeskState,
    needs: &[Scope],
) -> Result<(DeskSession, T, Posted<F>), Response> {
    let s = signed_in(req, state).await?;
    let bytes = body.into_bytes().await.unwrap_or_default();
    let posted = Posted::read(&bytes).unwrap_or_else(|| Posted {
        fields: F::default(),
        typed: Default::default(),
    });
    if let Some(r) = refused(req, &s, &posted.typed) {
        return Err(r);
    }
    let t = words_for(req, &s);
    if let Some(refusal) = lacking(&s, &t, needs) {
        return Err(refusal);
    }
    Ok((s, t, posted))
}

/// The signed-in staff member, or the answer to send instead: a redirect to sign in.
pub(super) async fn signed_in(req: &Request, state: &DeskState) -> Result<DeskSession, Response> {
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
pub(super) fn refused(
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
