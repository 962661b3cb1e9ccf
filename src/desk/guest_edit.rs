//! Screen 7, changing a guest (`/guests/{id}/edit`, posted to `/guests/{id}`): the same
//! rules as `PUT /v1/guests/{id}`, each error shown next to its field, everything typed kept
//! when the server refuses, and a change made meanwhile by someone else caught (the form
//! carries the version it was read at).

use std::collections::HashMap;
use std::sync::Arc;

use super::guest_form::{self, FormField};
use super::{DeskState, Shell, failed_read, open, open_post, or_answer, page};
use crate::error::{FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::GuestUpdate;
use crate::model::input::FromJson;
use crate::service::{IfMatch, guests};
use crate::web;
use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

#[derive(Template)]
#[template(path = "desk/guest_edit.html")]
struct EditPage {
    shell: Shell,
    title: String,
    id: String,
    version: i64,
    problem: Option<String>,
    fields: Vec<FormField>,
}

#[allow(clippy::too_many_arguments)] // the page's parts, each needed once
fn form_page(
    status: StatusCode,
    shell: Shell,
    t: &T,
    id: String,
    name: &str,
    version: i64,
    values: &HashMap<String, String>,
    errors: &[FieldError],
    problem: Option<String>,
    lists: &super::party_form::Lists,
) -> Response {
    let names = guest_form::guest_page_fields(lists.is_some());
    let mut fields = guest_form::fields(t, "", Some(&names), values, errors, "");
    if let Some(lists) = lists {
        guest_form::offer(&mut fields, lists, t);
    }
    let unplaced = guest_form::unplaced(t, errors, &fields, "");
    let problem = problem
        .or_else(|| (!errors.is_empty()).then(|| t.n("guest-edit-errors", errors.len() as i64)))
        .map(|p| {
            std::iter::once(p)
                .chain(unplaced)
                .collect::<Vec<_>>()
                .join(" ")
        });
    page(
        status,
        &EditPage {
            title: t.with("guest-edit-title", &[("name", Arg::Text(name.to_string()))]),
            id,
            version,
            problem,
            fields,
            shell,
        },
    )
}

/// `GET /guests/{id}/edit`.
#[handler]
pub async fn edit(req: &Request, Path(id): Path<String>, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::GUEST_EDIT).await);
    let g = match guests::get(&state.svc, &s.principal, id.clone()).await {
        Ok(g) => g,
        Err(e) => return failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    };
    let name = format!("{} {}", g.first_name, g.last_name);
    let shell = Shell::new(&s, t, "guests");
    let lists = crate::service::code_tables::tourist_lists(&state.svc, &s.principal)
        .await
        .unwrap_or_default();
    form_page(
        StatusCode::OK,
        shell,
        &t,
        id,
        &name,
        g.version,
        &guest_form::values_of(&g, ""),
        &[],
        None,
        &lists,
    )
}

/// `POST /guests/{id}`: saves the form.
#[handler]
pub async fn save(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, form) = or_answer!(open_post(req, body, &state, super::GUEST_EDIT).await);
    let version: i64 = form
        .get("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let name = format!(
        "{} {}",
        form.get("first_name").map(String::as_str).unwrap_or(""),
        form.get("last_name").map(String::as_str).unwrap_or("")
    );
    let lists = crate::service::code_tables::tourist_lists(&state.svc, &s.principal)
        .await
        .unwrap_or_default();
    let again = |status, errors: &[FieldError], problem: Option<String>| {
        let shell = Shell::new(&s, t, "guests");
        form_page(
            status,
            shell,
            &t,
            id.clone(),
            &name,
            version,
            &form,
            errors,
            problem,
            &lists,
        )
    };
    let names = guest_form::guest_page_fields(lists.is_some());
    let mut errors = Vec::new();
    let Some(input) = GuestUpdate::from_json(
        &guest_form::body_of(&form, "", Some(&names)),
        "",
        &mut errors,
    ) else {
        return again(StatusCode::UNPROCESSABLE_ENTITY, &errors, None);
    };
    let if_match = Some(IfMatch::Versions(vec![version]));
    match guests::update(&state.svc, &s.principal, id.clone(), if_match, input).await {
        Ok(g) => web::redirect(StatusCode::SEE_OTHER, &format!("/guests/{}", g.id)),
        Err(e) if e.kind == Kind::PreconditionFailed => {
            again(StatusCode::CONFLICT, &[], Some(t.t("guest-edit-conflict")))
        }
        Err(e) if !e.errors.is_empty() => again(StatusCode::UNPROCESSABLE_ENTITY, &e.errors, None),
        Err(e) => failed_read(&t, &e, "not-found-guest", ("/guests", "back-to-guests")),
    }
}
