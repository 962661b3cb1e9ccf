//! The HTTP API: poem-openapi resources under `/v1`, the spec, the docs page, and the
//! operational endpoints. Handlers are thin: they decode, call one service function and
//! map the result. Cross-cutting rules live in layers: [`edge`] (request id, body limit,
//! problem+json) and [`idempotency`] (Idempotency-Key).

pub mod book;
mod compliance;
pub mod docs;
pub mod edge;
mod events;
mod guests;
mod history;
pub mod idempotency;
pub mod input;
mod invoices;
pub mod lifecycle;
pub mod limits;
pub mod metrics;
pub mod oauth;
pub mod pagination;
pub mod problem;
mod reservations;
pub mod responses;
mod room_types;
mod rooms;
pub mod security;
mod settings;
pub mod spec;
mod spec_tools;
mod stays;
mod webhooks;

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Endpoint, EndpointExt, Request, Response, Route, handler};
use poem_openapi::{ExtraHeader, OpenApiService, Tags};

use crate::auth::AuthServer;
use crate::service::Services;
use oauth::endpoints::{self, OAuthState};
use oauth::guard::Guard;
use oauth::{device_pages, pages};

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
    /// Free rooms per night.
    Availability,
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

fn service() -> OpenApiService<impl poem_openapi::OpenApi, ()> {
    let apis = (
        settings::SettingsApi,
        room_types::RoomTypesApi,
        rooms::RoomsApi,
        guests::GuestsApi,
        reservations::ReservationsApi,
        stays::StaysApi,
        invoices::InvoicesApi,
        webhooks::WebhooksApi,
        compliance::ComplianceApi,
        events::EventsApi,
        history::HistoryApi,
    );
    OpenApiService::new(apis, "innkeep", env!("CARGO_PKG_VERSION"))
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

/// The OpenAPI document, as served at `/v1/openapi.json` and committed as `openapi.json`.
pub fn spec_json() -> String {
    spec::finish(&service().spec())
}

#[handler]
fn openapi_json(spec: Data<&Arc<String>>) -> Response {
    Response::builder()
        .content_type("application/json")
        .body(spec.0.as_str().to_owned())
}

/// The Swagger UI page: 1.6 MB, nearly all of it Swagger UI itself, so it is made on the
/// first visit rather than at start-up (a server whose docs nobody opens never holds it).
struct DocsPage {
    /// The finished spec the page embeds.
    spec: Arc<String>,
    html: std::sync::OnceLock<String>,
}

#[handler]
fn docs_page(page: Data<&Arc<DocsPage>>) -> poem::web::Html<String> {
    let html = page.html.get_or_init(|| {
        let api = service();
        api.swagger_ui_html().replacen(&api.spec(), &page.spec, 1)
    });
    poem::web::Html(html.clone())
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
    let raw = api.spec();
    let spec = Arc::new(spec::finish(&raw));
    let table = Arc::new(spec::RouteTable::from_spec(&spec, "/v1").with(
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
    let docs = Arc::new(DocsPage {
        spec: spec.clone(),
        html: std::sync::OnceLock::new(),
    });
    let routes = Route::new()
        .at("/v1/openapi.json", poem::get(openapi_json))
        .nest("/v1", api)
        .at("/docs", poem::get(docs_page))
        .at("/docs/changelog", poem::get(docs::changelog))
        .at("/docs/book", poem::get(book::contents))
        .at("/docs/book/", poem::get(book::contents))
        .at("/docs/book/:page", poem::get(book::chapter_page))
        .at("/docs/versioning", poem::get(docs::versioning))
        .at("/docs/migrations", poem::get(docs::migrations))
        .at("/docs/migrations/:slug", poem::get(docs::migration))
        .at("/docs/oauth-receiver.html", poem::get(docs::oauth_receiver))
        .at("/health", poem::get(health))
        .at("/ready", poem::get(ready))
        .at("/metrics", poem::get(metrics::metrics))
        .at("/oauth/token", poem::post(endpoints::token_endpoint))
        .at("/oauth/revoke", poem::post(endpoints::revoke))
        .at("/oauth/introspect", poem::post(endpoints::introspect))
        .at(
            "/oauth/device_authorization",
            poem::post(endpoints::device_authorization),
        )
        .at(
            "/oauth/authorize",
            poem::get(pages::authorize_page).post(pages::authorize_submit),
        )
        .at(
            "/device",
            poem::get(device_pages::device_form).post(device_pages::device_submit),
        )
        .at(
            "/.well-known/oauth-authorization-server",
            poem::get(endpoints::metadata),
        )
        .at("/.well-known/jwks.json", poem::get(endpoints::jwks))
        .at("/assets/style.css", poem::get(pages::style))
        .at("/", poem::get(crate::desk::today::today))
        .at(
            "/reservations",
            poem::get(crate::desk::reservations::reservations),
        )
        .at(
            "/reservations/:id",
            poem::get(crate::desk::reservation::reservation),
        )
        .at("/board", poem::get(crate::desk::board::board))
        .at(
            "/housekeeping",
            poem::get(crate::desk::housekeeping::housekeeping),
        )
        .at(
            "/housekeeping/:id",
            poem::post(crate::desk::housekeeping::set),
        )
        .at(
            "/reservations/new",
            poem::get(crate::desk::new_reservation::page_of)
                .post(crate::desk::new_reservation::submit),
        )
        .at(
            "/reservations/:id/check-in",
            poem::get(crate::desk::check_in::page_of).post(crate::desk::check_in::submit),
        )
        .at(
            "/reservations/:id/check-out",
            poem::get(crate::desk::check_out::page_of).post(crate::desk::check_out::submit),
        )
        .at("/invoices", poem::get(crate::desk::invoices::invoices))
        .at("/admin", poem::get(crate::desk::admin::admin))
        .at("/kiosk", poem::get(crate::desk::kiosk::start))
        .at("/kiosk/pair", poem::post(crate::desk::kiosk_pairing::pair))
        .at("/kiosk/find", poem::post(crate::desk::kiosk::find))
        .at("/kiosk/check-in", poem::post(crate::desk::kiosk::check_in))
        .at("/kiosk/reset", poem::get(crate::desk::kiosk_pairing::reset))
        .at("/kiosk/poll", poem::get(crate::desk::kiosk_pairing::poll))
        .at(
            "/kiosk/language/:tag",
            poem::get(crate::desk::kiosk_language::choose),
        )
        .at(
            "/admin/compliance",
            poem::get(crate::desk::compliance_admin::centre),
        )
        .at(
            "/admin/compliance/submissions/:id",
            poem::post(crate::desk::compliance_admin::retry),
        )
        .at(
            "/admin/compliance/registration-file",
            poem::get(crate::desk::compliance_admin::registration_file),
        )
        .at(
            "/admin/compliance/tables",
            poem::post(crate::desk::compliance_admin::upload),
        )
        .at(
            "/admin/webhooks",
            poem::get(crate::desk::webhooks_admin::list).post(crate::desk::webhooks_admin::add),
        )
        .at(
            "/admin/webhooks/:id",
            poem::get(crate::desk::webhooks_admin::one),
        )
        .at(
            "/admin/webhooks/:id/:action",
            poem::post(crate::desk::webhooks_admin::act),
        )
        .at(
            "/admin/webhooks/:id/deliveries/:delivery",
            poem::post(crate::desk::webhooks_admin::redeliver),
        )
        .at(
            "/admin/clients",
            poem::get(crate::desk::clients_admin::list).post(crate::desk::clients_admin::add),
        )
        .at(
            "/admin/clients/device",
            poem::post(crate::desk::devices_admin::device),
        )
        .at(
            "/admin/kiosks",
            poem::get(crate::desk::devices_admin::kiosks),
        )
        .at(
            "/admin/kiosks/unpair",
            poem::post(crate::desk::devices_admin::unpair),
        )
        .at(
            "/admin/clients/:id",
            poem::get(crate::desk::clients_admin::one),
        )
        .at(
            "/admin/clients/:id/:action",
            poem::post(crate::desk::clients_admin::act),
        )
        .at(
            "/admin/rooms",
            poem::get(crate::desk::rooms_admin::list).post(crate::desk::rooms_admin::add_room),
        )
        .at(
            "/admin/rooms/:id",
            poem::get(crate::desk::rooms_admin::room_page)
                .post(crate::desk::rooms_admin::save_room),
        )
        .at(
            "/admin/room-types",
            poem::post(crate::desk::rooms_admin::add_type),
        )
        .at(
            "/admin/room-types/:id",
            poem::get(crate::desk::rooms_admin::type_page)
                .post(crate::desk::rooms_admin::save_type),
        )
        .at(
            "/admin/settings",
            poem::get(crate::desk::settings::show).post(crate::desk::settings::save),
        )
        .at(
            "/admin/staff",
            poem::get(crate::desk::staff::list).post(crate::desk::staff::add),
        )
        .at("/admin/staff/:id", poem::get(crate::desk::staff::member))
        .at(
            "/admin/staff/:id/:action",
            poem::post(crate::desk::staff::act),
        )
        .at(
            "/account/language",
            poem::post(crate::desk::account::language),
        )
        .at(
            "/account/password",
            poem::get(crate::desk::account::show).post(crate::desk::account::change),
        )
        .at("/invoices/:id", poem::get(crate::desk::invoice::invoice))
        .at(
            "/invoices/new",
            poem::get(crate::desk::sale::page_of).post(crate::desk::sale::submit),
        )
        .at(
            "/invoices/:id/payments",
            poem::post(crate::desk::invoice_actions::pay),
        )
        .at(
            "/invoices/:id/credit-note",
            poem::post(crate::desk::invoice_actions::credit_note),
        )
        .at("/assets/desk.js", poem::get(crate::desk::files::script))
        .at(
            "/assets/htmx-2.0.11.min.js",
            poem::get(crate::desk::files::htmx),
        )
        .at(
            "/reservations/:id/charges",
            poem::post(crate::desk::stay_actions::add_charge),
        )
        .at(
            "/reservations/:id/change",
            poem::post(crate::desk::reservation_change::change),
        )
        .at(
            "/reservations/:id/companions",
            poem::post(crate::desk::stay_actions::add_companion),
        )
        .at(
            "/reservations/:id/cancel",
            poem::post(crate::desk::stay_actions::cancel),
        )
        .at(
            "/reservations/:id/no-show",
            poem::post(crate::desk::stay_actions::no_show),
        )
        .at("/guests", poem::get(crate::desk::guests::guests))
        .at(
            "/guests/:id",
            poem::get(crate::desk::guests::guest).post(crate::desk::guest_edit::save),
        )
        .at("/guests/:id/edit", poem::get(crate::desk::guest_edit::edit))
        .at(
            "/guests/:id/export",
            poem::post(crate::desk::guest_privacy::export),
        )
        .at(
            "/guests/:id/erase",
            poem::post(crate::desk::guest_privacy::erase),
        )
        .at("/login", poem::get(crate::desk::sign_in::login))
        .at(
            "/welcome",
            poem::get(crate::desk::welcome::page_of).post(crate::desk::welcome::submit),
        )
        .at("/login/callback", poem::get(crate::desk::sign_in::callback))
        .at("/logout", poem::post(crate::desk::sign_in::logout))
        .at("/assets/desk.css", poem::get(crate::desk::files::style))
        .data(Arc::new(crate::desk::DeskState {
            svc: services.clone(),
            auth: auth.clone(),
            timeouts: desk,
            instance: instance.clone(),
            welcome,
            rendered: Default::default(),
        }))
        .data(spec)
        .data(docs)
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
