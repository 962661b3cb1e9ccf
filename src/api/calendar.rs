//! `GET /v1/compliance/calendar` and `GET /v1/compliance/inspection-pack`: every
//! statutory duty with its deadline, state and proof, and the proofs as a ZIP.

use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::problem::{ApiError, QueryErrors};
use super::security::{Scope, Token};
use crate::model::{ComplianceCalendar, Date};
use crate::service::{Services, calendar};

/// The compliance calendar.
pub struct CalendarApi;

/// A ZIP file.
#[derive(ApiResponse)]
pub enum Pack {
    /// The inspection pack.
    #[oai(status = 200, content_type = "application/zip")]
    Zip(
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[OpenApi(tag = "Tag::Compliance")]
impl CalendarApi {
    /// The compliance calendar
    ///
    /// Every statutory duty due from `from` to `to` (exclusive, at most 366 days), by
    /// deadline: the registrations, departures, receipts, e-invoices and e-invoice payment
    /// reports innkeep sent, grouped by duty and the day they were due, each group as its
    /// worst member stands (`refused`, `overdue`, `pending`, else `done`, with `count` and
    /// `done`); in Italy with a telematic cash register, its daily closure (done where a day
    /// close recorded it); in Italy, the monthly ISTAT movement and the annual city-tax
    /// return, which the hotel files itself (`manual` once due, `upcoming` before); the
    /// fiscal certificate's expiry. 422 `invalid_range` names `to`.
    #[oai(
        path = "/compliance/calendar",
        method = "get",
        operation_id = "getComplianceCalendar"
    )]
    async fn calendar(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<Json<ComplianceCalendar>, ApiError<QueryErrors>> {
        Ok(Json(
            calendar::calendar(svc.0, &token.0.principal, (from.0, to.0)).await?,
        ))
    }

    /// The inspection pack
    ///
    /// A ZIP of the proofs from `from` to `to` (exclusive, at most 366 days), for an
    /// inspector: `README.txt`; `calendar.csv`; `submissions.csv` (every submission made or due in
    /// the range with the authority's reference and the SHA-256 of what was sent) and
    /// `submissions/KIND/ID.txt` (what was sent, byte for byte); `day-closes/DATE.json`
    /// with `DATE.sha256` (each closed day's certificate and its hash). An innkeep
    /// extension. 422 `invalid_range` names `to`.
    #[oai(
        path = "/compliance/inspection-pack",
        method = "get",
        operation_id = "getInspectionPack"
    )]
    async fn pack(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<Pack, ApiError<QueryErrors>> {
        let zip = calendar::inspection_pack(svc.0, &token.0.principal, (from.0, to.0)).await?;
        let name = format!(
            "attachment; filename=\"innkeep-inspection-{}-{}.zip\"",
            from.0.0, to.0.0
        );
        Ok(Pack::Zip(Binary(zip), name))
    }
}
