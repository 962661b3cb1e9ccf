//! Screen 8, the invoices (`/invoices?from=…&to=…&status=…`): the invoices and credit notes
//! issued in a span of days (the last 30 by default), of a status or one guest when asked
//! (`&guest=…`, linked from the guest's page), each opening its invoice page; and the way to
//! a sale outside a stay. A date that cannot be read is said next to its field.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, failed_read, open, or_answer, page, server_error};
use crate::domain::enums::InvoiceStatus;
use crate::domain::scopes::Scope;
use crate::i18n::Arg;
use crate::service::{desk_views, guests};

/// The filter as asked.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Filter {
    from: Option<String>,
    to: Option<String>,
    status: Option<String>,
    guest: Option<String>,
}

#[derive(Template)]
#[template(path = "desk/invoices.html")]
struct InvoicesPage {
    shell: Shell,
    from: String,
    from_error: Option<String>,
    to: String,
    to_error: Option<String>,
    /// (value, label) of the status choices, "any" first.
    statuses: Vec<(String, String)>,
    status: String,
    /// The guest the list is limited to: id and "For …".
    guest: Option<(String, String)>,
    /// Whether the role may issue a sale.
    sell: bool,
    summary: String,
    /// (id, number, kind, date, bill to, status, total, paid).
    rows: Vec<[String; 8]>,
}

/// `GET /invoices`.
#[handler]
pub async fn invoices(
    req: &Request,
    Query(f): Query<Filter>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state).await);
    let read = |v: &Option<String>, default: NaiveDate| -> (String, NaiveDate, Option<String>) {
        match v.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            None => (default.to_string(), default, None),
            Some(text) => match text.parse::<NaiveDate>() {
                Ok(d) => (text.to_string(), d, None),
                Err(_) => (text.to_string(), default, Some(t.t("error-date"))),
            },
        }
    };
    // One guest's invoices go back ten years; the whole hotel's, a month.
    let back = if f.guest.is_some() { 3653 } else { 30 };
    let (from_text, from, from_error) = read(&f.from, s.today - chrono::Days::new(back));
    let (to_text, to, to_error) = read(&f.to, s.today);
    let status = f.status.as_deref().and_then(InvoiceStatus::parse);
    let guest_id = f.guest.as_deref().map(str::trim).filter(|g| !g.is_empty());
    let guest = match guest_id {
        None => None,
        Some(g) => match guests::get(&state.svc, &s.principal, g.to_string()).await {
            Ok(g) => Some((g.id, format!("{} {}", g.first_name, g.last_name))),
            Err(e) => return failed_read(&t, &e, "not-found-guest", ("/invoices", "nav-invoices")),
        },
    };
    let ask = desk_views::InvoiceAsk {
        from,
        to,
        status,
        guest_id: guest.as_ref().map(|g| g.0.clone()),
    };
    let found = match desk_views::invoices(&state.svc, &s.principal, ask).await {
        Ok(v) => v,
        Err(e) => return server_error(&t, &e),
    };
    let rows = found
        .iter()
        .map(|i| {
            [
                i.id.clone(),
                i.number.clone(),
                t.t(&format!("invoice-kind-{}", i.kind.as_str())),
                t.short_date(i.issue_date.0),
                i.bill_to.name.0.clone(),
                t.t(&format!("invoice-status-{}", i.status.as_str())),
                t.money(i.totals.gross, &i.currency),
                t.money(i.paid_amount, &i.currency),
            ]
        })
        .collect();
    let statuses = std::iter::once((String::new(), t.t("invoices-any-status")))
        .chain(InvoiceStatus::ALL.iter().map(|x| {
            (
                x.as_str().to_string(),
                t.t(&format!("invoice-status-{}", x.as_str())),
            )
        }))
        .collect();
    let body = InvoicesPage {
        summary: t.with(
            "invoices-summary",
            &[
                ("count", Arg::Num(found.len() as i64)),
                ("from", Arg::Text(t.short_date(from))),
                ("to", Arg::Text(t.short_date(to))),
            ],
        ),
        from: from_text,
        from_error,
        to: to_text,
        to_error,
        statuses,
        status: status.map(|x| x.as_str().to_string()).unwrap_or_default(),
        guest: guest.map(|(id, name)| {
            let text = t.with("invoices-for-guest", &[("name", Arg::Text(name))]);
            (id, text)
        }),
        sell: s.principal.scopes.contains(Scope::InvoicesWrite),
        rows,
        shell: Shell::new(&s, t, "invoices"),
    };
    page(StatusCode::OK, &body)
}
