//! The place picker (`GET /places?…`): the municipalities of the imported places table
//! whose name starts with what was typed, as the `<option>`s of the `places` datalist that
//! the birth-place and document-place fields offer (htmx fills it as the receptionist
//! types). Without JavaScript the field is plain text, checked by name at registration.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Request, Response, handler};

use super::{DeskState, open, or_answer, page};
use crate::service::registration::{self, Place};

#[derive(Template)]
#[template(path = "desk/places.html")]
struct Options {
    found: Vec<Place>,
}

/// `GET /places?{field}={typed}`: whatever the typing field is called (a party's fields
/// carry the guest's prefix), its value is what is looked up.
#[handler]
pub async fn places(
    req: &Request,
    Query(asked): Query<Vec<(String, String)>>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, _) = or_answer!(open(req, &state, super::GUEST_EDIT).await);
    let typed = asked.first().map_or("", |(_, v)| v.as_str());
    let found = registration::places(&state.svc, &s.principal, typed)
        .await
        .unwrap_or_default();
    page(StatusCode::OK, &Options { found })
}
