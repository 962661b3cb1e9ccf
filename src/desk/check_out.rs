//! Screen 6, check-out (`/reservations/{id}/check-out`): the bill as it will be issued (the
//! nights, the folio, the city tax, the total), the payment method, and one button that
//! checks out and issues the invoice, then shows it ready to print. The same use case as
//! `POST /v1/check-out`; the preview reads the same rules without changing anything.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::{DeskState, Outcome, Shell, failed_read, open, open_post, or_answer, page};
use crate::domain::enums::PaymentMethod;
use crate::domain::money;
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::model::CheckOut;
use crate::model::input::FromJson;
use crate::service::desk::DeskSession;
use crate::service::stays;
use crate::web;

#[derive(Template)]
#[template(path = "desk/check_out.html")]
struct CheckOutPage {
    shell: Shell,
    title: String,
    id: String,
    problem: Option<String>,
    /// Said when the guest leaves before the booked departure.
    early: Option<String>,
    /// (description, quantity, unit price, amount).
    lines: Vec<(String, i64, String, String)>,
    total: String,
    /// (value, label) of the payment methods.
    methods: Vec<(String, String)>,
    method: String,
    method_error: Option<String>,
}

/// The payment methods as the form offers them: (value, label).
pub(super) fn methods(t: &T) -> Vec<(String, String)> {
    PaymentMethod::ALL
        .iter()
        .map(|m| {
            (
                m.as_str().to_string(),
                t.t(&format!("payment-{}", m.as_str())),
            )
        })
        .collect()
}

async fn render(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    method: String,
    outcome: Outcome,
) -> Response {
    let Outcome {
        status,
        errors,
        problem,
    } = outcome;
    let mut early = None;
    let preview = stays::bill_preview(&state.svc, &s.principal, id.clone()).await;
    let (r, draft, problem) = match preview {
        Ok((r, draft, booked)) => {
            if r.nights < booked {
                early = Some(t.with(
                    "check-out-early",
                    &[
                        ("nights", Arg::Text(t.n("nights", r.nights))),
                        ("booked", Arg::Text(t.n("nights", booked))),
                    ],
                ));
            }
            (r, draft, problem)
        }
        Err(e) if matches!(e.kind, Kind::NotFound | Kind::Forbidden | Kind::Internal) => {
            return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today"));
        }
        // A bill that cannot be made (a city tax in another currency) says why.
        Err(e) => match crate::service::reservations::get(&state.svc, &s.principal, id.clone())
            .await
        {
            Ok(r) => (
                r,
                Vec::new(),
                problem.or(Some(super::rules::detail(&t, &e))),
            ),
            Err(e) => return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    };
    let mut amounts = Vec::new();
    let lines = draft
        .iter()
        .map(|l| {
            let a = money::line(l.quantity, l.unit_price, l.tax_rate).unwrap_or_default();
            amounts.push(a);
            (
                l.description.clone(),
                l.quantity,
                t.money(l.unit_price, &r.currency),
                t.money(a.gross, &r.currency),
            )
        })
        .collect();
    let total = money::total(&amounts).unwrap_or_default();
    let body = CheckOutPage {
        title: t.with("check-out-title", &[("code", Arg::Text(r.code.clone()))]),
        id,
        problem,
        early,
        lines,
        total: t.money(total.gross, &r.currency),
        methods: methods(&t),
        method,
        method_error: errors
            .iter()
            .find(|e| e.field == "payment_method")
            .map(|_| t.t("error-payment-method")),
        shell: Shell::new(s, t, "today"),
    };
    page(status, &body)
}

/// `GET /reservations/{id}/check-out`.
#[handler]
pub async fn page_of(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::FRONT_DESK).await);
    render(&state, &s, t, id, String::new(), Outcome::fresh()).await
}

/// `POST /reservations/{id}/check-out`: checks out and issues the invoice.
#[handler]
pub async fn submit(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, form) = or_answer!(open_post(req, body, &state, super::FRONT_DESK).await);
    let method = form.get("payment_method").cloned().unwrap_or_default();
    let mut errors = Vec::new();
    let input = json!({"reservation_id": id, "payment_method": method});
    let parsed = CheckOut::from_json(&input, "", &mut errors);
    let Some(input) = parsed else {
        let problem = Some(t.n("form-errors", errors.len() as i64));
        return render(
            &state,
            &s,
            t,
            id,
            method,
            Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem),
        )
        .await;
    };
    match stays::check_out(&state.svc, &s.principal, input).await {
        Ok(done) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/invoices/{}?done=checked-out", done.invoice.id),
        ),
        Err(e)
            if matches!(
                e.kind,
                Kind::Conflict | Kind::Unprocessable | Kind::BadRequest
            ) =>
        {
            let status = if e.kind == Kind::Conflict {
                StatusCode::CONFLICT
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            render(
                &state,
                &s,
                t,
                id,
                method,
                Outcome::refused(status, e.errors.clone(), Some(super::rules::detail(&t, &e))),
            )
            .await
        }
        Err(e) => failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    }
}
