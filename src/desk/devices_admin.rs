//! Administration, devices (screen 10): approving a device that shows a code, only after the
//! page has said which client asks and what it would be allowed to do (a code typed from a
//! phishing call must not be approved blind); and the paired self check-in kiosks, each of
//! which can be unpaired (at its next request it asks to be paired again). The admin role
//! only; the use cases are `service::api_clients` and `service::kiosk`.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::clients_admin::list_page;
use super::{DeskSession, Shell, failed_read, open_admin, open_form};
use super::{DeskState, or_answer, page, server_error, web};
use crate::error::Kind;
use crate::i18n::T;
use crate::service::{api_clients, kiosk};

#[derive(Template)]
#[template(path = "desk/device_confirm.html")]
struct ConfirmPage {
    shell: Shell,
    code: String,
    client: String,
    kiosk: bool,
    /// (scope, what it allows).
    scopes: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "desk/kiosks_admin.html")]
struct KiosksPage {
    shell: Shell,
    /// (id, code, approved by, approved at, last seen).
    rows: Vec<[String; 5]>,
}

/// The device-code form: the code typed, then on the confirmation page the decision.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct DeviceForm {
    /// The code the device shows.
    code: String,
    /// The confirmation page was seen.
    #[serde(deserialize_with = "super::posted::ticked")]
    confirm: bool,
    /// `approve` or `deny`.
    decision: String,
}

/// The unpair button.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct UnpairForm {
    /// The kiosk's id.
    kiosk: String,
}

/// `POST /admin/clients/device`: first shows which client the typed code belongs to and what
/// it asks for; approves or denies only when that page is confirmed (`confirm=yes`).
#[handler]
pub async fn device(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) = or_answer!(open_form::<DeviceForm>(req, body, &state, super::ADMIN).await);
    let (form, f) = (posted.fields, posted.typed);
    let code = form.code.trim().to_string();
    let unknown = |t: T| {
        let errors = HashMap::from([("code".to_string(), t.t("client-device-unknown"))]);
        let shell = Shell::new(&s, t, "admin");
        list_page(
            &state,
            &s,
            shell,
            &f,
            (StatusCode::UNPROCESSABLE_ENTITY, None, errors),
        )
    };
    if !form.confirm {
        return match api_clients::waiting_device(&state.svc, &s.principal, &code).await {
            Ok(w) => {
                let scopes = w
                    .scope
                    .iter()
                    .map(|sc| (sc.as_str().to_string(), super::rules::scope_words(&t, sc)))
                    .collect();
                let body = ConfirmPage {
                    code: w.code,
                    client: w.client_name,
                    kiosk: w.client_id == kiosk::CLIENT_ID,
                    scopes,
                    shell: Shell::new(&s, t, "admin"),
                };
                page(StatusCode::OK, &body)
            }
            Err(e) if e.kind == Kind::NotFound => unknown(t).await,
            Err(e) => server_error(&t, &e),
        };
    }
    let approve = form.decision == "approve";
    match api_clients::decide_device(&state.svc, &s.principal, &code, approve).await {
        Ok(_) => {
            let done = if approve {
                "device-approved"
            } else {
                "device-denied"
            };
            web::redirect(
                StatusCode::SEE_OTHER,
                &format!("/admin/clients?done={done}"),
            )
        }
        Err(e) if matches!(e.kind, Kind::NotFound | Kind::Conflict) => unknown(t).await,
        Err(e) => server_error(&t, &e),
    }
}

fn kiosks_page(req: &Request, s: &DeskSession, t: T, rows: Vec<kiosk::PairedKiosk>) -> Response {
    let when = |at: &str| {
        crate::clock::local_time(at, &s.time_zone)
            .map_or_else(|| at.to_string(), |(d, time)| t.moment(d, time))
    };
    let rows = rows
        .into_iter()
        .map(|k| {
            [
                k.id,
                k.code,
                k.approved_by.unwrap_or_else(|| t.t("kiosks-approved-cli")),
                when(&k.approved_at),
                when(&k.last_seen_at),
            ]
        })
        .collect();
    let body = KiosksPage {
        rows,
        shell: Shell::new(s, t, "admin").after(req),
    };
    page(StatusCode::OK, &body)
}

/// `GET /admin/kiosks`: the paired kiosks.
#[handler]
pub async fn kiosks(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    match kiosk::paired(&state.svc, &s.principal).await {
        Ok(rows) => kiosks_page(req, &s, t, rows),
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /admin/kiosks/unpair`: unpairs the kiosk named by the form's `kiosk`.
#[handler]
pub async fn unpair(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) = or_answer!(open_form::<UnpairForm>(req, body, &state, super::ADMIN).await);
    let id = posted.fields.kiosk;
    match kiosk::unpair(&state.svc, &s.principal, &id).await {
        Ok(()) => web::redirect(StatusCode::SEE_OTHER, "/admin/kiosks?done=kiosk-unpaired"),
        Err(e) => failed_read(&t, &e, "not-found-kiosk", ("/admin/kiosks", "kiosks-title")),
    }
}
