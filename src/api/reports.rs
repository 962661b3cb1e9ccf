//! `GET /v1/reports/occupancy`, `/revenue` and `/payments`: the owner's numbers; the
//! occupancy also as CSV (by `Accept`).

use super::direct::Direct;
use poem::Request;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, OpenApi, ResponseContent};

use super::Tag;
use super::problem::{ApiError, QueryErrors, StateErrors};
use super::security::{Scope, Token};
use crate::model::{
    BookingsReport, CityTaxReport, Date, GuestList, IstatReport, OccupancyReport, PaymentsReport,
    ReportBy, RevenueReport,
};
use crate::service::{Services, istat, money_reports, reports};

/// Reports.
pub struct ReportsApi;

/// A report's answer, JSON or (by `Accept: text/csv`) CSV: `$body` the content, `$answer`
/// the response, `$report` the JSON figures.
macro_rules! report_answer {
    ($body:ident, $answer:ident, $report:ty) => {
        /// A report, as the request's `Accept` asks.
        #[derive(ResponseContent)]
        pub enum $body {
            /// The figures as JSON (amounts in minor units).
            Json(Json<$report>),
            /// The figures as CSV: UTF-8, comma-separated, a header row, CRLF line ends,
            /// amounts in major units (`95.50`).
            #[oai(content_type = "text/csv; charset=utf-8")]
            Csv(PlainText<String>),
        }

        /// The report.
        #[derive(ApiResponse)]
        pub enum $answer {
            /// The report.
            #[oai(status = 200)]
            Ok($body),
        }

        impl $answer {
            /// `r` as `req` asks: CSV written by `csv`, else JSON.
            fn of(req: &Request, r: $report, csv: fn(&$report) -> String) -> $answer {
                $answer::Ok(if wants_csv(req) {
                    $body::Csv(PlainText(csv(&r)))
                } else {
                    $body::Json(Json(r))
                })
            }
        }
    };
}

report_answer!(ReportBody, Report, OccupancyReport);
report_answer!(RevenueBody, RevenueAnswer, RevenueReport);
report_answer!(PaymentsBody, PaymentsAnswer, PaymentsReport);
report_answer!(IstatBody, IstatAnswer, IstatReport);

/// The Ross1000 file of a month.
#[derive(poem_openapi::ApiResponse)]
pub enum Ross1000File {
    /// The file, UTF-8, as the platform's "import from the management software" takes it.
    #[oai(status = 200, content_type = "text/xml; charset=utf-8")]
    Xml(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
        /// How many guests were left out because the platform would refuse their data
        /// (the desk's ISTAT page names them and what to fix).
        #[oai(header = "X-Guests-Left-Out")]
        String,
    ),
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
        Ok(Report::of(req, r, reports::occupancy_csv))
    }

    /// Revenue by department and VAT rate
    ///
    /// The lines of every invoice and credit note (whose amounts are negative) issued from
    /// `from` to `to` (exclusive, issue dates, at most 366 days), summed by department
    /// (`rooms`, `city_tax`, `extra:CODE`, `other`, `advances`) and by VAT rate, net, VAT
    /// and gross; CSV with `Accept: text/csv`. 422 `invalid_range` names `to`.
    #[oai(
        path = "/reports/revenue",
        method = "get",
        operation_id = "getRevenueReport"
    )]
    async fn revenue(
        &self,
        req: &Request,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<RevenueAnswer, ApiError<QueryErrors>> {
        let r = money_reports::revenue(svc.0, &token.0.principal, (from.0, to.0)).await?;
        Ok(RevenueAnswer::of(req, r, money_reports::revenue_csv))
    }

    /// Payments by day and method (the cash drawer)
    ///
    /// Every payment and refund recorded from `from` to `to` (exclusive, property-local
    /// days, at most 366), by day and method, and by method over the range: `received`,
    /// `refunded`, `net` (for cash, what the drawer should have gained) and `count`; CSV
    /// with `Accept: text/csv`. 422 `invalid_range` names `to`.
    #[oai(
        path = "/reports/payments",
        method = "get",
        operation_id = "getPaymentsReport"
    )]
    async fn payments(
        &self,
        req: &Request,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<PaymentsAnswer, ApiError<QueryErrors>> {
        let r = money_reports::payments(svc.0, &token.0.principal, (from.0, to.0)).await?;
        Ok(PaymentsAnswer::of(req, r, money_reports::payments_csv))
    }

    /// Bookings by source and booking site
    ///
    /// The bookings made from `from` to `to` (exclusive, by the property-local day each
    /// was made, at most 366 days), by `source` and, for `ota`, the booking site: how many,
    /// how many were cancelled or not shown since, their room-nights and booked room
    /// revenue, and the average lead time (days from booking to arrival). 422
    /// `invalid_range` names `to`.
    #[oai(
        path = "/reports/bookings",
        method = "get",
        operation_id = "getBookingsReport"
    )]
    async fn bookings(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The first day.
        from: Query<Date>,
        /// The day after the last.
        to: Query<Date>,
    ) -> Result<Json<BookingsReport>, ApiError<QueryErrors>> {
        Ok(Json(
            money_reports::bookings(svc.0, &token.0.principal, (from.0, to.0)).await?,
        ))
    }

    /// The guests in the house on a night (the police list)
    ///
    /// Everyone who stayed the night of `date` (checked in, or checked out since), every
    /// member of each party with their registration data (nationality, birth, document),
    /// by room. Needs `reports:read` and `guests:read`.
    #[oai(
        path = "/reports/guests",
        method = "get",
        operation_id = "getGuestList"
    )]
    async fn guests(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The night (from this day to the next).
        date: Query<Date>,
    ) -> Result<Direct<GuestList>, ApiError<QueryErrors>> {
        Ok(Direct(
            reports::guest_list(svc.0, &token.0.principal, date.0).await?,
        ))
    }

    /// Italy's monthly movement of guests (ISTAT C/59)
    ///
    /// The month's guests as ISTAT's model C/59 counts them: every member of every party
    /// checked in (or since left), by place of residence (Italians by province, `IT-BO`;
    /// others by country; a guest without a residence by nationality; `unknown` when
    /// neither is recorded, to fix before filing): the arrivals in the month and the nights
    /// spent in it; day by day the arrivals, departures, guests present and rooms occupied;
    /// the rooms and beds. CSV (by residence) with `Accept: text/csv`. 422 names `month`.
    /// An innkeep extension.
    #[oai(
        path = "/reports/istat",
        method = "get",
        operation_id = "getIstatReport"
    )]
    async fn istat(
        &self,
        req: &Request,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The month, `2026-11`.
        month: Query<String>,
    ) -> Result<IstatAnswer, ApiError<QueryErrors>> {
        let r = istat::movement(svc.0, &token.0.principal, month.0).await?;
        Ok(IstatAnswer::of(req, r, istat::csv))
    }

    /// The month's movement of guests for Ross1000 (Italy)
    ///
    /// The file the Ross1000 platform (Veneto, Emilia-Romagna, Lombardy, Piedmont and
    /// other regions) imports: a `<movimento>` per day of the month with the rooms
    /// occupied, rooms and beds, every guest's arrival on its day (the police's guest type,
    /// citizenship and residence codes from the imported Alloggiati tables) and departure
    /// on its day. A guest whose data the platform would refuse is left out and counted in
    /// `X-Guests-Left-Out`. Needs `reports:read` and `guests:read`; 409 `not_configured`
    /// without `[compliance.istat] structure`; 422 names `month`. An innkeep extension.
    #[oai(
        path = "/reports/istat/ross1000.xml",
        method = "get",
        operation_id = "getRoss1000File"
    )]
    async fn ross1000(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The month, `2026-11`.
        month: Query<String>,
    ) -> Result<Ross1000File, ApiError<StateErrors>> {
        let name = format!("attachment; filename=\"ross1000-{}.xml\"", month.0);
        let (xml, left_out) =
            crate::service::ross1000::file(svc.0, &token.0.principal, month.0).await?;
        Ok(Ross1000File::Xml(
            PlainText(xml),
            name,
            left_out.len().to_string(),
        ))
    }

    /// The city tax of a quarter
    ///
    /// The stays checked out in `quarter` (1 to 4) of `year`, month by month, as the return
    /// asks: every guest-night (`person_nights`), those exempt because the guest was under
    /// the age limit (`exempt_age`) or beyond the cap of nights per stay
    /// (`exempt_beyond_cap`), those taxed (`taxed`) and what they come to at the rate in
    /// force now (`due`); beside them the city tax on the invoices issued in the month,
    /// less credit notes (`billed_person_nights`, `billed`). A municipality's other
    /// exemptions and reduced rates are not recorded per guest yet: their nights count as
    /// taxed. 422 names `quarter`. An innkeep extension.
    #[oai(
        path = "/reports/city-tax",
        method = "get",
        operation_id = "getCityTaxReport"
    )]
    async fn city_tax(
        &self,
        svc: Data<&Services>,
        #[oai(scope = "Scope::ReportsRead")] token: Token,
        /// The year.
        #[oai(validator(minimum(value = "2000"), maximum(value = "2100")))]
        year: Query<i32>,
        /// The quarter, 1 to 4.
        quarter: Query<u32>,
    ) -> Result<Json<CityTaxReport>, ApiError<QueryErrors>> {
        Ok(Json(
            crate::service::city_tax::report(svc.0, &token.0.principal, year.0, quarter.0).await?,
        ))
    }
}
