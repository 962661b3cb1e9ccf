//! Administration › Channels (`/admin/channels`, the admin role): the channel manager's
//! sync health (last push and pull, changes waiting, problems in plain words, the last
//! read-back), the booking sites' bookings taken with no room free, "Send everything
//! again", and the mapping of innkeep's room types and rate plans to the channel manager's,
//! chosen from the lists it gives (never typed). The use cases of `/v1/channel/*`.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::{DeskSession, DeskState, Shell, open_admin, open_admin_post, or_answer, page};
use super::{server_error, web};
use crate::error::{FieldError, Kind};
use crate::i18n::{Arg, T};
use crate::model::ChannelHealth;
use crate::service::channel_mapping::{self, MappingView};
use crate::service::channel_sync;

#[derive(Template)]
#[template(path = "desk/channels_admin.html")]
struct ChannelsPage {
    shell: Shell,
    problem: Option<String>,
    connected: bool,
    /// (label, value, whether it is a problem).
    facts: Vec<(String, String, bool)>,
    pending: bool,
    /// (reservation id, code, booking site and code, dates).
    overbooked: Vec<[String; 4]>,
    /// Why the channel manager's lists could not be read.
    lists_failed: Option<String>,
    lines: Vec<MapLine>,
}

/// One select of the mapping form.
struct MapLine {
    id: String,
    label: String,
    plan: bool,
    /// (value, label, chosen).
    options: Vec<(String, String, bool)>,
    error: Option<String>,
}

/// A moment of the health, in the property's time.
fn when(t: &T, at: &Option<String>, tz: &str) -> String {
    match at {
        None => t.t("channels-never"),
        Some(at) => crate::clock::local_time(at, tz)
            .map_or_else(|| at.clone(), |(d, time)| t.moment(d, time)),
    }
}

fn facts(t: &T, h: &ChannelHealth, tz: &str) -> Vec<(String, String, bool)> {
    let mut out = vec![
        (
            t.t("channels-last-push"),
            when(t, &h.last_push_at, tz),
            false,
        ),
        (
            t.t("channels-last-pull"),
            when(t, &h.last_pull_at, tz),
            false,
        ),
        (t.t("channels-waiting"), h.queue_depth.to_string(), false),
    ];
    if let Some(e) = &h.push_error {
        out.push((t.t("channels-push-problem"), e.clone(), true));
    }
    if let Some(e) = &h.pull_error {
        out.push((t.t("channels-pull-problem"), e.clone(), true));
    }
    let compared = match (&h.checked_at, h.differences) {
        (None, _) => (t.t("channels-not-compared"), false),
        (at, Some(n)) if n > 0 => (
            t.with(
                "channels-differences",
                &[
                    ("when", Arg::Text(when(t, at, tz))),
                    ("n", Arg::Num(n)),
                    (
                        "first",
                        Arg::Text(h.first_differences.clone().unwrap_or_default()),
                    ),
                ],
            ),
            true,
        ),
        (at, _) => (
            t.with("channels-in-step", &[("when", Arg::Text(when(t, at, tz)))]),
            false,
        ),
    };
    out.push((t.t("channels-compared"), compared.0, compared.1));
    out
}

/// The mapping form's lines: each of innkeep's room types, then its plans, with the
/// channel manager's choices (`chosen` as posted, else as saved) and the errors.
fn lines(
    t: &T,
    v: &MappingView,
    chosen: &HashMap<String, String>,
    errors: &[FieldError],
) -> Vec<MapLine> {
    let value = |id: &str, saved: &Option<String>| {
        chosen
            .get(&format!("map.{id}"))
            .cloned()
            .or_else(|| saved.clone())
            .unwrap_or_default()
    };
    let mut remote_of_type: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    for l in &v.lines {
        let current = value(&l.local_id, &l.remote_id);
        let plan = l.kind == "rate_plan";
        if !plan {
            remote_of_type.insert(l.local_id.clone(), current.clone());
        }
        let list = if plan { &v.rate_plans } else { &v.room_types };
        let parent = l
            .room_type_id
            .as_ref()
            .and_then(|r| remote_of_type.get(r))
            .filter(|r| !r.is_empty());
        let mut options = vec![(
            String::new(),
            t.t("channels-not-mapped"),
            current.is_empty(),
        )];
        match list {
            Ok(remotes) => options.extend(
                remotes
                    .iter()
                    .filter(|r| {
                        // The choice posted stays offered, even when refused.
                        r.id == current
                            || !plan
                            || parent.is_none()
                            || r.room_type.is_none()
                            || r.room_type.as_ref() == parent
                    })
                    .map(|r| (r.id.clone(), r.title.clone(), r.id == current)),
            ),
            // The lists could not be read: the saved choice stays shown.
            Err(_) if !current.is_empty() => options.push((current.clone(), current.clone(), true)),
            Err(_) => {}
        }
        let field = format!("map.{}", l.local_id);
        out.push(MapLine {
            error: errors
                .iter()
                .find(|e| e.field == field)
                .map(|e| super::rules::say(t, e)),
            id: l.local_id.clone(),
            label: l.label.clone(),
            plan,
            options,
        });
    }
    out
}

async fn render(
    state: &DeskState,
    s: &DeskSession,
    shell: Shell,
    status: StatusCode,
    chosen: HashMap<String, String>,
    errors: Vec<FieldError>,
    problem: Option<String>,
) -> Response {
    let t = &shell.t;
    let health = match channel_sync::health(&state.svc, &s.principal).await {
        Ok(h) => h,
        Err(e) => return server_error(t, &e),
    };
    let tz = s.time_zone.clone();
    let (lists_failed, lines) = if health.connected {
        match channel_mapping::view(&state.svc, &s.principal).await {
            Ok(v) => {
                let failed = v
                    .room_types
                    .as_ref()
                    .err()
                    .or(v.rate_plans.as_ref().err())
                    .cloned();
                (failed, lines(t, &v, &chosen, &errors))
            }
            Err(e) => return server_error(t, &e),
        }
    } else {
        (None, Vec::new())
    };
    let overbooked = health
        .overbooked
        .iter()
        .map(|o| {
            let dates = format!(
                "{} – {}",
                t.short_date(o.arrival.0),
                t.short_date(o.departure.0)
            );
            [o.id.clone(), o.code.clone(), o.source.clone(), dates]
        })
        .collect();
    let body = ChannelsPage {
        problem,
        connected: health.connected,
        facts: facts(t, &health, &tz),
        pending: health.full_sync_pending,
        overbooked,
        lists_failed: lists_failed
            .map(|why| t.with("channels-lists-failed", &[("why", Arg::Text(why))])),
        lines,
        shell,
    };
    page(status, &body)
}

/// `GET /admin/channels`.
#[handler]
pub async fn channels(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let shell = Shell::new(&s, t, "admin").after(req);
    render(
        &state,
        &s,
        shell,
        StatusCode::OK,
        HashMap::new(),
        Vec::new(),
        None,
    )
    .await
}

/// `POST /admin/channels/sync`: everything sent again.
#[handler]
pub async fn resend(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, _) = or_answer!(open_admin_post(req, body, &state).await);
    match channel_sync::resend(&state.svc, &s.principal).await {
        Ok(()) => web::redirect(StatusCode::SEE_OTHER, "/admin/channels?done=channel-resent"),
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /admin/channels/mapping`: the mapping saved, or the lines refused with why.
#[handler]
pub async fn map(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, posted) = or_answer!(open_admin_post(req, body, &state).await);
    let chosen: HashMap<String, String> = posted
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("map.")?.to_string(), v.clone())))
        .collect();
    match channel_mapping::save(&state.svc, &s.principal, chosen).await {
        Ok(()) => web::redirect(StatusCode::SEE_OTHER, "/admin/channels?done=channel-mapped"),
        Err(e) if !e.errors.is_empty() => {
            let shell = Shell::new(&s, t, "admin");
            let problem = Some(shell.t.t("channels-problem-save"));
            render(
                &state,
                &s,
                shell,
                StatusCode::UNPROCESSABLE_ENTITY,
                posted,
                e.errors,
                problem,
            )
            .await
        }
        Err(e) if e.kind == Kind::Conflict => {
            let shell = Shell::new(&s, t, "admin");
            let why = shell.t.with(
                "channels-lists-failed",
                &[("why", Arg::Text(e.detail.clone()))],
            );
            render(
                &state,
                &s,
                shell,
                StatusCode::CONFLICT,
                posted,
                Vec::new(),
                Some(why),
            )
            .await
        }
        Err(e) => server_error(&t, &e),
    }
}
