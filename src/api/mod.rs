//! The HTTP API: poem-openapi resources under `/v1`, the spec, the docs page, and the
//! operational endpoints. Handlers are thin: they decode, call one service function and
//! map the result. Cross-cutting rules live in layers: [`edge`] (request id, body limit,
//! problem+json) and [`idempotency`] (Idempotency-Key).

pub mod book;
mod calendar;
mod channel;
mod compliance;
mod day_close;
mod deposits;
pub mod direct;
pub mod docs;
pub mod edge;
mod events;
mod extras;
mod guests;
mod history;
pub mod idempotency;
pub mod input;
mod invoices;
pub mod lifecycle;
pub mod limits;
mod messages;
pub mod metrics;
pub mod oauth;
pub mod pagination;
pub mod problem;
mod rates;
mod reports;
mod reservations;
pub mod responses;
mod room_types;
mod rooms;
pub mod security;
mod settings;
pub mod spec;
mod spec_tools;
mod stays;
mod swagger;
mod webhooks;

pub use swagger::spec as committed_spec;

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Endpoint, EndpointExt, Request, Response, Route, handler};
use poem_openapi::{ExtraHeader, OpenApiService, Tags};

use crate::auth::AuthServer;
use crate::service::Services;
use oauth::endpoints::OAuthState;
use oauth::guard::Guard;

/// Operation groups in the spec.
#[derive(Tags)]
pub enum Tag {
    /// Property settings.
    Settings,
    /// Kinds of room.
    #[oai(rename = "Room types")]
    RoomTypes,
    /// Physical rooms.
    Rooms,
    /// Rate plans, the price calendar with its restrictions, and offers.
    Rates,
    /// Free rooms per night.
    Availability,
    /// The channel manager connection: health and resending.
    Channels,
    /// People who stay.
    Guests,
    /// Bookings and their life cycle.
    Reservations,
    /// Check-in and check-out.
    Stays,
    /// Invoices, credit notes and payments.
    Invoices,
    /// Webhook endpoints and deliveries.
    Webhooks,
    /// National submissions: guest registration, fiscal receipts.
    Compliance,
    /// The durable event feed.
    Events,
    /// The owner's numbers: occupancy, revenue.
    Reports,
    /// Self-description of the API.
    Meta,
}

const DESCRIPTION: &str = "\
innkeep is a property-management system for small hotels. This is its HTTP API, version 1.

* JSON everywhere, `snake_case` fields; unknown request fields are rejected with 422.
* Errors are RFC 9457 `application/problem+json` with a stable `code` and, for input \
errors, `errors` listing every failing field.
* Lists use cursor pagination: `limit` (1 to 200, default 50) and `cursor`; the envelope \
is `{\"data\": [...], \"next_cursor\": ... | null}`. A cursor is bound to its filters and \
lasts 7 days. Paging never repeats or skips a record that existed before the first page, \
even when records change meanwhile.
* Every POST accepts `Idempotency-Key` (1 to 255 characters, remembered 24 h).
* Every mutable resource has a `version`, served as `ETag`; PUT honours `If-Match`.
* PUT changes only the fields sent: absent fields keep their value, `null` clears an \
optional field, and read-only fields sent back unchanged are ignored.
* Money is integer minor units with an ISO 4217 currency; dates are property-local \
`YYYY-MM-DD`; instants are RFC 3339 UTC with `Z`.
* Every operation is rate limited per OAuth client (per address without a token): over \
the limit it answers 429 `rate_limited` with `Retry-After`, and every answer carries \
`RateLimit-Policy` and `RateLimit` (IETF httpapi rate-limit-headers draft).
* The event feed (`GET /events`) carries a `feed_id`; send it back with `after` and a \
restored database, a pruned position or a position from the future is an error that says \
what to do, never a page that skips or repeats.

Within `/v1` changes are additive only; deprecated operations carry `Deprecation`, \
`Sunset` and `Link` headers for at least 12 months before they answer 410 `sunset`. \
Read the [versioning policy](/docs/versioning), the [changelog](/docs/changelog) and the \
[migration guides](/docs/migrations).";

/// Who a request acts for, so that idempotency keys of different clients never collide.
pub fn client_scope(req: &Request) -> String {
    req.extensions()
        .get::<crate::auth::tokens::Verified>()
        .map(|p| p.claims.client_id.clone())
        .unwrap_or_else(|| "anonymous".to_string())
}

/// Every resource of the API, as one poem-openapi object.
fn apis() -> impl poem_openapi::OpenApi {
    (
        settings::SettingsApi,
        room_types::RoomTypesApi,
        rooms::RoomsApi,
        rates::RatesApi,
        extras::ExtrasApi,
        channel::ChannelApi,
        guests::GuestsApi,
        reservations::ReservationsApi,
        stays::StaysApi,
        messages::MessagesApi,
        deposits::DepositsApi,
        invoices::InvoicesApi,
        webhooks::WebhooksApi,
        compliance::ComplianceApi,
        events::EventsApi,
        // poem-openapi composes tuples of at most 16: the newest sit in a nested one.
        (
            history::HistoryApi,
            reports::ReportsApi,
            day_close::DayCloseApi,
            calendar::CalendarApi,
        ),
    )
}

fn service() -> OpenApiService<impl poem_openapi::OpenApi, ()> {
    OpenApiService::new(apis(), "innkeep", env!("CARGO_PKG_VERSION"))
        .description(DESCRIPTION)
        .contact(
            // The server's own operator: the hotel runs it; integrators ask the hotel.
            poem_openapi::ContactObject::new().name("The hotel running this innkeep server"),
        )
        .license(
            poem_openapi::LicenseObject::new("AGPL-3.0-or-later")
                .url("https://www.gnu.org/licenses/agpl-3.0.html"),
        )
        .server("/v1")
        .extra_request_header::<Option<String>, _>(
            ExtraHeader::new("X-Request-Id")
                .description("Your id for this request; echoed back and logged."),
        )
        .extra_response_header::<String, _>(
            ExtraHeader::new("X-Request-Id")
                .description("The request id (yours, or one the server made)."),
        )
}

/// The OpenAPI document as the code describes it. The server serves the committed
/// `openapi.json` ([`committed_spec`]), and the tests hold the two equal; this is how
/// that file is written (`cargo run --example openapi -- openapi.json`). The server never
/// calls it, so none of the code that writes the spec is in its binary.
pub fn spec_json() -> String {
    spec::finish(&service().spec())
}

#[handler]
fn health() -> Response {
    Response::builder()
        .content_type("application/json")
        .body(r#"{"status":"ok"}"#)
}

#[handler]
async fn ready(svc: Data<&Services>) -> Response {
    match crate::service::maintenance::ready(svc.0).await {
        Ok(version) => Response::builder()
            .content_type("application/json")
            .body(format!(
                r#"{{"status":"ready","schema_version":{version}}}"#
            )),
        Err(e) => {
            tracing::warn!(error = %e, "not ready");
            let mut r = problem::render(
                &crate::error::AppError::new(
                    crate::error::Kind::Internal,
                    "not_ready",
                    "The database is not ready.",
                ),
                "",
            );
            r.set_status(StatusCode::SERVICE_UNAVAILABLE);
            r
        }
    }
}

/// What the HTTP application is made of.
pub struct AppParts {
    /// The use cases' context (the database and the compliance schemes in force).
    pub services: Services,
    /// This process, for idempotency claims.
    pub instance: Arc<str>,
    /// The authorization server.
    pub auth: Arc<AuthServer>,
    /// Where webhooks may be delivered.
    pub destinations: crate::domain::webhooks::Destinations,
    /// The key that signs list cursors.
    pub cursor_key: pagination::CursorKey,
    /// The request rate of a client without its own limit.
    pub rate: crate::domain::limits::Rate,
    /// How long front-desk sessions last.
    pub desk: crate::config::desk::Timeouts,
    /// The first-run page's gate.
    pub welcome: Arc<crate::service::welcome::Welcome>,
}

/// The whole HTTP application.
pub fn app(parts: AppParts) -> impl Endpoint<Output = Response> {
    let AppParts {
        services,
        instance,
        auth,
        destinations,
        cursor_key,
        rate,
        desk,
        welcome,
    } = parts;
    let api = service();
    // The operations and their scopes come from the committed spec, the one served.
    let table = Arc::new(spec::RouteTable::committed("/v1").with(
        "GET",
        "/metrics",
        spec::Requirement::Scopes(vec![
            crate::domain::scopes::Scope::Admin.as_str().to_string(),
        ]),
    ));
    let counters = Arc::new(metrics::Metrics::default());
    let oauth = Arc::new(OAuthState {
        auth: auth.clone(),
        svc: services.clone(),
    });
    // Each face owns its routes; they are mounted here, behind one edge.
    let api_face = Route::new()
        .at("/v1/openapi.json", poem::get(swagger::openapi_json))
        .nest("/v1", api);
    let routes = crate::desk::routes::mount(oauth::mount(docs::mount(api_face)))
        .at("/health", poem::get(health))
        .at("/ready", poem::get(ready))
        .at("/metrics", poem::get(metrics::metrics))
        .data(Arc::new(crate::desk::DeskState {
            svc: services.clone(),
            auth: auth.clone(),
            timeouts: desk,
            instance: instance.clone(),
            welcome,
            rendered: Default::default(),
        }))
        .data(oauth)
        .data(counters.clone())
        .data(services.clone())
        .data(destinations)
        .data(cursor_key);
    let idempotent = idempotency::Idempotency::new(routes, services.clone(), instance);
    let lived = lifecycle::Lifecycle::new(idempotent, "/v1", lifecycle::DEPRECATIONS);
    let guarded = Guard::new(
        lived,
        auth,
        services,
        table.clone(),
        limits::Limits::new(rate),
    );
    edge::Edge::new(guarded, table, counters)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// poem-openapi's description of the operations of `_apis` (paths, methods, security).
    fn meta_of<T: poem_openapi::OpenApi>(_apis: &T) -> Vec<poem_openapi::registry::MetaApi> {
        T::meta()
    }

    #[test]
    fn the_route_table_served_is_the_code_s() {
        let served = spec::RouteTable::committed("/v1").operations();
        let from_code = spec::RouteTable::from_meta(&meta_of(&apis()), "/v1").operations();
        assert!(served.len() >= 80, "{} operations", served.len());
        // The served file is the code's spec (tests/api/basics.rs); its table is the code's.
        assert_eq!(served, from_code);
    }
}
