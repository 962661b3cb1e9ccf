//! Administration's front page (`/admin`, screen 10, the admin role): the sections an admin
//! manages from the desk, each with what it is for, and how old the last daily backup is
//! (late ones said as a problem).

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::{DeskState, Shell, open, or_answer, page, server_error};
use crate::domain::scopes::Scope;

/// The sections: (path, title key, what-for key).
const SECTIONS: &[(&str, &str, &str)] = &[
    ("/reports", "nav-reports", "admin-reports-about"),
    ("/day-close", "nav-day-close", "admin-day-close-about"),
    ("/admin/settings", "nav-settings", "admin-settings-about"),
    ("/admin/rooms", "nav-rooms", "admin-rooms-about"),
    ("/admin/rates", "nav-rates", "admin-rates-about"),
    ("/admin/staff", "nav-staff", "admin-staff-about"),
    ("/admin/clients", "nav-clients", "admin-clients-about"),
    ("/admin/channels", "nav-channels", "admin-channels-about"),
    ("/admin/outbox", "nav-outbox", "admin-outbox-about"),
    ("/admin/wording", "nav-wording", "admin-wording-about"),
    ("/admin/webhooks", "nav-webhooks", "admin-webhooks-about"),
    (
        "/admin/compliance",
        "nav-compliance",
        "admin-compliance-about",
    ),
];

#[derive(Template)]
#[template(path = "desk/admin.html")]
struct AdminPage {
    shell: Shell,
    /// (path, title, what for).
    sections: Vec<(&'static str, String, String)>,
    /// The last backup, in words, and whether it is late.
    backup: (String, bool),
}

/// A backup older than this many hours is late (a day and a half: one missed night).
const LATE_HOURS: i64 = 36;

/// `GET /admin`.
#[handler]
pub async fn admin(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    if let Err(e) = s.principal.require(Scope::Admin) {
        return server_error(&t, &e);
    }
    let sections = SECTIONS
        .iter()
        .map(|(path, title, about)| (*path, t.t(title), t.t(about)))
        .collect();
    let backup = match crate::service::backups::last_good_age(&state.svc).await {
        Err(e) => return server_error(&t, &e),
        Ok(None) => (t.t("admin-backup-none"), true),
        Ok(Some(age)) => {
            let hours = age / 3600;
            let key = if hours > LATE_HOURS {
                "admin-backup-late"
            } else {
                "admin-backup-age"
            };
            (t.n(key, hours), hours > LATE_HOURS)
        }
    };
    let body = AdminPage {
        backup,
        sections,
        shell: Shell::new(&s, t, "admin"),
    };
    page(StatusCode::OK, &body)
}
