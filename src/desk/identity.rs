//! Italy's identity check in person at the desk: Today lists the kiosk check-ins waiting
//! for staff, each guest with their document, and a button that confirms, after seeing
//! them, that each guest holds their document, which checks the stay in
//! (`POST /reservations/{id}/identity`).

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::{DeskState, open_post, or_answer, server_error};
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::model::Principal;
use crate::service::identity_check;
use crate::web;

/// A stay waiting on Today: its reservation, code, guests with their documents, since when.
pub(super) struct IdentityRow {
    pub(super) id: String,
    pub(super) code: String,
    /// (name, document in words).
    pub(super) guests: Vec<(String, String)>,
    pub(super) since: String,
}

/// The stays waiting for an identity check, for Today.
pub(super) async fn waiting(state: &DeskState, p: &Principal, t: &T, tz: &str) -> Vec<IdentityRow> {
    let Ok(list) = identity_check::waiting(&state.svc, p).await else {
        return Vec::new();
    };
    list.into_iter()
        .map(|w| IdentityRow {
            id: w.reservation.id.clone(),
            code: w.reservation.code.clone(),
            guests: w
                .guests
                .iter()
                .map(|g| {
                    let doc = match &g.document {
                        Some(d) => t.with(
                            "identity-document",
                            &[
                                (
                                    "kind",
                                    Arg::Text(t.t(&format!("document-{}", d.kind.as_str()))),
                                ),
                                ("number", Arg::Text(d.number.0.clone())),
                                (
                                    "country",
                                    Arg::Text(
                                        d.issuing_country
                                            .as_ref()
                                            .map(|c| c.0.clone())
                                            .unwrap_or_default(),
                                    ),
                                ),
                            ],
                        ),
                        None => t.t("identity-no-document"),
                    };
                    (format!("{} {}", g.first_name, g.last_name), doc)
                })
                .collect(),
            since: since(t, &w.requested_at, tz),
        })
        .collect()
}

/// When the kiosk asked, in the property's time: `24 Nov 10:30`.
fn since(t: &T, at: &str, tz: &str) -> String {
    let zone: chrono_tz::Tz = tz.parse().unwrap_or(chrono_tz::UTC);
    match chrono::DateTime::parse_from_rfc3339(at) {
        Ok(d) => {
            let local = d.with_timezone(&zone);
            t.moment(local.date_naive(), local.time())
        }
        Err(_) => at.to_string(),
    }
}

/// `POST /reservations/{id}/identity`: staff confirm each guest holds their document.
#[handler]
pub async fn confirm(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_post(req, body, &state, super::FRONT_DESK).await);
    match identity_check::confirm(&state.svc, &s.principal, id.clone()).await {
        Ok(_) => web::redirect(StatusCode::SEE_OTHER, "/?done=identity-confirmed"),
        Err(e)
            if matches!(
                e.kind,
                Kind::Conflict | Kind::Unprocessable | Kind::NotFound
            ) =>
        {
            // Why the stay cannot be checked in (a room taken since, data missing), with the
            // way to its page, where staff can act on it.
            let words = super::rules::detail(&t, &e);
            let (path, label) = (format!("/reservations/{id}"), t.t("back-to-reservation"));
            super::message(
                &t,
                StatusCode::CONFLICT,
                &t.t("identity-heading"),
                &words,
                Some((&path, &label)),
            )
        }
        Err(e) => server_error(&t, &e),
    }
}
