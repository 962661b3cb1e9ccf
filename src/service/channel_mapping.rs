//! Which of innkeep's room types and rate plans are which at the channel manager:
//! chosen in Administration › Channels from the lists the channel manager gives (never
//! typed), kept in `channel_mappings`, and read with the `[channel]` file's mapping (by
//! codes) under them. Saving a mapping asks for a full resend, so what was just mapped is
//! sent at once. Also the one way innkeep calls the channel manager over HTTP, shared with
//! the queue's pusher.

use std::collections::HashMap;

use crate::channel::{Call, Remote};
use crate::config::channel::ChannelConfig;
use crate::domain::said::Value;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// Sends `call` to the channel manager of `cfg` with `agent` (blocking): the status and
/// body, or why there was none.
pub fn send(
    agent: &ureq::Agent,
    cfg: &ChannelConfig,
    call: &Call,
) -> Result<(u16, String), String> {
    let url = format!("{}{}", cfg.url.trim_end_matches('/'), call.path);
    let key = cfg.api_key.expose().to_string();
    let sent = match (call.method, &call.body) {
        (_, Some(b)) => agent
            .post(&url)
            .header(cfg.adapter().key_header(), &key)
            .send_json(b),
        ("POST", None) => agent
            .post(&url)
            .header(cfg.adapter().key_header(), &key)
            .send_empty(),
        _ => agent
            .get(&url)
            .header(cfg.adapter().key_header(), &key)
            .call(),
    };
    let mut resp = sent.map_err(|e| format!("{} cannot be reached: {e}", cfg.url))?;
    let status = resp.status().as_u16();
    let body = resp.body_mut().read_to_string().unwrap_or_default();
    Ok((status, body))
}

/// One line of the mapping screen: an innkeep room type or plan and what it is mapped to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// `room_type` or `rate_plan`.
    pub kind: &'static str,
    /// innkeep's id (`rt_…`, `rp_…`).
    pub local_id: String,
    /// How innkeep names it (code and name).
    pub label: String,
    /// For a plan, its room type's id.
    pub room_type_id: Option<String>,
    /// The channel manager's id it is mapped to, if any.
    pub remote_id: Option<String>,
}

/// The mapping screen: innkeep's side, and the channel manager's lists (or why they could
/// not be read).
#[derive(Debug, Clone)]
pub struct MappingView {
    /// Room types, each followed by its plans.
    pub lines: Vec<Line>,
    /// The channel manager's room types.
    pub room_types: Result<Vec<Remote>, String>,
    /// The channel manager's rate plans.
    pub rate_plans: Result<Vec<Remote>, String>,
}

/// The channel manager's room types and rate plans, read now.
async fn remote_lists(
    cfg: ChannelConfig,
) -> (Result<Vec<Remote>, String>, Result<Vec<Remote>, String>) {
    let read = move || {
        let agent = crate::outbound::agent(std::time::Duration::from_secs(20), "channel manager")
            .build()
            .new_agent();
        let list = |call: Call| match send(&agent, &cfg, &call)? {
            (200, body) => cfg.adapter().options(&body, &cfg.property_id),
            (status, body) => Err(match cfg.adapter().pushed(status, &body) {
                crate::channel::Pushed::Refused(why) | crate::channel::Pushed::Retry(why) => why,
                _ => format!("the channel manager answered {status}"),
            }),
        };
        (
            list(cfg.adapter().room_type_options(&cfg.property_id)),
            list(cfg.adapter().rate_plan_options(&cfg.property_id)),
        )
    };
    tokio::task::spawn_blocking(read)
        .await
        .unwrap_or_else(|e| (Err(e.to_string()), Err(e.to_string())))
}

fn connected(svc: &Services) -> AppResult<ChannelConfig> {
    svc.channel().cloned().ok_or_else(|| {
        AppError::conflict(
            "not_connected",
            "No channel manager is connected: set [channel] in innkeep.toml first.",
        )
    })
}

/// The mapping screen's contents (409 `not_connected` without `[channel]`).
pub async fn view(svc: &Services, p: &Principal) -> AppResult<MappingView> {
    p.require(Scope::ChannelManage)?;
    let cfg = connected(svc)?;
    let (room_types, rate_plans) = remote_lists(cfg.clone()).await;
    let lines = svc
        .db()
        .read(move |c| {
            let map = super::channel::Mapping::of(c, &cfg)?;
            let plans = store::rate_plans::all(c)?;
            let mut lines = Vec::new();
            for t in store::room_types::all(c)? {
                lines.push(Line {
                    kind: "room_type",
                    local_id: t.id.clone(),
                    label: format!("{} · {}", t.code, t.name),
                    room_type_id: None,
                    remote_id: map.room_types.get(&t.id).cloned(),
                });
                for plan in plans.iter().filter(|p| p.room_type_id == t.id) {
                    lines.push(Line {
                        kind: "rate_plan",
                        local_id: plan.id.clone(),
                        label: format!("{}/{}", t.code, plan.code),
                        room_type_id: Some(t.id.clone()),
                        remote_id: map.rate_plans.get(&plan.id).cloned(),
                    });
                }
            }
            Ok(lines)
        })
        .await?;
    Ok(MappingView {
        lines,
        room_types,
        rate_plans,
    })
}

/// Saves the mapping chosen (innkeep id → the channel manager's id, empty for none),
/// checked against the channel manager's lists read now: an id it does not list, one of its
/// room types chosen twice, or a plan of another room type than its room type's is refused
/// at that line (`map.{id}`); nothing is saved then. Asks for a full resend.
pub async fn save(svc: &Services, p: &Principal, chosen: HashMap<String, String>) -> AppResult<()> {
    p.require(Scope::ChannelManage)?;
    let cfg = connected(svc)?;
    let (types, plans) = remote_lists(cfg.clone()).await;
    let unread = |r: &Result<Vec<Remote>, String>| r.as_ref().err().cloned();
    if let Some(why) = unread(&types).or(unread(&plans)) {
        // Said as the reason alone: the caller words "nothing was saved" in its language.
        return Err(AppError::conflict("channel_unreachable", why));
    }
    let (types, plans) = (types.unwrap_or_default(), plans.unwrap_or_default());
    svc.db()
        .write(move |tx| {
            let mut errs = Vec::new();
            let mut rows: Vec<(&str, String, String, String)> = Vec::new();
            let mut taken: HashMap<String, String> = HashMap::new();
            for t in store::room_types::all(tx)? {
                let Some(remote) = chosen.get(&t.id).map(|s| s.trim().to_string()) else {
                    continue;
                };
                let field = format!("map.{}", t.id);
                match types.iter().find(|r| r.id == remote) {
                    _ if remote.is_empty() => rows.push(("room_type", t.id.clone(), String::new(), String::new())),
                    None => errs.push(
                        FieldError::new(field, "not_listed", "is not one of the channel manager's room types")
                            .said("problem-channel-no-room-type", vec![]),
                    ),
                    Some(r) => match taken.insert(r.id.clone(), t.code.clone()) {
                        Some(other) => errs.push(
                            FieldError::new(
                                field,
                                "mapped_twice",
                                format!("is already chosen for room type {other}: each of the channel manager's room types maps to one of innkeep's"),
                            )
                            .said("problem-channel-mapped-twice", vec![("type", Value::Text(other))]),
                        ),
                        None => rows.push(("room_type", t.id.clone(), r.id.clone(), r.title.clone())),
                    },
                }
            }
            for plan in store::rate_plans::all(tx)? {
                let Some(remote) = chosen.get(&plan.id).map(|s| s.trim().to_string()) else {
                    continue;
                };
                let field = format!("map.{}", plan.id);
                let its_type = rows
                    .iter()
                    .find(|r| r.0 == "room_type" && r.1 == plan.room_type_id)
                    .map(|r| r.2.clone());
                match plans.iter().find(|r| r.id == remote) {
                    _ if remote.is_empty() => rows.push(("rate_plan", plan.id.clone(), String::new(), String::new())),
                    None => errs.push(
                        FieldError::new(field, "not_listed", "is not one of the channel manager's rate plans")
                            .said("problem-channel-no-plan", vec![]),
                    ),
                    Some(r) if r.room_type.is_some() && its_type.is_some() && r.room_type != its_type => {
                        errs.push(
                            FieldError::new(
                                field,
                                "other_room_type",
                                "belongs to another room type at the channel manager than the one this plan's room type is mapped to",
                            )
                            .said("problem-channel-other-room-type", vec![]),
                        )
                    }
                    Some(r) => rows.push(("rate_plan", plan.id.clone(), r.id.clone(), r.title.clone())),
                }
            }
            super::fail_on(errs)?;
            for (kind, local, remote, title) in &rows {
                store::channel::map(tx, kind, local, remote, title)?;
            }
            store::channel::ask_full(tx)
        })
        .await
}
