//! `/v1/webhooks`: endpoints, secrets, tests, the delivery log, redelivery.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest, csv, given};
use super::problem::{ActionErrors, ApiError, CreateErrors, GetErrors, ListErrors, UpdateErrors};
use super::responses::Tagged;
use super::security::{Scope, Token};
use crate::domain::webhooks::{DELIVERY_OUTCOMES, Destinations};
use crate::model::{
    DeliveryPage, Queued, Webhook, WebhookCreate, WebhookPage, WebhookUpdate, WebhookWithSecret,
};
use crate::service;
use crate::service::Services;

/// Webhook endpoints.
pub struct WebhooksApi;

/// An endpoint with its new secret.
#[derive(ApiResponse)]
pub enum WithSecret {
    /// Created; the secret is in this answer only.
    #[oai(status = 201)]
    Created(
        Json<WebhookWithSecret>,
        #[oai(header = "Location")] String,
        #[oai(header = "ETag")] String,
    ),
    /// Rotated; the new secret is in this answer only.
    #[oai(status = 200)]
    Rotated(Json<WebhookWithSecret>, #[oai(header = "ETag")] String),
}

/// A delivery queued.
#[derive(ApiResponse)]
pub enum Accepted {
    /// Queued; follow it in the delivery log.
    #[oai(status = 202)]
    Queued(Json<Queued>),
}

/// Deleted.
#[derive(ApiResponse)]
pub enum Deleted {
    /// The endpoint, its log and its pending deliveries are gone.
    #[oai(status = 204)]
    NoContent,
}

fn etag(v: i64) -> String {
    format!("\"{v}\"")
}

#[OpenApi(tag = "Tag::Webhooks")]
impl WebhooksApi {
    /// List webhook endpoints
    ///
    /// Oldest first.
    #[oai(path = "/webhooks", method = "get", operation_id = "listWebhooks")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<WebhookPage>, ApiError<ListErrors>> {
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, Filters::of("webhooks", &()))?;
        let page = service::webhooks::list(svc.0, &token.0.principal, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(WebhookPage {
            data: page.items.into_iter().map(|(w, _)| w).collect(),
            next_cursor,
        }))
    }

    /// Register a webhook endpoint
    ///
    /// Deliveries follow Standard Webhooks: `webhook-id` (the event id, the same on every
    /// retry), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 over
    /// `{id}.{timestamp}.{body}` with the secret). The secret is shown in this answer only.
    /// Private-network and loopback URLs are allowed by default (a hotel LAN); link-local and
    /// cloud-metadata addresses never are.
    #[oai(path = "/webhooks", method = "post", operation_id = "createWebhook")]
    async fn create(
        &self,
        svc: Data<&Services>,
        allow: Data<&Destinations>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        body: Body<WebhookCreate>,
    ) -> Result<WithSecret, ApiError<CreateErrors>> {
        let w = service::webhooks::create(svc.0, &token.0.principal, *allow.0, body.0).await?;
        let (location, tag) = (
            format!("/v1/webhooks/{}", w.webhook.id),
            etag(w.webhook.version),
        );
        Ok(WithSecret::Created(Json(w), location, tag))
    }

    /// Get a webhook endpoint
    ///
    /// Its URL, event filter and state; the secret is never shown again after creation
    /// or rotation.
    #[oai(path = "/webhooks/:id", method = "get", operation_id = "getWebhook")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
    ) -> Result<Tagged<Webhook>, ApiError<GetErrors>> {
        Ok(service::webhooks::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change a webhook endpoint
    ///
    /// Absent fields keep their value. Setting `enabled: true` on a disabled endpoint
    /// enables it again and clears `disabled_reason`.
    #[oai(path = "/webhooks/:id", method = "put", operation_id = "updateWebhook")]
    async fn update(
        &self,
        svc: Data<&Services>,
        allow: Data<&Destinations>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<WebhookUpdate>,
    ) -> Result<Tagged<Webhook>, ApiError<UpdateErrors>> {
        let if_match = service::IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::webhooks::update(svc.0, &token.0.principal, *allow.0, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }

    /// Delete a webhook endpoint
    ///
    /// Its delivery log and pending deliveries go with it.
    #[oai(
        path = "/webhooks/:id",
        method = "delete",
        operation_id = "deleteWebhook"
    )]
    async fn delete(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
        /// The ETag you read; a stale one gets 412 and deletes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
    ) -> Result<Deleted, ApiError<UpdateErrors>> {
        let if_match = service::IfMatch::from_header(if_match.0.as_deref());
        service::webhooks::delete(svc.0, &token.0.principal, id.0, if_match).await?;
        Ok(Deleted::NoContent)
    }

    /// Rotate the signing secret
    ///
    /// Returns the new secret (this once). For 24 hours deliveries carry two signatures,
    /// old and new, space-separated, so receivers can switch without missing any.
    #[oai(
        path = "/webhooks/:id/rotate-secret",
        method = "post",
        operation_id = "rotateWebhookSecret"
    )]
    async fn rotate(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
    ) -> Result<WithSecret, ApiError<ActionErrors>> {
        let w = service::webhooks::rotate(svc.0, &token.0.principal, id.0).await?;
        let tag = etag(w.webhook.version);
        Ok(WithSecret::Rotated(Json(w), tag))
    }

    /// Send a test event
    ///
    /// Records a `webhook.test` event and delivers it to this endpoint only.
    #[oai(
        path = "/webhooks/:id/test",
        method = "post",
        operation_id = "testWebhook"
    )]
    async fn test(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
    ) -> Result<Accepted, ApiError<ActionErrors>> {
        Ok(Accepted::Queued(Json(
            service::webhooks::test(svc.0, &token.0.principal, id.0).await?,
        )))
    }

    /// The delivery log
    ///
    /// Every attempt, oldest first: its event, attempt number, outcome, the receiver's status,
    /// duration, error and when the next attempt is due.
    #[oai(
        path = "/webhooks/:id/deliveries",
        method = "get",
        operation_id = "listWebhookDeliveries"
    )]
    #[allow(clippy::too_many_arguments)] // one per query parameter
    async fn deliveries(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
        /// Outcomes, comma-separated: `succeeded`, `retrying`, `failed`.
        status: Query<Option<String>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<DeliveryPage>, ApiError<GetErrors>> {
        let choices = crate::domain::rules::one_of(DELIVERY_OUTCOMES);
        let statuses = csv(
            "status",
            given(&status),
            |s| DELIVERY_OUTCOMES.contains(&s).then(|| s.to_string()),
            choices,
        )?;
        let filters = Filters::of(&format!("deliveries/{}", id.0), &statuses);
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page = service::webhooks::deliveries(
            svc.0,
            &token.0.principal,
            id.0,
            statuses,
            req.page.clone(),
        )
        .await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(DeliveryPage {
            data: page.items.into_iter().map(|(d, _)| d).collect(),
            next_cursor,
        }))
    }

    /// Redeliver an event
    ///
    /// Queues the event of a logged delivery again, with the same `webhook-id`. 409
    /// `event_expired` once the event is no longer kept.
    #[oai(
        path = "/webhooks/:id/deliveries/:delivery_id/redeliver",
        method = "post",
        operation_id = "redeliverWebhook"
    )]
    async fn redeliver(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::WebhooksManage")] token: Token,
        /// `whk_…`
        id: Path<String>,
        /// `dlv_…`
        delivery_id: Path<String>,
    ) -> Result<Accepted, ApiError<ActionErrors>> {
        Ok(Accepted::Queued(Json(
            service::webhooks::redeliver(svc.0, &token.0.principal, id.0, delivery_id.0).await?,
        )))
    }
}
