//! A guest's privacy on their page, for admins: download everything about them as JSON
//! (`GET /guests/{id}/export`) and erase them (`POST /guests/{id}/erase`, behind a "Yes"
//! tick), then a page saying what went and what the law keeps, until when and why. The same
//! use cases as `innkeep guests export|erase`.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::guests::{EraseForm, show};
use super::posted::Confirmed;
use super::{DeskState, Shell, failed_read, open_admin_post, open_form, or_answer, page};
use crate::error::Kind as ErrorKind;
use crate::i18n::{Arg, T};
use crate::service::privacy::{self, Erasure};

#[derive(Template)]
#[template(path = "desk/guest_erased.html")]
struct ErasedPage {
    shell: Shell,
    id: String,
    /// (what, kept until, why)
    kept: Vec<(String, String, String)>,
}

/// `POST /guests/{id}/export`: everything about the guest, as a JSON download. A POST with
/// the session's CSRF token, not a link: it is recorded in the guest's history, and another
/// site must not be able to make an administrator's browser do it.
#[handler]
pub async fn export(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_admin_post(req, body, &state).await);
    match privacy::export(&state.svc, &s.principal, id.clone()).await {
        Ok(doc) => Response::builder()
            .content_type("application/json; charset=utf-8")
            .header(
                "Content-Disposition",
                format!("attachment; filename=\"guest-{id}.json\""),
            )
            .header("Cache-Control", "no-store")
            .body(serde_json::to_string_pretty(&doc).unwrap_or_default()),
        Err(e) => failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    }
}

/// `POST /guests/{id}/erase`: erases the guest once the box is ticked.
#[handler]
pub async fn erase(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) = or_answer!(open_form::<Confirmed>(req, body, &state, super::ADMIN).await);
    if !posted.fields.confirm {
        let again = EraseForm {
            error: Some(t.t("privacy-erase-tick")),
            problem: None,
        };
        return show(&state, &s, t, id, StatusCode::UNPROCESSABLE_ENTITY, again).await;
    }
    match privacy::erase(&state.svc, &s.principal, id.clone()).await {
        Ok(done) => erased(&s, t, done),
        Err(e) if e.kind == ErrorKind::Conflict => {
            let again = EraseForm {
                error: None,
                problem: Some(super::rules::detail(&t, &e)),
            };
            show(&state, &s, t, id, StatusCode::CONFLICT, again).await
        }
        Err(e) => failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    }
}

fn erased(s: &super::DeskSession, t: T, done: Erasure) -> Response {
    let kept = done
        .kept
        .iter()
        .map(|k| {
            let what = match k.kind {
                "invoice" => t.with(
                    "kept-invoice",
                    &[("number", Arg::Text(k.reference.clone()))],
                ),
                _ => t.with(
                    "kept-registration",
                    &[("code", Arg::Text(k.reference.clone()))],
                ),
            };
            (what, t.date(k.until), t.t(k.law_key))
        })
        .collect();
    let body = ErasedPage {
        id: done.guest_id,
        kept,
        shell: Shell::new(s, t, "guests"),
    };
    page(StatusCode::OK, &body)
}
