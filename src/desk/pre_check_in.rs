//! Online pre-check-in (`/pre-check-in/{token}`): the page the pre-arrival message links
//! to. No account and no session: the signed link is the guest's key to this one booking,
//! until the day after its departure. The guest completes the registration data of every
//! member of the party (the kiosk's and the desk's fields and rules; a member not yet on
//! the booking is added) and says when they arrive; what was typed comes back with each
//! refusal next to its field. In the guest's language (theirs, else the browser's).

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::party_form::{self, GuestPart};
use super::{DeskState, page, server_error, web};
use crate::error::FieldError;
use crate::i18n::{Arg, Lang, T};
use crate::model::Principal;
use crate::service::{desk_views, pre_check_in, reservations};

#[derive(Template)]
#[template(path = "desk/pre_check_in.html")]
struct PreCheckInPage {
    t: T,
    hotel: String,
    token: String,
    summary: String,
    problem: Option<String>,
    done: bool,
    guests: Vec<GuestPart>,
    companion: Option<Vec<super::guest_form::FormField>>,
    arrival_time: String,
    arrival_error: Option<String>,
}

/// The words of the page: the language the form was shown in, else the guest's, else the
/// browser's.
fn words(req: &Request, form: Option<&HashMap<String, String>>, guest: Option<&str>) -> T {
    let chosen = form
        .and_then(|f| f.get("lang"))
        .map(String::as_str)
        .or(guest)
        .and_then(Lang::parse);
    chosen.map_or_else(|| super::words(req), T::new)
}

/// What the page shows of booking `id` for `p`: the form, as stored or as `typed`.
#[allow(clippy::too_many_arguments)]
async fn render(
    state: &DeskState,
    req: &Request,
    p: &Principal,
    token: String,
    id: &str,
    typed: Option<&HashMap<String, String>>,
    errors: &[FieldError],
    status: StatusCode,
    problem: Option<String>,
    done: bool,
) -> Response {
    let svc = &state.svc;
    let r = match reservations::get(svc, p, id.to_string()).await {
        Ok(r) => r,
        Err(e) => return server_error(&super::words(req), &e),
    };
    let party = match desk_views::party(svc, p, &r).await {
        Ok(g) => g,
        Err(e) => return server_error(&super::words(req), &e),
    };
    let guest_lang = party.first().and_then(|g| g.language).map(|l| l.as_str());
    let t = words(req, typed, guest_lang);
    let lists = crate::service::code_tables::tourist_lists(svc, p)
        .await
        .unwrap_or_default();
    let mut guests = party_form::parts(svc, &t, &party, (typed, &lists), errors);
    let mut companion = party_form::companion(&t, &r, None, typed, errors);
    // The place picker asks the desk's `/places`, which is for staff: a guest types it.
    for f in guests
        .iter_mut()
        .flat_map(|p| p.fields.iter_mut())
        .chain(companion.iter_mut().flatten())
    {
        if f.kind == "place" {
            f.kind = "text";
        }
    }
    let hotel = pre_check_in::hotel_name(svc).await.unwrap_or_default();
    let summary = t.with(
        "pre-check-in-summary",
        &[
            ("hotel", Arg::Text(hotel.clone())),
            ("code", Arg::Text(r.code.clone())),
            ("arrival", Arg::Text(t.date(r.arrival.0))),
            ("departure", Arg::Text(t.date(r.departure.0))),
        ],
    );
    let arrival_error = errors
        .iter()
        .find(|e| e.field == "arrival_time")
        .map(|e| super::rules::say(&t, e));
    let body = PreCheckInPage {
        hotel,
        token,
        summary,
        problem,
        done,
        guests,
        companion,
        arrival_time: typed
            .and_then(|f| f.get("arrival_time").cloned())
            .unwrap_or_default(),
        arrival_error,
        t,
    };
    page(status, &body)
}

/// The page for a link that does not open a booking (mistyped, expired).
fn gone(req: &Request) -> Response {
    let t = super::words(req);
    super::message(
        &t,
        StatusCode::NOT_FOUND,
        &t.t("pre-check-in-expired-title"),
        &t.t("pre-check-in-expired"),
        None,
    )
}

/// `GET /pre-check-in/{token}`.
#[handler]
pub async fn show(
    req: &Request,
    Path(token): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    match pre_check_in::open(&state.svc, token.clone()).await {
        Ok(Some(id)) => {
            let p = pre_check_in::guest_principal(&id);
            render(
                &state,
                req,
                &p,
                token,
                &id,
                None,
                &[],
                StatusCode::OK,
                None,
                false,
            )
            .await
        }
        Ok(None) => gone(req),
        Err(e) => server_error(&super::words(req), &e),
    }
}

/// `POST /pre-check-in/{token}`: the party's data and the arrival time, saved at once, or
/// the form again with each refusal next to its field.
#[handler]
pub async fn send(
    req: &Request,
    Path(token): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    if !web::same_origin(req) {
        return gone(req);
    }
    let id = match pre_check_in::open(&state.svc, token.clone()).await {
        Ok(Some(id)) => id,
        Ok(None) => return gone(req),
        Err(e) => return server_error(&super::words(req), &e),
    };
    let bytes = body.into_bytes().await.unwrap_or_default();
    let form: HashMap<String, String> = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    let p = pre_check_in::guest_principal(&id);
    let t = words(req, Some(&form), None);
    let again = |errors: Vec<FieldError>, problem: Option<String>| {
        let (state, p, token, id, form) = (&state, &p, token.clone(), &id, &form);
        async move {
            render(
                state,
                req,
                p,
                token,
                id,
                Some(form),
                &errors,
                StatusCode::UNPROCESSABLE_ENTITY,
                problem,
                false,
            )
            .await
        }
    };
    if form.get("consent").map(String::as_str) != Some("yes") {
        return again(Vec::new(), Some(t.t("kiosk-consent-needed"))).await;
    }
    let (edit, size) = match super::check_in::party_edit(&state, &p, &id, &form).await {
        Ok(e) => e,
        Err(Ok(errors)) => {
            let problem = Some(t.n("check-in-registration-missing", errors.len() as i64));
            return again(errors, problem).await;
        }
        Err(Err(e)) => return server_error(&t, &e),
    };
    let time = form.get("arrival_time").cloned();
    match pre_check_in::save(&state.svc, id.clone(), edit, time).await {
        Ok(()) => {
            render(
                &state,
                req,
                &p,
                token,
                &id,
                None,
                &[],
                StatusCode::OK,
                None,
                true,
            )
            .await
        }
        Err(e) if !e.errors.is_empty() => {
            let errors = super::check_in::placed(e.errors, size);
            let problem = Some(t.n("check-in-registration-missing", errors.len() as i64));
            again(errors, problem).await
        }
        Err(e) if e.kind == crate::error::Kind::Conflict => {
            again(Vec::new(), Some(super::rules::detail(&t, &e))).await
        }
        Err(e) => server_error(&t, &e),
    }
}
