//! Administration › Outbox (`/admin/outbox`, the admin role): the newest messages innkeep
//! made for guests, where each stands in words, with "Send again" for one the relay refused
//! or that was given up (`POST /admin/outbox/{id}`).

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::{DeskState, Shell, open_admin, open_admin_post, or_answer, page, server_error, web};
use crate::service::outbox;

/// Messages shown.
const SHOWN: usize = 200;

#[derive(Template)]
#[template(path = "desk/outbox_admin.html")]
struct OutboxPage {
    shell: Shell,
    rows: Vec<Row>,
}

struct Row {
    id: String,
    /// (reservation id, code).
    booking: Option<(String, String)>,
    /// As the reservation page shows it.
    shown: super::messages::MessageRow,
    again: bool,
}

/// `GET /admin/outbox`.
#[handler]
pub async fn list(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let all = match outbox::recent(&state.svc, &s.principal, SHOWN).await {
        Ok(a) => a,
        Err(e) => return server_error(&t, &e),
    };
    let rows = all
        .into_iter()
        .map(|(m, code)| Row {
            id: m.id.clone(),
            booking: m.reservation_id.clone().zip(code),
            again: ["bounced", "failed", "deferred"].contains(&m.status.as_str()),
            shown: super::messages::row(&t, &s.time_zone, m),
        })
        .collect();
    let shell = Shell::new(&s, t, "admin").after(req);
    page(StatusCode::OK, &OutboxPage { shell, rows })
}

/// `POST /admin/outbox/{id}`: a refused or given-up message sent again.
#[handler]
pub async fn again(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_admin_post(req, body, &state).await);
    match outbox::retry(&state.svc, &s.principal, id).await {
        Ok(())
        | Err(crate::error::AppError {
            kind: crate::error::Kind::Conflict,
            ..
        }) => web::redirect(StatusCode::SEE_OTHER, "/admin/outbox?done=message-again"),
        Err(e) => server_error(&t, &e),
    }
}
