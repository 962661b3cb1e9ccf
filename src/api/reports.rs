//! `GET /v1/reports/occupancy`: the owner's numbers, as JSON or (by `Accept`) CSV.

use poem::Request;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, OpenApi, ResponseContent};

use super::Tag;
use super::problem::{ApiError, QueryErrors};
use super::security::{Scope, Token};
use crate::model::{Date, OccupancyReport, ReportBy};
use crate::service::{Services, reports};

/// Reports.
pub struct ReportsApi;

/// A report, as the request's `Accept` asks.
#[derive(ResponseContent)]
pub enum ReportBody {
    /// The figures as JSON (amounts in minor units).
    Json(Json<OccupancyReport>),
    /// The figures as CSV: UTF-8, comma-separated, a header row, CRLF line ends, amounts in
    /// major units (`95.50`), occupancy in percent, the total as the last row.
    #[oai(content_type = "text/csv; charset=utf-8")]
    Csv(PlainText<String>),
}

/// The report.
#[derive(ApiResponse)]
pub enum Report {
    /// The report.
    #[oai(status = 200)]
    Ok(ReportBody),
}

/// Whether the request prefers CSV (`Accept: text/csv`).
fn wants_csv(req: &Request) -> bool {
    req.headers()
        .get(poem::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.split(',').any(|m| m.trim().starts_with("text/csv")))
}

#[OpenApi(tag = "Tag::Reports")]
impl ReportsApi {
    /// Occupancy, ADR, RevPAR and room revenue
    ///
    /// Night by night (`by=night`, the default) or month by month (`by=month`, an innkeep
    /// extension) from `from` to `to` (exclusive, at most 366 nights), with the definitions
    /// of the group hub's `daily_occupancy`: a room is sold on a night held by a
    /// `confirmed`, `checked_in` or `checked_out` reservation, at its booked price; the rooms
    /// available are the property's rooms. `total` sums the range. JSON, or CSV with
    /// `Accept: text/csv`. 422 `invalid_range` names `to`.
    #[oai(
        path = "/reports/occupancy",
        method = "get",
        operation_id = "getOccupancyReport"
    )]
    async fn occupancy(
        &self,
        req: &Request,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The first night.
        from: Query<Date>,
        /// The night after the last.
        to: Query<Date>,
        /// `night` (default) or `month`.
        by: Query<Option<ReportBy>>,
    ) -> Result<Report, ApiError<QueryErrors>> {
        let by = by.0.unwrap_or(ReportBy::Night);
        let r = reports::occupancy(svc.0, &token.0.principal, (from.0, to.0), by).await?;
        Ok(Report::Ok(if wants_csv(req) {
            ReportBody::Csv(PlainText(reports::occupancy_csv(&r)))
        } else {
            ReportBody::Json(Json(r))
        }))
    }
}
