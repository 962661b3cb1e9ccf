//! Success answers that carry the resource's version as an `ETag`.

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{
    MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::types::{ToJSON, Type};
use serde::Serialize;

use super::direct;

fn header(name: &str, description: &str) -> MetaHeader {
    MetaHeader {
        name: name.to_string(),
        description: Some(description.to_string()),
        required: true,
        deprecated: false,
        schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
    }
}

/// One JSON answer of `status`, as the spec describes it.
pub(super) fn json_response(
    status: u16,
    description: &'static str,
    schema: MetaSchemaRef,
    headers: Vec<MetaHeader>,
) -> MetaResponses {
    MetaResponses {
        responses: vec![MetaResponse {
            description,
            status: Some(status),
            status_range: None,
            content: vec![MetaMediaType {
                content_type: direct::JSON,
                schema,
            }],
            headers,
        }],
    }
}

fn etag_header() -> MetaHeader {
    header(
        "ETag",
        "The resource's version, quoted (`\"3\"`); send it back in If-Match.",
    )
}

fn build<T: Serialize + ToJSON>(
    status: StatusCode,
    value: &T,
    version: i64,
    location: Option<String>,
) -> Response {
    let text = match direct::body(value) {
        Ok(text) => text,
        Err(e) => return poem::error::ResponseError::as_response(&e),
    };
    let mut b = Response::builder()
        .status(status)
        .content_type(direct::JSON)
        .header("ETag", format!("\"{version}\""));
    if let Some(loc) = location {
        b = b.header("Location", loc);
    }
    b.body(text)
}

/// 200 with the resource and its `ETag`.
pub struct Tagged<T>(pub T, pub i64);

impl<T: ToJSON + Type> ApiResponse for Tagged<T> {
    fn meta() -> MetaResponses {
        json_response(200, "The resource.", T::schema_ref(), vec![etag_header()])
    }
    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Serialize + ToJSON + Send> IntoResponse for Tagged<T> {
    fn into_response(self) -> Response {
        build(StatusCode::OK, &self.0, self.1, None)
    }
}

/// 201 with the new resource, its `ETag` and its `Location`.
pub struct Created<T>(pub T, pub i64, pub String);

impl<T: ToJSON + Type> ApiResponse for Created<T> {
    fn meta() -> MetaResponses {
        json_response(
            201,
            "Created. Replayed unchanged, with `Idempotent-Replayed: true`, for a retry with the same Idempotency-Key.",
            T::schema_ref(),
            vec![etag_header(), header("Location", "The new resource's URL.")],
        )
    }
    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Serialize + ToJSON + Send> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        build(StatusCode::CREATED, &self.0, self.1, Some(self.2))
    }
}

/// A resource with a version and an address.
pub trait Versioned {
    /// The version, served as the ETag.
    fn version(&self) -> i64;
    /// The resource's URL path.
    fn location(&self) -> String;
}

macro_rules! versioned {
    ($($ty:ty => $path:literal),+ $(,)?) => {$(
        impl Versioned for $ty {
            fn version(&self) -> i64 {
                self.version
            }
            fn location(&self) -> String {
                format!(concat!("/v1/", $path, "/{}"), self.id)
            }
        }
    )+};
}

versioned! {
    crate::model::RoomType => "room-types",
    crate::model::RatePlan => "rate-plans",
    crate::model::Extra => "extras",
    crate::model::Room => "rooms",
    crate::model::Guest => "guests",
    crate::model::Reservation => "reservations",
    crate::model::Invoice => "invoices",
    crate::model::Webhook => "webhooks",
}

impl Versioned for crate::model::Settings {
    fn version(&self) -> i64 {
        self.version
    }
    fn location(&self) -> String {
        "/v1/settings".into()
    }
}

impl<T: Versioned> From<T> for Tagged<T> {
    fn from(t: T) -> Self {
        let v = t.version();
        Tagged(t, v)
    }
}

impl<T: Versioned> From<T> for Created<T> {
    fn from(t: T) -> Self {
        let (v, loc) = (t.version(), t.location());
        Created(t, v, loc)
    }
}
