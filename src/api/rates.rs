//! `/v1/rate-plans`, `/v1/rates` and `/v1/offers`.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{
    ApiError, CreateErrors, EditErrors, GetErrors, ListErrors, QueryErrors, UpdateErrors,
};
use super::responses::{Created, Tagged};
use super::security::{Scope, Token};
use crate::model::{
    Date, OfferList, RateCalendar, RatePlan, RatePlanCreate, RatePlanPage, RatePlanUpdate,
    RatesUpdate,
};
use crate::service::{self, IfMatch, Services};

/// Rate plans, the price calendar and offers.
pub struct RatesApi;

#[OpenApi(tag = "Tag::Rates")]
impl RatesApi {
    /// List rate plans
    ///
    /// Every plan of every room type, ordered by `code`, then id.
    #[oai(path = "/rate-plans", method = "get", operation_id = "listRatePlans")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<RatePlanPage>, ApiError<ListErrors>> {
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, Filters::of("rate-plans", &()))?;
        let page = service::rate_plans::list(svc.0, &token.0.principal, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(RatePlanPage {
            data: page.items.into_iter().map(|(t, _)| t).collect(),
            next_cursor,
        }))
    }

    /// Create a rate plan
    ///
    /// A plan sells one room type. It has its own prices (`default_price` and the calendar)
    /// or takes them from a parent plan of the same room type (`parent_id` and
    /// `derivation`: plus or minus an amount or a percentage, rounded half away from zero to
    /// the cent). One level only: a parent has its own prices. 409 `already_exists` when the
    /// room type already has a plan with the code. Records `rate_plan.created`.
    #[oai(path = "/rate-plans", method = "post", operation_id = "createRatePlan")]
    async fn create(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesWrite")] token: Token,
        body: Body<RatePlanCreate>,
    ) -> Result<Created<RatePlan>, ApiError<CreateErrors>> {
        Ok(
            service::rate_plans::create(svc.0, &token.0.principal, body.0)
                .await?
                .into(),
        )
    }

    /// Get a rate plan
    ///
    /// Served with its `version` as `ETag` for a later `PUT` with `If-Match`.
    #[oai(path = "/rate-plans/:id", method = "get", operation_id = "getRatePlan")]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// `rp_…`
        id: Path<String>,
    ) -> Result<Tagged<RatePlan>, ApiError<GetErrors>> {
        Ok(service::rate_plans::get(svc.0, &token.0.principal, id.0)
            .await?
            .into())
    }

    /// Change a rate plan
    ///
    /// Absent fields keep their value; `null` clears an optional one. A plan other plans
    /// derive from cannot become derived (409 `rate_plan_has_children`, an innkeep
    /// extension). Records `rate_plan.updated`. Bookings already made keep their prices.
    #[oai(
        path = "/rate-plans/:id",
        method = "put",
        operation_id = "updateRatePlan"
    )]
    async fn update(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesWrite")] token: Token,
        /// `rp_…`
        id: Path<String>,
        /// The ETag you read (`"3"`); a stale one gets 412 and changes nothing.
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        body: Body<RatePlanUpdate>,
    ) -> Result<Tagged<RatePlan>, ApiError<UpdateErrors>> {
        let if_match = IfMatch::from_header(if_match.0.as_deref());
        Ok(
            service::rate_plans::update(svc.0, &token.0.principal, id.0, if_match, body.0)
                .await?
                .into(),
        )
    }

    /// A plan's price calendar
    ///
    /// One entry per night from `from` to `to` (both inclusive, at most 731 nights): the
    /// price for the plan's base occupancy (a derived plan's from its parent's) and the
    /// restrictions. How each restriction reads:
    ///
    /// * `min_stay_arrival`, `max_stay`, `closed_to_arrival`, `min_advance` and
    ///   `max_advance` are read on the **arrival** night only;
    /// * `min_stay_through` on **every** night of the stay (the stay must be at least the
    ///   largest);
    /// * `closed_to_departure` on the **departure** day (the morning after the last night);
    /// * `stop_sell` on every night.
    ///
    /// A derived plan has restrictions of its own; only its prices follow the parent.
    #[oai(path = "/rates", method = "get", operation_id = "getRates")]
    async fn rates(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// The plan (`rp_…`).
        rate_plan_id: Query<String>,
        /// First night.
        from: Query<Date>,
        /// Last night, inclusive.
        to: Query<Date>,
    ) -> Result<Json<RateCalendar>, ApiError<QueryErrors>> {
        let (p, plan) = (&token.0.principal, rate_plan_id.0);
        Ok(Json(
            service::rates::get(svc.0, p, plan, from.0.0, to.0.0).await?,
        ))
    }

    /// Change prices and restrictions
    ///
    /// A bulk edit: every night from `from` to `to` (inclusive, at most 731 nights) on the
    /// chosen `weekdays` gets the fields sent; absent fields keep their value, `null` clears
    /// a price or a restriction. Answers the whole range as it now stands and records
    /// `rates.changed` (the plan, the range, the weekdays and the fields). A derived plan's
    /// prices cannot be set (422 at `price`). Bookings already made keep their prices.
    #[oai(path = "/rates", method = "put", operation_id = "updateRates")]
    async fn update_rates(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesWrite")] token: Token,
        body: Body<RatesUpdate>,
    ) -> Result<Json<RateCalendar>, ApiError<EditErrors>> {
        Ok(Json(
            service::rates::update(svc.0, &token.0.principal, body.0).await?,
        ))
    }

    /// Offers for a stay
    ///
    /// Every plan on sale of every room type for the stay and party: the price of each
    /// night (the plan's price plus extra adults, children by age band), the total, the
    /// free-cancellation day and the deposit, and `bookable`, or the `reasons` it cannot be
    /// booked as codes with their words and parameters: `stop_sell`, `closed_to_arrival`,
    /// `closed_to_departure`, `min_stay`, `max_stay`, `min_advance`, `max_advance`,
    /// `max_occupancy`, `no_availability`. Creating a reservation on a plan refuses the same
    /// with the same codes (409). Room types without a plan have no offers.
    #[oai(path = "/offers", method = "get", operation_id = "listOffers")]
    #[allow(clippy::too_many_arguments)] // one per query parameter
    async fn offers(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::RatesRead")] token: Token,
        /// First night.
        arrival: Query<Date>,
        /// Departure morning.
        departure: Query<Date>,
        /// Adults (1 to 20, default 2).
        #[oai(validator(minimum(value = "1"), maximum(value = "20")))]
        adults: Query<Option<i64>>,
        /// Children (0 to 19, default 0).
        #[oai(validator(minimum(value = "0"), maximum(value = "19")))]
        children: Query<Option<i64>>,
        /// The children's ages, comma-separated (`4,9`), one per child; unknown ages pay
        /// the dearest children's band.
        children_ages: Query<Option<String>>,
    ) -> Result<Direct<OfferList>, ApiError<QueryErrors>> {
        let ages = parse_ages(children_ages.0.as_deref())?;
        let q = service::offers::OfferQuery {
            arrival: arrival.0.0,
            departure: departure.0.0,
            adults: adults.0.unwrap_or(2),
            children: children.0.unwrap_or(0),
            children_ages: ages,
        };
        Ok(Direct(
            service::offers::list(svc.0, &token.0.principal, q).await?,
        ))
    }
}

/// `4,9` as ages 0 to 17; 422 at `children_ages` otherwise.
fn parse_ages(text: Option<&str>) -> Result<Vec<i64>, crate::error::AppError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Vec::new());
    };
    text.split(',')
        .map(|a| {
            a.trim()
                .parse::<i64>()
                .ok()
                .filter(|a| (0..=17).contains(a))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            crate::error::AppError::validation(vec![crate::error::FieldError::new(
                "children_ages",
                "invalid",
                "must be ages from 0 to 17, separated by commas",
            )])
        })
}
