//! The messages on a reservation's page: what innkeep sent the guest (or is sending), with
//! what the mail relay said, and "Send the confirmation again"
//! (`POST /reservations/{id}/messages`).

use std::collections::HashMap;
use std::sync::Arc;

use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};

use super::{DeskState, open_post, or_answer};
use crate::i18n::{Arg, T};
use crate::model::Principal;
use crate::service::messages;

/// A message as the page lists it.
pub struct MessageRow {
    /// When it was made, in the property's time.
    pub when: String,
    /// What it is (a confirmation, a cancellation).
    pub what: String,
    /// To whom.
    pub to: String,
    /// Where it stands, in words (with the relay's words when it did not go).
    pub state: String,
    /// Whether it needs someone's attention (bounced, failed).
    pub problem: bool,
}

/// Message `m` as a row: when (in time zone `tz`), what, to whom, where it stands in
/// words (with the relay's words when it did not go).
pub fn row(t: &T, tz: &str, m: messages::Message) -> MessageRow {
    let problem = ["bounced", "failed"].contains(&m.status.as_str());
    let mut words = t.t(&format!("message-status-{}", m.status));
    if m.status != "sent"
        && let Some(e) = &m.last_error
    {
        words = t.with(
            "message-status-why",
            &[("status", Arg::Text(words)), ("why", Arg::Text(e.clone()))],
        );
    }
    MessageRow {
        when: crate::clock::local_time(&m.created_at, tz)
            .map_or_else(|| m.created_at.clone(), |(d, at)| t.moment(d, at)),
        what: t.t(&format!("message-kind-{}", m.kind)),
        to: m.recipient,
        state: words,
        problem,
    }
}

/// Reservation `id`'s messages, oldest first (none when they cannot be read).
pub async fn rows(state: &DeskState, p: &Principal, t: &T, tz: &str, id: &str) -> Vec<MessageRow> {
    let all = messages::of_reservation(&state.svc, p, id.to_string())
        .await
        .unwrap_or_default();
    all.into_iter().map(|m| row(t, tz, m)).collect()
}

/// `POST /reservations/{id}/messages`: the confirmation (or the cancellation) sent again.
#[handler]
pub async fn again(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_post(req, body, &state, super::CHANGES).await);
    match messages::send_again(&state.svc, &s.principal, id.clone()).await {
        Ok(_) => super::stay_actions::done(&id, "message-again"),
        Err(e) => super::stay_actions::refused(&state, &s, t, id, e, HashMap::new()).await,
    }
}
