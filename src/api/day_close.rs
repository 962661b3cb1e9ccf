//! `GET/POST /v1/day-close` and `GET /v1/day-closes`: the night audit and its certificates.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;

use super::Tag;
use super::input::Body;
use super::pagination::{CursorKey, Filters, ListRequest};
use super::problem::{ApiError, CreateErrors, GetErrors, ListErrors};
use super::responses::Created;
use super::security::{Scope, Token};
use crate::model::{Date, DayClose, DayCloseInput, DayClosePage, DayClosePlan};
use crate::service::{Services, day_close};

/// The day close.
pub struct DayCloseApi;

#[OpenApi(tag = "Tag::Reports")]
impl DayCloseApi {
    /// What closing the next day would do
    ///
    /// The day a close would close (the day after the last one closed; yesterday before
    /// the first), whether it is over, the arrivals still `confirmed` (to name as no-shows
    /// or keep), the guests due to leave and still in, the rooms that will turn dirty, the
    /// cash recorded and what the authorities have not accepted yet. An innkeep extension
    /// for the desk's wizard and for integrations that close the day themselves. Scope
    /// `night_audit` (or `admin`).
    #[oai(path = "/day-close", method = "get", operation_id = "getDayClosePlan")]
    async fn plan(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::NightAudit")] token: Token,
    ) -> Result<Json<DayClosePlan>, ApiError<ListErrors>> {
        Ok(Json(day_close::plan(svc.0, &token.0.principal).await?))
    }

    /// Close a business day
    ///
    /// Closes `date` (default: the day after the last one closed). Each reservation in
    /// `no_shows` (a `confirmed` arrival of the day, else 422 naming `no_shows[i]`) becomes
    /// `no_show` with its plan's fee; other arrivals stay `confirmed`. Rooms in the house
    /// turn `dirty`. `cash_counted` is set against the cash recorded. In Italy the cash
    /// register's daily closure is asked for first and its answer written down. The
    /// certificate records the day's figures, the lists and the checks (every night billed
    /// once, invoiced − credited = paid + outstanding, numbering gapless, registrations and
    /// fiscal documents accepted or inside their deadline, cash as recorded), each passed
    /// or not: a failed check is written down, never hidden, and does not stop the close.
    /// Its `hash` covers the body, which names the previous day's hash. Records
    /// `day.closed`. Then the day is locked: a change that would alter the nights of a
    /// closed day is 409 `day_closed`. 409 `day_not_over` for today or later, 409
    /// `day_not_next` (with `params.date`, the day to close first) out of order. Scope
    /// `night_audit` (or `admin`).
    #[oai(path = "/day-close", method = "post", operation_id = "closeDay")]
    async fn close(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::NightAudit")] token: Token,
        body: Body<DayCloseInput>,
    ) -> Result<Created<DayClose>, ApiError<CreateErrors>> {
        let closed = day_close::close(svc.0, &token.0.principal, body.0).await?;
        let location = format!("/v1/day-closes/{}", closed.certificate.date.0);
        Ok(Created(closed, 1, location))
    }

    /// List closed days
    ///
    /// Oldest first, each with its certificate, its hash and whether the chain up to it
    /// verifies. Scope `night_audit` (or `admin`).
    #[oai(path = "/day-closes", method = "get", operation_id = "listDayCloses")]
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::NightAudit")] token: Token,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// The cursor from the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<DayClosePage>, ApiError<ListErrors>> {
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, Filters::of("day_closes", &()))?;
        let page = day_close::list(svc.0, &token.0.principal, req.page.clone()).await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(DayClosePage {
            data: page.items.into_iter().map(|(d, _)| d).collect(),
            next_cursor,
        }))
    }

    /// Get a closed day's certificate
    ///
    /// 404 when the day is not closed. Scope `night_audit` (or `admin`).
    #[oai(
        path = "/day-closes/:date",
        method = "get",
        operation_id = "getDayClose"
    )]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::NightAudit")] token: Token,
        /// The day.
        date: Path<Date>,
    ) -> Result<Json<DayClose>, ApiError<GetErrors>> {
        Ok(Json(
            day_close::get(svc.0, &token.0.principal, date.0).await?,
        ))
    }
}
