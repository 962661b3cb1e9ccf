//! Screen 8, the invoices (`/invoices?from=…&to=…&status=…`): the invoices and credit notes
//! issued in a span of days (the last 30 by default), of a status or one guest when asked
//! (`&guest=…`, linked from the guest's page), each opening its invoice page; and the way to
//! a sale outside a stay. A date that cannot be read is said next to its field. A hundred
//! invoices make a page; "Next page" carries the list's signed cursor, as the API's lists do.

use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{Request, Response, handler};

use super::{DeskState, Shell, failed_read, open, or_answer, page, server_error};
use crate::cursor::{CursorKey, Filters, ListRequest};
use crate::domain::enums::InvoiceStatus;
use crate::domain::scopes::Scope;
use crate::i18n::Arg;
use crate::service::{desk_lists, guests};

/// The filter as asked.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Filter {
    from: Option<String>,
    to: Option<String>,
    status: Option<String>,
    guest: Option<String>,
    /// Where the page starts (the API's signed cursor).
    cursor: Option<String>,
    /// How many invoices the pages before this one showed.
    seen: Option<usize>,
}

/// Invoices on one page.
const PAGE: usize = 100;

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
    /// The address of the next page, when more invoices follow.
    next: Option<String>,
    /// The address of the first page, on later pages.
    first: Option<String>,
}

/// The list's address with `extra` query fields after its filters.
fn address(filter: &[(&str, String)], extra: &[(&str, String)]) -> String {
    let pairs: Vec<&(&str, String)> = filter
        .iter()
        .chain(extra)
        .filter(|(_, v)| !v.is_empty())
        .collect();
    format!(
        "/invoices?{}",
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    )
}

/// `GET /invoices`.
#[handler]
pub async fn invoices(
    req: &Request,
    Query(f): Query<Filter>,
    state: Data<&Arc<DeskState>>,
    key: Data<&CursorKey>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::INVOICES).await);
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
    let ask = desk_lists::InvoiceAsk {
        from,
        to,
        status,
        guest_id: guest.as_ref().map(|g| g.0.clone()),
    };
    let status_text = status.map(|x| x.as_str().to_string()).unwrap_or_default();
    let filter = [
        ("from", from.to_string()),
        ("to", to.to_string()),
        ("status", status_text.clone()),
        ("guest", ask.guest_id.clone().unwrap_or_default()),
    ];
    let filters = || Filters::of("desk-invoices", &filter);
    // A cursor from other filters, or one that expired, starts the list again.
    let list = ListRequest::new(&key, Some(PAGE as i64), f.cursor.clone(), filters())
        .or_else(|_| ListRequest::new(&key, Some(PAGE as i64), None, filters()));
    let found = match list {
        Ok(list) => {
            match desk_lists::invoices(&state.svc, &s.principal, ask, list.page.clone()).await {
                Ok(found) => (list.next_cursor(&found), found.items),
                Err(e) => return server_error(&t, &e),
            }
        }
        Err(e) => return server_error(&t, &e),
    };
    let (cursor, found) = found;
    let seen = if f.cursor.is_some() {
        f.seen.unwrap_or(0)
    } else {
        0
    };
    let next = cursor.map(|c| {
        let shown = seen + found.len();
        address(&filter, &[("cursor", c), ("seen", shown.to_string())])
    });
    let first = (seen > 0).then(|| address(&filter, &[]));
    let rows = found
        .iter()
        .map(|(i, _)| {
            [
                i.id.clone(),
                i.number.clone(),
                t.t(&format!("invoice-kind-{}", i.kind.as_str())),
                t.short_date(i.issue_date.0),
                i.bill_to.clone(),
                t.t(&format!("invoice-status-{}", i.status.as_str())),
                t.money(i.gross, &i.currency),
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
    let span = [
        ("from", Arg::Text(t.short_date(from))),
        ("to", Arg::Text(t.short_date(to))),
    ];
    let summary = if (next.is_none() && seen == 0) || found.is_empty() {
        let count = [("count", Arg::Num(found.len() as i64))];
        t.with("invoices-summary", &[&count[..], &span[..]].concat())
    } else {
        let range = [
            ("first", Arg::Num(seen as i64 + 1)),
            ("last", Arg::Num((seen + found.len()) as i64)),
        ];
        t.with("invoices-range", &[&range[..], &span[..]].concat())
    };
    let body = InvoicesPage {
        summary,
        next,
        first,
        from: from_text,
        from_error,
        to: to_text,
        to_error,
        statuses,
        status: status_text,
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
