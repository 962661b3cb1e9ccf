//! Webhook endpoints and their delivery log.

use poem_openapi::Object;
use poem_openapi::types::MaybeUndefined;

use crate::domain::enums::DeliveryOutcome;
use crate::input_object;
use crate::model::fields::{Line, Text};
use crate::model::{Instant, Patch};

/// A webhook endpoint. Its secret is shown only when it is created or rotated.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Webhook {
    /// `whk_…`
    pub id: String,
    /// Where deliveries are POSTed: absolute http(s), no credentials.
    pub url: String,
    /// Event types it receives: exact names, `family.*` or `*`.
    pub events: Vec<String>,
    /// For people.
    pub description: Option<String>,
    /// Whether deliveries are made.
    pub enabled: bool,
    /// Why innkeep disabled it (410 Gone, or five days of failures); null when enabled.
    pub disabled_reason: Option<String>,
    /// Until when the previous secret still signs too (after a rotation).
    pub previous_secret_until: Option<Instant>,
    /// Incremented by every change; served as the ETag.
    pub version: i64,
    /// When it was registered.
    pub created_at: Instant,
    /// When it last changed.
    pub updated_at: Instant,
}

/// An endpoint with its signing secret (shown once).
#[derive(Debug, Clone, Object)]
pub struct WebhookWithSecret {
    /// The endpoint.
    #[oai(flatten)]
    pub webhook: Webhook,
    /// `whsec_` + base64: the Standard Webhooks signing key. Store it now; it is not shown again.
    pub secret: String,
}

input_object! {
    /// A new webhook endpoint.
    pub struct WebhookCreate {
        /// Absolute `http` or `https` URL without credentials.
        pub url: Line<2000>,
        /// Event types: exact names (`reservation.created`), families (`reservation.*`) or `*`.
        pub events: Vec<Line<64>>,
        /// For people.
        pub description: Option<Text<500>>,
        /// Defaults to true.
        pub enabled: Option<bool>,
    }
}

input_object! {
    /// Changes to an endpoint. Absent fields keep their value. Enabling it again clears the
    /// reason it was disabled.
    pub struct WebhookUpdate {
        /// Absolute `http` or `https` URL without credentials.
        pub url: Patch<Line<2000>>,
        /// Event types.
        pub events: Patch<Vec<Line<64>>>,
        /// For people; null clears it.
        pub description: MaybeUndefined<Text<500>>,
        /// Whether deliveries are made.
        pub enabled: Patch<bool>,
    }
    ignore ["id", "disabled_reason", "previous_secret_until", "version", "created_at", "updated_at"]
}

/// One delivery attempt.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct Delivery {
    /// `dlv_…`
    pub id: String,
    /// The event delivered (also the `webhook-id` header).
    pub event_id: String,
    /// Its type.
    pub event_type: String,
    /// 1 for the first attempt, then 2, 3, ...
    pub attempt: i64,
    /// `succeeded`, `retrying` (another attempt is scheduled) or `failed` (no more attempts).
    pub status: DeliveryOutcome,
    /// The receiver's HTTP status, if it answered.
    pub response_status: Option<i64>,
    /// How long the attempt took.
    pub duration_ms: Option<i64>,
    /// What went wrong.
    pub error: Option<String>,
    /// When the next attempt is due.
    pub next_attempt_at: Option<Instant>,
    /// When the attempt was made.
    pub created_at: Instant,
}

/// A delivery that was queued.
#[derive(Debug, Clone, Object)]
pub struct Queued {
    /// The event that will be delivered.
    pub event_id: String,
    /// Always `queued`.
    pub status: String,
}
