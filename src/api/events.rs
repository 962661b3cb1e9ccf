//! `GET /v1/events` and `GET /v1/meta/state-machines`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use super::Tag;
use super::pagination::given;
use super::problem::{ApiError, FeedErrors, PublicErrors};
use super::security::{Scope, Token};
use crate::domain::enums::InvoiceStatus;
use crate::domain::events::is_known_pattern;
use crate::domain::invoice;
use crate::domain::reservation::{Status, TRANSITIONS};
use crate::error::{AppError, FieldError};
use crate::model::EventPage;
use crate::service;
use crate::service::Services;

/// The event feed and published state machines.
pub struct EventsApi;

/// One transition of a state machine.
#[derive(Debug, Clone, Object)]
pub struct Transition {
    /// State before.
    pub from: String,
    /// State after.
    pub to: String,
    /// The operation that makes it.
    pub via: String,
}

/// A state machine.
#[derive(Debug, Clone, Object)]
pub struct StateMachine {
    /// The resource, such as `reservation`.
    pub resource: String,
    /// Every state.
    pub states: Vec<String>,
    /// The state a new resource starts in.
    pub initial: String,
    /// States nothing leaves.
    pub terminal: Vec<String>,
    /// Every allowed transition; any other is 409 `invalid_state_transition`.
    pub transitions: Vec<Transition>,
}

/// The published state machines.
#[derive(Debug, Clone, Object)]
pub struct StateMachines {
    /// One per resource with states.
    pub data: Vec<StateMachine>,
}

fn check_types(raw: Option<String>) -> Result<Vec<String>, AppError> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for t in raw.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if !is_known_pattern(t) {
            return Err(
                AppError::bad_request(format!("type {t:?} is not an event type.")).with_errors(
                    vec![FieldError::new(
                        "type",
                        "invalid_choice",
                        "must be event types such as reservation.created, or reservation.*",
                    )],
                ),
            );
        }
        out.push(t.to_string());
    }
    Ok(out)
}

/// One published state machine from the domain's states and `(from, to, via)` edges.
fn machine<'a>(
    resource: &str,
    states: &[&str],
    initial: &str,
    terminal: impl Iterator<Item = &'a str>,
    edges: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
) -> StateMachine {
    StateMachine {
        resource: resource.into(),
        states: states.iter().map(|s| s.to_string()).collect(),
        initial: initial.into(),
        terminal: terminal.map(str::to_string).collect(),
        transitions: edges
            .map(|(from, to, via)| Transition {
                from: from.into(),
                to: to.into(),
                via: via.into(),
            })
            .collect(),
    }
}

#[OpenApi(tag = "Tag::Events")]
impl EventsApi {
    /// Read the event feed
    ///
    /// Events in sequence order, each with a full snapshot of the resource after the change
    /// (`data` is what `GET` returned at that moment). Poll with `after` set to the
    /// `next_after` of the previous answer and `feed_id` set to the page's `feed_id`:
    /// nothing that committed is ever skipped. Events are kept for 30 days by default
    /// (`[events] retention_days`).
    ///
    /// A position that no longer means what it meant is an error, never a misleading page:
    /// a stale `feed_id` (the database was restored) is 409 `feed_reset`; an `after` older
    /// than the oldest kept event is 410 `events_expired` (with `oldest_sequence` and
    /// `resume_after`); an `after` beyond the newest event is 409 `cursor_ahead` (with
    /// `newest_sequence`). In each case reconcile from the list endpoints by id, then read
    /// on from the position the problem names.
    #[oai(path = "/events", method = "get", operation_id = "listEvents")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::EventsRead")] token: Token,
        /// Only events after this sequence. Without it the page starts at the oldest kept
        /// event; with it, every event after it must still be kept (else 410).
        #[oai(validator(minimum(value = "0")))]
        after: Query<Option<i64>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// Event types, comma-separated; `reservation.*` matches a family.
        #[oai(name = "type")]
        kind: Query<Option<String>>,
        /// The `feed_id` your stored position belongs to; a stale one is 409 `feed_reset`.
        #[oai(validator(max_length = 64))]
        feed_id: Query<Option<String>>,
    ) -> Result<Direct<EventPage>, ApiError<FeedErrors>> {
        let query = service::events::FeedQuery {
            after: after.0,
            limit: limit.0.unwrap_or(50).clamp(1, 200) as usize,
            types: check_types(given(&kind))?,
            feed_id: given(&feed_id),
        };
        Ok(Direct(
            service::events::list(svc.0, &token.0.principal, query).await?,
        ))
    }

    /// Publish the state machines
    ///
    /// The reservation life cycle: which transitions exist and which operation makes each.
    #[oai(
        path = "/meta/state-machines",
        method = "get",
        operation_id = "getStateMachines",
        tag = "Tag::Meta"
    )]
    async fn state_machines(&self) -> Result<Json<StateMachines>, ApiError<PublicErrors>> {
        let reservation = machine(
            "reservation",
            Status::NAMES,
            Status::Confirmed.as_str(),
            Status::ALL
                .iter()
                .filter(|s| s.is_final())
                .map(|s| s.as_str()),
            TRANSITIONS
                .iter()
                .map(|(f, t, via)| (f.as_str(), t.as_str(), via.describe())),
        );
        let invoice = machine(
            "invoice",
            InvoiceStatus::NAMES,
            InvoiceStatus::Issued.as_str(),
            InvoiceStatus::ALL
                .iter()
                .filter(|s| invoice::is_final(**s))
                .map(|s| s.as_str()),
            invoice::INVOICE_TRANSITIONS
                .iter()
                .map(|(f, t, via)| (f.as_str(), t.as_str(), via.describe())),
        );
        Ok(Json(StateMachines {
            data: vec![reservation, invoice],
        }))
    }
}
