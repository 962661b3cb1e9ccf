//! `/v1/compliance`: national submissions (what is pending, how long is left, the exchange
//! log, retry) and the manual-upload file of a day's guest registrations.

use super::direct::Direct;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, OpenApi};

use super::Tag;
use super::pagination::{CursorKey, Filters, ListRequest, csv, given};
use super::problem::{ActionErrors, ApiError, GetErrors, ListErrors};
use super::security::{Scope, Token};
use crate::domain::rules::one_of;
use crate::model::{Date, Submission, SubmissionPage};
use crate::service::Services;
use crate::service::{self, submissions::KINDS, submissions::STATUSES};

/// Compliance submissions.
pub struct ComplianceApi;

/// A submission queued again.
#[derive(ApiResponse)]
pub enum Retried {
    /// Queued (or, while `retrying`, brought forward to now); follow its `status`.
    #[oai(status = 202)]
    Queued(Json<Submission>),
}

/// The upload file.
#[derive(ApiResponse)]
pub enum Export {
    /// The records, CRLF-separated with none after the last (empty when there are none).
    #[oai(status = 200)]
    File(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
        #[oai(header = "X-Record-Count")] String,
    ),
}

fn pick(list: &'static [&'static str]) -> impl Fn(&str) -> Option<String> {
    move |s| list.contains(&s).then(|| s.to_string())
}

#[OpenApi(tag = "Tag::Compliance")]
impl ComplianceApi {
    /// List compliance submissions
    ///
    /// Oldest first. Each shows its deadline (`due_at`) and whether it is `overdue`; the
    /// exchange log is left out (`exchanges` is null): get one submission to read it.
    #[oai(
        path = "/compliance/submissions",
        method = "get",
        operation_id = "listSubmissions"
    )]
    #[allow(clippy::too_many_arguments)] // one per query parameter
    async fn list(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// Kinds, comma-separated: `guest_registration`, `guest_departure`,
        /// `guest_withdrawal`, `fiscal_receipt`, `fiscal_payment_change`, `einvoice`,
        /// `einvoice_payments`.
        kind: Query<Option<String>>,
        /// Statuses, comma-separated (`retrying,manual_required`).
        status: Query<Option<String>>,
        /// Page size, 1 to 200 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "200")))]
        limit: Query<Option<i64>>,
        /// `next_cursor` of the previous page.
        cursor: Query<Option<String>>,
        cursors: Data<&CursorKey>,
    ) -> Result<Direct<SubmissionPage>, ApiError<ListErrors>> {
        let kinds = csv("kind", given(&kind), pick(KINDS), one_of(KINDS))?;
        let statuses = csv("status", given(&status), pick(STATUSES), one_of(STATUSES))?;
        let filters = Filters::of("submissions", &(&kinds, &statuses));
        let req = ListRequest::new(cursors.0, limit.0, cursor.0, filters)?;
        let page = service::submissions::list(
            svc.0,
            &token.0.principal,
            kinds,
            statuses,
            req.page.clone(),
        )
        .await?;
        let next_cursor = req.next_cursor(&page);
        Ok(Direct(SubmissionPage {
            data: page.items.into_iter().map(|(s, _)| s).collect(),
            next_cursor,
        }))
    }

    /// Get a submission with its exchange log
    ///
    /// Every raw request and response, oldest first, with secrets redacted.
    #[oai(
        path = "/compliance/submissions/:id",
        method = "get",
        operation_id = "getSubmission"
    )]
    async fn get(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// `sub_…`
        id: Path<String>,
    ) -> Result<Json<Submission>, ApiError<GetErrors>> {
        Ok(Json(
            service::submissions::get(svc.0, &token.0.principal, id.0).await?,
        ))
    }

    /// Retry a submission
    ///
    /// `rejected`: the refused rows are rebuilt from the guests' current data (fix them
    /// first; 422 `registration_incomplete` while still incomplete) and sent again.
    /// `manual_required`: the rows not known to be accepted are sent again; check the
    /// authority's records first, since it cannot tell a repeat from a new registration, and
    /// the log records that an operator asked for it. `retrying`: the next attempt is due
    /// now. Other statuses: 409 `submission_not_retryable`.
    #[oai(
        path = "/compliance/submissions/:id/retry",
        method = "post",
        operation_id = "retrySubmission"
    )]
    async fn retry(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// `sub_…`
        id: Path<String>,
    ) -> Result<Retried, ApiError<ActionErrors>> {
        Ok(Retried::Queued(Json(
            service::submissions::retry(svc.0, &token.0.principal, id.0).await?,
        )))
    }

    /// Close the cash register's day
    ///
    /// Italy (`[compliance.fiscal] scheme = "it-rt"`): the telematic cash register prints
    /// its daily closure (Z report) and then transmits the day's takings to the Agenzia
    /// delle Entrate itself. The answer says the closure's number and the day's takings.
    /// 409 `cash_register_unavailable` with the reason in words when the register cannot
    /// (off, out of paper) or when no register is configured. An innkeep extension.
    #[oai(
        path = "/compliance/cash-register/close",
        method = "post",
        operation_id = "closeCashRegisterDay"
    )]
    async fn close_day(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
    ) -> Result<Json<crate::model::outcome::DayClosed>, ApiError<ActionErrors>> {
        Ok(Json(
            service::cash_register::close(svc.0, &token.0.principal).await?,
        ))
    }

    /// Download a day's guest registrations as the upload file
    ///
    /// The records of the guests who arrived that day (property-local), in the authority's
    /// upload format (for Alloggiati Web, 168-character lines separated by CRLF): the manual
    /// fallback when the service is down. Rows already accepted are left out unless `all`
    /// is true, so that uploading the file never registers a guest twice.
    #[oai(
        path = "/compliance/registration/export",
        method = "get",
        operation_id = "exportRegistrations"
    )]
    async fn export(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::Compliance")] token: Token,
        /// The arrival day, `YYYY-MM-DD`.
        date: Query<Date>,
        /// Include rows already accepted (default false).
        all: Query<Option<bool>>,
    ) -> Result<Export, ApiError<ListErrors>> {
        let day = date.0.0;
        let (file, n) =
            service::registration::export(svc.0, &token.0.principal, day, all.0.unwrap_or(false))
                .await?;
        Ok(Export::File(
            PlainText(file),
            format!("attachment; filename=\"registrations-{day}.txt\""),
            n.to_string(),
        ))
    }
}
