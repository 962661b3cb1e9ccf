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

/// A day's receipt from the registration authority (served as `application/octet-stream`,
/// which generated clients read as a file; `Content-Disposition` names it `….pdf`).
#[derive(ApiResponse)]
pub enum ReceiptPdf {
    /// The PDF, as the authority signed it.
    #[oai(status = 200, content_type = "application/octet-stream")]
    Pdf(
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

/// A receipt kept.
#[derive(Debug, Clone, poem_openapi::Object)]
pub struct RegistrationReceipt {
    /// The day whose registrations it covers.
    pub date: Date,
    /// When innkeep fetched it.
    pub fetched_at: crate::model::Instant,
    /// Its size in bytes.
    pub bytes: i64,
    /// Its SHA-256 (hex).
    pub sha256: String,
}

/// `GET /v1/compliance/registration/receipts`.
#[derive(Debug, Clone, poem_openapi::Object)]
pub struct RegistrationReceipts {
    /// Newest first.
    pub data: Vec<RegistrationReceipt>,
}

/// A ZIP file (served as `application/octet-stream`, which generated clients read as a
/// file; `Content-Disposition` names it `….zip`).
#[derive(ApiResponse)]
pub enum Pack {
    /// The inspection pack, a ZIP archive.
    #[oai(status = 200, content_type = "application/octet-stream")]
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

    /// The registration authority's receipts
    ///
    /// Italy: Alloggiati Web's receipt of each day's registrations (the Polizia di Stato's
    /// signed PDF), which innkeep fetches the day after they were accepted and keeps five
    /// years (the service itself keeps them 30 days): those of the days from `from` to `to`
    /// (exclusive, at most 366 days), newest first. An innkeep extension. 422
    /// `invalid_range` names `to`.
    #[oai(
        path = "/compliance/registration/receipts",
        method = "get",
        operation_id = "listRegistrationReceipts"
    )]
    async fn receipts(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<Json<RegistrationReceipts>, ApiError<QueryErrors>> {
        crate::service::reports::check_range(from.0.0, to.0.0)?;
        let list =
            crate::service::registration_receipts::list(svc.0, &token.0.principal, (from.0, to.0))
                .await?;
        Ok(Json(RegistrationReceipts {
            data: list
                .into_iter()
                .filter_map(|r| {
                    Some(RegistrationReceipt {
                        date: Date(r.day.parse().ok()?),
                        fetched_at: crate::model::Instant(r.fetched_at),
                        bytes: r.bytes,
                        sha256: r.sha256,
                    })
                })
                .collect(),
        }))
    }

    /// A day's receipt from the registration authority
    ///
    /// The PDF exactly as fetched. 404 when none is kept for that day. An innkeep
    /// extension.
    #[oai(
        path = "/compliance/registration/receipts/:date",
        method = "get",
        operation_id = "getRegistrationReceipt"
    )]
    async fn receipt(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// The day.
        date: poem_openapi::param::Path<Date>,
    ) -> Result<ReceiptPdf, ApiError<super::problem::GetErrors>> {
        let pdf =
            crate::service::registration_receipts::get(svc.0, &token.0.principal, date.0).await?;
        let name = format!("attachment; filename=\"ricevuta-{}.pdf\"", date.0.0);
        Ok(ReceiptPdf::Pdf(Binary(pdf), name))
    }
}
